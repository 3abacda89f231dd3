"""The read-model diff on the real Neo4j server: the in-memory model over the Neo4j store ranks
as the embedded store does, and every swapped call is run and accounted for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.datasets import read_corpus, read_questions
from bench.metrics import recall_at_k
from bench.readmodel_diff import CALLS, MixedReadModel, diff
from bench.store import bench_store
from graph_store.config import Neo4jSettings
from graph_store.neo4j.store import Neo4jGraphStore
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.integration.bench.test_neo4j_store import (  # noqa: F401  (fixtures)
    _throwaway_database,
    adapter,
)
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]

CORPUS = [
    {"title": "Duffy", "text": "Duffy is a Welsh singer from Nefyn who recorded Mercy in 2008."},
    {"title": "Nefyn", "text": "Nefyn is a town on the Llyn Peninsula in Gwynedd, Wales."},
    {"title": "Gwynedd", "text": "Gwynedd is a county in north-west Wales with Caernarfon."},
    {"title": "Mercy", "text": "Mercy is a town on the coast of Tasmania known for oysters."},
]
QUESTIONS = [
    {
        "id": "q1",
        "question": "In which county is the home town of the singer of Mercy?",
        "supporting_facts": [["Duffy", 0], ["Nefyn", 0], ["Gwynedd", 0]],
    },
    {
        "id": "q2",
        "question": "What is Mercy in Tasmania known for?",
        "supporting_facts": [["Mercy", 0]],
    },
]


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name

    def alias_matches(self, question: str) -> str:
        return f"{self.name}:{question}"

    def lexical_chunks(self, question: str, k: int) -> str:
        return f"{self.name}:{question}:{k}"


def test_mixed_model_answers_only_the_swapped_calls_from_the_other() -> None:
    mixed = MixedReadModel(_Named("memory"), _Named("neo4j"), ["alias_matches"])  # type: ignore[arg-type]
    assert mixed.alias_matches("q") == "neo4j:q"
    assert mixed.lexical_chunks("q", 3) == "memory:q:3"


@pytest.fixture()
def emptied_after(adapter: Neo4jGraphStore) -> Iterator[None]:  # noqa: F811
    """The bench store is the whole database: empty it for the Neo4j tests that follow."""
    yield

    adapter.reset()


@pytest.mark.usefixtures("emptied_after")
def test_diff_on_neo4j_matches_the_embedded_ranking_and_runs_every_swap(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(CORPUS), encoding="utf-8")
    qfile = tmp_path / "questions.json"
    qfile.write_text(json.dumps(QUESTIONS), encoding="utf-8")
    questions = read_questions(qfile, read_corpus(corpus))
    neo4j = Neo4jSettings(uri=URI, user=USER, password=PASSWORD, database=DATABASE)
    settings = Settings(data_dir=tmp_path / "kg", neo4j=neo4j)

    with bench_store(corpus, settings, tmp_path / "work", embedder) as bs:
        searcher = bs.container.searcher()
        embedded = []
        for q in questions:
            ranked = bs.passages_of_docs([r.doc_id for r in searcher.search(q.text, 20, "graph")])
            embedded.append({k: recall_at_k(ranked, q.gold, k) for k in (2, 5)})
    with bench_store(corpus, settings, tmp_path / "work", embedder, store="neo4j") as bs:
        out = diff(bs, settings, questions, CALLS)

    assert out["store_model"] == "TopologyReadModel"  # the default on Neo4j
    assert out["questions"] == 2
    # The in-memory model over the Neo4j store is the embedded store's ranking.
    mine = out["all questions"]["in memory"]
    assert mine == {f"R@{k}": round(sum(e[k] for e in embedded), 3) for k in (2, 5)}
    assert mine["R@5"] == 2.0  # every gold passage of both questions in the top 5
    assert set(out["swaps"]) == set(CALLS)
    for swap in out["swaps"].values():
        assert swap["moves"] == len(swap["moved"]) <= out["differing"]
