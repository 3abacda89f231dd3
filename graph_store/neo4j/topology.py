"""The graph's topology read from Neo4j for the walk and the path search held in the process
(``retrieval.topology``): node ids, then every edge streamed into position arrays.

Batches stream: the 5x 2Wiki graph has 0.8 M edges, and kept as rows every id and number
would be a Python object alive until the arrays were built (hundreds of MB, and a heap that
stays resident). Here a batch of edges becomes position arrays as it arrives (its ids looked
up by binary search in the sorted node ids, kept as one bytes array): nothing long-lived is a
Python object a node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from graph_store.types import TopologyData

# A named query's rows, streamed; each row is a batch of edges as columns (lists of one
# length, cypher/neo4j/topology_*.cypher).
RowStream = Callable[[str], Iterable[Sequence[list[Any]]]]


def read_topology(version: str, read: RowStream) -> TopologyData:
    """``version`` is read by the caller first: a write landing during the reads makes the
    topology look older than it is, so it is rebuilt rather than kept stale. An edge to a node
    the first read did not see (written meanwhile) is left out, for the same reason."""
    found, flags, blobs, lengths = [], [], [], []
    for batch, entity, names in read("topology_nodes"):
        found.append(_keys(batch))
        flags.append(np.asarray(entity, dtype=bool))
        # A batch's names become bytes at once: 226,000 str objects alive until the end
        # left the process 70 MB larger after the build at 5x.
        encoded = [str(name or "").encode("utf-8") for name in names]
        blobs.append(b"".join(encoded))
        lengths.append(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)))
        del encoded
    every = np.concatenate(found) if found else np.zeros(0, dtype="S1")
    ids, first = np.unique(every, return_index=True)
    is_entity = np.concatenate(flags)[first] if flags else np.zeros(0, dtype=bool)
    name_bytes, name_offsets = _names(b"".join(blobs), _join(lengths, (0,), np.int64), first)
    del found, flags, every, blobs, lengths

    def ends(*columns: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        """The columns' positions as an (n, 2) array, and which rows have both ends."""
        at = [_positions(ids, column) for column in columns]
        pairs = np.stack(at, axis=1).astype(np.int32)
        return pairs, np.asarray((pairs >= 0).all(axis=1))

    mentions, counts, subject = [], [], []
    for chunks, entities, count, about in read("topology_mentions"):
        pairs, ok = ends(chunks, entities)
        mentions.append(pairs[ok])
        counts.append(np.maximum(np.asarray(count, dtype=np.float32), 1.0)[ok])
        subject.append(np.asarray(about, dtype=bool)[ok])
    following = []
    for firsts, afters in read("topology_next"):
        pairs, ok = ends(firsts, afters)
        following.append(pairs[ok])
    relations, types, weights = [], [], []
    type_index: dict[str, int] = {}
    for sources, targets, kinds, weight in read("topology_relations"):
        pairs, ok = ends(sources, targets)
        relations.append(pairs[ok])
        kind = [type_index.setdefault(str(k), len(type_index)) for k in kinds]
        types.append(np.asarray(kind, dtype=np.int32)[ok])
        weights.append(np.asarray(weight, dtype=np.float64)[ok])

    return TopologyData(
        version=version,
        ids=ids,
        entity=is_entity,
        mentions=_join(mentions, (0, 2), np.int32),
        mention_counts=_join(counts, (0,), np.float32),
        mention_subject=_join(subject, (0,), bool),
        next_pairs=_join(following, (0, 2), np.int32),
        relations=_join(relations, (0, 2), np.int32),
        relation_types=_join(types, (0,), np.int32),
        relation_weights=_join(weights, (0,), np.float64),
        type_names=list(type_index),
        name_bytes=name_bytes,
        name_offsets=name_offsets,
    )


def _names(blob: bytes, lengths: np.ndarray, order: np.ndarray) -> tuple[bytes, np.ndarray]:
    """The names of ``blob`` (one after another, ``lengths`` long) rearranged into ``order``
    as one blob and its offsets (``TopologyData``), by index arrays rather than objects."""
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    sizes = lengths[order]
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    source = np.repeat(starts[order] - offsets[:-1], sizes) + np.arange(offsets[-1])
    data = np.frombuffer(blob, dtype=np.uint8)
    return data[source].tobytes() if source.size else b"", offsets


def _keys(batch: Sequence[Any]) -> np.ndarray:
    """Ids as UTF-8 bytes: a quarter of numpy's str width, in the same order."""
    return np.asarray([str(node).encode("utf-8") for node in batch], dtype=bytes)


def _positions(ids: np.ndarray, batch: Sequence[Any]) -> np.ndarray:
    """Each id's place in the sorted ``ids``, -1 where it is not there."""
    if not len(batch) or not ids.size:
        return np.full(len(batch), -1, dtype=np.int64)
    keys = _keys(batch)
    at = np.minimum(np.searchsorted(ids, keys), ids.size - 1)
    return np.where(ids[at] == keys, at, -1)


def _join(parts: list[np.ndarray], empty: tuple[int, ...], dtype: Any) -> np.ndarray:
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(empty, dtype=dtype)
