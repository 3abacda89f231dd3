"""Entity resolution across ingest runs (real Kùzu store) and across processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from core.names import normalize_name
from kg.container import Container
from tests.conftest import ROOT

MUSIQUE = ROOT.parent / "shared" / "bench" / "multihop" / "musique" / "musique_train_corpus.json"


def _id(c: Container, name: str) -> str:
    key = normalize_name(name)
    return c.store.alias_targets([key])[key]


def test_same_entity_in_two_runs_is_one_node(
    container: Container, corpus: Callable[[dict[str, str]], Path]
) -> None:
    ingest = container.ingestor()
    ingest.ingest_paths([corpus({"a": "Patients praised RUHT. The Kelby Clinic opened."})])
    first = container.store.counts()
    ruht = _id(container, "RUHT")
    report = ingest.ingest_paths(
        [
            corpus(
                {
                    "b": "Ravensford University Hospitals Trust (RUHT) runs the Kelby Clinic.",
                    "c": "The Kelby Clinic is busy. The Ravensford University Hospital Trust "
                    "hired staff.",
                }
            )
        ]
    )
    assert report.added == 2
    # the long form defined later, its spelling variant and the acronym: one stored entity
    assert _id(container, "Ravensford University Hospitals Trust") == ruht
    assert _id(container, "Ravensford University Hospital Trust") == ruht
    assert _id(container, "Kelby Clinic") == _id(container, "the kelby clinic")
    graph = container.store.export_graph()
    assert len([n for n in graph.entity_names if "Ravensford" in n or n == "RUHT"]) == 1
    # new: only the two documents' own subjects (their titles)
    assert container.store.counts().entities == first.entities + 2


def _ingest_in_subprocess(corpus_file: Path, data_dir: Path) -> dict[str, int]:
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from kg.container import build\n"
        "from kg.settings import Settings\n"
        "c = build(Settings(data_dir=Path(sys.argv[2])))\n"
        "c.store.open(); c.store.init_schema()\n"
        "c.ingestor().ingest_paths([Path(sys.argv[1])])\n"
        "print(json.dumps(c.store.counts().as_dict()))\n"
        "c.store.close()\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONHASHSEED": "random"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(corpus_file), str(data_dir)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    counts: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return counts


@pytest.mark.skipif(not MUSIQUE.exists(), reason="shared MuSiQue corpus not present")
def test_two_processes_give_identical_counts(tmp_path: Path) -> None:
    passages = json.loads(MUSIQUE.read_text(encoding="utf-8"))[:80]
    corpus_file = tmp_path / "slice.json"
    corpus_file.write_text(json.dumps(passages), encoding="utf-8")
    first = _ingest_in_subprocess(corpus_file, tmp_path / "one")
    second = _ingest_in_subprocess(corpus_file, tmp_path / "two")
    assert first["documents"] == 80 and first["entities"] > 80
    assert first == second
