"""A store whose writer was killed inside COMMIT opens again, consistent, and an ingest run
again ends equal to a clean build (graph_store/kuzu/recovery.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import StoreError
from graph_store.kuzu.recovery import recover_unreplayable_log, replay_in_child
from graph_store.kuzu.store import KuzuGraphStore
from kg.container import build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.conftest import ROOT

BATCH = 20


def _corpus(path: Path, n: int) -> Path:
    rows = [
        {
            "title": f"Entity {i} Holdings",
            "text": f"Entity {i} Holdings (EH{i}) is a member of Group {i % 7}. "
            f"It provides services in Region {i % 11}.",
        }
        for i in range(n)
    ]
    path.write_text(json.dumps(rows))
    return path


def _ingest(data: Path, corpus: Path, embedder: SentenceTransformerEmbedder) -> tuple[int, ...]:
    c = build(Settings(data_dir=data, ingest={"batch_documents": BATCH}))
    c.embedder = embedder
    with c.store:
        c.store.init_schema()
        c.ingestor().ingest_paths([corpus])
        return tuple(c.store.counts().as_dict().values())


def _unreplayable(data: Path) -> bool:
    """Whether a child process fails to replay the store's log, tried on a copy so the store
    under test keeps its log."""
    probe = data.with_name(data.name + "-probe")
    shutil.rmtree(probe, ignore_errors=True)
    shutil.copytree(data, probe)
    try:
        return replay_in_child(probe / "graph.kuzu") is not None
    finally:
        shutil.rmtree(probe)


def _killed_in_commit(data: Path, corpus: Path) -> None:
    """A store whose ingest died in its second COMMIT, leaving a log Kùzu cannot replay.

    Where the kill lands inside COMMIT is up to the scheduler: it can miss the commit, or
    land while the log alone is written (Kùzu replays or drops that log). Each outcome is
    observed, and the kill is redone until the state under test is there."""
    env = {
        **os.environ,
        "KG_DATA_DIR": str(data),
        "KG_INGEST__BATCH_DOCUMENTS": str(BATCH),
        "HF_HUB_OFFLINE": "1",
    }
    module = "tests.integration.graph_store.kill_in_commit"
    for _ in range(6):
        subprocess.run([sys.executable, "-m", "kg.cli", "init", "--reset"], env=env, check=True)
        proc = subprocess.run(
            [sys.executable, "-m", module, str(corpus), "2"], env=env, cwd=ROOT, check=False
        )
        assert proc.returncode == -9, proc.returncode
        if (data / "graph.kuzu.wal").exists() and _unreplayable(data):
            return
    raise AssertionError("six kills in a row left no log that Kùzu fails to replay")


def test_store_killed_inside_commit_opens_and_resumes_to_a_clean_build(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    corpus = _corpus(tmp_path / "corpus.json", 3 * BATCH)
    killed = tmp_path / "killed"
    _killed_in_commit(killed, corpus)

    store = KuzuGraphStore(killed / "graph.kuzu", embedder.dimension, embedder.model_name)
    with store:
        documents = store.counts().documents
    # The first batch was checkpointed; the second was lost with its commit; nothing is half.
    assert documents == BATCH
    kept = list((killed / "recovered").iterdir())
    assert len(kept) == 1 and (kept[0] / "graph.kuzu.wal").is_file()
    assert not (killed / "graph.kuzu.wal").exists()

    # Every key of the lost batch is free again: the rebuilt indexes match the rows.
    assert _ingest(killed, corpus, embedder) == _ingest(tmp_path / "clean", corpus, embedder)


def test_an_interrupted_salvage_is_redone_at_the_next_open(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    corpus = _corpus(tmp_path / "corpus.json", BATCH)
    data = tmp_path / "kg"
    counts = _ingest(data, corpus, embedder)
    db = data / "graph.kuzu"
    # What the first step of a salvage leaves: the log set aside, nothing rebuilt yet.
    (data / "graph.kuzu.wal.unreplayable").write_bytes(b"log that crashed Kuzu")

    kept = recover_unreplayable_log(db)
    assert kept is not None and (kept / "graph.kuzu.wal").read_bytes() == b"log that crashed Kuzu"
    assert (kept / "export" / "schema.cypher").is_file()
    assert recover_unreplayable_log(db) is None  # nothing left to do
    store = KuzuGraphStore(db, embedder.dimension, embedder.model_name)
    with store:
        assert tuple(store.counts().as_dict().values()) == counts
        assert store.fulltext_chunks("Entity 3 Holdings", 1)  # indexes rebuild over the import
        assert store.vector_search_chunks(embedder.embed(["Entity 3"])[0], 1)


def test_a_store_without_a_log_is_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "graph.kuzu"
    assert recover_unreplayable_log(db) is None
    db.write_bytes(b"")
    assert recover_unreplayable_log(db) is None
    assert not (tmp_path / "recovered").exists()


def test_the_log_of_a_store_another_process_holds_is_left_alone(tmp_path: Path) -> None:
    import kuzu

    db_path = tmp_path / "graph.kuzu"
    db = kuzu.Database(str(db_path))
    try:
        conn = kuzu.Connection(db)
        conn.execute("CREATE NODE TABLE T(id INT64, PRIMARY KEY(id))")
        conn.execute("CREATE (:T {id: 1})")
        wal = tmp_path / "graph.kuzu.wal"
        assert wal.stat().st_size > 0  # not checkpointed yet: the holder's own log
        assert recover_unreplayable_log(db_path) is None
        assert wal.stat().st_size > 0 and not (tmp_path / "recovered").exists()
        conn.close()
    finally:
        db.close()


def test_a_path_kuzu_cannot_take_as_a_literal_is_refused_and_keeps_the_log(
    tmp_path: Path,
) -> None:
    data = tmp_path / "o'brien"
    data.mkdir()
    db = data / "graph.kuzu"
    db.write_bytes(b"")
    aside = data / "graph.kuzu.wal.unreplayable"
    aside.write_bytes(b"log")
    with pytest.raises(StoreError, match="quote or backslash"):
        recover_unreplayable_log(db)
    assert aside.read_bytes() == b"log"
