"""The bench store on a real embedded Kùzu database: passage identity, reuse, rebuild."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.datasets import read_corpus
from bench.metrics import recall_at_k
from bench.store import MARKER, STARTED, bench_store, passage_index
from core.errors import InputError, StoreError
from extraction.pipeline import runs_dir
from extraction.run_markers import RunMarkers
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder

CORPUS = [
    {"title": "Mercy", "text": "Mercy is a song recorded by the Welsh singer Duffy in 2008."},
    {"title": "Mercy", "text": "Mercy is a town on the coast of Tasmania known for oysters."},
    {"title": "Duffy", "text": "Duffy is a Welsh singer from Nefyn who won a Grammy award."},
]


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_passage_index_reads_the_loader_uri() -> None:
    assert passage_index("/data/c.json#12", "/data/c.json") == 12
    assert passage_index("/data/other.json#12", "/data/c.json") is None
    assert passage_index("/data/c.json", "/data/c.json") is None
    assert passage_index("/data/c.json#x", "/data/c.json") is None


def test_duplicate_titles_map_to_their_own_passages_and_the_store_is_reused(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    corpus = write(tmp_path / "corpus.json", CORPUS)
    settings = Settings(data_dir=tmp_path / "kg")
    work = tmp_path / "work"
    with bench_store(corpus, settings, work, embedder) as bs:
        assert not bs.reused
        assert sorted(bs.doc_to_passage.values()) == [0, 1, 2]
        hits = bs.container.searcher().search("oysters on the Tasmanian coast", 3, "dense")
        ranked = bs.passages_of_docs([h.doc_id for h in hits])
        # Both passages are titled "Mercy"; only the town one is the answer.
        assert ranked[0] == 1
        assert recall_at_k(ranked, [frozenset({1})], 1) == 1.0
        assert recall_at_k(ranked, [frozenset({0})], 1) == 0.0
        # Several chunks of one document rank their passage once, in first position.
        twice = [hits[0].doc_id, hits[0].doc_id, hits[1].doc_id]
        assert bs.passages_of_docs(twice) == [ranked[0], ranked[1]]
        chunk_ids = [h.chunk_id for h in hits]
        assert bs.passages_of_chunks(chunk_ids) == ranked
        directory = bs.directory
        # A second run on the same corpus meanwhile must not touch the open store.
        with (
            pytest.raises(StoreError, match="in use by another benchmark run"),
            bench_store(corpus, settings, work, embedder),
        ):
            pass
    marker = json.loads((directory / MARKER).read_text(encoding="utf-8"))
    assert marker["documents"] == 3 and marker["corpus_uri"] == str(corpus.resolve())

    # Same bytes at another path: the store is reused and still maps passages.
    moved = write(tmp_path / "elsewhere.json", CORPUS)
    with bench_store(moved, settings, work, embedder) as bs:
        assert bs.reused and bs.directory == directory
        assert sorted(bs.doc_to_passage.values()) == [0, 1, 2]

    # A killed build (started, never completed) of the same corpus is resumed, not trusted:
    # the ingest runs again and finds every committed document unchanged.
    marker.pop("documents")
    (directory / STARTED).write_text(json.dumps(marker), encoding="utf-8")
    (directory / MARKER).unlink()
    with bench_store(corpus, settings, work, embedder) as bs:
        assert not bs.reused
        assert bs.container.store.counts().documents == 3
    resumed = json.loads((directory / MARKER).read_text(encoding="utf-8"))
    assert resumed["resumed_with_unchanged"] == 3 and not (directory / STARTED).exists()

    # Killed inside an ingest call (its run marker left behind): the ingest would delete and
    # redo every document that call committed, so the store is built from scratch instead.
    (directory / STARTED).write_text(json.dumps(resumed), encoding="utf-8")
    (directory / MARKER).unlink()
    runs = RunMarkers(runs_dir(directory))
    runs.release(runs.start(bs.doc_to_passage))  # a call of this process that raised
    with bench_store(corpus, settings, work, embedder) as bs:
        assert not bs.reused and bs.container.store.counts().documents == 3
    redone = json.loads((directory / MARKER).read_text(encoding="utf-8"))
    assert redone["resumed_with_unchanged"] == 0 and not list(runs_dir(directory).iterdir())

    # A marker from another extractor version means a fresh build.
    resumed["extractor_version"] = "older"
    (directory / MARKER).write_text(json.dumps(resumed), encoding="utf-8")
    with bench_store(corpus, settings, work, embedder) as bs:
        assert not bs.reused
    rebuilt = json.loads((directory / MARKER).read_text(encoding="utf-8"))
    assert rebuilt["resumed_with_unchanged"] == 0 and rebuilt["extractor_version"] != "older"


def test_another_corpus_gets_its_own_store(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    settings = Settings(data_dir=tmp_path / "kg")
    first = write(tmp_path / "a.json", CORPUS[:2])
    second = write(tmp_path / "b.json", CORPUS[1:])
    with bench_store(first, settings, None, embedder) as a:
        dir_a = a.directory
    with bench_store(second, settings, None, embedder) as b:
        assert b.directory != dir_a and not b.reused
        assert b.directory.parent == tmp_path / "kg" / "bench"
        assert len(b.passages) == len(read_corpus(second)) == 2


def test_a_missing_corpus_is_an_input_error(tmp_path: Path) -> None:
    with (
        pytest.raises(InputError, match="no such file"),
        bench_store(tmp_path / "absent.json", Settings(data_dir=tmp_path)),
    ):
        pass
