"""The sentence-transformers adapter on the real offline model: batching by token count must
not change any vector or its position, and threads may embed and count tokens at once."""

from __future__ import annotations

import threading

import numpy as np

from retrieval.embedder import SentenceTransformerEmbedder

TEXTS = [
    "Northdale Mental Health Trust",
    "NMHT",
    "The trust's priorities for the next twelve months are recruitment and crisis care.",
    "Horizon Ten",
    "A much longer passage about the partnership between the trust, the local council and "
    "the university hospital, which sets out a joint plan for community services.",
    "Dr Priya Raghunathan",
    "RUHT",
    "x",
    "Kelby and Easterby",
    "The council leads the integrated care board.",
]


def test_vectors_keep_input_order_and_match_one_at_a_time() -> None:
    embedder = SentenceTransformerEmbedder(batch_size=3)  # several batches, sorted by tokens
    together = np.asarray(embedder.embed(TEXTS))
    alone = np.asarray([embedder.embed([t])[0] for t in TEXTS])
    assert together.shape == (len(TEXTS), embedder.dimension)
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    # Distinct texts stay distinct: no row was written to another text's slot.
    sims = together @ together.T
    assert (np.argmax(sims, axis=1) == np.arange(len(TEXTS))).all()


def test_threads_embed_while_another_counts_tokens() -> None:
    """The API embeds on several threads (questions, evidence, an ingest's chunks) and the
    chunker counts tokens: counting must not change the padding an encode relies on."""
    embedder = SentenceTransformerEmbedder(batch_size=3)  # the ordering pass runs each call
    expected = np.asarray(embedder.embed(TEXTS))
    errors: list[BaseException] = []
    results: list[np.ndarray] = []

    def embedding() -> None:
        for _ in range(20):
            try:
                results.append(np.asarray(embedder.embed(TEXTS)))
            except Exception as exc:  # collected: a thread's failure would be lost
                errors.append(exc)

    def counting() -> None:
        for _ in range(100):
            try:
                embedder.count_tokens("A few words to count, " * 4)
            except Exception as exc:
                errors.append(exc)

    threads = [threading.Thread(target=embedding) for _ in range(3)]
    threads.append(threading.Thread(target=counting))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(results) == 60
    assert all(np.allclose(r, expected, atol=1e-5) for r in results)


def test_nothing_in_nothing_out() -> None:
    assert SentenceTransformerEmbedder().embed([]) == []


def test_loading_the_model_caps_openblas_as_configured() -> None:
    from threadpoolctl import ThreadpoolController, threadpool_info

    ThreadpoolController().select(internal_api="openblas").limit(limits=2)  # as numpy starts
    SentenceTransformerEmbedder(blas_threads=1).embed(["load the model"])
    pools = [p for p in threadpool_info() if p["internal_api"] == "openblas"]
    assert pools and all(p["num_threads"] == 1 for p in pools)


def test_loading_the_model_sets_torch_threads_as_configured() -> None:
    import torch

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)  # torch's own choice on a two-core machine
        first = SentenceTransformerEmbedder(torch_threads=1).embed(["load the model"])
        assert torch.get_num_threads() == 1
        # One thread or two, the vector is the same (the graph digests agree too).
        torch.set_num_threads(2)
        again = SentenceTransformerEmbedder(torch_threads=0).embed(["load the model"])
        assert torch.get_num_threads() == 2
        assert max(abs(a - b) for a, b in zip(first[0], again[0], strict=True)) < 1e-6
    finally:
        torch.set_num_threads(before)
