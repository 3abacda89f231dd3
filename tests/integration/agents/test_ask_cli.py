"""``kg ask`` as a user runs it: a real process, the demo ingested, offline and with an LLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agents.audit import read
from tests.conftest import DEMO
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.agents.conftest import Script, evidence_ids

QUESTION = "What are NMHT's priorities for the next 12 months?"
pytestmark = pytest.mark.slow


def kg(
    data: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "KG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1", **(env or {})}
    for key in ("KG_LLM__BASE_URL", "KG_LLM__MODEL"):
        if env is None or key not in env:
            full.pop(key, None)
    return subprocess.run(
        [sys.executable, "-m", "kg.cli", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=600,
    )


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ask") / "kg"
    done = kg(path, "ingest", str(DEMO))
    assert done.returncode == 0, done.stderr
    return path


def test_offline_ask_prints_answer_citations_confidence_and_audit_log(data: Path) -> None:
    r = kg(data, "ask", QUESTION, "--max-iterations", "1")
    assert r.returncode == 0, r.stderr
    for part in (
        "SOURCES CONSULTED",
        "[PRIMARY] NMHT Priorities for the Next 12 Months — 2026-03-19 (3 chunks)",
        "GAPS",
        "CONFIDENCE",
        "/100",
        "EPISTEMIC SUMMARY",
        "ITERATION LOG",
        "No LLM is configured",
        "audit log",
        "offline",
    ):
        assert part in r.stdout
    md = kg(
        data,
        "ask",
        QUESTION,
        "--max-iterations",
        "1",
        "--format",
        "markdown",
        "--type",
        "priorities",
    )
    assert md.returncode == 0, md.stderr
    assert md.stdout.startswith(f"# {QUESTION}") and "## Sources consulted" in md.stdout
    assert "RUHT Priorities" in md.stdout and "Annual Plan" not in md.stdout  # --type filters
    bad = kg(data, "ask", QUESTION, "--from", "March")
    assert bad.returncode == 1 and bad.stderr.startswith("error:") and "'March'" in bad.stderr
    as_json = json.loads(kg(data, "ask", QUESTION, "--json").stdout)
    for key in ("answer", "citations", "confidence", "reason", "warnings", "iterations", "run_id"):
        assert key in as_json
    assert as_json["citations"] and {"chunk_id", "document_title"} == set(as_json["citations"][0])
    assert Path(as_json["audit_log"]).is_file()
    assert Path(as_json["audit_log"]).parent == data / "audit"


def test_ask_uses_the_configured_llm(data: Path) -> None:
    def answer(body: dict[str, Any]) -> Reply:
        first = evidence_ids(body)[0]
        finding = {"text": "Five priorities.", "kind": "FACT", "citations": [first]}
        return Reply.json(
            {
                "tool_calls": [],
                "answer": f"Five priorities [{first}].",
                "findings": [finding],
                "confidence": "HIGH",
                "reason": "r",
            }
        )

    script = Script(
        planner=[
            Reply.json(
                {
                    "complexity": "simple",
                    "subtasks": [{"description": "d", "query": "NMHT priorities"}],
                }
            )
        ],
        synthesis=[answer],
        verifier=[Reply.json({"problems": [], "supported": True})],
    )
    # The corpus's few-shot file in the data directory is loaded by default.
    (data / "examples.jsonl").write_text(
        (DEMO / "examples.jsonl").read_text(encoding="utf-8"), encoding="utf-8"
    )
    with FakeOpenAIServer(responder=script) as server:
        env = {
            "KG_LLM__BASE_URL": server.base_url,
            "KG_LLM__MODEL": "fake-model",
            "KG_LLM__API_KEY": "sk-cli-secret",
            "KG_AGENT__LLM_ANSWERER": "synthesis",  # the script answers the synthesis step
        }
        r = kg(data, "ask", QUESTION, "--json", env=env)
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["mode"] == "llm" and result["model"] == "fake-model"
    assert result["answer"].startswith("Five priorities [")
    # The model said HIGH; the offline checks could not confirm the listed priorities closely.
    assert result["confidence"] == "MEDIUM" and "Capped at MEDIUM" in result["reason"]
    assert server.count == 3
    (synthesis,) = script.calls["synthesis"]
    system, user = (m["content"] for m in synthesis["messages"][:2])
    assert "Examples of well-formed answers" in system and "Q: " in system
    # Each chunk's header gives its document's date, type and subject.
    assert "NMHT Priorities for the Next 12 Months; 2026-03-19; priorities; about " in user
    (data / "examples.jsonl").unlink()
    log = Path(result["audit_log"])
    assert "sk-cli-secret" not in log.read_text(encoding="utf-8")
    assert [e["event"] for e in read(log)].count("llm_response") == 3
