import json
from pathlib import Path

import pytest

from core.errors import InputError
from extraction.loaders import discover, load_file

LIMIT = 10_000_000


def test_markdown_title_and_metadata(tmp_path: Path) -> None:
    p = tmp_path / "a.md"
    p.write_text(
        "# My Title\nDate: 2026-03-14\nType: Board Paper\n\nBody text here.", encoding="utf-8"
    )
    (doc,) = load_file(p, LIMIT)
    assert (doc.title, doc.date, doc.doc_type, doc.text) == (
        "My Title",
        "2026-03-14",
        "board paper",
        "Body text here.",
    )


def test_html_pdf_txt(tmp_path: Path) -> None:
    h = tmp_path / "p.html"
    h.write_text(
        "<html><head><title>Page</title><script>x()</script></head>"
        "<body><p>Hello there.</p></body></html>"
    )
    assert load_file(h, LIMIT)[0].title == "Page"
    assert load_file(h, LIMIT)[0].text == "Hello there."
    t = tmp_path / "n.txt"
    t.write_text("Plain Title\n\nPlain body.")
    assert load_file(t, LIMIT)[0].title == "Plain Title"


def test_pdf_with_text(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    from pypdf import PdfWriter

    # A blank page has no text: the loader must say so rather than ingest nothing silently.
    w = PdfWriter()
    w.add_blank_page(width=200, height=200)
    p = tmp_path / "blank.pdf"
    with p.open("wb") as fh:
        w.write(fh)
    with pytest.raises(InputError, match="no extractable text"):
        load_file(p, LIMIT)


def test_corpus_list_and_dict_formats(tmp_path: Path) -> None:
    a = tmp_path / "list.json"
    a.write_text(json.dumps([{"title": "A", "text": "alpha"}, {"title": "A", "text": "again"}]))
    docs = load_file(a, LIMIT)
    assert [d.title for d in docs] == ["A", "A"] and docs[0].uri != docs[1].uri
    b = tmp_path / "dict.json"
    b.write_text(json.dumps({"T": ["One.", " Two."]}))
    assert load_file(b, LIMIT)[0].text == "One. Two."


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.md", b"", "empty"),
        ("latin.txt", "caf\xe9 menu".encode("latin-1"), "not valid UTF-8"),
        ("bin.md", b"\x00\x01\x02binary", "binary"),
        ("bad.json", b'[{"title": "x", "text": ', "malformed JSON at line 1"),
        ("shape.json", b'{"a": 1}', "title -> list of sentences"),
        ("x.docx", b"PK", "unsupported file type"),
    ],
)
def test_bad_input_is_a_clear_error_naming_the_file(
    tmp_path: Path, name: str, content: bytes, reason: str
) -> None:
    p = tmp_path / name
    p.write_bytes(content)
    with pytest.raises(InputError, match=reason) as info:
        load_file(p, LIMIT)
    assert str(p) in str(info.value)


def test_size_limit(tmp_path: Path) -> None:
    p = tmp_path / "big.txt"
    p.write_bytes(b"Big\n\n" + b"x" * 5000)
    with pytest.raises(InputError, match="over the limit"):
        load_file(p, 4096)


def test_discover_reports_missing_paths_and_skips_unsupported(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nx")
    (tmp_path / "b.png").write_bytes(b"\x89PNG")
    files, errors = discover([tmp_path, tmp_path / "nope"])
    assert [f.name for f in files] == ["a.md"]
    assert "no such file" in str(errors[0])


def test_html_heading_repeating_the_title_is_not_body_and_metadata_is_read(
    tmp_path: Path,
) -> None:
    page = tmp_path / "paper.html"
    page.write_text(
        "<html><head><title>RUHT Board Paper</title></head><body>"
        "<h1>RUHT Board Paper</h1><p>Date: 2026-02-26</p><p>Type: board paper</p>"
        "<p>Purpose. This paper updates the board.</p></body></html>",
        encoding="utf-8",
    )
    [doc] = load_file(page, 10_000)
    assert (doc.title, doc.date, doc.doc_type) == ("RUHT Board Paper", "2026-02-26", "board paper")
    assert doc.text.startswith("Purpose.")


def test_a_folders_readme_is_left_out_and_reported_or_included(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# About these notes\n\nThey are invented.")
    (tmp_path / "notes.md").write_text("# Notes\n\nThe Harbour Board met.")
    skipped: list[Path] = []
    files, _ = discover([tmp_path], skipped=skipped)
    assert [f.name for f in files] == ["notes.md"] and skipped == [tmp_path / "README.md"]
    files, _ = discover([tmp_path], include_readmes=True)
    assert sorted(f.name for f in files) == ["README.md", "notes.md"]
    # Named on its own, a README is a file like any other.
    assert discover([tmp_path / "README.md"])[0] == [tmp_path / "README.md"]
