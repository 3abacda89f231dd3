"""Prompt files, audit log, strict JSON parsing, few-shot examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.audit import MASK, AuditLog, new_run_id, read
from agents.fewshot import ExampleIndex, load_examples, render
from agents.prompt_files import load
from core.errors import ConfigError
from retrieval.embedder import SentenceTransformerEmbedder


@pytest.mark.parametrize(
    ("name", "version"), [("planner", 1), ("synthesis", 2), ("refine", 1), ("verifier", 1)]
)
def test_every_prompt_loads_with_both_sections(name: str, version: int) -> None:
    prompt = load(name)
    assert prompt.ref == f"{name}.v{version}"
    messages = prompt.messages(question="Q?", evidence="E", answer="A", reply="R", error="X")
    assert [m["role"] for m in messages] == ["system", "user"]
    assert all(m["content"] for m in messages)


def test_prompt_values_are_not_reparsed() -> None:
    evil = "$question {0} ${evidence}"
    text = load("verifier").messages(question="Q", evidence=evil, answer="A")[1]["content"]
    assert evil in text


def test_missing_prompt_or_version_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        load("no_such_prompt")
    with pytest.raises(ConfigError):
        load("planner", 99)


def test_audit_log_is_jsonl_and_never_holds_secrets(tmp_path: Path) -> None:
    run = new_run_id()
    log = AuditLog(tmp_path / "audit", run, secrets=["sk-very-secret"])
    assert not (tmp_path / "audit").exists()  # nothing written until the first event
    log.write("llm_request", api_key="sk-very-secret", headers={"Authorization": "Bearer x"})
    log.write("note", text="the key sk-very-secret leaked into a prompt", n=3)
    assert log.path == tmp_path / "audit" / f"{run}.jsonl"
    raw = log.path.read_text(encoding="utf-8")
    assert "sk-very-secret" not in raw and "Bearer x" not in raw
    events = read(log.path)
    assert [e["event"] for e in events] == ["llm_request", "note"]
    assert events[0]["api_key"] == MASK and events[0]["headers"]["Authorization"] == MASK
    assert events[1]["n"] == 3 and events[1]["run_id"] == run


def test_disabled_audit_log_writes_nothing(tmp_path: Path) -> None:
    log = AuditLog(None, "r")
    log.write("x", a=1)
    assert log.path is None


def test_examples_json_and_jsonl(tmp_path: Path) -> None:
    rows = [
        {
            "question": "What does the plan fund?",
            "evidence_ids": ["c1"],
            "answer": "It funds X [c1].",
        },
        {"question": "Who chairs the board?", "answer": "Y chairs it [c2]."},
    ]
    as_json = tmp_path / "ex.json"
    as_json.write_text(json.dumps(rows), encoding="utf-8")
    as_jsonl = tmp_path / "ex.jsonl"
    as_jsonl.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert load_examples(as_json) == load_examples(as_jsonl)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "no answer"}\n', encoding="utf-8")
    with pytest.raises(ConfigError):
        load_examples(bad)
    with pytest.raises(ConfigError):
        load_examples(tmp_path / "missing.json")


def test_nearest_examples_by_embedding(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    path = tmp_path / "ex.json"
    path.write_text(
        json.dumps(
            [
                {"question": "How much money does the hospital budget allocate?", "answer": "a"},
                {"question": "Who is the chair of the partnership board?", "answer": "b"},
                {"question": "What is the waiting time target for therapy?", "answer": "c"},
            ]
        ),
        encoding="utf-8",
    )
    index = ExampleIndex(load_examples(path), embedder)
    best = index.nearest("Which person chairs the board of the partnership?", 1)
    assert [e.answer for e in best] == ["b"]
    assert "Q: Who is the chair" in render(best)
    assert render([]) == ""
