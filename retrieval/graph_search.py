"""The ``graph`` preset: candidates, entity linking, personalized PageRank, authority, paths.

1. Candidates: exact dense cosine over every chunk and BM25 over chunk titles and texts (in
   memory, retrieval/lexical.py; ``graph_lexical = "store"`` uses the store's full-text
   index), fused by RRF.
2. Entities linked in the question (linking.py) and the best fused candidates seed a
   personalized PageRank over the chunk–entity graph (retrieval.projection).
3. Each chunk scores ``ppr_weight * ppr / max(ppr) + dense_weight * cosine +
   authority_weight * authority``; the weights are settings measured by ``kg bench``.
4. The top results are explained by the cheapest relation path from a linked entity to an
   entity they mention (expansion.py); entities on those paths are the bridges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from graph_store import GraphStore
from retrieval.config import RetrievalSettings
from retrieval.expansion import Expansion, expand, explain
from retrieval.filters import SearchFilters
from retrieval.fusion import rrf
from retrieval.graph_index import GraphIndex
from retrieval.linking import LinkedEntity, link_entities, seed_weights, specificity
from retrieval.mmr import mmr
from retrieval.read_model import InMemoryReadModel


@dataclass(frozen=True)
class GraphHit:
    chunk_index: int
    score: float
    components: dict[str, float]
    path: list[str]


@dataclass
class GraphOutcome:
    hits: list[GraphHit] = field(default_factory=list)
    linked: list[LinkedEntity] = field(default_factory=list)
    bridges: list[tuple[str, str]] = field(default_factory=list)  # (entity id, name)


def graph_search(
    question: str,
    query_vector: np.ndarray,
    k: int,
    model: InMemoryReadModel,
    settings: RetrievalSettings,
    filters: SearchFilters | None = None,
) -> GraphOutcome:
    """The graph preset on the in-memory read model. The walk, the path search and the
    linker are the model's (one PageRank, one path search, one linker); the vectorised
    scoring below reads its projection directly, which is what keeps the preset at tens of
    milliseconds on 40k entities."""
    index = model.index()
    store = model.store
    n = len(index.chunk_ids)
    if n == 0:
        return GraphOutcome()
    allowed = _mask(index, filters)
    dense = index.dense_scores(query_vector)
    pool = settings.candidate_pool
    dense_rank = [int(i) for i in np.argsort(-np.where(allowed, dense, -np.inf))[:pool]]
    bm25 = _lexical(question, pool, index, store, settings, allowed, filters)
    fused = rrf([dense_rank, list(bm25)], settings.rrf_k, [1.0, settings.seed_bm25_weight])
    linked = link_entities(question, query_vector.tolist(), model, settings)

    walk = _walk(index, fused, linked, settings)
    ppr = walk[:n]
    ppr = np.where(allowed, ppr, 0.0)
    top_ppr = float(ppr.max()) if ppr.size else 0.0
    ppr_norm = ppr / top_ppr if top_ppr > 0 else ppr
    score = (
        settings.ppr_weight * ppr_norm
        + settings.dense_weight * dense
        + settings.authority_weight * index.chunk_authority
    )
    named = {index.entity_index[x.entity_id]: x.score for x in linked if x.method != "embedding"}
    _add_subject_bonus(score, named, index, settings)
    score = score + settings.bridge_weight * _bridges(
        query_vector, score, walk, allowed, set(named), index, settings
    )
    score = np.where(allowed, score, -np.inf)
    depth = max(k, 10) * 3
    order = [int(i) for i in np.argsort(-score)[:depth] if np.isfinite(score[i])]
    if settings.mmr_lambda < 1.0:
        relevance = {i: float(score[i]) for i in order}
        order = mmr(order, relevance, index.chunk_matrix, k, settings.mmr_lambda)
    # Paths start from the entities the question names (alias or full-text match), at the
    # strength of the match; a common name is still the question's subject.
    expansion = expand(
        named, index, settings.max_hops, settings.hop_decay, settings.backward_factor
    )
    strategic = _strategic(expansion, index, dense, allowed, set(order[:k]), settings)
    keep = max(0, k - len(strategic))
    picks = [(ci, -1) for ci in order[:keep]] + list(strategic.items())
    columns = {"ppr": ppr_norm, "dense": dense, "authority": index.chunk_authority}
    hits, bridges = _explained(picks, expansion, index, score, columns, bm25)
    return GraphOutcome(hits=hits, linked=linked, bridges=bridges)


def _walk(
    index: GraphIndex,
    fused: Mapping[int, float],
    linked: Sequence[LinkedEntity],
    settings: RetrievalSettings,
) -> np.ndarray:
    """Personalized PageRank reset on the best fused chunks and the linked entities."""
    proj = index.projection
    reset = seed_weights(fused, linked, settings, lambda e: proj.n_chunks + index.entity_index[e])
    return proj.pagerank(
        proj.vector(reset), damping=settings.damping, tol=settings.ppr_tolerance
    ).scores


def _add_subject_bonus(
    score: np.ndarray, named: Mapping[int, float], index: GraphIndex, settings: RetrievalSettings
) -> None:
    """A passage whose document is about an entity the question names is where a reader
    looks first ("If Gallu is a demon, Lilu is what?" -> the article on Lilu)."""
    if settings.named_subject_weight <= 0:
        return
    for ei, link_score in named.items():
        for doc in index.subject_docs.get(ei, []):
            for c in index.doc_chunks.get(doc, []):
                score[c] += settings.named_subject_weight * link_score


def _explained(
    picks: Sequence[tuple[int, int]],
    expansion: Expansion,
    index: GraphIndex,
    score: np.ndarray,
    columns: Mapping[str, np.ndarray],
    bm25: Mapping[int, float],
) -> tuple[list[GraphHit], list[tuple[str, str]]]:
    """Each pick with its component scores and the relation path that explains it; the
    entities along those paths are the bridges."""
    hits: list[GraphHit] = []
    bridges: dict[int, None] = {}
    for ci, subject in picks:
        path, end = explain(ci, expansion, index, via=subject)
        node = end
        while node >= 0 and expansion.reached(node):
            parent = int(expansion.parent[node])
            if parent < 0:
                break
            bridges[node] = None
            node = parent
        components = {
            "ppr": round(float(columns["ppr"][ci]), 6),
            "dense": round(float(columns["dense"][ci]), 6),
            "bm25": round(float(bm25.get(ci, 0.0)), 6),
            "authority": round(float(columns["authority"][ci]), 6),
        }
        if subject >= 0:
            components["strategic"] = 1.0
        hits.append(GraphHit(ci, float(score[ci]), components, path))
    ids = index.projection.entity_ids
    return hits, [(ids[b], index.entity_names[b]) for b in bridges]


def _lexical(
    question: str,
    pool: int,
    index: GraphIndex,
    store: GraphStore,
    settings: RetrievalSettings,
    allowed: np.ndarray,
    filters: SearchFilters | None,
) -> dict[int, float]:
    """BM25 candidates (chunk position -> score, best first): in memory by default, else the
    store's full-text index (over-fetched under filters, which it cannot apply)."""
    if settings.graph_lexical == "memory" and index.bm25 is not None:
        hits = index.bm25.top(question, pool, settings.bm25_k1, settings.bm25_b, allowed)
        return dict(hits)
    bm25: dict[int, float] = {}
    for h in store.fulltext_chunks(question, pool * (3 if filters and filters.active else 1)):
        ci = index.projection.chunk_pos.get(h.chunk_id)
        if ci is not None and allowed[ci]:
            bm25[ci] = h.score
    return bm25


def _bridges(
    query: np.ndarray,
    score: np.ndarray,
    walk: np.ndarray,
    allowed: np.ndarray,
    named: set[int],
    index: GraphIndex,
    settings: RetrievalSettings,
) -> np.ndarray:
    """Second hop: entities that the best first-hop passages mention (and the question does
    not name) are bridges; passages mentioning a bridge are scored against the question with
    the bridge added to it (query vector + bridge name vector), as a reader would re-ask
    "…of *that* entity?". Returns a per-chunk bonus (0 for chunks reached by no bridge)."""
    bonus = np.zeros(len(index.chunk_ids))
    if settings.bridge_weight <= 0 or index.entity_matrix is None or settings.bridge_from <= 0:
        return bonus
    ranked = np.argsort(-np.where(allowed, score, -np.inf))[: settings.bridge_from]
    first = {int(c) for c in ranked}
    n_chunks = index.projection.n_chunks
    candidates = {ei for c in first for ei in index.chunk_entities[c] if ei not in named}
    if not candidates:
        return bonus
    top = sorted(candidates, key=lambda ei: -walk[n_chunks + ei])[: settings.bridge_entities]
    q = query / (np.linalg.norm(query) or 1.0)
    for ei in top:
        qe = q + settings.bridge_alpha * index.entity_matrix[ei]
        qe = qe / (np.linalg.norm(qe) or 1.0)
        chunks = [c for c in index.entity_chunks[ei] if c not in first and allowed[c]]
        if not chunks:
            continue
        # A bridge named in every other passage (the partnership all members belong to)
        # narrows nothing down; one named in two or three passages is a real hop.
        weight = specificity(len(index.entity_chunks[ei]))
        sims = index.chunk_matrix[chunks] @ qe.astype(np.float32)
        for c, sim in zip(chunks, sims, strict=True):
            bonus[c] = max(bonus[c], weight * float(sim))
    return bonus


def _strategic(
    expansion: Expansion,
    index: GraphIndex,
    dense: np.ndarray,
    allowed: np.ndarray,
    taken: set[int],
    settings: RetrievalSettings,
) -> dict[int, int]:
    """Documents whose subject the question's entities reach through stated relations (not
    chance co-occurrence: every edge on the path must be strong), ranked by path strength and
    authority; each contributes its passage closest to the question. This is how a trust's
    question reaches the national plan its partnership implements, with no keyword list."""
    if settings.strategic_slots <= 0:
        return {}
    docs: dict[str, tuple[float, int]] = {}
    for ei in expansion.strong(settings.strategic_min_strength).tolist():
        strength = float(expansion.strength[ei])
        for doc in index.subject_docs.get(ei, []):
            value = strength * (0.5 + 0.5 * index.doc_authority_norm(doc))
            if value > docs.get(doc, (0.0, -1))[0]:
                docs[doc] = (value, ei)
    picks: dict[int, int] = {}  # chunk -> the subject entity that brought it in
    for doc, (_value, subject) in sorted(docs.items(), key=lambda kv: -kv[1][0]):
        chunks = [c for c in index.doc_chunks.get(doc, []) if allowed[c]]
        if not chunks or any(c in taken for c in chunks):
            continue
        picks[max(chunks, key=lambda c: dense[c])] = subject
        if len(picks) >= settings.strategic_slots:
            break
    return picks


def _mask(index: GraphIndex, filters: SearchFilters | None) -> np.ndarray:
    n = len(index.chunk_ids)
    if filters is None or not filters.active:
        return np.ones(n, dtype=bool)
    ok_docs = {d for d, m in index.docs.items() if filters.accepts(m.source, m.doc_type, m.date)}
    return np.asarray([d in ok_docs for d in index.chunk_docs], dtype=bool)
