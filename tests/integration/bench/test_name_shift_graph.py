"""A name-shifted copy keeps the graph's shape: the original and its copy, each ingested into
its own real store by the real extraction, give the same counts of documents, chunks,
entities, relations and mentions."""

from __future__ import annotations

from pathlib import Path

from bench.name_shift import shifted
from extraction.loaders import SourceDocument
from kg.container import build
from kg.settings import Settings
from retrieval.embedder import Embedder

PASSAGES = [
    {
        "title": "Orla Venmarch",
        "text": "Orla Venmarch (born 3 March 1911) was a painter from Kessridge. She studied "
        "at the Kessridge School of Art under Tobin Hale, and married Edwin Carrow in 1936.",
    },
    {
        "title": "Tobin Hale",
        "text": "Tobin Hale was the director of the Kessridge School of Art. He was born in "
        "Dunmere and founded the Hale Prize in 1930.",
    },
    {
        "title": "Kessridge",
        "text": "Kessridge is a town on the River Aldwen in the county of Marrowshire. "
        "The Kessridge School of Art opened there in 1902.",
    },
]


def _counts(tmp: Path, passages: list[dict[str, str]], embedder: Embedder) -> dict[str, int]:
    c = build(Settings(data_dir=tmp))
    c.embedder = embedder
    with c.store:
        c.store.init_schema()
        docs = [
            SourceDocument(f"/corpus#{i}", p["title"], p["text"]) for i, p in enumerate(passages)
        ]
        c.ingestor().ingest_documents(docs)
        return c.store.counts().as_dict()


def test_a_shifted_copy_has_the_graph_of_the_original(tmp_path: Path, embedder: Embedder) -> None:
    original = _counts(tmp_path / "original", PASSAGES, embedder)
    copy = _counts(tmp_path / "copy", shifted(PASSAGES, 1), embedder)
    assert original["entities"] > 3 and original["relations"] > 0
    assert copy == original
