"""Hostile files: a decompression-bomb PDF, binary data named ``.md``, NUL bytes and a 10,000
character entity name. Each gets a clear ``InputError`` (or is ingested with bounded names)
and nothing already stored is lost."""

from __future__ import annotations

import random
import tracemalloc
import zlib
from pathlib import Path

import pytest

from core.errors import InputError
from extraction.loaders import load_file
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder

LIMIT = 20 * 1024 * 1024


def _bomb_pdf(path: Path, inflated: int) -> None:
    """A one-page PDF whose content stream is ~200 KB on disk and ``inflated`` bytes open."""
    content = b"BT /F1 12 Tf 72 720 Td (Bomb) Tj ET\n" + b" " * inflated
    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(out)


def test_a_pdf_decompression_bomb_is_refused_with_bounded_memory(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.pdf"
    _bomb_pdf(bomb, 400 * 1024 * 1024)
    assert bomb.stat().st_size < 1024 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=r"bomb\.pdf: PDF"):
            load_file(bomb, LIMIT)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # pypdf stops inflating at its limit (75 MB); opening the whole stream would need 400 MB.
    assert peak < 250 * 1024 * 1024, f"peak {peak / 2**20:.0f} MiB while refusing the bomb"


def test_binary_data_named_md_is_refused(tmp_path: Path) -> None:
    rng = random.Random(7)
    with_nul = tmp_path / "image.md"
    with_nul.write_bytes(bytes(rng.randrange(256) for _ in range(4096)) + b"\x00")
    with pytest.raises(InputError, match="looks binary"):
        load_file(with_nul, LIMIT)
    # Bytes that are not UTF-8 and hold no NUL are named by their first bad byte.
    without_nul = tmp_path / "latin.md"
    without_nul.write_bytes(bytes(rng.randrange(128, 256) for _ in range(4096)))
    with pytest.raises(InputError, match="not valid UTF-8"):
        load_file(without_nul, LIMIT)


def test_nul_bytes_in_text_are_refused(tmp_path: Path) -> None:
    doc = tmp_path / "notes.txt"
    doc.write_bytes(b"Notes\n\nThe Harbour Board\x00 funds the clinic.\n")
    with pytest.raises(InputError, match="NUL"):
        load_file(doc, LIMIT)


@pytest.fixture()
def container(tmp_path: Path, embedder: SentenceTransformerEmbedder) -> Container:
    c = build(Settings(data_dir=tmp_path / "kg"))
    c.embedder = embedder
    return c


def test_a_ten_thousand_character_name_is_bounded_and_loses_nothing(
    tmp_path: Path, container: Container
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "kept.md").write_text(
        "# Harbour Board\n\nThe Harbour Board funds the Kelby Clinic.\n", encoding="utf-8"
    )
    long_name = " ".join(["Northdale"] * 1100)
    assert len(long_name) > 10_000
    (src / "long.md").write_text(
        f"# Long Names\n\n{long_name} is a member of the Estuary Partnership.\n"
        "The Estuary Partnership leads the Harbour Plan.\n",
        encoding="utf-8",
    )
    with container.store:
        container.store.init_schema()
        container.ingestor().ingest_paths([src / "kept.md"])
        before = container.store.export_graph()
        report = container.ingestor().ingest_paths([src / "long.md"])
        assert not report.failed, report.failed
        after = container.store.export_graph()
        assert container.store.counts().documents == 2
        names = after.entity_names
        assert set(before.entity_names) <= set(names)  # nothing already stored was lost
        assert "Estuary Partnership" in names and "Harbour Plan" in names
        assert max(len(n) for n in names) < 1_000
