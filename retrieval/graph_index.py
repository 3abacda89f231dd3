"""The in-memory view of the graph that graph retrieval works on, cached per graph version.

Built from one ``GraphStore.projection_data()`` read: the PPR projection, the chunk embedding
matrix (exact dense scores for any chunk the graph walk reaches, and MMR), document metadata for
filters and authority, and the alias vocabulary as a spaCy PhraseMatcher for entity linking.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.names import QUALIFIED_CONFIDENCE, normalize_name, unqualified_name
from graph_store import ChunkHit, ProjectionData
from retrieval.entity_space import EntitySpace
from retrieval.lexical import Bm25Index
from retrieval.projection import Projection


class AliasPhrases:
    """The graph's names as lower-case token sequences, matched in a text as spaCy's
    ``PhraseMatcher(attr="LOWER")`` matches them: every span whose tokens' lower forms equal
    a name's (a set of tuples holds a 2Wiki-sized vocabulary in a fraction of the matcher's
    memory)."""

    def __init__(self, nlp: Any, phrases: set[tuple[str, ...]]) -> None:
        self.nlp = nlp
        self._phrases = phrases
        self._lengths = sorted({len(p) for p in phrases})

    def spans(self, doc: Any) -> list[tuple[int, int]]:
        """(start, end) token offsets of every name in ``doc``, overlapping ones included."""
        lower = [t.lower_ for t in doc]
        return [
            (start, start + n)
            for start in range(len(lower))
            for n in self._lengths
            if start + n <= len(lower) and tuple(lower[start : start + n]) in self._phrases
        ]


@dataclass(frozen=True)
class DocMeta:
    title: str
    source: str
    doc_type: str
    date: str
    authority: float


class GraphIndex:
    def __init__(self, data: ProjectionData) -> None:
        self.version = data.version
        self.projection = Projection(data)
        self.chunk_ids = data.chunk_ids
        self.chunk_docs = data.chunk_docs
        self.chunk_tokens = data.chunk_tokens
        self.chunk_index = data.chunk_index
        # Empty when the projection carries no texts; results are then read from the store.
        self.chunk_texts = data.chunk_texts if len(data.chunk_texts) == len(data.chunk_ids) else []
        self.entity_names = data.entity_names
        self.entity_types = data.entity_types
        self.entity_pagerank = data.entity_pagerank
        emb = _chunk_matrix(data)
        dim = emb.shape[1]
        norms = np.linalg.norm(emb, axis=1, keepdims=True)
        self.chunk_matrix = emb / np.where(norms > 0, norms, 1.0)
        self.docs = {
            d: DocMeta(t, m[0], m[1], m[2], a)
            for d, t, m, a in zip(
                data.doc_ids, data.doc_titles, data.doc_meta, data.doc_authority, strict=True
            )
        }
        top = max((m.authority for m in self.docs.values()), default=0.0)
        # Authority in [0, 1] relative to the most central document of this corpus.
        self.chunk_authority = np.asarray(
            [self.docs[d].authority / top if top > 0 else 0.0 for d in data.chunk_docs],
            dtype=np.float64,
        )
        self.entity_index = {e: i for i, e in enumerate(data.entity_ids)}
        self._top_authority = top
        self.doc_chunks: dict[str, list[int]] = {}
        for ci, d in enumerate(data.chunk_docs):
            self.doc_chunks.setdefault(d, []).append(ci)
        self.subject_docs, self.titled_docs = _subject_docs(data)
        self._mention_lists(data)
        self._relation_arrays(data)
        self.entity_chunks: list[list[int]] = [[] for _ in data.entity_ids]
        for ci, entities in enumerate(self.chunk_entities):
            for ei in entities:
                self.entity_chunks[ei].append(ci)
        unit = _unit_entity_matrix(data, dim)
        # None when the projection carries no entity vectors (the store's index answers).
        self.entity_space = EntitySpace.build(unit) if unit is not None else None
        self.aliases = data.aliases
        # Title and text, as documents are read; empty texts (an older projection reader)
        # leave the graph preset on the store's full-text index (see graph_search).
        self.bm25 = (
            Bm25Index(
                [
                    f"{self.docs[d].title}\n{t}"
                    for d, t in zip(data.chunk_docs, data.chunk_texts, strict=True)
                ]
            )
            if self.chunk_texts
            else None
        )
        self._matcher: AliasPhrases | None = None
        self._alias_targets: dict[str, list[tuple[int, float]]] = {}
        self._lock = threading.Lock()

    def _mention_lists(self, data: ProjectionData) -> None:
        """Mentions per chunk, for explaining a result by the entities it shares with the
        query: entity positions and their counts, aligned."""
        self.chunk_entities: list[list[int]] = [[] for _ in data.chunk_ids]
        self.chunk_mentions: list[list[int]] = [[] for _ in data.chunk_ids]
        for chunk, entity, count in data.mentions:
            cpos = self.projection.chunk_pos.get(chunk)
            epos = self.entity_index.get(entity)
            if cpos is not None and epos is not None:
                self.chunk_entities[cpos].append(epos)
                self.chunk_mentions[cpos].append(int(count))

    def _relation_arrays(self, data: ProjectionData) -> None:
        """The entity graph for path finding as CSR arrays: for entity ``a`` its edges are
        ``rel_indptr[a]:rel_indptr[a + 1]``, each with target, weight, relation type and
        whether it is walked in its stored direction. Every stored edge appears once per end."""
        types: dict[str, int] = {}
        src: list[int] = []
        dst: list[int] = []
        weight: list[float] = []
        kind: list[int] = []
        for s, d, rel_type, w in data.relations:
            a, b = self.entity_index.get(s), self.entity_index.get(d)
            if a is not None and b is not None and a != b:
                src.append(a)
                dst.append(b)
                weight.append(w)
                kind.append(types.setdefault(rel_type, len(types)))
        a_arr, b_arr = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
        sources = np.concatenate([a_arr, b_arr])
        # Stable, so each entity's edges keep the stored order, forward copies first.
        order = np.argsort(sources, kind="stable")
        self.rel_target = np.concatenate([b_arr, a_arr])[order]
        self.rel_weight = np.tile(np.asarray(weight, dtype=np.float64), 2)[order]
        # Path finding's per-edge strength (and cost, 2 - strength), clipped once.
        self.rel_unit_weight = np.clip(self.rel_weight, 0.0, 1.0)
        self.rel_type = np.tile(np.asarray(kind, dtype=np.int64), 2)[order]
        self.rel_forward = np.repeat([True, False], len(src))[order]
        counts = np.bincount(sources, minlength=len(data.entity_ids))
        self.rel_indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.relation_type_names = list(types)
        # Ties between equally cheap paths go to the lower id, then relation type, in string
        # order, as on every store (graph_store.read_model.GraphReadModel.relation_paths).
        type_rank = {name: i for i, name in enumerate(sorted(types))}
        ranks = np.asarray([type_rank[name] for name in types], dtype=np.int64)
        self.rel_type_rank = ranks[self.rel_type] if ranks.size else self.rel_type.copy()
        by_id = sorted(range(len(data.entity_ids)), key=data.entity_ids.__getitem__)
        self.entity_id_rank = np.empty(len(by_id), dtype=np.int64)
        self.entity_id_rank[by_id] = np.arange(len(by_id), dtype=np.int64)

    def alias_matcher(self) -> tuple[AliasPhrases, dict[str, list[tuple[int, float]]]]:
        """Every alias and entity name (lower-cased) as token sequences, built on first use:
        linking needs it, the dense and hybrid presets do not."""
        with self._lock:
            if self._matcher is None:
                import spacy

                # Names are tokenized by a pipeline dropped after the build: a tokenizer keeps
                # every word it has seen (lexemes, its cache), and names are most of the
                # vocabulary. Questions get a fresh one; both tokenize alike.
                builder = spacy.blank("en")
                phrases: set[tuple[str, ...]] = set()
                words: dict[str, str] = {}  # one string per distinct token
                targets: dict[str, list[tuple[int, float]]] = {}
                names = [(n, self.entity_index[e], 1.0) for e, n in self._entity_names()]
                names += [
                    (name, self.entity_index[e], conf or 1.0)
                    for name, e, conf in self.aliases
                    if e in self.entity_index
                ]
                # "Name (qualifier)" is how titles tell namesakes apart; questions say "Name".
                names += [
                    (base, ei, conf * QUALIFIED_CONFIDENCE)
                    for name, ei, conf in names
                    if (base := unqualified_name(name)) and base != name
                ]
                for name, ei, conf in names:
                    key = name.strip().lower()
                    if not key:
                        continue
                    if key not in targets:
                        tokens = tuple(
                            words.setdefault(t.lower_, t.lower_) for t in builder.make_doc(name)
                        )
                        if tokens:
                            phrases.add(tokens)
                        targets[key] = []
                    if all(ei != t for t, _ in targets[key]):
                        targets[key].append((ei, conf))
                self._matcher = AliasPhrases(spacy.blank("en"), phrases)
                self._alias_targets = targets
            return self._matcher, self._alias_targets

    def _entity_names(self) -> list[tuple[str, str]]:
        ids = self.projection.entity_ids
        return list(zip(ids, self.entity_names, strict=True))

    def doc_authority_norm(self, doc: str) -> float:
        meta = self.docs.get(doc)
        top = self._top_authority
        return meta.authority / top if meta is not None and top > 0 else 0.0

    def chunk_hit(self, ci: int) -> ChunkHit:
        """The chunk at position ``ci`` as the store would return it (score 0)."""
        doc = self.chunk_docs[ci]
        meta = self.docs.get(doc)
        return ChunkHit(
            self.chunk_ids[ci],
            doc,
            meta.title if meta else "",
            self.chunk_texts[ci],
            0.0,
            self.chunk_index[ci],
        )

    def dense_scores(self, query: np.ndarray) -> np.ndarray:
        """Cosine similarity of the query with every chunk."""
        if self.chunk_matrix.shape[0] == 0:
            return np.zeros(0)
        q = query / (np.linalg.norm(query) or 1.0)
        return np.asarray(self.chunk_matrix @ q.astype(np.float32), dtype=np.float64)


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


# Kinds of entity whose documents name them in the title: organisations write papers about
# themselves ("Acme Widgets Board Update", "About Acme Widgets"). Places, people and works
# named in a title are usually not what the document is about in that way.
AUTHOR_TYPES = frozenset({"ORGANIZATION"})


def _subject_docs(data: ProjectionData) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """A document's subject is the entity its title names (the extractor makes the title an
    entity). An organisation with no document of that kind is the subject of the documents
    whose titles name it, by name or alias, where no longer name in the title holds it (in
    "Acme Widgets Board Update", Acme Widgets; not a place its name begins with): a question
    naming the organisation reads its own papers first, not a parallel paper about another
    organisation reached by co-occurrence. Entities with a document of their own keep just
    that one: measured on the multi-hop dev questions, every entity taking the documents
    whose titles begin with its name cost HotpotQA R@2 0.79 -> 0.76 and MuSiQue 0.598 ->
    0.578; organisations without a document of their own cost nothing (docs/benchmarks.md).
    Returns the subjects by title alone and with the title-named organisations (``titled``:
    the named-subject bonus reads those; relation paths' strategic slots the first)."""
    by_name: dict[str, list[int]] = {}
    for ei, name in enumerate(data.entity_names):
        by_name.setdefault(_key(name), []).append(ei)
    subject_docs: dict[int, list[str]] = {}
    for d, title in zip(data.doc_ids, data.doc_titles, strict=True):
        for ei in by_name.get(_key(title), []):
            subject_docs.setdefault(ei, []).append(d)
    position = {e: ei for ei, e in enumerate(data.entity_ids)}
    by_alias: dict[str, list[int]] = {}
    names = [*zip(data.entity_names, data.entity_ids, strict=True)]
    names += [(n, e) for n, e, _ in data.aliases]
    for name, entity in names:
        pos, key = position.get(entity), normalize_name(name)
        if pos is None or not key or pos in subject_docs:
            continue
        if data.entity_types[pos].upper() in AUTHOR_TYPES and pos not in by_alias.get(key, []):
            by_alias.setdefault(key, []).append(pos)
    titled = {ei: list(docs) for ei, docs in subject_docs.items()}
    for d, title in zip(data.doc_ids, data.doc_titles, strict=True):
        for ei in _title_names(normalize_name(title).split(), by_alias):
            docs = titled.setdefault(ei, [])
            if d not in docs:
                docs.append(d)
    return subject_docs, titled


def _title_names(words: list[str], by_alias: dict[str, list[int]]) -> list[int]:
    """The entities named in a title (its words): every run of words, shorter than the whole
    title, that is a name or alias, unless it lies inside a longer such run."""
    spans = [
        (i, n)
        for i in range(len(words))
        for n in range(1, len(words) - i + 1)
        if n < len(words) and " ".join(words[i : i + n]) in by_alias
    ]
    found: list[int] = []
    for i, n in spans:
        if any(m > n and j <= i and i + n <= j + m for j, m in spans):
            continue
        found += [e for e in by_alias[" ".join(words[i : i + n])] if e not in found]
    return found


def _chunk_matrix(data: ProjectionData) -> np.ndarray:
    """Chunk embeddings as a (chunks, dim) float32 matrix; dim 0 for a graph with none."""
    if not len(data.chunk_ids) or not len(data.chunk_embeddings):
        return np.zeros((len(data.chunk_ids), 0), dtype=np.float32)
    emb = np.asarray(data.chunk_embeddings, dtype=np.float32)
    return emb.reshape(len(data.chunk_ids), emb.size // len(data.chunk_ids))


def _unit_entity_matrix(data: ProjectionData, dim: int) -> np.ndarray | None:
    """Entity embeddings as unit rows; None when the projection carries none, or carries
    vectors of another width than the chunks'."""
    ent = np.asarray(data.entity_embeddings, dtype=np.float32)
    if not (ent.size and ent.shape == (len(data.entity_ids), dim)):
        return None
    en = np.linalg.norm(ent, axis=1, keepdims=True)
    return np.asarray(ent / np.where(en > 0, en, 1.0))
