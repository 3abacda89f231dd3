"""``kg bench`` as a user runs it, end to end on the shared sample set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from retrieval.search import PRESETS

SAMPLE = Path(__file__).resolve().parents[4] / "shared" / "bench" / "multihop" / "sample"
KG = [sys.executable, "-m", "kg.cli", "bench"]

pytestmark = pytest.mark.skipif(not SAMPLE.is_dir(), reason="shared sample set not present")


def kg(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([*KG, *args], capture_output=True, text=True, env=env, timeout=600)


def test_multihop_latency_and_report_on_the_sample(tmp_path: Path) -> None:
    data = tmp_path / "kg"
    presets = ["bm25", "dense", *(f"kg-{p}" for p in PRESETS)]
    result_path = tmp_path / "results" / "sample.json"
    args = [
        "multihop",
        "--corpus", str(SAMPLE / "sample_corpus.json"),
        "--questions", str(SAMPLE / "sample.json"),
        "--presets", ",".join(presets),
        "--out", str(result_path),
    ]  # fmt: skip
    first = kg(data, *args)
    assert first.returncode == 0, first.stderr
    assert "store built" in first.stderr
    result = json.loads(result_path.read_text(encoding="utf-8"))

    assert list(result["summary"]) == presets
    for metrics in result["summary"].values():
        assert set(metrics) >= {"R@2", "R@5"}
        assert all(0.0 <= metrics[m] <= 1.0 for m in ("R@2", "R@5"))
    # Three passages only: every ranker that works puts the one gold passage in its top 5.
    assert result["summary"]["bm25"]["R@5"] > 0 and result["summary"]["dense"]["R@5"] > 0
    (question,) = result["questions"]
    assert question["question"].startswith("Which Stanford University professor")
    assert question["gold"] == ["Thomas C. Sudhof"]
    corpus_titles = {"Thomas C. Sudhof", "David Eagleman", "Karl Deisseroth"}
    for preset in presets:
        ranked = question["ranked"][preset]
        assert 0 < len(ranked) <= 10 and set(ranked) <= corpus_titles
        assert len(set(question["ranked_ids"][preset])) == len(ranked)  # passages, deduplicated
    assert result["corpus"]["passages"] == 3 and result["counts"]["questions"] == 1
    assert set(result["timings"]["per_preset"]) == set(presets)
    assert result["environment"]["embedding_model"]
    assert "bm25" in first.stdout and "R@5" in first.stdout

    again = kg(data, *args[:-2], "--out", str(tmp_path / "again.json"))
    assert again.returncode == 0, again.stderr
    assert "store reused" in again.stderr
    repeat = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert repeat["summary"] == result["summary"]

    latency_path = tmp_path / "latency.json"
    lat = kg(
        data,
        "latency",
        "--corpus", str(SAMPLE / "sample_corpus.json"),
        "--presets", ",".join(PRESETS),
        "--questions", "2",
        "--warmup", "1",
        "--out", str(latency_path),
    )  # fmt: skip
    assert lat.returncode == 0, lat.stderr
    latency = json.loads(latency_path.read_text(encoding="utf-8"))
    assert latency["corpus"]["store_reused"] is True
    assert set(latency["presets"]) == set(PRESETS)
    for stats in latency["presets"].values():
        assert 0 < stats["p50_ms"] <= stats["p95_ms"] <= stats["max_ms"]
    assert latency["ratio_to_dense"]["dense"] == {"p50": 1.0, "p95": 1.0}
    # Each preset answers each question as a new one (embedding it), then again cached; the
    # headline is the first kind.
    assert latency["by_embedding"]["vector_cache"] is True
    assert latency["by_embedding"]["embedded_searches_seen"] == 2 * len(PRESETS)
    split = latency["by_embedding"]["presets"]
    for preset, s in split.items():
        assert s["embedded"] == latency["presets"][preset]
        assert s["embedded"]["n"] == s["cached"]["n"] == 2
    assert "passage-derived" in latency["questions"]["source"]

    combined, png = tmp_path / "multihop.json", tmp_path / "multihop.png"
    done = kg(data, "combine", str(result_path), "--out", str(combined), "--png", str(png))
    assert done.returncode == 0, done.stderr
    assert png.read_bytes()[:4] == b"\x89PNG"
    table = kg(data, "table", "--multihop", str(combined), "--latency", str(latency_path))
    assert table.returncode == 0, table.stderr
    assert "| preset | sample R@2 | sample R@5 |" in table.stdout
    assert "| p50 ms |" in table.stdout.replace(" preset |", "")


def test_bad_input_fails_cleanly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"question": "q?", ', encoding="utf-8")
    sample = ["--corpus", str(SAMPLE / "sample_corpus.json"), "--out", str(tmp_path / "r.json")]
    unknown = kg(tmp_path, "multihop", *sample, "--questions", str(bad), "--presets", "bm25,nope")
    assert unknown.returncode == 1
    assert "unknown preset 'nope'" in unknown.stderr and "Traceback" not in unknown.stderr

    malformed = kg(tmp_path, "multihop", "--corpus", str(bad), "--questions", str(bad),
                   "--presets", "bm25", "--out", str(tmp_path / "r.json"))  # fmt: skip
    assert malformed.returncode == 1
    assert "bad.json: malformed JSON at line 1" in malformed.stderr
    assert "Traceback" not in malformed.stderr
    assert not (tmp_path / "r.json").exists()


def test_ingest_throughput_on_the_sample(tmp_path: Path) -> None:
    out = tmp_path / "ingest.json"
    done = kg(tmp_path, "ingest", str(SAMPLE / "sample_corpus.json"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["passages"] == 3 and result["ingest_seconds"] > 0
    assert "ingest_passages_per_s" in done.stdout
    missing = kg(tmp_path, "ingest", str(tmp_path / "absent.json"))
    assert missing.returncode == 1 and "no such file" in missing.stderr
