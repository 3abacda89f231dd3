"""The ``GraphReadModel`` port on Neo4j: the database does the graph work.

Candidates come from the native vector index (``db.index.vector.queryNodes``) and the full-text
index; entity linking reads alias keys and the entity vector index; personalized PageRank is
power iteration in the process over the seeds' neighbourhood, fetched in one to three bounded
queries (walk.py); authority is GDS PageRank *written* to the graph after each ingest; relation
paths come from one bounded query that runs the path rounds in the database and returns what
the caller reads. The process keeps no copy of the graph: what it fetches per question is
bounded by the seeds' neighbourhood, not by the graph's size.

Needs the GDS plugin; without it the composition root uses the in-memory read model and says
so in the log.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from core.names import QUALIFIED_CONFIDENCE, normalize_name, unqualified_name
from graph_store.neo4j.gds import NEXT_WEIGHT, SUBJECT_WEIGHT
from graph_store.neo4j.rows import cosine_from_score, escape_lucene, seed_rows
from graph_store.neo4j.store import Neo4jGraphStore
from graph_store.neo4j.walk import Neighbourhood, frontier, personalized, top
from graph_store.read_model import (
    AliasMatch,
    Candidates,
    ChunkDetail,
    EntityMatch,
    PathHop,
    ReachKeep,
    ScoredChunk,
    kept_paths,
)

# Longest alias, in tokens (punctuation counts), looked up as one n-gram of the question: long
# titles exist (a film called "The Day the Rain Came Down on the Old Mill Road Again" is 13).
MAX_ALIAS_WORDS = 20
# Neighbours fetched per seed, and the most edges an inner node of the walk may have for its
# own edges to be fetched (walk.py): see read_walk_neighbourhood.cypher.
WALK_FANOUT = 200
# Rounds of the walk's fetches, and the score a reached node needs to be fetched in the next.
WALK_ROUNDS = 3
WALK_MIN_SCORE = 1e-3
# Entities a round of the relation-path search goes on from, cheapest first
# (read_relation_reach.cypher), and the most times the query is asked for the entries on paths
# it left out.
REACH_LIMIT = 2000
REACH_ROUNDS = 4


@functools.cache
def _tokenizer() -> Any:
    """spaCy's rule tokenizer (no model), as the in-memory alias matcher tokenises."""
    import spacy

    return spacy.blank("en")


@functools.lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    """The text's tokens, lower case (kept: the same names come back question after question)."""
    return tuple(t.lower_ for t in _tokenizer().make_doc(text) if not t.is_space)


class Neo4jReadModel:
    def __init__(self, store: Neo4jGraphStore) -> None:
        self._store = store

    def version(self) -> str:
        return self._store.graph_version()

    def prepare(self) -> None:
        """Nothing to do: every question reads the database."""

    # --- candidates -------------------------------------------------------------
    def dense_chunks(self, vector: Sequence[float], k: int) -> list[ScoredChunk]:
        if k <= 0:
            return []
        # neo4j-graphrag's VectorCypherRetriever over the native vector index.
        return [
            ScoredChunk(h.chunk_id, h.doc_id, h.score)
            for h in self._store.graphrag_vector_chunks(vector, k)
        ]

    def lexical_chunks(self, question: str, k: int) -> list[ScoredChunk]:
        if k <= 0:
            return []
        return [
            ScoredChunk(h.chunk_id, h.doc_id, h.score)
            for h in self._store.fulltext_chunks(question, k)
        ]

    def dense_candidates(self, vector: Sequence[float], k: int) -> Candidates:
        """The dense candidates and their details in one query (retrieval_query_chunk)."""
        if k <= 0:
            return Candidates([], {})
        found = self._store.graphrag_vector_details(vector, k)
        hits = [ScoredChunk(d.chunk_id, d.doc_id, score) for score, d in found]
        return Candidates(hits, {d.chunk_id: d for _, d in found})

    def lexical_candidates(self, question: str, vector: Sequence[float], k: int) -> Candidates:
        """The full-text candidates and their details in one query."""
        query = escape_lucene(question)
        if not query or k <= 0:
            return Candidates([], {})
        rows = self._store.read(
            "read_lexical_candidates", query=query, k=int(k), vector=[float(x) for x in vector]
        )
        hits = [ScoredChunk(r[0], r[1], float(r[11])) for r in rows]
        return Candidates(hits, {r[0]: _detail(r) for r in rows})

    # --- entity linking inputs ------------------------------------------------------
    def alias_matches(self, question: str) -> list[AliasMatch]:
        """Every token n-gram of the question looked up by its normalised alias key in one
        query, kept where its words are the alias's own (case aside), as the in-memory model's
        PhraseMatcher does ("AWT's priorities" is not the title "AWT Priorities"); the
        longest spans win and overlapping shorter ones are dropped."""
        doc = _tokenizer().make_doc(question)
        # A span's text as spaCy's Span.text gives it, without making a Span an n-gram.
        texts, spaced = [t.text for t in doc], [t.text_with_ws for t in doc]
        spans: dict[str, list[tuple[int, int, str]]] = {}
        for i in range(len(doc)):
            for j in range(i + 1, min(len(doc), i + MAX_ALIAS_WORDS) + 1):
                text = "".join(spaced[i : j - 1]) + texts[j - 1]
                key = normalize_name(text)
                if key:
                    spans.setdefault(key, []).append((i, j, text))
        if not spans:
            return []
        rows = self._store.read("read_alias_matches", keys=sorted(spans))
        # (span, row, how sure): the alias or name itself, or its unqualified part.
        hits: list[tuple[tuple[int, int, str], list[Any], float]] = []
        for row in rows:
            key, name, alias = str(row[0]), str(row[2] or ""), str(row[5] or "")
            full = (_words(alias), _words(name))
            bare = (_words(unqualified_name(alias)), _words(unqualified_name(name)))
            for span in spans[key]:
                words = _words(span[2])
                if words in full:
                    hits.append((span, row, 1.0))
                elif words in bare:
                    hits.append((span, row, QUALIFIED_CONFIDENCE))
        from spacy.util import filter_spans  # spaCy loads on first linking, not on import

        # The longest spans win, as in the in-memory matcher.
        longest = filter_spans([doc[s:e] for s, e in {(s, e) for (s, e, _), _, _ in hits}])
        kept = {(span.start, span.end, span.text) for span in longest}
        out: dict[tuple[int, str], AliasMatch] = {}
        for (start, end, text), row, sure in hits:
            entity_id, name, conf, degree = str(row[1]), str(row[2] or ""), row[3], row[4]
            if (start, end, text) not in kept:
                continue
            # A one-word lower-case match is a common word ("green"), not a name.
            if end - start == 1 and not (text[:1].isupper() or name == text):
                continue
            match = AliasMatch(text, start, end, entity_id, name, float(conf) * sure, int(degree))
            old = out.get((start, entity_id))
            if old is None or match.confidence > old.confidence:
                out[(start, entity_id)] = match
        return sorted(out.values(), key=lambda m: (m.start, m.entity_id))

    def nearest_entities(
        self, vector: Sequence[float], k: int, min_score: float | None = None
    ) -> list[EntityMatch]:
        if k <= 0:
            return []
        rows = self._store.read(
            "read_vector_entities", k=int(k), embedding=[float(x) for x in vector]
        )
        hits = [EntityMatch(r[0], r[1], cosine_from_score(r[2]), int(r[3]), r[1]) for r in rows]
        return [h for h in hits if min_score is None or h.score >= min_score]

    def fulltext_entities(self, question: str, k: int) -> list[EntityMatch]:
        query = escape_lucene(question)
        if not query or k <= 0:
            return []
        rows = self._store.read("read_fulltext_entities", query=query, k=int(k))
        return [EntityMatch(r[0], r[1], float(r[2]), int(r[3]), r[4]) for r in rows]

    def entity_names(self, entity_ids: Sequence[str]) -> dict[str, str]:
        if not entity_ids:
            return {}
        return {r[0]: r[1] for r in self._store.read("read_entity_names", ids=list(entity_ids))}

    # --- walks and authority --------------------------------------------------------
    def personalized_pagerank(
        self, seeds: Mapping[str, float], k: int, damping: float = 0.85
    ) -> dict[str, float]:
        """The walk in the process over the part of the graph it reaches (walk.py): the seeds
        and their neighbours in one query, then, for at most ``WALK_ROUNDS - 1`` more, the
        reached nodes still holding ``WALK_MIN_SCORE`` of the mass. GDS walks of the whole
        graph cost 1.28 s a question on 2Wiki."""
        weights = {r["id"]: float(r["weight"]) for r in seed_rows(seeds)}
        if not weights or k <= 0:
            return {}
        hood = Neighbourhood()
        ask, expand, scores = sorted(weights), True, {}
        for _ in range(WALK_ROUNDS):
            hood.add(
                self._store.read(
                    "read_walk_neighbourhood",
                    ids=ask,
                    expand=expand,
                    fanout=WALK_FANOUT,
                    next_weight=NEXT_WEIGHT,
                    subject_weight=SUBJECT_WEIGHT,
                )
            )
            scores = personalized(hood, weights, damping)
            ask, expand = frontier(hood, scores, WALK_MIN_SCORE, WALK_FANOUT * 5), False
            if not ask:
                break
        return top(scores, k)

    def refresh_authority(self) -> bool:
        """GDS PageRank written to the graph, documents' authority set from it in Cypher.
        The graph version stays (authority is not projected and nothing here caches it), so
        the catalog graph of this version is kept for the walks that follow."""
        store = self._store
        if not store.authority_stale():
            return False
        store.gds.write_pagerank()
        store.mark_authority_current(store.graph_version())
        return True

    def authority_percentiles(self, entity_ids: Sequence[str]) -> dict[str, float]:
        if not entity_ids:
            return {}
        rows = self._store.read("read_entity_percentiles", ids=list(entity_ids))
        return {r[0]: (int(r[1]) / (int(r[2]) - 1) if int(r[2]) > 1 else 1.0) for r in rows}

    # --- paths ----------------------------------------------------------------------
    def relation_paths(
        self,
        sources: Mapping[str, float],
        max_hops: int,
        hop_decay: float = 0.8,
        backward: float = 0.5,
        keep: ReachKeep | None = None,
    ) -> dict[str, PathHop]:
        """The in-memory model's rounds (retrieval/expansion.py), run in the database by one
        query (``read_relation_reach``) that returns only what ``keep`` asks for. Where a path
        runs through an entry that the query could not vouch for (its last round, asked only
        about what can be read, did not ask about it: a cheaper path may have replaced it),
        the query is asked again with those entries as targets (rare: a handful of rounds)."""
        weights = {r["id"]: float(r["weight"]) for r in seed_rows(sources)}
        if not weights:
            return {}
        top = max(weights.values())
        targets = set(keep.targets) if keep is not None else set()
        for _ in range(REACH_ROUNDS):
            rows = self._store.read(
                "read_relation_reach",
                sources=[{"id": e, "strength": w / top} for e, w in sorted(weights.items())],
                max_hops=int(max_hops),
                limit=REACH_LIMIT,
                decay=float(hop_decay),
                backward=float(backward),
                min_strength=None if keep is None else keep.min_strength,
                targets=sorted(targets),
            )
            got = {r[0]: _hop(r) for r in rows}
            unsure = {r[0] for r in rows if not r[8]}
            unsure |= {h.via for h in got.values() if h.via is not None and h.via not in got}
            if not unsure - targets:
                break
            targets |= unsure
        return kept_paths(got, keep)

    def chunk_entities(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        if not chunk_ids:
            return {}
        out: dict[str, dict[str, int]] = {}
        for chunk, entity, count in self._store.read("read_chunk_entities", ids=list(chunk_ids)):
            out.setdefault(chunk, {})[entity] = int(count)
        return out

    def chunk_details(
        self, chunk_ids: Sequence[str], vector: Sequence[float] | None = None
    ) -> dict[str, ChunkDetail]:
        if not chunk_ids:
            return {}
        rows = self._store.read(
            "read_chunk_details",
            ids=list(chunk_ids),
            vector=None if vector is None else [float(x) for x in vector],
        )
        return {r[0]: _detail(r) for r in rows}

    def chunk_entity_similarities(
        self, chunk_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> dict[str, list[float]]:
        if not chunk_ids or not entity_ids:
            return {}
        rows = self._store.read(
            "read_chunk_entity_similarities", ids=list(chunk_ids), entities=list(entity_ids)
        )
        return {r[0]: [0.0 if s is None else cosine_from_score(s) for s in r[1]] for r in rows}

    def subject_chunks(
        self, entity_ids: Sequence[str], titled: bool = False
    ) -> dict[str, list[str]]:
        if not entity_ids:
            return {}
        out: dict[str, list[str]] = {}
        rows = self._store.read("read_subject_chunks", ids=list(entity_ids), titled=titled)
        for entity, chunk in rows:
            out.setdefault(entity, []).append(chunk)
        return out

    def entity_chunks(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        if not entity_ids:
            return {}
        out: dict[str, list[str]] = {}
        for entity, chunk in self._store.read("read_entity_chunks", ids=list(entity_ids)):
            out.setdefault(entity, []).append(chunk)
        return out

    def entity_similarities(
        self, entity_ids: Sequence[str], vector: Sequence[float]
    ) -> dict[str, float]:
        if not entity_ids:
            return {}
        rows = self._store.read(
            "read_entity_similarities", ids=list(entity_ids), vector=[float(x) for x in vector]
        )
        return {r[0]: cosine_from_score(r[1]) for r in rows if r[1] is not None}

    def chunk_vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        if not chunk_ids:
            return {}
        rows = self._store.read("read_chunk_vectors", ids=list(chunk_ids))
        return {r[0]: [float(x) for x in r[1]] for r in rows if r[1] is not None}


def _hop(row: Sequence[Any]) -> PathHop:
    """A ``read_relation_reach`` row: id, name, hops, via, relation, forward, strength, cost."""
    return PathHop(
        str(row[0]),
        str(row[1] or ""),
        int(row[2]),
        None if row[3] is None else str(row[3]),
        str(row[4] or ""),
        bool(row[5]),
        float(row[6]),
        float(row[7]),
    )


def _detail(row: Sequence[Any]) -> ChunkDetail:
    """read_chunk_details.cypher's columns (and the candidate reads' first eleven)."""
    return ChunkDetail(
        row[0],
        row[1],
        row[2] or "",
        row[3] or "",
        int(row[4] or 0),
        int(row[5] or 0),
        cosine_from_score(row[6]) if row[6] is not None else 0.0,
        float(row[7] or 0.0),
        row[8],
        row[9],
        row[10],
    )
