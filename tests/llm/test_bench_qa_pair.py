"""``kg bench qa --llm``: offline and LLM answers to the same question in one run, with the
real model. Asserts structure and bookkeeping, never the model's wording or score."""

from __future__ import annotations

from pathlib import Path

from agents.config import AgentSettings
from bench.qa import QaConfig
from bench.qa_pair import MODES, run_pair, table_rows
from kg.settings import Settings
from llm import LlmSettings

SAMPLE = Path(__file__).resolve().parents[2].parent / "shared" / "bench" / "multihop" / "sample"


def test_pair_answers_each_question_in_both_modes(local_llm: LlmSettings, tmp_path: Path) -> None:
    agent = AgentSettings(
        audit_dir=tmp_path / "audit",
        max_evidence=3,
        max_subtasks=1,
        refinement_passes=0,
        examples_shown=0,
        max_iterations=1,
    )
    settings = Settings(data_dir=tmp_path / "kg", llm=local_llm, agent=agent)
    config = QaConfig(SAMPLE / "sample_corpus.json", SAMPLE / "sample.json", 1, tmp_path / "bench")
    result = run_pair(config, settings)

    assert result["mode"] == "offline+llm" and result["model"] == local_llm.model
    assert set(result["summary"]) == set(MODES)
    assert all(result["summary"][m]["questions"] == 1 for m in MODES)
    (pair,) = result["questions"]
    assert pair["offline"]["mode"] == "offline"
    assert pair["llm"]["mode"] in ("llm", "llm-failed")
    assert pair["offline"]["id"] == pair["llm"]["id"]
    assert all(pair[m]["seconds"] > 0 for m in MODES)
    # The LLM run spent tokens on at least one step; the offline run on none.
    assert sum(pair["llm"]["tokens"].values()) > 0
    assert not pair["offline"]["tokens"]
    limits = result["llm_limits"]
    assert sum(limits["modes"].values()) == 1
    header, rows = table_rows(result)
    assert header == ["measure", *MODES] and all(len(r) == 3 for r in rows)
