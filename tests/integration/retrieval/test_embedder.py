"""The sentence-transformers adapter on the real offline model: batching by token count must
not change any vector or its position, threads may embed and count tokens at once, and the
bfloat16 products stay within noise of float32's."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from retrieval.embedder import SentenceTransformerEmbedder, native_bfloat16

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


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(axis=1))


@pytest.mark.parametrize("precision", ["float32", "bfloat16"])
def test_vectors_keep_input_order_and_match_one_at_a_time(precision: str) -> None:
    embedder = SentenceTransformerEmbedder(batch_size=3, precision=precision)  # type: ignore[arg-type]
    together = np.asarray(embedder.embed_bulk(TEXTS))  # several batches, sorted by tokens
    alone = np.asarray([embedder.embed_bulk([t])[0] for t in TEXTS])
    assert together.shape == (len(TEXTS), embedder.dimension)
    if precision == "float32":
        assert np.allclose(together, alone, atol=1e-5)
    else:
        # bfloat16 rounds each product's sum, and a batch's padding changes the sums' order:
        # a text's vector moves with its batch, by noise (cosine 0.99999 here).
        assert _cosines(together, alone).min() > 0.9999
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


def test_bfloat16_vectors_are_float32_vectors_within_noise() -> None:
    exact = SentenceTransformerEmbedder(precision="float32")
    fast = SentenceTransformerEmbedder(precision="bfloat16")
    a, b = np.asarray(exact.embed_bulk(TEXTS)), np.asarray(fast.embed_bulk(TEXTS))
    assert (exact.bfloat16, fast.bfloat16) == (False, True)
    assert b.dtype == np.float64 and np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    assert _cosines(a, b).min() > 0.9999  # 0.99997 measured; the int8 ONNX model's is 0.9989
    assert not np.array_equal(a, b)  # the products did run in bfloat16
    # The same name either way: a store built with one is read with the other.
    assert exact.model_name == fast.model_name


def test_reads_stay_float32_whatever_the_precision() -> None:
    exact = SentenceTransformerEmbedder(precision="float32")
    fast = SentenceTransformerEmbedder(precision="bfloat16")
    assert fast.embed(TEXTS) == exact.embed(TEXTS) == exact.embed_bulk(TEXTS)


def test_auto_precision_follows_the_cpu() -> None:
    assert SentenceTransformerEmbedder(precision="auto").bfloat16 == native_bfloat16()


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
