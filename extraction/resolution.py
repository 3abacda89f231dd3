"""Entity resolution across a run, its documents and what the graph already holds.

1. ``register`` every document's facts: names, alias definitions (acronym -> long form,
   "formerly known as", ...), kinds, weak single words and "A and B" compounds.
2. ``finalize`` once: look the names up in the graph's alias vocabulary; keep a weak word only
   with evidence from elsewhere; split a compound only when both parts are names on their own;
   follow alias definitions to a canonical name; then compare the new names by string and
   name-embedding similarity with each other and with the nearest stored entities: confident
   pairs merge (the other name becomes an alias), doubtful ones get a ``SAME_AS`` edge.
3. ``resolve`` each document into graph models. Every decision depends on the set of documents
   and the graph, never on thread timing or hash order, so two runs over the same input agree.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from core.names import entity_id, normalize_name
from extraction.config import ResolutionSettings
from extraction.facts import ACRONYM, CONCEPT, NAME, SUBJECT, DocFacts
from extraction.merging import NearestEntities, SameAsEdges, merge_similar
from extraction.similarity import Named
from graph_schema import Alias, Entity, Mention, Relation
from graph_schema.models import SameAs

log = logging.getLogger(__name__)

EmbedNames = Callable[[Sequence[str]], list[list[float]]]
_LOOKUP_BATCH = 2000
_MIN_STEM = 3
# English inflectional endings (a closed class), for matching "Causes" with "cause".
_INFLECTIONAL_ENDINGS = ("s", "es", "d", "ed", "ing", "ly")
# Which kind wins when documents disagree: schema and NER types beat the rules' guesses.
_KIND_RANK = {ACRONYM: 0, CONCEPT: 1, NAME: 2, SUBJECT: 3}


class ResolutionStore(NearestEntities, Protocol):
    """The part of the ``GraphStore`` port resolution reads."""

    def alias_targets(self, keys: Sequence[str]) -> dict[str, str]: ...

    def existing_entity_ids(self, entity_ids: Sequence[str]) -> set[str]: ...


@dataclass
class ResolvedDocument:
    entities: list[Entity]
    aliases: list[Alias]
    mentions: list[Mention]
    relations: list[Relation]
    same_as: list[SameAs]


@dataclass
class ResolutionStats:
    entities: int = 0
    new_entities: int = 0
    merged: int = 0  # names merged into another by similarity
    same_as: int = 0
    compounds_split: int = 0
    weak_dropped: int = 0


@dataclass
class _Group:
    canon: str
    members: list[str] = field(default_factory=list)
    stored: str = ""  # an id the graph already has for one of the names
    entity: str = ""


class Resolver:
    def __init__(
        self,
        settings: ResolutionSettings | None = None,
        store: ResolutionStore | None = None,
        embed: EmbedNames | None = None,
        dim: int = 0,
    ) -> None:
        self._cfg = settings or ResolutionSettings()
        self._store = store
        self._embed = embed
        self._dim = dim
        self._surfaces: dict[str, Counter[str]] = defaultdict(Counter)
        self._mentions: Counter[str] = Counter()
        self._strong: set[str] = set()
        self._weak: set[str] = set()
        self._lowercase: set[str] = set()
        self._targets: dict[str, Counter[str]] = defaultdict(Counter)
        self._kinds: dict[str, Counter[str]] = defaultdict(Counter)
        self._descriptions: dict[str, str] = {}
        self._compounds: dict[str, tuple[tuple[str, str], ...]] = {}
        # filled by finalize()
        self._stored: dict[str, str] = {}
        self._split: dict[str, tuple[str, ...]] = {}
        self._dropped: set[str] = set()
        self._entity_of: dict[str, str] = {}  # canonical key -> entity id
        self._merged: dict[str, float] = {}  # canonical key merged by similarity -> score
        self._names: dict[str, tuple[str, str, str]] = {}  # entity id -> name, kind, description
        self._vectors: dict[str, tuple[float, ...]] = {}
        self._same_as = SameAsEdges()
        self._emitted: set[tuple[str, str]] = set()
        self.stats = ResolutionStats()

    # --- pass 1 ---------------------------------------------------------------
    def register(self, facts: DocFacts) -> None:
        for key, surface in facts.surfaces.items():
            self._surfaces[key][surface] += 1
            (self._weak if key in facts.weak else self._strong).add(key)
        for key, kind in facts.types.items():
            self._kinds[key][kind] += 1
        for key, text in facts.descriptions.items():
            if text:
                self._descriptions.setdefault(key, text)
        for chunk in facts.chunks:
            self._mentions.update(chunk.mentions)
        for a in facts.aliases:
            key = normalize_name(a.alias)
            if key and key != a.target:
                self._targets[key][a.target] += 1
                self._strong.update((key, a.target))
                self._surfaces[key][a.alias] += 0  # known as a name even if never mentioned
        self._compounds.update(facts.compounds)
        self._lowercase |= facts.lowercase

    def canonical(self, key: str) -> str:
        seen = {key}
        while key in self._targets:
            votes = self._targets[key]
            nxt = min(votes, key=lambda t: (-votes[t], t))  # majority, ties by name: stable
            if nxt in seen:  # a cycle of alias definitions: stop at the first repeat
                break
            seen.add(nxt)
            key = nxt
        return key

    def display_name(self, key: str) -> str:
        names = self._surfaces.get(key)
        if not names:
            return key
        return min(names, key=lambda s: (-names[s], s))

    def kind(self, key: str) -> str:
        kinds = self._kinds.get(key)
        if not kinds:
            return NAME
        return max(kinds, key=lambda k: (_KIND_RANK.get(k, 4), kinds[k], k))

    # --- pass 2 ---------------------------------------------------------------
    def finalize(self) -> ResolutionStats:
        keys = sorted(set(self._surfaces) | set(self._targets))
        parts = {
            normalize_name(p)
            for splits in self._compounds.values()
            for pair in splits
            for p in pair
        }
        self._lookup(sorted(set(keys) | parts))
        known = self._strong | set(self._stored)
        for key in sorted(self._compounds):
            for left, right in self._compounds[key]:
                pieces = (normalize_name(left), normalize_name(right))
                if all(p in known for p in pieces):
                    self._split[key] = pieces
                    for piece, surface in zip(pieces, (left, right), strict=True):
                        self._surfaces[piece][surface] += 0
                    break
        # A weak word goes when nothing names it and the run writes it in lower case too, in
        # some inflection ("Causes ..." vs "the cause"); "Andorra is ..." stays.
        weak = {k for k in self._weak if k not in known}
        if weak:
            lower = {v for w in self._lowercase for v in _inflections(w)}
            self._dropped = {k for k in weak if _inflections(k) & lower}
        self.stats.compounds_split = len(self._split)
        self.stats.weak_dropped = len(self._dropped)

        groups: dict[str, _Group] = {}
        for key in sorted(set(self._surfaces)):
            if key in self._split or key in self._dropped:
                continue
            canon = self.canonical(key)
            group = groups.setdefault(canon, _Group(canon))
            group.members.append(key)
        for group in groups.values():
            self._attach_stored(group)
        self._by_similarity(groups)
        for canon, group in groups.items():
            self._entity_of[canon] = group.entity or group.stored or entity_id(canon)
        existing = self._existing(sorted(set(self._entity_of.values())))
        # The name an id was derived from names the entity; merged variants come after it.
        for canon in sorted(groups, key=lambda c: (entity_id(c) != self._entity_of[c], c)):
            eid = self._entity_of[canon]
            if eid not in self._names:
                self._names[eid] = (
                    self.display_name(canon),
                    self.kind(canon),
                    self._descriptions.get(canon, ""),
                )
            if eid in existing:
                self._vectors.pop(eid, None)
        self.stats.entities = len(set(self._entity_of.values()))
        self.stats.new_entities = len(set(self._entity_of.values()) - existing)
        self.stats.same_as = len(self._same_as)
        return self.stats

    def _lookup(self, keys: list[str]) -> None:
        if self._store is None:
            return
        for start in range(0, len(keys), _LOOKUP_BATCH):
            self._stored.update(self._store.alias_targets(keys[start : start + _LOOKUP_BATCH]))

    def _existing(self, ids: list[str]) -> set[str]:
        if self._store is None or not ids:
            return set()
        found: set[str] = set()
        for start in range(0, len(ids), _LOOKUP_BATCH):
            found |= self._store.existing_entity_ids(ids[start : start + _LOOKUP_BATCH])
        return found

    def _attach_stored(self, group: _Group) -> None:
        """Use the id the graph already has for the canonical name or, failing that, for any
        of its aliases; two stored entities named by one alias group are linked, not lost."""
        ids = [self._stored[k] for k in [group.canon, *group.members] if k in self._stored]
        if not ids:
            return
        group.stored = ids[0]
        for other in sorted(set(ids[1:]) - {ids[0]}):
            self._add_same_as(other, ids[0], 0.95, "alias")

    def _by_similarity(self, groups: dict[str, _Group]) -> None:
        if self._embed is None:
            return
        if all(g.stored for g in groups.values()):
            return  # nothing new to place
        # Stored names of this run are compared too, so a new variant can join them.
        items = [
            Named(c, self.display_name(c), self.kind(c), groups[c].stored) for c in sorted(groups)
        ]
        vectors = self._embed([i.name for i in items])
        found = merge_similar(items, vectors, self._mentions, self._cfg, self._store)
        for key, eid in found.entity_of.items():
            groups[key].entity = eid
        self._merged.update(found.merged)
        self._vectors.update(found.vectors)
        self.stats.merged = len(found.merged)
        for edge in found.same_as:
            self._add_same_as(edge.source_id, edge.target_id, edge.score, edge.method)

    def _add_same_as(self, a: str, b: str, score: float, method: str) -> None:
        self._same_as.add(a, b, score, method)

    # --- per document ---------------------------------------------------------
    def entity_ids(self, key: str, local: dict[str, str] | None = None) -> tuple[str, ...]:
        """The entity ids a name stands for: none (dropped), one, or two (a split compound)."""
        if key in self._dropped:
            return ()
        if key in self._split:
            return tuple(i for part in self._split[key] for i in self.entity_ids(part, local))
        start = local.get(key, key) if local else key
        canon = self.canonical(start)
        eid = self._entity_of.get(canon)
        if eid is None:  # registered after finalize, or never: derive, stay deterministic
            eid = self._stored.get(canon) or self._stored.get(key) or entity_id(canon)
            self._entity_of[canon] = eid
            self._names.setdefault(eid, (self.display_name(canon), self.kind(canon), ""))
        return (eid,)

    def embedding(self, eid: str) -> tuple[float, ...] | None:
        return self._vectors.get(eid)

    def resolve(
        self, facts: DocFacts, doc_id: str, chunk_ids: list[str], extractor: str
    ) -> ResolvedDocument:
        """Entities, aliases, mentions, relations and SAME_AS edges of one document."""
        local = _local_targets(facts)
        used: dict[str, Entity] = {}

        def ids(key: str) -> tuple[str, ...]:
            found = self.entity_ids(key, local)
            for eid in found:
                if eid not in used:
                    name, kind, description = self._names[eid]
                    used[eid] = Entity(
                        id=eid,
                        name=name,
                        type=kind,
                        description=description,
                        embedding=self._vectors.get(eid, ()),
                    )
            return found

        mentions: Counter[tuple[str, str]] = Counter()
        relations: list[Relation] = []
        for cid, chunk in zip(chunk_ids, facts.chunks, strict=True):
            for key, n in chunk.mentions.items():
                for eid in ids(key):
                    mentions[(cid, eid)] += n
            for r in chunk.relations:
                for a in ids(r.source):
                    for b in ids(r.target):
                        if a != b:
                            relations.append(
                                Relation(
                                    source_id=a,
                                    target_id=b,
                                    type=r.type,
                                    weight=r.weight,
                                    evidence=(cid,),
                                    extractor=r.origin or extractor,
                                )
                            )
        aliases: list[Alias] = []
        for key, surface in facts.surfaces.items():
            if key in self._split:  # "Kelby and Easterby" names neither place
                continue
            for eid in ids(key):
                canon = self.canonical(local.get(key, key))
                score = self._merged.get(canon)
                method, conf = ("similarity", score) if score is not None else ("name", 1.0)
                aliases.append(_alias(surface, key, eid, method, conf))
        for fact in facts.aliases:
            key = normalize_name(fact.alias)
            for eid in ids(fact.target):
                aliases.append(_alias(fact.alias, key, eid, fact.method, fact.confidence))
        same_as = []
        for pair, edge in self._same_as.touching(used):
            if pair not in self._emitted:
                self._emitted.add(pair)
                same_as.append(edge)
        return ResolvedDocument(
            entities=list(used.values()),
            aliases=[a for a in aliases if a.normalized],
            mentions=[Mention(chunk_id=c, entity_id=e, count=n) for (c, e), n in mentions.items()],
            relations=relations,
            same_as=same_as,
        )


def _inflections(word: str) -> set[str]:
    """The word and what is left once one English inflectional ending is taken off."""
    out = {word}
    for ending in _INFLECTIONAL_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            out.add(word[: -len(ending)])
    return out


def _local_targets(facts: DocFacts) -> dict[str, str]:
    """Alias definitions of this document: they win over the run's majority inside it."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for a in facts.aliases:
        key = normalize_name(a.alias)
        if key and key != a.target:
            votes[key][a.target] += 1
    return {k: min(v, key=lambda t: (-v[t], t)) for k, v in votes.items()}


def _alias(surface: str, key: str, eid: str, method: str, confidence: float) -> Alias:
    return Alias(name=surface, normalized=key, entity_id=eid, method=method, confidence=confidence)
