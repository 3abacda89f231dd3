"""``kg bench scale`` end to end on a small invented corpus, on the embedded store and on the
test Neo4j server: each size is built, measured and written with the memory of a process that
answers questions over it (a child running bench/rss.py on the same store)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import scale
from graph_store.config import Neo4jSettings
from kg.settings import Settings
from tests import stores
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

TEXTS = {
    "Harlow Mill": "Harlow Mill is a water mill on the river Tese built in 1791.",
    "River Tese": "The river Tese flows through Brackwell and joins the Orm.",
    "Brackwell": "Brackwell is a market town whose mayor is Ada Venn.",
    "Ada Venn": "Ada Venn is a politician born in Orm Bay who trained as a miller.",
    "Orm Bay": "Orm Bay is a fishing village at the mouth of the river Orm.",
    "Tese Bridge": "Tese Bridge crosses the river Tese near Harlow Mill since 1820.",
}
CORPUS = [{"title": t, "text": x} for t, x in TEXTS.items()]


def _run(tmp_path: Path, settings: Settings, store: str) -> dict[str, Any]:
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(CORPUS), encoding="utf-8")
    partial = tmp_path / "partial.json"
    config = scale.ScaleConfig(
        corpus,
        (1, 2),
        questions=3,
        warmup=1,
        rss_questions=3,
        work_dir=tmp_path / "work",
        store=store,
        partial=partial,
    )
    result = scale.run(config, settings)
    # What was written after the last size is the whole result.
    assert json.loads(partial.read_text(encoding="utf-8")) == result
    return result


def _check_rows(result: dict[str, Any]) -> None:
    one, two = result["rows"]
    assert (one["factor"], two["factor"]) == (1, 2)
    assert (one["passages"], two["passages"]) == (6, 12)
    # The name-shifted copy doubles the documents and keeps the graph's shape roughly.
    assert two["counts"]["documents"] == 2 * one["counts"]["documents"] == 12
    assert two["counts"]["entities"] > one["counts"]["entities"] > 0
    for row in result["rows"]:
        assert row["ingest_passages_per_s"] > 0
        for preset in ("graph", "dense"):
            assert 0 < row[preset]["p50_ms"] <= row[preset]["p95_ms"]
        # The child process loaded the model and answered: it holds at least the model.
        assert row["api_rss_mb"] >= row["api_rss_mb_loaded"] > 50


def test_scale_on_the_embedded_store(tmp_path: Path) -> None:
    result = _run(tmp_path, Settings(data_dir=tmp_path / "kg"), "embedded")
    assert result["store"] == "embedded"
    _check_rows(result)
    for row in result["rows"]:
        assert row["disk_bytes_per_passage"] > 0
        assert row["read_model"] == "InMemoryReadModel"


@pytest.mark.neo4j
@pytest.mark.usefixtures("neo4j_server")
def test_scale_on_neo4j(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stores.refuse_foreign()
    # The memory child reads its store from the environment, as the API process does.
    server = {"URI": URI, "USER": USER, "PASSWORD": PASSWORD, "DATABASE": DATABASE}
    for key, value in server.items():
        monkeypatch.setenv(f"KG_NEO4J__{key}", value)
    monkeypatch.delenv("KG_NEO4J__READ_MODEL", raising=False)
    settings = Settings(
        data_dir=tmp_path / "kg",
        neo4j=Neo4jSettings(uri=URI, user=USER, password=PASSWORD, database=DATABASE),
    )
    result = _run(tmp_path, settings, "neo4j")
    assert result["store"] == "neo4j"
    _check_rows(result)
    # No disk figure: the database lives in the server, not in the bench's folder.
    assert all("disk_bytes" not in row for row in result["rows"])
    # The API child used the database's own read model (KG_NEO4J__READ_MODEL unset).
    assert {row["read_model"] for row in result["rows"]} == {"TopologyReadModel"}
