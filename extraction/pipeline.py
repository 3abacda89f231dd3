"""The ingest pipeline: load -> chunk -> extract -> resolve -> embed -> write.

Unchanged documents (same content hash and extractor version) are skipped before any
embedding work. Chunk embedding runs on a background thread from the moment chunks exist, so
extraction and resolution (its entity names on a second copy of the model) overlap with it;
entity resolution sees every document of the call before the first write, so the result does
not depend on batch boundaries. Documents are written in batches, each batch one transaction,
so a killed ingest leaves whole documents or none, and the next run picks up where it stopped.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from core.errors import EmbeddingError, InputError
from core.names import chunk_id, content_hash, doc_id
from extraction.batching import write_batch_sizes
from extraction.chunking import chunk_text
from extraction.config import IngestHost
from extraction.embed_feed import EmbeddingFeed, LockedEmbedder
from extraction.facts import DocFacts, Extractor
from extraction.ingest_report import IngestReport, PhaseClock
from extraction.loaders import SourceDocument, discover, load_file
from extraction.nlp import load_pipeline, resolve_model
from extraction.numeric_facts import (
    NUMERIC_FACTS_VERSION,
    FactSource,
    chunk_facts_many,
    chunk_values,
)
from extraction.resolution import Resolver
from extraction.run_markers import RunMarkers
from graph_schema import Chunk, Document, DocumentGraph
from graph_store import GraphStore
from graph_store.read_model import GraphReadModel
from retrieval.embedder import Embedder, Replicable
from retrieval.read_model import InMemoryReadModel

log = logging.getLogger(__name__)

# (phase, done, total); a "write" call comes after its batch's transaction has committed, so
# `done` documents are in the store (what a test that kills an ingest after a commit observes).
ProgressHook = Callable[[str, int, int], None]
_EXTRACT_SLICE = 64  # documents per extractor call: the unit of progress reporting


def embedding_input(title: str, text: str, with_title: bool) -> str:
    """What a chunk's embedding is computed from: its text, led by its document's title."""
    if not with_title or not title.strip() or text.lstrip().startswith(title.strip()):
        return text  # no title, or the chunk opens with it already (a heading)
    return f"{title.strip()}\n{text}"


@dataclass
class _Pending:
    source: SourceDocument
    doc_id: str
    content_hash: str
    is_update: bool
    chunks: list[tuple[int, str, int]] = field(default_factory=list)  # index, text, tokens
    facts: DocFacts | None = None


def runs_dir(data_dir: Path) -> Path:
    """Where ingest calls leave their run markers (extraction/run_markers.py)."""
    return data_dir / "ingest-runs"


class Ingestor:
    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        extractor: Extractor,
        settings: IngestHost,
        read_model: GraphReadModel | None = None,
    ) -> None:
        self._store = store
        # Authority (global PageRank) is refreshed after each ingest by the read model that
        # retrieval uses: GDS on Neo4j, the in-memory projection otherwise.
        self._read_model = read_model or InMemoryReadModel(store)
        # One lock serialises the model between the background feed and name embeddings,
        # unless names run on a second copy of it (``_beside``).
        self._model = embedder
        self._embedder = LockedEmbedder(embedder)
        self._extractor = extractor
        self._settings = settings
        self._runs = RunMarkers(runs_dir(settings.data_dir))

    @property
    def extractor_version(self) -> str:
        # What chunk embeddings are computed from is part of what a stored document was
        # built with, so changing it marks every document for rebuilding like a new extractor.
        tag = "title+text" if self._settings.ingest.embed_title else "text"
        numbers = f"|numbers:{NUMERIC_FACTS_VERSION}" if self._numeric_facts() else ""
        return f"{self._extractor.version}|embed:{tag}{numbers}"

    def _numeric_facts(self) -> bool:
        return self._settings.extraction.numeric_facts

    def _embedding_input(self, title: str, text: str) -> str:
        return embedding_input(title, text, self._settings.ingest.embed_title)

    def ingest_paths(
        self, paths: Sequence[Path], progress: ProgressHook | None = None
    ) -> IngestReport:
        started = time.perf_counter()
        report = IngestReport()
        files, errors = discover(list(paths))
        report.failed.extend(errors)
        report.files = len(files)
        sources: list[SourceDocument] = []
        for i, path in enumerate(files):
            try:
                sources.extend(load_file(path, self._settings.ingest.max_file_bytes))
            except InputError as exc:
                report.failed.append(exc)
            if progress:
                progress("load", i + 1, len(files))
        self.ingest_documents(sources, report, progress)
        report.seconds = time.perf_counter() - started
        return report

    def ingest_documents(
        self,
        sources: Sequence[SourceDocument],
        report: IngestReport | None = None,
        progress: ProgressHook | None = None,
    ) -> IngestReport:
        report = report or IngestReport()
        report.documents_seen += len(sources)
        redo = self._undo_interrupted(sources, report)
        pending = self._changed(sources, report)
        if not pending:
            return report
        # Left behind if this call dies: the next call that ingests these documents redoes them.
        marker = self._runs.start(item.doc_id for item in pending)
        written = report.written
        try:
            with self._writing():
                self._write(pending, report, progress)
            self._runs.finish(marker, {item.doc_id for item in pending} | redo)
        except BaseException:
            if report.written == written:  # nothing committed, so nothing half-resolved
                self._runs.discard(marker)
            raise
        finally:
            self._runs.release(marker)
        return report

    def _writing(self) -> contextlib.AbstractContextManager[None]:
        """Readers of the in-memory model are answered from its last index while this call
        writes, and find the new one built when it returns (retrieval/index_cache.py)."""
        if isinstance(self._read_model, InMemoryReadModel):
            return self._read_model.writing()
        return contextlib.nullcontext()

    def _undo_interrupted(
        self, sources: Sequence[SourceDocument], report: IngestReport
    ) -> set[str]:
        """Delete what a dead call committed of these documents, so they are written again."""
        redo = self._runs.leftover() & {doc_id(src.uri) for src in sources}
        if redo:
            report.redone += self._store.delete_documents(sorted(redo))
            log.info("redoing %d documents of an ingest that did not complete", len(redo))
        return redo

    def _write(
        self, pending: list[_Pending], report: IngestReport, progress: ProgressHook | None
    ) -> None:
        clock = PhaseClock(report)
        model_before = dict(self._embedder.seconds)
        replica = self._replica()
        if replica is not None:
            # Loaded on the idle core while this thread chunks; its first user (the feed's
            # token counts) waited 0.6 s for the load while extraction held the other core.
            threading.Thread(target=_load, args=(replica,), name="kg-load-replica").start()
        with clock("chunk"):
            for item in pending:
                self._chunk(item)
        batches, start = [], 0
        stored = self._store.counts().documents if pending else 0
        for size in write_batch_sizes(len(pending), stored, self._settings.ingest):
            batches.append(pending[start : start + size])
            start += size
        texts = [
            [
                self._embedding_input(item.source.title, text)
                for item in batch
                for _, text, _ in item.chunks
            ]
            for batch in batches
        ]
        with self._beside(replica), EmbeddingFeed(self._embedder, texts) as feed:
            with clock("extract"):
                self._extract(pending, report, progress)
            with clock("resolve"):
                resolver = Resolver(
                    self._settings.extraction.resolution,
                    self._store,
                    self._embedder.embed,
                    self._embedder.dimension,
                )
                for item in pending:
                    assert item.facts is not None
                    resolver.register(item.facts)
                stats = resolver.finalize()
            report.entities += stats.entities
            report.new_entities += stats.new_entities
            report.merged += stats.merged
            report.same_as += stats.same_as
            done = 0
            for batch, _ in zip(batches, texts, strict=True):
                # Built before its vectors are asked for: the build then runs while the feed
                # still embeds the batch's last units, instead of after them.
                with clock("build"):
                    graphs = self._build(batch, resolver)
                with clock("wait_embeddings"):
                    vectors = feed.next()
                with clock("build"):
                    graphs = _with_vectors(graphs, vectors)
                with clock("write"):
                    self._store.upsert_documents(graphs)
                for item, graph in zip(batch, graphs, strict=True):
                    report.chunks_written += len(graph.chunks)
                    if item.is_update:
                        report.updated += 1
                    else:
                        report.added += 1
                done += len(batch)
                if progress:
                    progress("write", done, len(pending))
        with clock("refresh"):
            self.refresh()
        for purpose, seconds in self._embedder.seconds.items():
            spent = seconds - model_before.get(purpose, 0.0)
            report.model_seconds[purpose] = report.model_seconds.get(purpose, 0.0) + spent

    def _replica(self) -> Embedder | None:
        """A second copy of the model for entity names, where the settings ask for it and the
        embedder can make one (constructed, not loaded)."""
        if self._settings.ingest.names_beside_chunks and isinstance(self._model, Replicable):
            return self._model.replica()
        return None

    def _beside(self, replica: Embedder | None) -> contextlib.AbstractContextManager[None]:
        """Entity names on ``replica`` while the block runs; else names and chunks take turns
        on one model."""
        if replica is None:
            return contextlib.nullcontext()
        return self._embedder.names_beside(replica)

    def refresh(self) -> None:
        """Bring indexes and authority up to date after writes."""
        self._store.refresh_indexes()
        self._read_model.refresh_authority()

    def _changed(self, sources: Sequence[SourceDocument], report: IngestReport) -> list[_Pending]:
        by_id: dict[str, _Pending] = {}
        for src in sources:
            did = doc_id(src.uri)
            digest = content_hash("\x1f".join([src.title, src.doc_type, src.date, src.text]))
            by_id[did] = _Pending(src, did, digest, False)
        states = self._store.document_states(list(by_id))
        pending = []
        for did, item in by_id.items():
            state = states.get(did)
            if (
                state
                and state.content_hash == item.content_hash
                and state.extractor_version == self.extractor_version
            ):
                report.unchanged += 1
                continue
            item.is_update = state is not None
            pending.append(item)
        return pending

    def _chunk(self, item: _Pending) -> None:
        cfg = self._settings.chunking
        pieces = chunk_text(
            item.source.text, cfg.max_tokens, cfg.overlap_sentences, self._embedder.count_tokens
        )
        item.chunks = [(c.index, c.text, c.tokens) for c in pieces]

    def _extract(
        self, pending: list[_Pending], report: IngestReport, progress: ProgressHook | None
    ) -> None:
        before = self._extractor.usage()
        for start in range(0, len(pending), _EXTRACT_SLICE):
            part = pending[start : start + _EXTRACT_SLICE]
            facts = self._extractor.extract_many(
                [(item.source.title, [text for _, text, _ in item.chunks]) for item in part]
            )
            for item, f in zip(part, facts, strict=True):
                item.facts = f
            if progress:
                progress("extract", start + len(part), len(pending))
        used = self._extractor.usage() - before
        report.llm_requests += used.requests
        report.llm_cached += used.cached
        report.llm_failed_chunks += used.failed_chunks
        report.llm_retries += used.retries
        report.llm_chunks += used.chunks
        report.tokens_in += used.tokens_in
        report.tokens_out += used.tokens_out

    def _build(self, batch: list[_Pending], resolver: Resolver) -> list[DocumentGraph]:
        """The batch's graphs, their chunks without vectors (``_with_vectors`` adds them)."""
        now = datetime.now(UTC)
        model = resolve_model(self._settings.extraction.spacy_model)
        built = []
        for item in batch:
            assert item.facts is not None
            src = item.source
            cids = [chunk_id(item.doc_id, idx, text) for idx, text, _ in item.chunks]
            resolved = resolver.resolve(item.facts, item.doc_id, cids, self.extractor_version)
            document = Document(
                id=item.doc_id,
                uri=src.uri,
                title=src.title,
                content_hash=item.content_hash,
                extractor_version=self.extractor_version,
                ingested_at=now,
                source=src.source,
                doc_type=src.doc_type,
                date=src.date,
            )
            chunks = [
                Chunk(
                    id=cid,
                    doc_id=item.doc_id,
                    index=idx,
                    text=text,
                    tokens=tokens,
                    content_hash=content_hash(text),
                )
                for cid, (idx, text, tokens) in zip(cids, item.chunks, strict=True)
            ]
            built.append((document, chunks, resolved, chunk_values(item.facts, model)))
        # The batch's numbers: labelled from the extraction's NER where the same pipeline
        # read the chunks, the other sentences in one spaCy stream (per-sentence calls were
        # the largest cost beyond extraction itself).
        facts = (
            chunk_facts_many(
                [
                    FactSource(
                        document.id,
                        [(c.id, c.text) for c in chunks],
                        resolved.entities,
                        resolved.aliases,
                        resolved.mentions,
                        values,
                    )
                    for document, chunks, resolved, values in built
                ],
                load_pipeline(model),
            )
            if self._numeric_facts()
            else [[] for _ in built]
        )
        return [
            DocumentGraph(
                document=document,
                chunks=tuple(chunks),
                entities=tuple(resolved.entities),
                aliases=tuple(resolved.aliases),
                relations=tuple(resolved.relations),
                mentions=tuple(resolved.mentions),
                same_as=tuple(resolved.same_as),
                numeric_facts=tuple(numbers),
            )
            for (document, chunks, resolved, _), numbers in zip(built, facts, strict=True)
        ]


def _with_vectors(
    graphs: list[DocumentGraph], vectors: Sequence[Sequence[float]]
) -> list[DocumentGraph]:
    """The graphs with their chunks' vectors, which come in the chunks' order."""
    if sum(len(g.chunks) for g in graphs) != len(vectors):
        raise EmbeddingError(f"the embedder gave {len(vectors)} vectors for the batch's chunks")
    rows = iter(vectors)
    return [
        graph.model_copy(
            update={
                "chunks": tuple(
                    c.model_copy(update={"embedding": tuple(next(rows))}) for c in graph.chunks
                )
            }
        )
        for graph in graphs
    ]


def _load(model: Embedder) -> None:
    """Load ``model`` now (a token count loads it). A failure is left to its first real use,
    which raises it where the ingest can report it."""
    with contextlib.suppress(EmbeddingError):
        model.count_tokens("")
