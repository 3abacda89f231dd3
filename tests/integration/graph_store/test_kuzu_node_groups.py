"""The embedded store past Kùzu's node-group size (131,072 rows of a table).

A batch whose new aliases crossed that boundary failed to commit (a five-fold corpus died at
about 20,000 documents): the orphan check scanned every alias, read one created past the
boundary by the same transaction as having no link, and tried to delete it. The check now
looks only at aliases that existed before the batch and could have lost a link."""

from __future__ import annotations

from pathlib import Path

from graph_schema import Alias, DocumentGraph
from graph_store.kuzu.store import KuzuGraphStore
from tests.integration.tiny_graphs import DIM, graph
from tests.stores import opened_store

NODE_GROUP = 131_072
PER_DOC = 1_000


def _doc(n: int) -> DocumentGraph:
    """A document mentioning one entity that has ``PER_DOC`` aliases, and naming a second
    entity (an alias only) that no chunk mentions."""
    g = graph(f"d{n}", ["text"], [f"e{n}", f"u{n}"], [])
    extra = tuple(
        Alias(name=f"E{n} {i}", normalized=f"e{n} {i}", entity_id=f"e{n}", method="name")
        for i in range(PER_DOC)
    )
    return g.model_copy(update={"mentions": g.mentions[:1], "aliases": g.aliases + extra})


def test_a_batch_crossing_a_node_group_commits_whole(tmp_path: Path) -> None:
    first = NODE_GROUP // (PER_DOC + 1) - 1
    with opened_store(lambda: KuzuGraphStore(tmp_path / "g.kuzu", DIM, "m")) as store:
        store.upsert_documents([_doc(n) for n in range(first)])
        assert store.counts().aliases == first * (PER_DOC + 1) < NODE_GROUP
        store.upsert_documents([_doc(n) for n in range(first, first + 3)])
        c = store.counts()
        assert c.aliases == (first + 3) * (PER_DOC + 1) > NODE_GROUP
        assert (c.documents, c.entities, c.mentions) == (first + 3,) * 3
        last = first + 2
        names = [f"e{last} {PER_DOC - 1}", f"u{last}", f"e{last}"]
        assert store.alias_targets(names) == {names[0]: f"e{last}", names[2]: f"e{last}"}
