"""A filter that keeps a rare kind of document still finds it, on both stores: the vector
index knows no metadata, so a filter applied to its nearest chunks alone would return nothing
when every near chunk is of another kind. The corpus is invented."""

from __future__ import annotations

import pytest

from extraction.loaders import SourceDocument
from kg.container import Container
from retrieval.filters import SearchFilters
from tests.stores import both_stores

pytestmark = both_stores

QUESTION = "How deep was the harbour channel dredged?"
NOTES = 110  # more than the unfiltered candidate pool of a small k
RARE = "Allotment committee, spring meeting"


def _notes() -> list[SourceDocument]:
    return [
        SourceDocument(
            f"/filtered/note-{n}.md",
            f"Harbour works note {n}",
            f"In week {n} the harbour channel was dredged to a depth of {n % 9 + 3} metres "
            f"near berth {n}.",
            doc_type="note",
        )
        for n in range(NOTES)
    ]


@pytest.fixture()
def searcher(container: Container) -> Container:
    rare = SourceDocument(
        "/filtered/minutes.md",
        RARE,
        "The committee agreed new plot rents and a waiting list for the spring season.",
        doc_type="minutes",
    )
    container.ingestor().ingest_documents([*_notes(), rare])
    return container


@pytest.mark.parametrize("preset", ["dense", "hybrid"])
def test_a_rare_type_is_found_behind_many_nearer_chunks(searcher: Container, preset: str) -> None:
    s = searcher.searcher()
    unfiltered = s.search(QUESTION, 2, preset)
    assert {r.doc_title for r in unfiltered} <= {f"Harbour works note {n}" for n in range(NOTES)}
    got = s.search(QUESTION, 2, preset, SearchFilters(doc_type="minutes"))
    assert [r.doc_title for r in got] == [RARE]
    # A filter every near chunk passes still fills k, with chunks as near as the unfiltered.
    same = s.search(QUESTION, 2, preset, SearchFilters(doc_type="note"))
    assert len(same) == 2 and all(r.doc_title.startswith("Harbour works") for r in same)
    if preset == "dense":
        near = max(r.score for r in unfiltered)
        assert max(r.score for r in same) >= near - 1e-3
