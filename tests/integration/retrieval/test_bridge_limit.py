"""The graph preset's second hop skips a bridge named in more chunks than
``bridge_max_chunks``: such a name narrows nothing down, and reading every passage that
names it was most of the slowest questions' time on Neo4j. Invented documents: a festival
town, and a county that many documents name."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from extraction.loaders import SourceDocument
from graph_store.read_model import GraphReadModel
from kg.container import Container
from retrieval.config import RetrievalSettings
from retrieval.graph_search import graph_search

QUESTION = "Where is the Orrin Lantern Festival held?"
TOWNS = ["Ashby", "Brill", "Colton", "Dunmore", "Elling", "Farrow"]

DOCS = [
    SourceDocument(
        "/bridges/festival.md",
        "Orrin Lantern Festival",
        "The Orrin Lantern Festival is held every autumn in Kestrel Bay, "
        "a harbour town in Marlow County.",
    ),
    SourceDocument(
        "/bridges/kestrel-bay.md",
        "Kestrel Bay",
        "Kestrel Bay has a lighthouse built by Ilse Brandt in 1881.",
    ),
    *(
        SourceDocument(
            f"/bridges/{town.lower()}.md",
            town,
            f"{town} is a village in Marlow County with a market on Saturdays.",
        )
        for town in TOWNS
    ),
]


class _Spy:
    """The real read model, with the chunks each similarity read asked for noted."""

    def __init__(self, model: GraphReadModel) -> None:
        self._model = model
        self.asked: set[str] = set()

    def chunk_entity_similarities(
        self, chunk_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> dict[str, list[float]]:
        self.asked.update(chunk_ids)
        return self._model.chunk_entity_similarities(chunk_ids, entity_ids)

    def __getattr__(self, name: str) -> object:
        return getattr(self._model, name)


def _bridged_titles(container: Container, limit: int) -> set[str]:
    searcher = container.searcher()
    spy = _Spy(searcher.model)
    vector = np.asarray(container.embedder.embed([QUESTION])[0])
    settings = RetrievalSettings(bridge_max_chunks=limit)
    got = graph_search(QUESTION, vector, 5, spy, settings)  # type: ignore[arg-type]
    assert got.results[0].doc_title == "Orrin Lantern Festival"
    titles = {c.chunk_id: c.doc_title for c in container.store.get_chunks(sorted(spy.asked))}
    return set(titles.values())


def test_a_bridge_named_in_many_chunks_is_not_followed(container: Container) -> None:
    container.ingestor().ingest_documents(DOCS)
    everything = _bridged_titles(container, 0)
    assert "Kestrel Bay" in everything and set(TOWNS) <= everything
    limited = _bridged_titles(container, len(TOWNS))
    assert "Kestrel Bay" in limited and not set(TOWNS) & limited
