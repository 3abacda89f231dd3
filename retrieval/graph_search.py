"""The ``graph`` preset, one implementation over the read-model port for every store.

1. Candidates: the read model's dense and BM25 chunks, fused by RRF.
2. Entities linked in the question (linking.py) and the best fused candidates seed a
   personalized PageRank (in memory over the projection; on Neo4j over the graph's topology
   held in the process, retrieval/topology.py, or over the part of the graph the seeds reach,
   graph_store/neo4j/walk.py).
3. Each scored chunk gets ``ppr_weight * ppr / max(ppr) + dense_weight * cosine +
   authority_weight * authority``, plus the named-subject bonus and the bridge second hop;
   the weights are settings measured by ``kg bench``. The scored chunks are those the model
   names: the candidates, the walk's top ``walk_top`` nodes, the named subjects' chunks and the
   bridges' chunks.
4. The last slots go to documents reached along strong relation paths; the results are
   explained by the cheapest relation path from a linked entity to an entity they mention.

The process asks the model only for what one question needs, the independent reads at once
(parallel.py): on Neo4j it holds at most the graph's topology; the in-memory model answers
each call from its projection with numpy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Future

import numpy as np

from graph_store.read_model import (
    Candidates,
    ChunkDetail,
    GraphReadModel,
    PathHop,
    ReachKeep,
    ScoredChunk,
)
from retrieval.config import RetrievalSettings
from retrieval.filters import SearchFilters
from retrieval.fusion import rrf
from retrieval.linking import link_entities, seed_weights, specificity
from retrieval.parallel import Reads
from retrieval.search_types import Retrieval, SearchResult


def graph_search(
    question: str,
    vector: np.ndarray,
    k: int,
    model: GraphReadModel,
    settings: RetrievalSettings,
    filters: SearchFilters | None = None,
) -> Retrieval:
    q = vector.tolist()
    over = 3 if filters is not None and filters.active else 1
    pool = settings.candidate_pool
    chunks = _Chunks(model, q, filters)
    details = chunks.details
    detail, allowed = chunks.fetch, chunks.allowed

    # The candidates (with their details) and entity linking do not depend on each other
    # (retrieval/parallel.py).
    reads = Reads(settings.parallel_reads)
    dense_read = reads.start(model.dense_candidates, q, pool * over)
    lexical_read = reads.start(model.lexical_candidates, question, q, pool * over)
    linked = link_entities(question, q, model, settings)
    dense_hits, lexical_hits = chunks.take(dense_read.result()), chunks.take(lexical_read.result())
    dense_rank = [h.chunk_id for h in dense_hits if allowed(h.chunk_id)][:pool]
    bm25 = {h.chunk_id: h.score for h in lexical_hits if allowed(h.chunk_id)}
    fused = rrf([dense_rank, list(bm25)[:pool]], settings.rrf_k, [1.0, settings.seed_bm25_weight])

    named = {x.entity_id: x.score for x in linked if x.method != "embedding"}
    # The named subjects' documents include those whose titles name an organisation (its
    # own papers); the strategic slots below keep to the documents titled by their subject.
    # Read while the walk runs.
    subjects_read = (
        reads.start(model.subject_chunks, list(named), titled=True)
        if settings.named_subject_weight > 0
        else None
    )
    seeds = seed_weights(fused, linked, settings, lambda e: e)
    walk = model.personalized_pagerank(seeds, settings.walk_top, damping=settings.damping)
    subjects = subjects_read.result() if subjects_read is not None else {}
    # One read for both; entities among the walk's nodes come back with no detail.
    detail([*walk, *(c for ids in subjects.values() for c in ids)])

    score: dict[str, float] = {}
    top_ppr = max((walk.get(c, 0.0) for c in details if allowed(c)), default=0.0)
    for c, d in details.items():
        if allowed(c):
            ppr = walk.get(c, 0.0) / top_ppr if top_ppr > 0 else 0.0
            score[c] = (
                settings.ppr_weight * ppr
                + settings.dense_weight * d.similarity
                + settings.authority_weight * d.authority
            )
    for e, link_score in named.items():
        for c in subjects.get(e, []):
            if c in score:
                score[c] += settings.named_subject_weight * link_score
    paths = _Paths(model, named, settings, chunks, reads)
    for c, bonus in _bridges(q, score, walk, set(named), settings, chunks, k, paths).items():
        score[c] = score.get(c, _unwalked(details[c], settings)) + settings.bridge_weight * bonus

    order = sorted(score, key=lambda c: -score[c])
    mentions = chunks.mentions(order[:k])
    reach = paths.result(order[:k])
    strategic = _strategic(reach, model, set(order[:k]), settings, chunks)
    picks = [(c, "") for c in order[: max(0, k - len(strategic))]] + list(strategic.items())
    results: list[SearchResult] = []
    bridges: dict[str, str] = {}
    for c, subject in picks:
        d = details[c]
        # a strategic pick the walk did not reach is scored as the bridges' passages are
        score.setdefault(c, _unwalked(d, settings))
        path, end = _explain(mentions.get(c, {}), reach, subject)
        node = reach.get(end) if end else None
        while node is not None and node.via is not None:
            bridges[node.entity_id] = node.name
            node = reach.get(node.via)
        components = {
            "ppr": round(walk.get(c, 0.0) / top_ppr if top_ppr > 0 else 0.0, 6),
            "dense": round(d.similarity, 6),
            "bm25": round(bm25.get(c, 0.0), 6),
            "authority": round(d.authority, 6),
        }
        if subject:
            components["strategic"] = 1.0
        results.append(
            SearchResult(c, d.doc_id, d.doc_title, d.text, score[c], components, path, d.tokens)
        )
    return Retrieval("graph", results, linked, list(bridges.items()))


def _unwalked(d: ChunkDetail, settings: RetrievalSettings) -> float:
    """The score of a passage the walk did not reach: its similarity and authority."""
    return settings.dense_weight * d.similarity + settings.authority_weight * d.authority


def _bridges(
    query: list[float],
    score: Mapping[str, float],
    walk: Mapping[str, float],
    named: set[str],
    settings: RetrievalSettings,
    chunks: _Chunks,
    k: int,
    paths: _Paths,
) -> dict[str, float]:
    """Second hop: entities that the best first-hop passages mention (and the question does
    not name) are bridges; passages mentioning a bridge are scored against the question with
    the bridge added to it (query vector + bridge name vector), as a reader would re-ask
    "...of *that* entity?". A bridge named in every other passage narrows nothing down, so
    its weight is its specificity. The relation paths (``paths``) are read meanwhile, for
    what the best k can then be: the best k now and the chunks a bridge may score."""
    ahead = sorted(score, key=lambda c: -score[c])
    if settings.bridge_weight <= 0 or settings.bridge_from <= 0 or not score:
        paths.start(ahead[:k])
        return {}
    first = ahead[: settings.bridge_from]
    # The best k's mentions too, in the same read: the results are explained by them, and
    # the bridges seldom move more than a passage or two into the best k.
    mentioned = chunks.mentions([*first, *ahead[:k]])
    candidates = {e for c in first for e in mentioned.get(c, {}) if e not in named}
    top = sorted(candidates, key=lambda e: (-walk.get(e, 0.0), e))[: settings.bridge_entities]
    if not top:
        paths.start(ahead[:k])
        return {}
    model = chunks.model
    chunks_of = model.entity_chunks(top)
    taken = set(first)
    asks: list[tuple[str, float, list[str]]] = []  # per bridge: it, its weight, its other chunks
    for e in top:
        every = chunks_of.get(e, [])
        if 0 < settings.bridge_max_chunks < len(every):
            continue
        others = [c for c in every if c not in taken]
        if others:
            asks.append((e, specificity(len(every)), others))
    every_other = list(dict.fromkeys(c for _, _, others in asks for c in others))
    paths.start([*ahead[:k], *every_other])
    if not asks:
        return {}
    # The question moved toward a bridge, q' = (q + alpha e) / |q + alpha e| with q and e unit
    # vectors, meets a passage c at (c.q + alpha c.e) / sqrt(1 + alpha^2 + 2 alpha q.e): the
    # store compares the names with the passages and with the question, and no vector leaves
    # it (on Neo4j the names' vectors were a round trip of their own).
    bridges = [e for e, _, _ in asks]
    reads = Reads(settings.parallel_reads)
    toward_read = reads.start(model.entity_similarities, bridges, query)
    sims_read = reads.start(model.chunk_entity_similarities, every_other, bridges)
    chunks.fetch(every_other)
    toward, sims = toward_read.result(), sims_read.result()
    alpha = settings.bridge_alpha
    bonus: dict[str, float] = {}
    for b, (e, weight, others) in enumerate(asks):
        if e not in toward:  # a name without a vector
            continue
        norm = float(np.sqrt(max(1.0 + alpha * alpha + 2.0 * alpha * toward[e], 0.0))) or 1.0
        for c in others:
            if c in sims and chunks.allowed(c):
                moved = (chunks.details[c].similarity + alpha * sims[c][b]) / norm
                bonus[c] = max(bonus.get(c, 0.0), weight * moved)
    return bonus


class _Paths:
    """The relation paths from the question's named entities, kept for their strong entries
    (the strategic slots) and for the entities the best k chunks mention (their
    explanations). Read while the bridges' passages are: every chunk that can then be among
    the best k names the targets (the best k before the bridges, and each passage a bridge
    may score); should the best k hold an entity those miss, the paths are read again. More
    targets change none of the paths, only what else is kept."""

    def __init__(
        self,
        model: GraphReadModel,
        named: Mapping[str, float],
        settings: RetrievalSettings,
        chunks: _Chunks,
        reads: Reads,
    ) -> None:
        self._model, self._named, self._settings, self._chunks = model, named, settings, chunks
        self._reads = reads
        self._targets: frozenset[str] = frozenset()
        self._read: Future[dict[str, PathHop]] | None = None

    def start(self, best: Sequence[str]) -> None:
        """Read the paths for the entities ``best`` mention (a superset of the best k's)."""
        self._targets = self._mentioned(best)
        self._read = self._reads.start(self._paths, self._targets)

    def result(self, best: Sequence[str]) -> dict[str, PathHop]:
        targets = self._mentioned(best)
        if self._read is not None and targets <= self._targets:
            return self._read.result()
        return self._paths(targets)

    def _mentioned(self, best: Sequence[str]) -> frozenset[str]:
        mentions = self._chunks.mentions(best)
        return frozenset(e for c in best for e in mentions.get(c, {}))

    def _paths(self, targets: frozenset[str]) -> dict[str, PathHop]:
        s = self._settings
        strong = s.strategic_min_strength if s.strategic_slots > 0 else None
        return self._model.relation_paths(
            self._named, s.max_hops, s.hop_decay, s.backward_factor, ReachKeep(strong, targets)
        )


def _strategic(
    reach: Mapping[str, PathHop],
    model: GraphReadModel,
    taken: set[str],
    settings: RetrievalSettings,
    chunks: _Chunks,
) -> dict[str, str]:
    """Documents whose subject the question's entities reach over strong relations, ranked
    by path strength and authority, each contributing its passage closest to the question
    (not chance co-occurrence: every edge on the path must be strong)."""
    if settings.strategic_slots <= 0:
        return {}
    strong = {
        e: h.strength
        for e, h in reach.items()
        if h.hops > 0 and h.strength >= settings.strategic_min_strength
    }
    subjects = model.subject_chunks(sorted(strong))
    chunks.fetch([c for ids in subjects.values() for c in ids])
    docs: dict[str, tuple[float, str]] = {}
    doc_chunks: dict[str, list[str]] = {}
    for e in sorted(subjects, key=lambda e: (-strong[e], e)):
        for c in subjects[e]:
            d = chunks.details.get(c)
            if d is None:
                continue
            doc_chunks.setdefault(d.doc_id, [])
            if c not in doc_chunks[d.doc_id]:
                doc_chunks[d.doc_id].append(c)
            value = strong[e] * (0.5 + 0.5 * d.authority)
            if value > docs.get(d.doc_id, (0.0, ""))[0]:
                docs[d.doc_id] = (value, e)
    picks: dict[str, str] = {}
    for doc, (_value, subject) in sorted(docs.items(), key=lambda kv: -kv[1][0]):
        ok = [c for c in doc_chunks[doc] if chunks.allowed(c)]
        if not ok or any(c in taken for c in ok):
            continue
        picks[max(ok, key=lambda c: chunks.details[c].similarity)] = subject
        if len(picks) >= settings.strategic_slots:
            break
    return picks


class _Chunks:
    """The chunks a question has touched, with their details (fetched once each)."""

    def __init__(
        self, model: GraphReadModel, vector: list[float], filters: SearchFilters | None
    ) -> None:
        self.model = model
        self._vector = vector
        self._filters = filters if filters is not None and filters.active else None
        self.details: dict[str, ChunkDetail] = {}
        self._mentions: dict[str, dict[str, int]] = {}

    def take(self, got: Candidates) -> list[ScoredChunk]:
        """A candidate read's hits, keeping their details (on the caller's thread)."""
        for c, d in got.details.items():
            self.details.setdefault(c, d)
        return got.hits

    def mentions(self, ids: Sequence[str]) -> dict[str, dict[str, int]]:
        """The entities each chunk mentions (read once each; none for a chunk with none)."""
        missing = [c for c in dict.fromkeys(ids) if c not in self._mentions]
        if missing:
            got = self.model.chunk_entities(missing)
            for c in missing:
                self._mentions[c] = got.get(c, {})
        return {c: self._mentions[c] for c in ids if self._mentions[c]}

    def fetch(self, ids: Sequence[str]) -> None:
        missing = [c for c in dict.fromkeys(ids) if c not in self.details]
        if missing:
            self.details.update(self.model.chunk_details(missing, self._vector))

    def allowed(self, chunk_id: str) -> bool:
        d = self.details.get(chunk_id)
        if d is None:
            return False
        f = self._filters
        return f is None or f.accepts(d.source, d.doc_type, d.date)


def _explain(
    mentions: Mapping[str, int], reach: Mapping[str, PathHop], subject: str
) -> tuple[list[str], str]:
    candidates = [subject] if subject else list(mentions)
    reached = [e for e in candidates if e in reach]
    if not reached:
        return [], ""
    end = min(reached, key=lambda e: reach[e].cost)
    steps: list[str] = []
    node = reach[end]
    while node.via is not None:
        parent = reach[node.via]
        steps.append(
            f"{parent.name} -[{node.relation}]-> {node.name}"
            if node.forward
            else f"{parent.name} <-[{node.relation}]- {node.name}"
        )
        node = parent
    steps.reverse()
    tail = "is the subject of this document" if subject else "mentioned in passage"
    steps.append(f"{reach[end].name} {tail}")
    return steps, end
