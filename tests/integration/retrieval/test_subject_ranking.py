"""A question about one organisation is answered from that organisation's own documents first,
on both stores: a parallel document about another organisation, reached through a weak edge
(the two names co-occur), must not outrank them in the graph preset. The corpus is invented."""

from __future__ import annotations

import pytest

from extraction.loaders import SourceDocument
from kg.container import Container
from tests.stores import both_stores

pytestmark = both_stores

QUESTION = "What are KVW's priorities for the coming year?"
OWN = "KVW Priorities for the Coming Year"
OTHER = "Marlow Coast Energy Priorities for the Coming Year"

DOCS = [
    SourceDocument(
        "/subjects/kvw-annual-report.md",
        "Kestrel Valley Water Annual Report",
        "Kestrel Valley Water (KVW) supplies drinking water to the Kestrel valley. "
        "Ilse Brandt is the chief executive of Kestrel Valley Water. KVW runs four "
        "treatment works and a laboratory at Orrin Bridge.",
    ),
    SourceDocument(
        "/subjects/kvw-priorities.md",
        OWN,
        "This paper sets out what the company will concentrate on next year. "
        "First, the company will replace 40 kilometres of ageing mains in the upper valley. "
        "Second, the board will cut leakage by a fifth before the summer drought season. "
        "Third, a new customer contact centre will open at Orrin Bridge.",
    ),
    SourceDocument(
        "/subjects/mce-priorities.md",
        OTHER,
        "Marlow Coast Energy (MCE) has agreed its priorities for the coming year with KVW, "
        "its largest customer, and other partners. MCE's priorities for the coming year are "
        "to connect a tidal array, to shorten outage times and to agree a new tariff with "
        "KVW for the pumping stations of KVW. MCE and KVW share a depot at Orrin Bridge.",
    ),
]


@pytest.fixture()
def searched(container: Container) -> list[str]:
    container.ingestor().ingest_documents(DOCS)
    got = container.searcher().retrieve(QUESTION, k=5, preset="graph")
    return [r.doc_title for r in got.results]


def test_the_asked_organisation_s_own_documents_rank_first(searched: list[str]) -> None:
    assert OTHER in searched  # found, reached through the shared name
    own = [n for n, t in enumerate(searched) if t != OTHER]
    assert searched[0] == OWN, searched
    # Every passage of the asked organisation's documents comes before the other's.
    assert max(own) < searched.index(OTHER), searched
