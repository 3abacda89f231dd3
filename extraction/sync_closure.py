"""Which unchanged documents a sync re-resolves with the written and removed ones: the
entities whose identity other documents decide (extraction/sync.py, ``Syncer._reresolve``)."""

from __future__ import annotations

from collections import defaultdict

from core.names import normalize_name
from graph_store.types import ProjectionData


def doc_entities(
    chunk_ids: list[str], chunk_docs: list[str], mentions: list[tuple[str, str, int]]
) -> dict[str, set[str]]:
    doc_of = dict(zip(chunk_ids, chunk_docs, strict=True))
    out: dict[str, set[str]] = defaultdict(set)
    for chunk, entity, _ in mentions:
        out[doc_of[chunk]].add(entity)
    return out


def related_entities(data: ProjectionData, entities: set[str], old_names: set[str]) -> set[str]:
    """Of these entities, and those sharing a name or alias with them, the ones whose identity
    other documents decide: an entity with several names (an alias definition or a merge), or
    with a name another entity also has. A document mentioning only single-name entities that
    no other entity claims resolves the same whatever else changed, so it is left alone; this
    keeps a one-document change from re-resolving every document that shares a common entity.
    """
    keys: dict[str, set[str]] = defaultdict(set)
    for eid, name in zip(data.entity_ids, data.entity_names, strict=True):
        keys[eid].add(normalize_name(name))
    for surface, eid, _ in data.aliases:
        keys[eid].add(normalize_name(surface))
    holders: dict[str, set[str]] = defaultdict(set)
    for eid, names in keys.items():
        for key in names:
            holders[key].add(eid)
    wanted = {normalize_name(n) for n in old_names}
    for eid in entities:
        wanted |= keys.get(eid, set())
    near = set(entities).union(*(holders.get(k, set()) for k in wanted))
    return {
        e
        for e in near
        if len(keys.get(e, ())) > 1 or any(len(holders[k]) > 1 for k in keys.get(e, ()))
    }
