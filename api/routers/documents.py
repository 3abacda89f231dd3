"""Documents: upload, server-side ingest (inside configured roots only), list, delete."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Query, UploadFile

from api.deps import ContainerDep, SettingsDep, StoreDep
from api.errors import Problem
from api.explore import document_text
from api.schemas import (
    DeletedOut,
    DocumentOut,
    IngestOut,
    IngestRequest,
    Page,
    UploadedOut,
    jsonable,
)
from core.errors import InputError, NotFoundError
from core.names import doc_id
from extraction.ingest_report import IngestReport
from extraction.loaders import SourceDocument, discover, load_file

router = APIRouter(prefix="/v1", tags=["documents"])

_COPY_BLOCK = 1024 * 1024


@router.get("/documents")
def list_documents(
    store: StoreDep,
    settings: SettingsDep,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1)] = 50,
) -> Page[DocumentOut]:
    """Documents in a stable order, one page at a time; ``total`` counts them all."""
    if limit > settings.api.max_page_size:
        raise InputError("limit", f"at most {settings.api.max_page_size} per page")
    docs = store.list_documents(offset, limit)
    return Page[DocumentOut](
        items=[DocumentOut(**jsonable(d)) for d in docs],
        offset=offset,
        limit=limit,
        total=store.counts().documents,
    )


@router.get("/documents/{doc_id}")
def read_document(doc_id: str, store: StoreDep) -> dict[str, Any]:
    """A document's metadata and text, chunk by chunk (what the explorer opens)."""
    found = [d for d in store.find_documents(doc_id) if d.id == doc_id]
    if not found:
        raise NotFoundError(f"no document with id {doc_id!r}")
    chunks = store.document_chunks(doc_id)
    return {
        **jsonable(found[0]),
        "text": document_text([c.text for c in chunks]),
        "chunks": [{"id": c.chunk_id, "index": c.index, "text": c.text} for c in chunks],
    }


@router.delete("/documents/{doc_id}")
def delete_document(doc_id: str, container: ContainerDep) -> DeletedOut:
    """Delete a document with its chunks, mentions and the entities nothing else mentions."""
    store = container.store
    known = [d for d in store.find_documents(doc_id) if d.id == doc_id]
    if not known or not store.delete_document(doc_id):
        raise NotFoundError(f"no document with id {doc_id!r}")
    store.refresh_indexes()
    container.searcher().model.refresh_authority()
    return DeletedOut(id=doc_id, title=known[0].title, deleted=True)


# A caller's key names the document it replaces: letters, digits and ``._-/:``, so that it
# reads back plainly in the document's URI.
_KEY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._\-/:]{0,199}$"


@router.post("/documents")
def upload_documents(
    files: Annotated[list[UploadFile], File(description="md, txt, html, pdf or corpus JSON")],
    container: ContainerDep,
    settings: SettingsDep,
    key: Annotated[
        str | None,
        Form(
            pattern=_KEY_PATTERN,
            description="The document's identity, for one file: uploading again under the same "
            "key replaces that document. Without it a file is known by its content, so two "
            "different files of the same name are two documents.",
        ),
    ] = None,
) -> IngestOut:
    """Ingest uploaded files; ``documents`` gives each one's id. A file's URI is
    ``upload:<key>`` with a ``key``, else ``upload:<sha256 prefix>/<file name>``: the same
    content again is unchanged, and another file never replaces a document by its name alone."""
    if key is not None and len(files) != 1:
        raise InputError("key", f"a key names one document; {len(files)} files were sent")
    started = time.perf_counter()
    report = IngestReport(files=len(files))
    sources: list[SourceDocument] = []
    workdir = Path(tempfile.mkdtemp(prefix="kg-upload-"))
    try:
        for upload in files:
            try:
                sources.extend(_load_upload(upload, workdir, settings.api.max_upload_bytes, key))
            except InputError as exc:
                report.failed.append(exc)
        container.ingestor().ingest_documents(sources, report)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report.seconds = time.perf_counter() - started
    out = _checked(report)
    out.documents = [UploadedOut(id=doc_id(s.uri), uri=s.uri, title=s.title) for s in sources]
    return out


@router.post("/ingest")
def ingest_paths(body: IngestRequest, container: ContainerDep, settings: SettingsDep) -> IngestOut:
    """Ingest files or folders on the server, inside ``KG_API__INGEST_ROOTS`` only; relative
    paths are taken from the first root."""
    roots = [r.resolve() for r in settings.api.ingest_roots]
    if not roots:
        raise Problem(403, "server-side ingest is disabled: KG_API__INGEST_ROOTS is not set")
    wanted: list[Path] = []
    for raw in body.paths:
        try:
            path = (roots[0] / raw).resolve()  # an absolute ``raw`` replaces the root
        except (OSError, ValueError) as exc:  # NUL bytes, a name the file system refuses
            raise Problem(422, f"{raw!r}: not a usable path ({exc})") from exc
        if not _inside(path, roots):
            raise Problem(403, f"{raw}: outside the configured ingest roots")
        wanted.append(path)
    skipped: list[Path] = []
    files, missing = discover(wanted, settings.ingest.include_readmes, skipped)
    # A symlink inside a root may point out of it; each file is checked once more.
    inside = [f for f in files if _inside(f.resolve(), roots)]
    escaped = [
        InputError(str(f), "resolves outside the configured ingest roots")
        for f in files
        if f not in inside
    ]
    report = container.ingestor().ingest_paths(inside)
    report.failed[:0] = [*missing, *escaped]
    out = _checked(report)
    out.skipped = [str(p) for p in skipped]
    return out


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path.is_relative_to(root) for root in roots)


def _load_upload(
    upload: UploadFile, workdir: Path, max_bytes: int, key: str | None
) -> list[SourceDocument]:
    name = Path(upload.filename or "").name
    if not name or name.startswith("."):
        raise InputError(upload.filename or "(unnamed)", "an upload needs a plain file name")
    # Each upload in its own folder: two files of one name in one request stay apart.
    target = Path(tempfile.mkdtemp(dir=workdir)) / name
    size = 0
    digest = hashlib.sha256()
    with target.open("wb") as out:
        while block := upload.file.read(_COPY_BLOCK):
            size += len(block)
            digest.update(block)
            if size > max_bytes:
                raise Problem(
                    413,
                    f"{name}: over the upload limit of {max_bytes:,} bytes"
                    " (KG_API__MAX_UPLOAD_BYTES)",
                )
            out.write(block)
    local = str(target.resolve())
    try:
        loaded = load_file(target, max_bytes)
    except InputError as exc:
        raise InputError(name, exc.reason) from exc
    # The temporary path would give a new document id on every upload; the key or the content
    # is stable, and the name alone is not an identity (two teams' "minutes.md").
    identity = key or f"{digest.hexdigest()[:16]}/{name}"
    return [
        replace(src, uri=f"upload:{identity}{src.uri.removeprefix(local)}", source="upload")
        for src in loaded
    ]


def _checked(report: IngestReport) -> IngestOut:
    out = IngestOut.of(report)
    if report.failed and report.written + report.unchanged == 0:
        first = report.failed[0]
        raise Problem(
            422,
            f"nothing could be ingested; {first.source}: {first.reason}",
            errors=[f.model_dump() for f in out.failed],
        )
    return out
