"""Entity resolution by normalisation and alias definitions, across a run and the graph.

Pass 1 registers every document's alias definitions (acronym -> long form, "formerly known
as", ...), so resolution does not depend on the order documents arrive in. Pass 2 maps each
normalised name to a canonical key, following alias chains, and to an entity id: the id the
graph already uses for that alias if there is one, else one derived from the canonical key.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence

from extraction.normalize import entity_id, normalize_name
from extraction.spacy_rules import DocFacts
from graph_schema import Alias, Entity, Mention, Relation

StoreAliasLookup = Callable[[Sequence[str]], dict[str, str]]


class Resolver:
    def __init__(self, store_lookup: StoreAliasLookup | None = None) -> None:
        self._targets: dict[str, Counter[str]] = defaultdict(Counter)
        self._surfaces: dict[str, Counter[str]] = defaultdict(Counter)
        self._store_lookup = store_lookup
        self._store_ids: dict[str, str] = {}

    def register(self, facts: DocFacts) -> None:
        for key, surface in facts.surfaces.items():
            self._surfaces[key][surface] += 1
        for alias_surface, target, _method, _conf in facts.aliases:
            key = normalize_name(alias_surface)
            if key and key != target:
                self._targets[key][target] += 1

    def prefetch(self, keys: Sequence[str]) -> None:
        """Look up, once per batch, which of these names the graph already knows as aliases."""
        if self._store_lookup is None:
            return
        missing = sorted({k for k in keys if k not in self._store_ids})
        if missing:
            found = self._store_lookup(missing)
            for k in missing:
                self._store_ids[k] = found.get(k, "")

    def canonical(self, key: str) -> str:
        seen = {key}
        while key in self._targets:
            nxt = self._targets[key].most_common(1)[0][0]
            if nxt in seen:  # a cycle of alias definitions: stop at the first repeat
                break
            seen.add(nxt)
            key = nxt
        return key

    def entity_id_for(self, key: str) -> str:
        canon = self.canonical(key)
        if canon != key:  # an alias defined in this run wins over older single-name entities
            return self._store_ids.get(canon) or entity_id(canon)
        return self._store_ids.get(key) or entity_id(key)

    def display_name(self, canon: str) -> str:
        names = self._surfaces.get(canon)
        return names.most_common(1)[0][0] if names else canon

    def resolve(
        self, facts: DocFacts, doc_id: str, chunk_ids: list[str], extractor: str
    ) -> tuple[list[Entity], list[Alias], list[Mention], list[Relation]]:
        """Entities (without embeddings), aliases, mentions and relations of one document."""
        keys = set(facts.surfaces) | {normalize_name(a[0]) for a in facts.aliases}
        self.prefetch([*keys, *(self.canonical(k) for k in keys)])
        entities: dict[str, Entity] = {}
        aliases: list[Alias] = []

        def ent(key: str) -> str:
            eid = self.entity_id_for(key)
            if eid not in entities:
                canon = self.canonical(key)
                kind = facts.types.get(canon) or facts.types.get(key, "NAME")
                entities[eid] = Entity(id=eid, name=self.display_name(canon), type=kind)
            return eid

        mentions: Counter[tuple[str, str]] = Counter()
        relations: list[Relation] = []
        for cid, chunk in zip(chunk_ids, facts.chunks, strict=True):
            for key, n in chunk.mentions.items():
                mentions[(cid, ent(key))] += n
            for a, rel, b, weight in chunk.relations:
                ea, eb = ent(a), ent(b)
                if ea != eb:
                    relations.append(
                        Relation(
                            source_id=ea,
                            target_id=eb,
                            type=rel,
                            weight=weight,
                            evidence=(cid,),
                            extractor=extractor,
                        )
                    )
        for key, surface in facts.surfaces.items():
            aliases.append(_alias(surface, key, ent(key), "name", 1.0))
        for alias_surface, target, method, conf in facts.aliases:
            eid = ent(target)
            aliases.append(_alias(alias_surface, normalize_name(alias_surface), eid, method, conf))
        mention_models = [
            Mention(chunk_id=c, entity_id=e, count=n) for (c, e), n in mentions.items()
        ]
        return list(entities.values()), aliases, mention_models, relations


def _alias(surface: str, key: str, eid: str, method: str, confidence: float) -> Alias:
    return Alias(name=surface, normalized=key, entity_id=eid, method=method, confidence=confidence)
