"""The topology held in the process walks and finds paths as the in-memory read model does
over the same graph: an invented graph of a few hundred nodes, with hubs, parallel edges,
self-loops, weightless relations and a document's subject."""

from __future__ import annotations

import dataclasses
import itertools
import random

import numpy as np
import pytest

from graph_store.read_model import ReachKeep
from graph_store.types import ProjectionData, TopologyData
from retrieval.projection import Projection, subject_pairs
from retrieval.topology import Topology
from tests.unit.retrieval.test_linking import model_of
from tests.unit.retrieval.test_ppr import _data

TYPES = ["PART_OF", "LEADS", "CO_OCCURS", "FUNDS"]


def invented_graph(seed: int) -> ProjectionData:
    rng = random.Random(seed)
    docs = [f"doc{d}" for d in range(40)]
    chunks = [(f"{doc}-c{i}", doc) for doc in docs for i in range(rng.randint(1, 3))]
    # Entity "doc3" is the subject of document doc3 (its title names it).
    entities = [f"ent{e:03d}" for e in range(160)] + ["doc3", "doc7"]
    hubs = entities[:3]
    mentions = []
    for chunk, _ in chunks:
        named = rng.sample(entities, rng.randint(1, 5)) + rng.sample(hubs, 1)
        mentions += [(chunk, e, rng.randint(1, 3)) for e in dict.fromkeys(named)]
    relations = []
    for _ in range(400):
        a, b = rng.choice(entities), rng.choice(entities + hubs * 20)
        weight = rng.choice([0.0, 0.1, 0.3, 0.5, 1.0, 1.0])
        relations.append((a, b, rng.choice(TYPES), weight))  # a == b now and then
    return _data(chunks, entities, mentions, relations)


def topology_of(data: ProjectionData) -> TopologyData:
    """What a store's topology read returns for the graph ``data`` describes."""
    ids = sorted([*data.chunk_ids, *data.entity_ids])
    pos = {node: i for i, node in enumerate(ids)}
    subjects = subject_pairs(data)
    doc_of = dict(zip(data.chunk_ids, data.chunk_docs, strict=True))
    order = sorted(
        range(len(data.chunk_ids)), key=lambda i: (data.chunk_docs[i], data.chunk_index[i])
    )
    following = [
        (pos[data.chunk_ids[a]], pos[data.chunk_ids[b]])
        for a, b in itertools.pairwise(order)
        if data.chunk_docs[a] == data.chunk_docs[b]
    ]
    types = sorted({t for _, _, t, _ in data.relations}, key=TYPES.index)
    name_of = dict(zip(data.entity_ids, data.entity_names, strict=True))
    names = [name_of.get(node, "").encode() for node in ids]
    return TopologyData(
        version=data.version,
        ids=np.asarray([i.encode() for i in ids], dtype=bytes),
        entity=np.asarray([i in set(data.entity_ids) for i in ids], dtype=bool),
        mentions=np.asarray(
            [(pos[c], pos[e]) for c, e, _ in data.mentions], dtype=np.int32
        ).reshape(-1, 2),
        mention_counts=np.asarray([max(1, n) for _, _, n in data.mentions], dtype=np.float32),
        mention_subject=np.asarray(
            [(doc_of[c], e) in subjects for c, e, _ in data.mentions], dtype=bool
        ),
        next_pairs=np.asarray(following, dtype=np.int32).reshape(-1, 2),
        relations=np.asarray([(pos[a], pos[b]) for a, b, _, _ in data.relations], np.int32).reshape(
            -1, 2
        ),
        relation_types=np.asarray([types.index(t) for _, _, t, _ in data.relations], np.int32),
        relation_weights=np.asarray([w for _, _, _, w in data.relations], dtype=np.float64),
        type_names=types,
        name_bytes=b"".join(names),
        name_offsets=np.concatenate([[0], np.cumsum([len(n) for n in names])]).astype(np.int64),
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("prune", [0.0, 1e-4])
def test_the_walk_is_the_projections(seed: int, prune: float) -> None:
    data = invented_graph(seed)
    topology, projection = Topology(topology_of(data)), Projection(data)
    rng = random.Random(seed)
    for _ in range(5):
        nodes = rng.sample([*data.chunk_ids, *data.entity_ids], 4)
        seeds = {n: rng.random() for n in nodes} | {"not-in-the-graph": 1.0}
        got = topology.personalized_top(seeds, 50, 0.85, tol=1e-6, prune=prune)
        want = projection.personalized_top(seeds, 50, 0.85, tol=1e-6, prune=prune)
        assert got == pytest.approx(want, abs=1e-6)
        # Equal scores may fall either side of the cut-off: the rankings agree above it.
        assert list(got)[:20] == list(want)[:20]
    assert topology.personalized_top({"not-in-the-graph": 1.0}, 5) == {}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_paths_are_the_in_memory_models(seed: int) -> None:
    data = invented_graph(seed)
    topology, memory = Topology(topology_of(data)), model_of(data)
    rng = random.Random(seed)
    for keep in (None, ReachKeep(0.3, frozenset(rng.sample(data.entity_ids, 10)))):
        for _ in range(4):
            sources = {e: rng.random() for e in rng.sample(data.entity_ids, 2)}
            sources["doc0-c0"] = 1.0  # a chunk is no source of relation paths
            got = topology.relation_reach(sources, 3, 0.8, 0.5, keep)
            want = memory.relation_paths(sources, 3, 0.8, 0.5, keep)
            assert got.keys() == want.keys()
            for entity, hop in want.items():
                mine = got[entity]
                assert (mine.hops, mine.via, mine.relation, mine.forward) == (
                    hop.hops,
                    hop.via,
                    hop.relation,
                    hop.forward,
                ), entity
                assert (mine.strength, mine.cost) == pytest.approx((hop.strength, hop.cost))
                assert mine.name == hop.name


@pytest.mark.parametrize("seed", [1, 2])
def test_mentions_and_names_are_the_in_memory_models(seed: int) -> None:
    data = invented_graph(seed)
    topology, memory = Topology(topology_of(data)), model_of(data)
    chunks = [*data.chunk_ids[:30], "missing", data.entity_ids[0]]
    entities = [*data.entity_ids, "missing", data.chunk_ids[0]]
    assert topology.chunk_entities(chunks) == memory.chunk_entities(chunks)
    want = memory.entity_chunks(entities)
    assert {e: sorted(c) for e, c in topology.entity_chunks(entities).items()} == {
        e: sorted(c) for e, c in want.items() if c
    }
    assert topology.entity_names(entities) == memory.entity_names(entities)


def test_a_topology_read_without_names_leaves_them_to_the_store() -> None:
    data = invented_graph(1)
    bare = Topology(dataclasses.replace(topology_of(data), name_bytes=b"", name_offsets=None))
    assert not bare.has_names()
    reach = bare.relation_reach({data.entity_ids[0]: 1.0}, 2)
    assert reach and {hop.name for hop in reach.values()} == {""}


def test_ids_are_found_by_binary_search() -> None:
    topology = Topology(topology_of(invented_graph(1)))
    found = topology.positions(["ent005", "missing", "doc3-c0", "zzz", ""])
    assert [topology.node_id(p) for p in found.tolist() if p >= 0] == ["ent005", "doc3-c0"]
    assert found.tolist()[1::2] == [-1, -1]
    assert topology.positions([]).size == 0


def test_an_empty_graph_has_no_walk_and_no_paths() -> None:
    topology = Topology(topology_of(_data([], [], [])))
    assert topology.personalized_top({"a": 1.0}, 5) == {}
    assert topology.relation_reach({"a": 1.0}, 3) == {}
    assert topology.positions(["a"]).tolist() == [-1]
