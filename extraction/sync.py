"""Incremental sync: keep the graph in step with directories (or corpus files) on disk.

One run compares the files under the synced roots with the documents the graph holds for them,
and ends with the graph a clean build of those files would give:
- documents whose file is gone (or that their corpus file no longer holds) are deleted, with
  their chunks, mentions and orphaned entities;
- new documents are ingested; changed ones (content hash) and ones written by another extractor
  version are deleted and ingested again;
- entity resolution reads the graph, so unchanged documents that share an entity (or a name or
  alias of one) with a written or removed document are re-resolved with them in one call.

Safety rules:
- only documents whose file lies under a synced root are ever deleted;
- a root that does not exist deletes nothing (an unmounted volume must not empty the graph);
- a file that fails to load keeps its documents; a document that fails to extract is recorded
  with its reason and retried next run, and never blocks the others;
- every write is a committed transaction of its own, so a run killed at any point is finished
  by the next one (a document deleted for rewriting and not yet re-added is simply new then).
  A marker file carries "indexes not refreshed yet" across such a kill.

A tick whose files all match the manifest of the last complete sync (extraction/manifest.py)
stops after a ``stat`` per file and one read of the graph version: no parse, no document read.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import InputError
from core.names import content_hash, doc_id
from extraction.ingest_report import IngestReport
from extraction.loaders import SourceDocument, discover, load_file
from extraction.manifest import MANIFEST, FileEntry, Manifest, entry_for, stamp
from extraction.pipeline import Ingestor, ProgressHook
from extraction.sync_closure import doc_entities, related_entities
from extraction.sync_report import SyncFailure, SyncReport
from graph_store import GraphStore
from graph_store.types import DocumentInfo, DocumentState, GraphExport

log = logging.getLogger(__name__)

StopCheck = Callable[[], bool]

# A corpus JSON passage's uri is "<file>#<index>" (extraction/loaders.py).
_PASSAGE_URI = re.compile(r"(.+\.json)#\d+", re.IGNORECASE)
_LIST_PAGE = 1000
REFRESH_MARKER = "refresh.pending"
SAME_FAILURE_LIMIT = 3  # single documents failing alike before the rest are not tried


@dataclass
class _Run:
    report: SyncReport
    hook: ProgressHook
    dirty: bool  # writes not yet covered by an index refresh


class _Cancelled(Exception):
    """Raised from the progress hook, i.e. between committed batches, to stop a run."""


@dataclass
class _Scan:
    sources: list[SourceDocument] = field(default_factory=list)
    roots: list[Path] = field(default_factory=list)  # roots that exist, resolved
    loaded: set[str] = field(default_factory=set)  # files that loaded, resolved
    produced: set[str] = field(default_factory=set)  # document uris they yielded
    files: list[Path] = field(default_factory=list)  # every file found, resolved
    entries: dict[str, FileEntry] = field(default_factory=dict)  # for the manifest


def file_of(uri: str) -> str:
    """The file a document uri comes from (a corpus passage's uri carries ``#index``)."""
    m = _PASSAGE_URI.fullmatch(uri)
    return m.group(1) if m else uri


class Syncer:
    """Constructing does no I/O; ``sync`` reads the roots and writes the store."""

    def __init__(
        self,
        store: GraphStore,
        ingestor: Ingestor,
        max_file_bytes: int,
        state_dir: Path,
        *,
        include_readmes: bool = False,
    ) -> None:
        self._store = store
        # The same rule as `kg ingest` (KG_INGEST__INCLUDE_READMES): a store built with the
        # READMEs must not lose them at the next sync, nor gain them without it.
        self._include_readmes = include_readmes
        self._ingestor = ingestor
        self._max_file_bytes = max_file_bytes
        self._marker = state_dir / REFRESH_MARKER
        self._manifest = Manifest(state_dir / MANIFEST)

    @property
    def extractor_version(self) -> str:
        return self._ingestor.extractor_version

    def sync(
        self,
        roots: Sequence[Path],
        progress: ProgressHook | None = None,
        should_stop: StopCheck | None = None,
    ) -> SyncReport:
        started = time.perf_counter()

        def hook(phase: str, done: int, total: int) -> None:
            if progress:
                progress(phase, done, total)
            # Called by the pipeline after each committed batch: a safe place to stop.
            if should_stop and should_stop():
                raise _Cancelled

        # An earlier run may have been killed between its writes and the index refresh.
        run = _Run(SyncReport(roots=[str(r) for r in roots]), hook, self._marker.exists())
        scan = self._find(roots, run.report)
        if not run.dirty and self._idle(scan, run.report):
            run.report.seconds = time.perf_counter() - started
            return run.report
        # From here the store may change: a manifest left behind by a killed run would vouch
        # for documents it may have deleted.
        self._manifest.invalidate()
        self._load(scan, run.report)
        by_id = {doc_id(s.uri): s for s in scan.sources}
        stale = self._stale(scan)
        before = self._store.document_states(list(by_id))
        version = self.extractor_version
        expected = [d for d, src in by_id.items() if _outdated(src, before.get(d), version)]
        # What removed and rewritten documents mentioned, read before they are replaced.
        old_graph = self._store.export_graph() if stale or expected else None
        try:
            if stale:
                self._delete(run, [(d.id, d.uri) for d in stale], "delete", run.report.removed)
            sources = by_id
            rewrite = [d for d in expected if d in before]
            if rewrite:
                sources = self._rewrite(run, by_id, rewrite, expected)
            if sources:
                self._mark()
                self._ingest(run, list(sources.values()))
            if old_graph is not None:
                self._reresolve(run, by_id, before, {d.id for d in stale}, old_graph)
        except _Cancelled:
            run.report.cancelled = True
        self._classify(by_id, before, run.report)
        if run.report.cancelled:
            # The marker stays and the next run refreshes: a shutdown should not wait for it.
            log.info("sync cancelled; indexes are refreshed by the next run")
        else:
            if run.dirty:
                self._ingestor.refresh()
                run.report.refreshed = True
            self._marker.unlink(missing_ok=True)
            self._save_manifest(scan, run.report)
        run.report.seconds = time.perf_counter() - started
        return run.report

    # --- steps ------------------------------------------------------------------
    def _find(self, roots: Sequence[Path], report: SyncReport) -> _Scan:
        scan = _Scan()
        for root in roots:
            resolved = root.expanduser().resolve()
            if resolved.exists():
                if resolved not in scan.roots:
                    scan.roots.append(resolved)
            else:
                report.failed.append(SyncFailure(str(root), "no such file or directory"))
        skipped: list[Path] = []
        found, errors = discover(scan.roots, self._include_readmes, skipped)
        report.skipped = [str(p) for p in skipped]
        report.failed.extend(SyncFailure(e.source, e.reason) for e in errors)
        scan.files = list(dict.fromkeys(f.resolve() for f in found))  # overlapping roots
        report.files = len(scan.files)
        return scan

    def _header(self, graph_version: str) -> dict[str, object]:
        return self._manifest.header(self.extractor_version, self._max_file_bytes, graph_version)

    def _idle(self, scan: _Scan, report: SyncReport) -> bool:
        idle = self._manifest.idle(
            scan.files, scan.roots, self._header(""), self._store.graph_version
        )
        if idle is None:
            return False
        report.unchanged = idle.unchanged
        report.failed.extend(SyncFailure(path, reason) for path, reason in idle.errors)
        return True

    def _load(self, scan: _Scan, report: SyncReport) -> None:
        limit = self._max_file_bytes
        for path in scan.files:
            before = stamp(path)
            try:
                docs = load_file(path, limit)
            except InputError as exc:
                report.failed.append(SyncFailure(exc.source, exc.reason))
                if e := entry_for(path, before, limit, [], exc.reason):
                    scan.entries[str(path)] = e
                continue
            except Exception as exc:  # a parser bug on one file must not stop the run
                report.failed.append(SyncFailure(str(path), _reason(exc)))
                continue
            scan.loaded.add(str(path))
            scan.sources.extend(docs)
            scan.produced.update(d.uri for d in docs)
            if e := entry_for(path, before, limit, [d.uri for d in docs]):
                scan.entries[str(path)] = e

    def _save_manifest(self, scan: _Scan, report: SyncReport) -> None:
        """After a complete run: every file whose documents all stand as extracted now. A
        file with a document that failed is left out, so the next tick retries it."""
        failed = {file_of(f.source) for f in report.failed}
        entries = {p: e for p, e in scan.entries.items() if e.error or p not in failed}
        self._manifest.save(self._header(self._store.graph_version()), entries)

    def _stale(self, scan: _Scan) -> list[DocumentInfo]:
        """Documents under a live root whose file is gone, or that their file no longer holds.

        A file that exists but failed to load keeps its documents until it loads again."""
        if not scan.roots:
            return []
        stale = []
        for doc in self._all_documents():
            path = file_of(doc.uri)
            if not any(_under(path, root) for root in scan.roots):
                continue
            if path in scan.loaded:
                if doc.uri not in scan.produced:
                    stale.append(doc)
            elif not Path(path).exists():
                stale.append(doc)
        return stale

    def _all_documents(self) -> list[DocumentInfo]:
        docs: list[DocumentInfo] = []
        while True:
            page = self._store.list_documents(offset=len(docs), limit=_LIST_PAGE)
            docs.extend(page)
            if len(page) < _LIST_PAGE:
                return docs

    def _delete(
        self, run: _Run, docs: list[tuple[str, str]], phase: str, done: list[str] | None = None
    ) -> None:
        self._mark()
        run.dirty = True
        for i, (did, uri) in enumerate(docs):
            if self._store.delete_document(did) and done is not None:
                done.append(uri)
            run.hook(phase, i + 1, len(docs))

    def _rewrite(
        self, run: _Run, by_id: dict[str, SourceDocument], rewrite: list[str], expected: list[str]
    ) -> dict[str, SourceDocument]:
        """Delete outdated documents so that they are ingested as new; returns what to ingest.

        Ingested as new, a document is resolved without its own old contributions, as in a
        clean build (and Kùzu 0.11.3 loses entities when one transaction replaces several
        documents that share them). The first one is tried alone first: if it fails, the
        extractor may be broken for all (a bad model setting changes the version of every
        document), so the others are replaced in place, where a failure keeps their old version.
        """
        probe = rewrite[0]
        self._delete(run, [(probe, by_id[probe].uri)], "delete")
        self._ingest(run, [by_id[probe]])
        if probe not in self._store.document_states([probe]):
            log.warning("sync: re-extraction failed; outdated documents are replaced in place")
            return {d: src for d, src in by_id.items() if d != probe}
        if len(expected) > 1:
            # The probe goes again with the others: resolved together, as a clean build would.
            self._delete(run, [(d, by_id[d].uri) for d in rewrite], "delete")
        return by_id

    def _ingest(self, run: _Run, sources: list[SourceDocument]) -> None:
        """Ingest the sources, bisecting a failing call down to the documents that fail."""
        queue = [sources]
        streak: list[str] = []  # reasons of single-document failures since the last success
        while queue:
            batch = queue.pop(0)
            if len(streak) >= SAME_FAILURE_LIMIT and len(set(streak)) == 1:
                # The same error on every document tried: the cause is not in the documents.
                run.report.failed.extend(SyncFailure(s.uri, streak[0]) for s in batch)
                continue
            part = IngestReport()
            try:
                self._ingestor.ingest_documents(batch, part, run.hook)
            except _Cancelled:
                raise
            except Exception as exc:  # extraction, embedding or store failure
                run.dirty = True  # earlier batches of this call are committed, not refreshed
                if len(batch) == 1:
                    log.warning("sync: %s failed: %s", batch[0].uri, _reason(exc))
                    run.report.failed.append(SyncFailure(batch[0].uri, _reason(exc)))
                    streak.append(_reason(exc))
                else:
                    mid = len(batch) // 2
                    queue[:0] = [batch[:mid], batch[mid:]]
                continue
            streak.clear()
            if part.written:
                # The pipeline refreshes indexes after a call that wrote; that covers every
                # write before it, deletions included.
                run.dirty = False
                run.report.refreshed = True

    def _reresolve(
        self,
        run: _Run,
        by_id: dict[str, SourceDocument],
        before: dict[str, DocumentState],
        removed: set[str],
        old_graph: GraphExport,
    ) -> None:
        """Re-resolve unchanged documents that share an entity whose identity is in play with
        the written or removed ones.

        Entity resolution reads the graph (alias definitions, names already stored), so an
        unchanged document resolved next to a document that has since changed or gone can
        differ from a clean build. Such documents are deleted and ingested again in one call
        with the written ones, so they are resolved together as a clean build would. This is
        one round: re-resolving them can move further entities (the resolver weighs names and
        evidence across the documents of a call), and following that to a fixed point grew to
        a quarter of the MuSiQue corpus for one edited passage."""
        after = self._store.document_states(list(by_id))
        closure = {d for d, state in after.items() if state != before.get(d)}
        old_docs = doc_entities(old_graph.chunk_ids, old_graph.chunk_docs, old_graph.mentions)
        data = self._store.projection_data()
        docs = doc_entities(data.chunk_ids, data.chunk_docs, data.mentions)
        # What the written documents mention now, and what the removed and rewritten ones
        # mentioned before (those entities may be gone; their names still find their kin).
        gone = set().union(*(old_docs.get(d, set()) for d in removed | (closure & set(before))))
        now = set().union(*(docs.get(d, set()) for d in closure))
        pairs = zip(old_graph.entity_ids, old_graph.entity_names, strict=True)
        old_names = {name for eid, name in pairs if eid in gone}
        touched = related_entities(data, now | gone, old_names)
        extra = [d for d in by_id if d not in closure and docs.get(d, set()) & touched]
        if not extra:
            return
        closure.update(extra)
        run.report.reresolved.extend(by_id[d].uri for d in extra)
        again = [(d, src) for d, src in by_id.items() if d in closure]
        self._delete(run, [(d, src.uri) for d, src in again], "reresolve")
        self._ingest(run, [src for _, src in again])

    def _classify(
        self,
        by_id: dict[str, SourceDocument],
        before: dict[str, DocumentState],
        report: SyncReport,
    ) -> None:
        after = self._store.document_states(list(by_id))
        for did, src in by_id.items():
            old, new = before.get(did), after.get(did)
            if new is None:
                continue
            if old is None:
                report.added.append(src.uri)
            elif old == new:
                report.unchanged += 1
            elif old.extractor_version != new.extractor_version:
                report.reextracted.append(src.uri)
            else:
                report.changed.append(src.uri)

    def _mark(self) -> None:
        if not self._marker.exists():
            self._marker.parent.mkdir(parents=True, exist_ok=True)
            self._marker.touch()


def _outdated(src: SourceDocument, state: DocumentState | None, version: str) -> bool:
    """Whether the pipeline will write this document (mirrors its hash; see the report)."""
    if state is None or state.extractor_version != version:
        return True
    digest = content_hash("\x1f".join([src.title, src.doc_type, src.date, src.text]))
    return state.content_hash != digest


def _under(path: str, root: Path) -> bool:
    return Path(path).is_relative_to(root)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
