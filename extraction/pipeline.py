"""The ingest pipeline: load -> chunk -> extract -> resolve -> embed -> write.

Unchanged documents (same content hash and extractor version) are skipped before any
embedding work. Documents are written in batches, each batch one transaction, so a killed
ingest leaves whole documents or none, and the next run picks up where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from extraction.chunking import chunk_text
from extraction.loaders import SourceDocument, discover, load_file
from extraction.normalize import chunk_id, content_hash, doc_id
from extraction.resolution import Resolver
from extraction.spacy_rules import DocFacts, SpacyRuleExtractor
from graph_schema import Chunk, Document, DocumentGraph, Entity
from graph_store import GraphStore
from kg.errors import InputError
from kg.settings import Settings
from retrieval.embedder import Embedder

ProgressHook = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class IngestReport:
    files: int = 0
    documents_seen: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    chunks_written: int = 0
    failed: list[InputError] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def written(self) -> int:
        return self.added + self.updated


@dataclass
class _Pending:
    source: SourceDocument
    doc_id: str
    content_hash: str
    is_update: bool
    chunks: list[tuple[int, str, int]] = field(default_factory=list)  # index, text, tokens
    facts: DocFacts | None = None


class Ingestor:
    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        extractor: SpacyRuleExtractor,
        settings: Settings,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._extractor = extractor
        self._settings = settings

    @property
    def extractor_version(self) -> str:
        return self._extractor.version

    def ingest_paths(
        self, paths: Sequence[Path], progress: ProgressHook | None = None
    ) -> IngestReport:
        started = time.perf_counter()
        report = IngestReport()
        files, errors = discover(list(paths))
        report.failed.extend(errors)
        report.files = len(files)
        sources: list[SourceDocument] = []
        for i, path in enumerate(files):
            try:
                sources.extend(load_file(path, self._settings.ingest.max_file_bytes))
            except InputError as exc:
                report.failed.append(exc)
            if progress:
                progress("load", i + 1, len(files))
        self.ingest_documents(sources, report, progress)
        report.seconds = time.perf_counter() - started
        return report

    def ingest_documents(
        self,
        sources: Sequence[SourceDocument],
        report: IngestReport | None = None,
        progress: ProgressHook | None = None,
    ) -> IngestReport:
        report = report or IngestReport()
        report.documents_seen += len(sources)
        pending = self._changed(sources, report)
        resolver = Resolver(self._store.alias_targets)
        for i, item in enumerate(pending):
            self._prepare(item)
            assert item.facts is not None
            resolver.register(item.facts)
            if progress:
                progress("extract", i + 1, len(pending))
        size = self._settings.ingest.batch_documents
        done = 0
        for start in range(0, len(pending), size):
            batch = pending[start : start + size]
            graphs = self._build(batch, resolver)
            self._store.upsert_documents(graphs)
            for item, graph in zip(batch, graphs, strict=True):
                report.chunks_written += len(graph.chunks)
                if item.is_update:
                    report.updated += 1
                else:
                    report.added += 1
            done += len(batch)
            if progress:
                progress("write", done, len(pending))
        if pending:
            self._store.refresh_indexes()
        return report

    def _changed(self, sources: Sequence[SourceDocument], report: IngestReport) -> list[_Pending]:
        by_id: dict[str, _Pending] = {}
        for src in sources:
            did = doc_id(src.uri)
            digest = content_hash("\x1f".join([src.title, src.doc_type, src.date, src.text]))
            by_id[did] = _Pending(src, did, digest, False)
        states = self._store.document_states(list(by_id))
        pending = []
        for did, item in by_id.items():
            state = states.get(did)
            if (
                state
                and state.content_hash == item.content_hash
                and state.extractor_version == self.extractor_version
            ):
                report.unchanged += 1
                continue
            item.is_update = state is not None
            pending.append(item)
        return pending

    def _prepare(self, item: _Pending) -> None:
        cfg = self._settings.chunking
        pieces = chunk_text(
            item.source.text, cfg.max_tokens, cfg.overlap_sentences, self._embedder.count_tokens
        )
        item.chunks = [(c.index, c.text, c.tokens) for c in pieces]
        item.facts = self._extractor.extract(item.source.title, [c.text for c in pieces])

    def _build(self, batch: list[_Pending], resolver: Resolver) -> list[DocumentGraph]:
        texts = [text for item in batch for _, text, _ in item.chunks]
        vectors = iter(self._embedder.embed(texts))
        now = datetime.now(UTC)
        resolved = []
        new_entities: dict[str, Entity] = {}
        for item in batch:
            assert item.facts is not None
            cids = [chunk_id(item.doc_id, idx, text) for idx, text, _ in item.chunks]
            ents, aliases, mentions, relations = resolver.resolve(
                item.facts, item.doc_id, cids, self.extractor_version
            )
            resolved.append((item, cids, ents, aliases, mentions, relations))
            for e in ents:
                new_entities.setdefault(e.id, e)
        known = self._store.existing_entity_ids(list(new_entities))
        missing = [e for eid, e in new_entities.items() if eid not in known]
        # Entity embeddings come from the name, so they are computed once per new entity.
        embedded = dict(
            zip(
                [e.id for e in missing],
                self._embedder.embed([e.name for e in missing]),
                strict=True,
            )
        )
        graphs = []
        for item, cids, ents, aliases, mentions, relations in resolved:
            src = item.source
            document = Document(
                id=item.doc_id,
                uri=src.uri,
                title=src.title,
                content_hash=item.content_hash,
                extractor_version=self.extractor_version,
                ingested_at=now,
                source=src.source,
                doc_type=src.doc_type,
                date=src.date,
            )
            chunks = [
                Chunk(
                    id=cid,
                    doc_id=item.doc_id,
                    index=idx,
                    text=text,
                    tokens=tokens,
                    content_hash=content_hash(text),
                    embedding=tuple(next(vectors)),
                )
                for cid, (idx, text, tokens) in zip(cids, item.chunks, strict=True)
            ]
            full_entities = [
                e.model_copy(update={"embedding": tuple(embedded[e.id])}) if e.id in embedded else e
                for e in ents
            ]
            graphs.append(
                DocumentGraph(
                    document=document,
                    chunks=tuple(chunks),
                    entities=tuple(full_entities),
                    aliases=tuple(aliases),
                    relations=tuple(relations),
                    mentions=tuple(mentions),
                )
            )
        return graphs
