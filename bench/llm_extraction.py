"""Graph built by LLM extraction against one built by rules, on the same MuSiQue passages.

    python -m bench.llm_extraction --passages 20 --out bench/results/llm_extraction.json

Takes the first questions of the MuSiQue set in order, each with its gold (supporting)
paragraphs and a few of its own distractors, until the passage budget is spent; only those
questions are asked, so every gold passage is in the corpus. Builds two bench stores from the
same passages, one with ``KG_EXTRACTION__LLM_ENABLED=false`` and one with the configured
``KG_LLM__*`` server, and ranks the questions with the graph preset in both. Reports recall@k
and the LLM's input / output tokens per passage (HippoRAG 2 spent about 790 input tokens per
passage). The LLM answers are cached (extraction's own cache), so a rerun costs no calls.
"""

from __future__ import annotations

import argparse
import ast
import json
import time
from pathlib import Path
from typing import Any

from bench.multihop import MultihopConfig, run
from kg.settings import Settings

MUSIQUE = Path("../shared/bench/multihop/musique/musique_train.json")


def subset(source: Path, budget: int, distractors: int, work: Path) -> tuple[Path, Path, int]:
    """A corpus and question file holding whole questions within ``budget`` passages."""
    rows = json.loads(source.read_text(encoding="utf-8"))
    corpus: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    kept: list[dict[str, Any]] = []
    for row in rows:
        paragraphs = row["paragraphs"]
        if isinstance(paragraphs, str):
            paragraphs = ast.literal_eval(paragraphs)
        gold = [p for p in paragraphs if p.get("is_supporting")]
        other = [p for p in paragraphs if not p.get("is_supporting")][:distractors]
        new = [p for p in gold + other if (p["title"], p["paragraph_text"]) not in seen]
        if len(corpus) + len(new) > budget:
            break
        for p in new:
            seen.add((p["title"], p["paragraph_text"]))
            corpus.append({"title": p["title"], "text": p["paragraph_text"]})
        kept.append(row)
    work.mkdir(parents=True, exist_ok=True)
    corpus_path, questions_path = work / "corpus.json", work / "questions.json"
    corpus_path.write_text(json.dumps(corpus), encoding="utf-8")
    questions_path.write_text(json.dumps(kept), encoding="utf-8")
    return corpus_path, questions_path, len(kept)


def usage(journal: Path, passages: int) -> dict[str, Any]:
    """LLM requests, failures and tokens of the extraction, from its journal."""
    events = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    done = [e for e in events if e["event"] in ("llm_response", "llm_error")]
    tokens_in = sum(int(e.get("prompt_tokens", 0) or 0) for e in done)
    tokens_out = sum(int(e.get("completion_tokens", 0) or 0) for e in done)
    seconds = sum(float(e.get("seconds", 0) or 0) for e in done)
    return {
        "requests": sum(int(e.get("attempts", 1) or 1) for e in done),
        "failed": sum(e["event"] == "llm_error" for e in done),
        "failures": sorted({str(e.get("kind")) for e in done if e["event"] == "llm_error"}),
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
        "tokens_in_per_passage": round(tokens_in / passages, 1),
        "tokens_out_per_passage": round(tokens_out / passages, 1),
        "reply_seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=int, default=100)
    parser.add_argument("--distractors", type=int, default=2)
    parser.add_argument("--questions", type=Path, default=MUSIQUE)
    parser.add_argument("--work", type=Path, default=Path(".kg/bench-llm"))
    parser.add_argument("--out", type=Path, default=Path("bench/results/llm_extraction.json"))
    args = parser.parse_args()
    base = Settings()
    if not base.llm.configured:
        raise SystemExit("set KG_LLM__BASE_URL and KG_LLM__MODEL (see `kg llm serve`)")
    corpus, questions, asked = subset(args.questions, args.passages, args.distractors, args.work)
    passages = len(json.loads(corpus.read_text(encoding="utf-8")))
    result: dict[str, Any] = {"passages": passages, "questions": asked, "model": base.llm.model}
    for name, llm_on in (("rules", False), ("llm", True)):
        extraction = base.extraction.model_copy(update={"llm_enabled": llm_on})
        settings = base.model_copy(update={"extraction": extraction})
        started = time.perf_counter()
        config = MultihopConfig(
            corpus=corpus,
            questions=questions,
            presets=("graph",),
            name=f"musique-{passages}-{name}",
            work_dir=args.work / name,
        )
        found = run(config, settings)
        row: dict[str, Any] = {
            "recall": found["summary"]["graph"],
            "store": found["counts"]["store"],
            "ingest_s": found["timings"]["ingest_s"],
            "wall_s": round(time.perf_counter() - started, 1),
        }
        journal = Path(found["corpus"]["store"]) / "audit" / "extraction.jsonl"
        if llm_on:
            row["llm"] = usage(journal, passages)
        result[name] = row
        print(json.dumps({name: row}), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
