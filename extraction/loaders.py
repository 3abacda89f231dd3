"""Loaders: turn files into ``SourceDocument``s (text normalised to NFC UTF-8).

Supported: ``.md``/``.markdown``, ``.txt``, ``.html``/``.htm``, ``.pdf`` and HippoRAG-format corpus
JSON (a list of ``{title, text}`` or a dict ``title -> [sentences]``). Every failure is an
``InputError`` naming the file and the reason, so one bad file never stops the others.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import InputError

TEXT_SUFFIXES = {".md", ".markdown", ".txt"}
HTML_SUFFIXES = {".html", ".htm"}
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | {".pdf", ".json"}

# "Date: 2026-03-14" / "Type: board paper" lines directly under the title.
_META_LINE = re.compile(r"^(date|type|source)\s*:\s*(.+?)\s*$", re.IGNORECASE)
_ISO_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")


@dataclass(frozen=True)
class SourceDocument:
    uri: str
    title: str
    text: str
    source: str = ""
    doc_type: str = ""
    date: str = ""


def discover(
    paths: list[Path], include_readmes: bool = False, skipped: list[Path] | None = None
) -> tuple[list[Path], list[InputError]]:
    """Expand directories (recursively, supported suffixes only, sorted) into files.

    A folder's ``README.md`` is left out unless ``include_readmes``: it describes the folder
    (what the documents are, that they are invented, how they were made) rather than being one
    of them, and read as a document it would put its own entities into the graph. Callers
    that pass ``skipped`` get the READMEs left out, to say so. A README named on its own is
    ingested like any file."""
    files: list[Path] = []
    errors: list[InputError] = []
    for path in paths:
        try:
            if path.is_dir():
                for child in sorted(path.rglob("*")):
                    if child.name.startswith("."):
                        continue
                    if child.name.lower() == "readme.md" and not include_readmes:
                        if skipped is not None:
                            skipped.append(child)
                        continue
                    if child.suffix.lower() in SUPPORTED_SUFFIXES and not child.is_dir():
                        files.append(child)
            elif path.exists() or path.is_symlink():
                files.append(path)
            else:
                errors.append(InputError(str(path), "no such file or directory"))
        except OSError as exc:  # a name too long, a permission denied on a directory, ...
            errors.append(InputError(str(path)[:200], exc.strerror or str(exc)))
    return files, errors


def load_file(path: Path, max_bytes: int) -> list[SourceDocument]:
    """Load one file; a corpus JSON yields many documents."""
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise InputError(str(path), f"unsupported file type {suffix or '(none)'}")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    if size > max_bytes:
        raise InputError(
            str(path),
            f"file is {size:,} bytes, over the limit of {max_bytes:,} (KG_INGEST__MAX_FILE_BYTES)",
        )
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    if not raw.strip():
        raise InputError(str(path), "file is empty")
    if suffix == ".pdf":
        return [_load_pdf(path, raw, max_bytes)]
    text = _decode(path, raw)
    if suffix == ".json":
        return list(_load_corpus(path, text))
    if suffix in HTML_SUFFIXES:
        return [_load_html(path, text)]
    return [_load_text(path, text)]


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    return "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C")


def _decode(path: Path, raw: bytes) -> str:
    if b"\x00" in raw[:8192]:
        raise InputError(str(path), "looks binary (NUL bytes), not text")
    try:
        return normalise(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise InputError(
            str(path), f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from exc


def _split_header(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    meta: dict[str, str] = {}
    rest = list(lines)
    while rest and (not rest[0].strip() or _META_LINE.match(rest[0].strip())):
        m = _META_LINE.match(rest.pop(0).strip())
        if m:
            meta[m.group(1).lower()] = m.group(2)
    return meta, rest


def _load_text(path: Path, text: str) -> SourceDocument:
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    first = lines[0].strip() if lines else ""
    if path.suffix.lower() != ".txt" and not first.startswith("#"):
        title, body_lines = path.stem.replace("-", " ").replace("_", " "), lines
    else:
        title, body_lines = first.lstrip("#").strip() or path.stem, lines[1:]
    meta, body_lines = _split_header(body_lines)
    body = "\n".join(body_lines).strip()
    if not body:
        raise InputError(str(path), "no text after the title")
    return _doc(path, title, body, meta)


def _doc(path: Path, title: str, body: str, meta: dict[str, str]) -> SourceDocument:
    date = meta.get("date", "")
    m = _ISO_DATE.search(date)
    return SourceDocument(
        uri=str(path.resolve()),
        title=title,
        text=body,
        source=meta.get("source", str(path.resolve().parent)),
        doc_type=meta.get("type", path.suffix.lower().lstrip(".")).strip().lower(),
        date=m.group(1) if m else "",
    )


def _load_html(path: Path, text: str) -> SourceDocument:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(text, "html.parser")
    for tag in soup(["script", "style", "noscript"]):
        tag.decompose()
    title = soup.title.get_text(strip=True) if soup.title else ""
    if soup.title:
        soup.title.decompose()
    blocks = [el.get_text(" ", strip=True) for el in soup.find_all(["h1", "h2", "h3", "p", "li"])]
    body_lines = [b for b in blocks if b] or [soup.get_text("\n", strip=True)]
    if body_lines and (not title or body_lines[0] == title):
        # The page heading usually repeats <title>; metadata lines follow the heading.
        title = body_lines.pop(0)
    meta, body_lines = _split_header(body_lines)
    body = normalise("\n\n".join(body_lines)).strip()
    if not body:
        raise InputError(str(path), "no text in the HTML page")
    return _doc(path, title or path.stem, body, meta)


def _load_pdf(path: Path, raw: bytes, max_bytes: int) -> SourceDocument:
    import io

    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError, PyPdfError

    try:
        reader = PdfReader(io.BytesIO(raw))
        pages: list[str] = []
        size = 0
        for page in reader.pages:
            pages.append(page.extract_text() or "")
            size += len(pages[-1])
            # A small file may inflate enormously (a decompression bomb); the text it yields
            # is held to the same limit as a text file's bytes.
            if size > max_bytes:
                raise InputError(
                    str(path), f"PDF text is over the limit of {max_bytes:,} characters"
                )
        meta_title = (reader.metadata.title if reader.metadata else None) or ""
    except LimitReachedError as exc:
        raise InputError(
            str(path), f"PDF stream inflates past pypdf's safety limit: {exc}"
        ) from exc
    except (PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise InputError(str(path), f"cannot parse PDF: {exc}") from exc
    body = normalise("\n\n".join(pages)).strip()
    if not body:
        raise InputError(str(path), "PDF has no extractable text (scanned images need OCR)")
    return _doc(path, meta_title.strip() or path.stem, body, {})


def _load_corpus(path: Path, text: str) -> Iterator[SourceDocument]:
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            str(path), f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc
    except RecursionError as exc:
        raise InputError(str(path), "JSON nested too deeply to be a corpus") from exc
    uri = str(path.resolve())
    if isinstance(data, dict):
        items = list(data.items())
        if not all(isinstance(v, list) for _, v in items):
            raise InputError(str(path), "corpus dict must map title -> list of sentences")
        passages = [(str(t), "".join(str(s) for s in v)) for t, v in items]
    elif isinstance(data, list):
        passages = []
        for i, item in enumerate(data):
            if not isinstance(item, dict) or "text" not in item:
                raise InputError(str(path), f"corpus item {i} is not an object with 'text'")
            passages.append((str(item.get("title", "")), str(item["text"])))
    else:
        raise InputError(str(path), "corpus JSON must be a list of {title, text} or a dict")
    if not passages:
        raise InputError(str(path), "corpus holds no passages")
    for i, (title, body) in enumerate(passages):
        body = normalise(body).strip()
        if body:
            # The passage index keeps duplicate titles (MuSiQue has some) apart, stably.
            yield SourceDocument(
                uri=f"{uri}#{i}",
                title=title or f"passage {i}",
                text=body,
                source=uri,
                doc_type="passage",
            )
