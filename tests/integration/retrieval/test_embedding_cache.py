"""The reads' vector cache in front of the embedder: the vectors it gives are the model's (the
onnx adapter's vector of a text does not depend on its call, so they are equal to the bit),
each text reaches the model once while it is kept, the least recently used text goes first,
and ingest goes past it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kg.container import build
from kg.settings import Settings
from retrieval.config import EmbeddingSettings
from retrieval.embedder_onnx import OnnxEmbedder
from retrieval.embedding_cache import CachedEmbedder

TEXTS = [
    "Harbour Lane Bakery. It was founded in 1931 by two sisters.",
    "Harbour Lane Bakery. Its ovens burn wood from the valley.",
    "Who founded the bakery?",
    "The Quillon Trust. The trust runs three libraries on the coast.",
]


@pytest.fixture(scope="module")
def onnx() -> OnnxEmbedder:
    return OnnxEmbedder(batch_size=2)


def test_cached_vectors_are_the_models_in_input_order(onnx: OnnxEmbedder) -> None:
    cache = CachedEmbedder(onnx, max_entries=100)
    first = cache.embed(TEXTS[:2])
    # Two kept, two new and one repeated inside the call: input order, one model run per text.
    mixed = cache.embed([TEXTS[3], TEXTS[0], TEXTS[2], TEXTS[3], TEXTS[1]])
    assert first == onnx.embed(TEXTS[:2])
    assert mixed == onnx.embed([TEXTS[3], TEXTS[0], TEXTS[2], TEXTS[3], TEXTS[1]])
    assert (cache.hits, cache.misses, len(cache)) == (3, 4, 4)
    assert cache.embed([]) == []


def test_a_kept_text_does_not_reach_the_model_again(onnx: OnnxEmbedder) -> None:
    cache = CachedEmbedder(onnx, max_entries=100)
    cache.embed(TEXTS)
    misses = cache.misses
    again = cache.embed(list(reversed(TEXTS)))
    assert cache.misses == misses and cache.hits == len(TEXTS)
    assert np.array_equal(np.asarray(again), np.asarray(onnx.embed(TEXTS))[::-1])


def test_the_least_recently_used_text_goes_first(onnx: OnnxEmbedder) -> None:
    cache = CachedEmbedder(onnx, max_entries=2)
    cache.embed([TEXTS[0]])
    cache.embed([TEXTS[1]])
    cache.embed([TEXTS[0]])  # used again: TEXTS[1] is now the oldest
    cache.embed([TEXTS[2]])
    assert len(cache) == 2
    misses = cache.misses
    cache.embed([TEXTS[0], TEXTS[2]])
    assert cache.misses == misses  # both kept
    cache.embed([TEXTS[1]])
    assert cache.misses == misses + 1  # pushed out, embedded again


def test_a_cleared_cache_embeds_every_text_again(onnx: OnnxEmbedder) -> None:
    cache = CachedEmbedder(onnx, max_entries=100)
    cache.embed(TEXTS[:2])
    cache.clear()
    assert len(cache) == 0
    misses = cache.misses
    assert cache.embed(TEXTS[:2]) == onnx.embed(TEXTS[:2])
    assert cache.misses == misses + 2


def test_zero_entries_keeps_nothing(onnx: OnnxEmbedder) -> None:
    cache = CachedEmbedder(onnx, max_entries=0)
    assert cache.embed(TEXTS) == onnx.embed(TEXTS)
    assert len(cache) == 0 and cache.hits == 0
    assert cache.model_name == onnx.model_name and cache.dimension == onnx.dimension
    assert cache.count_tokens(TEXTS[0]) == onnx.count_tokens(TEXTS[0])


def test_the_container_reads_through_the_cache_and_ingests_past_it(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bakery.md").write_text(
        "# Harbour Lane Bakery\n\nHarbour Lane Bakery was founded in 1931 by Ada Vell.\n",
        encoding="utf-8",
    )
    settings = Settings(
        data_dir=tmp_path / "kg",
        embedding=EmbeddingSettings(backend="onnx", read_cache_entries=50),
    )
    c = build(settings)
    assert isinstance(c.embedder, CachedEmbedder)
    c.store.open()
    c.store.init_schema()
    try:
        report = c.ingestor().ingest_paths([docs])
        assert report.chunks_written >= 1
        assert len(c.embedder) == 0  # ingest's texts did not go through the cache
        c.searcher().search("Who founded the bakery?", k=3)
        assert len(c.embedder) == 1 and c.embedder.misses == 1
    finally:
        c.store.close()
