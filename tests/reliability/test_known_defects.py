"""Defects the reliability suite found, now fixed; kept as regression tests.

The listing test runs in a subprocess because the original defect killed the process (a
segfault), which would take the test run down with it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from core.errors import InputError
from extraction.loaders import load_file

# GET /v1/documents?offset=1000000 reaches KuzuGraphStore.list_documents (cypher
# documents_list: ... SKIP $offset LIMIT $limit), and Kùzu 0.11.3 segfaults on a SKIP that
# large once the Document table has rows; offsets >= 2**32 wrap around and return rows.
LIST_PAST_THE_END = """
import sys
from pathlib import Path

from extraction.loaders import load_file
from core.errors import InputError
from kg.container import build
from kg.settings import Settings
root = Path(sys.argv[1])
(root / "a.md").write_text("# A\\n\\nThe Harbour Board funds the Kelby Clinic.\\n")
c = build(Settings(data_dir=root / "kg"))
c.store.open()
c.store.init_schema()
c.ingestor().ingest_paths([root / "a.md"])
assert c.store.list_documents(1_000_000, 5) == []
assert c.store.list_documents(2**32, 5) == []
c.store.close()
"""


def test_listing_documents_far_past_the_end_is_empty_not_a_crash(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", LIST_PAST_THE_END, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"


def test_an_over_long_ingest_path_is_a_client_error(small_client: httpx.Client) -> None:
    # extraction/loaders.py discover() calls path.is_dir() on the caller's path; a component
    # over 255 bytes raises OSError (errno 36), which reaches the API as a 500.
    response = small_client.post("/v1/ingest", json={"paths": ["é" * 200]})
    assert response.status_code == 422, response.text


def test_a_nul_byte_in_an_ingest_path_is_a_client_error(small_client: httpx.Client) -> None:
    # Found by the fuzz run of `make reliability`: Path.resolve() raises ValueError
    # ("embedded null byte") in api/routers/documents.py, which reached the client as a 500.
    response = small_client.post("/v1/ingest", json={"paths": ["docs/a\u0000.md"]})
    assert response.status_code == 422, response.text
    assert "not a usable path" in response.text


def test_a_deeply_nested_json_corpus_is_an_input_error(tmp_path: Path) -> None:
    # extraction/loaders.py _load_corpus catches json.JSONDecodeError only; 100,000 nested
    # arrays make json.loads raise RecursionError, which is no InputError (a 500 over the API).
    corpus = tmp_path / "nested.json"
    corpus.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InputError):
        load_file(corpus, 10**8)
