"""The ``GraphStore`` port's contract, on every store of ``STORE_FACTORIES`` (conftest.py):
idempotent replacing writes, deletes that leave no orphan, relation evidence per document,
vector and full-text search, neighbourhoods, the graph version and the projection's data."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from core.errors import StoreError
from graph_schema import Alias, DocumentGraph
from graph_schema.models import SameAs
from tests.integration.graph_store.contract.conftest import graph
from tests.integration.tiny_graphs import DIM, vec


def test_upsert_is_idempotent_and_replaces(store: Any) -> None:
    a = graph("da", ["alpha trust one", "alpha two"], ["a", "b"], [("a", "b")])
    b = graph("db", ["beta trust"], ["b", "c"], [("b", "c")])
    store.upsert_documents([a, b])
    first = store.counts()
    got = (first.documents, first.chunks, first.entities, first.relations, first.aliases)
    assert got == (2, 3, 3, 2, 3)
    store.upsert_documents([a, b])
    assert store.counts() == first
    assert len(store.export_graph().next_edges) == 1
    # A new version of da drops entity a (only da mentioned it) and its relation.
    store.upsert_documents([graph("da", ["alpha trust one", "changed"], ["b"], [])])
    after = store.counts()
    assert (after.documents, after.chunks, after.entities, after.relations) == (2, 3, 2, 1)
    assert store.existing_entity_ids(["a", "b", "c"]) == {"b", "c"}
    assert [d.id for d in store.find_documents("T-DA")] == ["t-da"]
    assert sorted(d.chunks for d in store.list_documents()) == [1, 2]


def test_delete_leaves_no_chunk_mention_or_orphan(store: Any) -> None:
    store.upsert_documents(
        [
            graph("da", ["x one", "x two"], ["a", "b"], [("a", "b")]),
            graph("db", ["y"], ["b"], []),
        ]
    )
    assert store.delete_document("t-da")
    assert not store.delete_document("t-da")
    c = store.counts()
    got = (c.documents, c.chunks, c.mentions, c.entities, c.relations, c.aliases)
    assert got == (1, 1, 1, 1, 0, 1)
    exported = store.export_graph()
    assert all(not cid.startswith("t-da-") for cid in exported.chunk_ids)
    assert exported.entity_ids == ["b"]
    assert exported.next_edges == []


def test_an_entity_named_without_a_mention_leaves_nothing(store: Any) -> None:
    g = graph("da", ["x one"], ["a", "b"], [("a", "b")])
    # b is an alias and a relation end of the document, but no chunk mentions it
    g = g.model_copy(update={"mentions": tuple(m for m in g.mentions if m.entity_id != "b")})
    store.upsert_documents([g])
    c = store.counts()
    assert (c.entities, c.aliases, c.relations, c.mentions) == (1, 1, 0, 1)
    assert store.alias_targets(["a", "b"]) == {"a": "a"}


def test_the_aliases_of_an_entity_that_goes_go_with_it(store: Any) -> None:
    store.upsert_documents([graph("da", ["x"], ["a"], [])])
    other = graph("db", ["y"], ["b"], [])
    # db names a by another alias without mentioning it: the link is db's, the entity da's
    extra = Alias(name="A TWO", normalized="a two", entity_id="a", method="name")
    store.upsert_documents([other.model_copy(update={"aliases": (*other.aliases, extra)})])
    assert store.alias_targets(["a", "a two"]) == {"a": "a", "a two": "a"}
    store.upsert_documents([graph("da", ["x changed"], ["c"], [])])
    c = store.counts()
    assert (c.entities, c.aliases) == (2, 2)
    assert store.alias_targets(["a", "a two", "b", "c"]) == {"b": "b", "c": "c"}


def test_shared_relation_keeps_evidence_of_remaining_document(store: Any) -> None:
    store.upsert_documents(
        [
            graph("da", ["x"], ["a", "b"], [("a", "b")]),
            graph("db", ["y"], ["a", "b"], [("a", "b")]),
        ]
    )
    sub = store.neighbourhood("a", 1)
    assert len(sub.edges) == 1 and len(sub.edges[0].evidence) == 2
    store.delete_document("t-da")
    sub = store.neighbourhood("a", 1)
    assert len(sub.edges) == 1 and all(e.startswith("t-db-") for e in sub.edges[0].evidence)
    assert store.alias_targets(["a", "zz"]) == {"a": "a"}


def test_batch_replacing_documents_that_share_entities_keeps_them(store: Any) -> None:
    store.upsert_documents(
        [graph("a", ["alpha one"], ["s", "x"], []), graph("b", ["beta one"], ["s", "y"], [])]
    )
    # New versions in one batch: a still mentions s, b no longer does.
    b2 = graph("b", ["beta two"], ["y"], [])
    store.upsert_documents([graph("a", ["alpha two"], ["s", "x"], []), b2])
    export = store.export_graph()
    assert sorted(export.entity_ids) == ["s", "x", "y"]
    assert "s" in {e for _, e, _ in export.mentions}
    # And when nothing mentions s any more, the batch clean-up removes it.
    store.upsert_documents([graph("a", ["alpha three"], ["x"], []), b2])
    assert sorted(store.export_graph().entity_ids) == ["x", "y"]


def test_stored_entity_without_embedding_keeps_its_own(store: Any) -> None:
    """The resolver embeds only entities new to the graph; a stored one arrives bare (as on
    re-ingesting a deleted document that shares entities with others)."""

    def bare(g: DocumentGraph) -> DocumentGraph:
        return g.model_copy(
            update={"entities": tuple(e.model_copy(update={"embedding": ()}) for e in g.entities)}
        )

    store.upsert_documents([graph("da", ["x"], ["a", "b"], [("a", "b")])])
    store.upsert_documents([bare(graph("db", ["y"], ["a"], []))])
    store.refresh_indexes()
    assert store.counts().documents == 2
    # Entity vectors are vec(len(id)): a and b share vec(1), and a kept its own.
    hits = store.vector_search_entities(vec(1), 2)
    assert {h.entity_id for h in hits} == {"a", "b"}
    assert [h.score for h in hits] == pytest.approx([1.0, 1.0], abs=1e-3)
    with pytest.raises(StoreError, match="entity c"):  # new, and without a vector
        store.upsert_documents([bare(graph("dc", ["z"], ["c"], []))])
    assert store.counts().documents == 2  # the failed write left nothing behind


def test_vector_search_matches_brute_force(store: Any) -> None:
    docs = [graph(f"d{i}", [f"text {i} {j}" for j in range(3)], [f"e{i}"], []) for i in range(6)]
    store.upsert_documents(docs)
    store.refresh_indexes()
    q = vec(3)
    hits = store.vector_search_chunks(q, 5)
    chunks = [c for d in docs for c in d.chunks]
    sims = sorted((float(np.dot(q, c.embedding)) for c in chunks), reverse=True)
    # Neo4j's index reports (1 + cos) / 2 in float32: cosine comes back within about 1e-3.
    assert [h.score for h in hits] == pytest.approx(sims[:5], abs=1e-3)
    assert store.vector_search_entities(vec(2), 1)[0].score == pytest.approx(1.0, abs=1e-3)


def test_fulltext_after_refresh_takes_any_user_text(store: Any) -> None:
    store.upsert_documents(
        [
            graph("da", ["the crisis cafes open"], ["northdale"], []),
            graph("db", ["waiting lists"], ["ravensford"], []),
        ]
    )
    store.upsert_documents([graph("da", ["the crisis cafes open late"], ["northdale"], [])])
    store.refresh_indexes()
    assert [h.doc_id for h in store.fulltext_chunks("cafes", 5)] == ["t-da"]
    # Query syntax in user text is words, not operators: no error, the same best passage.
    assert store.fulltext_chunks('cafes AND (open" OR ~/*', 5)[0].doc_id == "t-da"
    assert store.fulltext_aliases("RAVENSFORD", 3)[0].entity_id == "ravensford"
    assert store.fulltext_chunks("   ", 3) == []


def test_fulltext_ranks_rare_question_words_above_a_repeated_common_one(store: Any) -> None:
    """Full-text hits are ranked as BM25 ranks them, on every store: the passage holding the
    question's two rarest words once outranks a shorter one that repeats a commoner word
    (TF-IDF normalised by the most frequent term, RediSearch's only scorer, ranks it first),
    and every store returns the same passages in the same order. BM25 (k1 1.2, b 0.75) gives
    about 2.36, 1.46 and 1.03 here: far apart, whatever each store's stems. Stop words differ
    (Neo4j's default analyzer keeps "the"; Kùzu and FalkorDB drop it), so the query holds
    none that the passages share: with "the" in it, Neo4j ranks the river passage second."""
    store.upsert_documents(
        [
            graph("rare", ["the keeper at cork rang the bell bell bell bell"], ["bell"], []),
            graph("rep", ["harbour fees harbour berths harbour cranes"], ["fee"], []),
            graph("river", ["river barges reach the harbour"], ["barge"], []),
            graph("farm", ["quiet inland farms"], ["farm"], []),
            graph("goat", ["mountain goats"], ["goat"], []),
            graph("tram", ["city trams"], ["tram"], []),
        ]
    )
    store.refresh_indexes()
    hits = store.fulltext_chunks("Who was keeper of Cork harbour", 5)
    assert [h.doc_id for h in hits] == ["t-rare", "t-rep", "t-river"]
    assert hits[0].score > hits[1].score > hits[2].score > 0


def test_neighbourhood_hops(store: Any) -> None:
    store.upsert_documents(
        [graph("d", ["x"], ["a", "b", "c", "e"], [("a", "b"), ("b", "c"), ("c", "e")])]
    )
    # b related to a both ways is one neighbour, at one hop.
    store.upsert_documents([graph("d2", ["y"], ["a", "b"], [("b", "a")])])
    assert {n.id: n.hops for n in store.neighbourhood("a", 1).nodes} == {"a": 0, "b": 1}
    hops = {n.id: n.hops for n in store.neighbourhood("a", 2).nodes}
    assert hops == {"a": 0, "b": 1, "c": 2}
    # Nearest first, then the most mentioned (b: by two documents, e: by one).
    assert [n.id for n in store.neighbourhood("c", 2, limit=1).nodes] == ["c", "b"]
    hops = {n.id: n.hops for n in store.neighbourhood("a", 3).nodes}
    assert hops == {"a": 0, "b": 1, "c": 2, "e": 3}
    assert {n.id for n in store.neighbourhood("a", 9).nodes} == {"a", "b", "c", "e"}  # capped
    assert store.neighbourhood("missing", 2).nodes == []


def test_same_as_edges_keep_the_best_score_and_lose_nothing(store: Any) -> None:
    g = graph("a", ["alpha text", "more alpha"], ["x", "y", "z"], [("x", "y")])
    g = g.model_copy(
        update={
            "same_as": (
                SameAs(source_id="x", target_id="z", score=0.7, method="similarity"),
                SameAs(source_id="x", target_id="z", score=0.8, method="similarity"),
            )
        }
    )
    store.upsert_documents([g])
    store.upsert_documents([g])  # idempotent
    rows = store.run_read_only(
        "MATCH (a:Entity)-[s:SAME_AS]->(b:Entity) RETURN a.id AS a, b.id AS b, s.score AS score"
    )
    assert rows == [{"a": "x", "b": "z", "score": pytest.approx(0.8)}]
    counts = store.counts()
    assert (counts.documents, counts.chunks, counts.entities, counts.relations) == (1, 2, 3, 1)


def test_same_as_scores_only_rise_and_a_pair_needs_both_ends(store: Any) -> None:
    base = graph("a", ["alpha text"], ["x", "z"], [])

    def pairs(*scored: tuple[str, str, float]) -> Any:
        same = tuple(SameAs(source_id=a, target_id=b, score=s, method="m") for a, b, s in scored)
        return base.model_copy(update={"same_as": same})

    store.upsert_documents([pairs(("x", "z", 0.7), ("x", "nowhere", 0.9))])
    store.upsert_documents([pairs(("x", "z", 0.9), ("z", "x", 0.5))])
    store.upsert_documents([pairs(("x", "z", 0.6))])
    rows = store.run_read_only(
        "MATCH (a:Entity)-[s:SAME_AS]->(b:Entity) RETURN a.id AS a, b.id AS b, s.score AS score"
    )
    assert sorted(rows, key=lambda r: r["a"]) == [
        {"a": "x", "b": "z", "score": pytest.approx(0.9)},
        {"a": "z", "b": "x", "score": pytest.approx(0.5)},
    ]


def test_graph_version_and_projection_data(store: Any) -> None:
    assert store.graph_version() == ""
    store.upsert_documents([graph("da", ["x one", "x two"], ["a", "b"], [("a", "b")])])
    first = store.graph_version()
    data = store.projection_data()
    assert data.version == first and data.doc_ids == ["t-da"]
    assert len(data.chunk_ids) == 2 and all(len(e) == DIM for e in data.chunk_embeddings)
    assert data.relations == [("a", "b", "PART_OF", 1.0)] and len(data.mentions) == 2
    # The vectors as written, whether a store hands them over as rows or packed float32.
    written = {f"t-da-{i:04d}": vec(i + sum(map(ord, "t-da"))) for i in range(2)}
    for cid, got in zip(data.chunk_ids, data.chunk_embeddings, strict=True):
        assert np.allclose(np.asarray(got, dtype=np.float64), written[cid[:9]], atol=1e-6)
    by_entity = dict(zip(data.entity_ids, data.entity_embeddings, strict=True))
    assert np.allclose(np.asarray(by_entity["a"], dtype=np.float64), vec(1), atol=1e-6)
    store.upsert_documents([graph("db", ["y"], ["c"], [])])
    assert store.graph_version() != first


def test_reads_inside_a_read_snapshot_answer_and_nest(store: Any) -> None:
    """Every store gives a request's reads a ``read_snapshot`` (the embedded store pins one
    version inside; the server stores read the version of each moment): reads inside it
    answer as outside, a snapshot inside another is allowed, and the store writes after."""
    store.upsert_documents([graph("da", ["x"], ["a", "b"], [("a", "b")])])
    with store.read_snapshot():
        inside = store.neighbourhood("a", hops=1)
        with store.read_snapshot():
            counts = store.counts()
    assert {n.id for n in inside.nodes} == {"a", "b"}
    assert (counts.documents, counts.entities) == (1, 2)
    store.upsert_documents([graph("db", ["y"], ["c"], [])])
    assert store.counts().documents == 2
