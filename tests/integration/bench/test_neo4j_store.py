"""The Neo4j bench store on the real server (NEO4J_URI): marker reuse, resume, rebuild, reset,
and ``--store`` from the command line. These tests empty the database they are pointed at."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.neo4j_store import MARKER_KEY, STARTED_KEY
from bench.store import bench_store
from core.errors import ConfigError, SchemaVersionError, StoreError
from graph_store.config import Neo4jSettings
from graph_store.neo4j.store import Neo4jGraphStore
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests import stores
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]

CORPUS = [
    {"title": "Mercy", "text": "Mercy is a song recorded by the Welsh singer Duffy in 2008."},
    {"title": "Mercy", "text": "Mercy is a town on the coast of Tasmania known for oysters."},
    {"title": "Duffy", "text": "Duffy is a Welsh singer from Nefyn who won a Grammy award."},
]


def _driver_run(text: str, **params: Any) -> list[Any]:
    """Raw Cypher for test set-up and inspection only."""
    import neo4j

    with neo4j.GraphDatabase.driver(URI, auth=(USER, PASSWORD)) as driver:
        records, _, _ = driver.execute_query(text, params, database_=DATABASE)
        return list(records)


@pytest.fixture(autouse=True)
def _throwaway_database() -> None:
    """Only documents these tests could have written (corpora in the temp folder, the
    adapter tests' ``t-`` ids, or a database tests/stores.py marked) may be in the database
    that the bench store empties."""
    stores.refuse_foreign()


@pytest.fixture()
def settings(tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path / "kg",
        neo4j=Neo4jSettings(uri=URI, user=USER, password=PASSWORD, database=DATABASE),
    )


@pytest.fixture()
def adapter(embedder: SentenceTransformerEmbedder) -> Iterator[Neo4jGraphStore]:
    s = Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, embedder.dimension, embedder.model_name)
    yield s
    s.close()


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def meta(key: str) -> dict[str, Any] | None:
    rows = _driver_run("MATCH (m:Meta {key: $key}) RETURN m.value AS v", key=key)
    return json.loads(rows[0]["v"]) if rows and rows[0]["v"] else None


def test_marker_reuse_resume_and_rebuild(
    tmp_path: Path, settings: Settings, embedder: SentenceTransformerEmbedder
) -> None:
    corpus = write(tmp_path / "corpus.json", CORPUS)
    work = tmp_path / "work"
    with bench_store(corpus, settings, work, embedder, store="neo4j") as bs:
        assert not bs.reused and bs.store_kind == "neo4j" and URI in bs.location
        assert sorted(bs.doc_to_passage.values()) == [0, 1, 2]
        hits = bs.container.searcher().search("oysters on the Tasmanian coast", 3, "dense")
        assert bs.passages_of_docs([h.doc_id for h in hits])[0] == 1
        graph = bs.container.searcher().search("Which singer recorded Mercy?", 3, "graph")
        assert graph and {h.doc_id for h in graph} <= set(bs.doc_to_passage)
        # A second run meanwhile would empty the database under this one.
        with (
            pytest.raises(StoreError, match="in use by another benchmark run"),
            bench_store(corpus, settings, work, embedder, store="neo4j"),
        ):
            pass
    marker = meta(MARKER_KEY)
    assert marker is not None and marker["documents"] == 3 and meta(STARTED_KEY) is None
    assert marker["corpus_uri"] == str(corpus.resolve())

    with bench_store(corpus, settings, work, embedder, store="neo4j") as bs:
        assert bs.reused and bs.ingest_seconds == marker["ingest_seconds"]
        assert sorted(bs.doc_to_passage.values()) == [0, 1, 2]

    # A killed build of the same corpus (started, never completed) is resumed.
    started = {k: marker[k] for k in marker if k not in ("documents", "graph_version")}
    _driver_run("MATCH (m:Meta {key: $key}) SET m.value = ''", key=MARKER_KEY)
    _driver_run(
        "MATCH (m:Meta {key: $key}) SET m.value = $v", key=STARTED_KEY, v=json.dumps(started)
    )
    with bench_store(corpus, settings, work, embedder, store="neo4j") as bs:
        assert not bs.reused and bs.container.store.counts().documents == 3
    resumed = meta(MARKER_KEY)
    assert resumed is not None and resumed["resumed_with_unchanged"] == 3

    # A write after the build moves the graph version on: the marker no longer holds.
    _driver_run("MATCH (m:Meta {key: 'graph_version'}) SET m.value = toString(-1)")
    with bench_store(corpus, settings, work, embedder, store="neo4j") as bs:
        assert not bs.reused
    rebuilt = meta(MARKER_KEY)
    assert rebuilt is not None and rebuilt["resumed_with_unchanged"] == 0

    # Another corpus empties the database and builds its own.
    other = write(tmp_path / "other.json", CORPUS[1:])
    with bench_store(other, settings, work, embedder, store="neo4j") as bs:
        assert not bs.reused and bs.container.store.counts().documents == 2
        assert sorted(bs.doc_to_passage.values()) == [0, 1]


def test_unknown_store_is_a_config_error(tmp_path: Path, settings: Settings) -> None:
    with (
        pytest.raises(ConfigError, match="unknown store"),
        bench_store(write(tmp_path / "c.json", CORPUS), settings, store="mongo"),
    ):
        pass


def test_reset_empties_a_database_of_another_schema_version(adapter: Neo4jGraphStore) -> None:
    adapter.open()
    adapter.init_schema()
    adapter.set_meta("note", "x")
    _driver_run("MATCH (m:Meta {key: 'schema_version'}) SET m.value = 'older'")
    adapter.close()
    with pytest.raises(SchemaVersionError):
        adapter.open()
    adapter.reset()
    assert not _driver_run("MATCH (n) RETURN n LIMIT 1")
    names = {r["name"] for r in _driver_run("SHOW INDEXES YIELD name RETURN name")}
    assert not names & {"chunk_embedding", "entity_embedding", "chunk_text", "document_uri"}
    adapter.init_schema()
    assert adapter.counts().documents == 0 and adapter.meta("note") is None


def test_cli_store_option_and_init_reset(tmp_path: Path) -> None:
    sample = tmp_path / "corpus.json"
    write(sample, CORPUS)
    questions = [
        {
            "id": "q1",
            "question": "Which town in Tasmania is known for oysters?",
            "answer": ["Mercy"],
            "paragraphs": [{**CORPUS[1], "is_supporting": True}],
        }
    ]
    env = {
        **os.environ,
        "KG_DATA_DIR": str(tmp_path / "kg"),
        "HF_HUB_OFFLINE": "1",
        "KG_NEO4J__URI": URI,
        "KG_NEO4J__USER": USER,
        "KG_NEO4J__PASSWORD": PASSWORD,
        "KG_NEO4J__DATABASE": DATABASE,
    }

    def kg(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "kg.cli", *args],
            capture_output=True,
            text=True,
            env={**env, **extra},
            timeout=600,
        )

    out = tmp_path / "r.json"
    run = kg(
        "bench", "multihop", "--corpus", str(sample),
        "--questions", str(write(tmp_path / "q.json", questions)),
        "--presets", "dense,graph", "--store", "neo4j", "--out", str(out),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["corpus"]["store_kind"] == "neo4j" and URI in result["corpus"]["store"]
    assert result["counts"]["store"]["documents"] == 3
    bad = kg("bench", "latency", "--corpus", str(sample), "--store", "mongo")
    assert bad.returncode != 0 and "unknown store" in bad.stderr

    reset = kg("init", "--reset", KG_STORE="neo4j")
    assert reset.returncode == 0, reset.stderr
    assert not _driver_run("MATCH (d:Document) RETURN d LIMIT 1")
    assert not _driver_run("MATCH (m:Meta {key: $key}) RETURN m", key=MARKER_KEY)
