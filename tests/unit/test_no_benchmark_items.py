"""No rule, regex, comment or docstring of the product names a benchmark or demo item.

A rule explained with a benchmark question was fitted to that question; the same rule explained
with an invented example ("Harbour Tales is on a network founded by who?") says what it does
for questions nobody has read. This scans every first-party source file (``.py`` and
``.cypher``, tests and tools aside) for what the question sets hold: the gold answers, the
titles of the corpora and the questions' passages and the names in the questions, of two words
or more, and any six words in a row of a question. A phrase that
is also ordinary English ("the United States", "side by side") is listed in ``ORDINARY`` with
why it may stay.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "bench" / "multihop"
SHARED_SETS = ("hotpotqa", "musique")
SOURCE_DIRS = (
    "agents",
    "api",
    "bench",
    "core",
    "cypher",
    "extraction",
    "graph_schema",
    "graph_store",
    "kg",
    "llm",
    "reader",
    "retrieval",
)
SHINGLE = 6  # words in a row of a question; five matched stock phrasing ("what is the name of")
# Ordinary phrases that are also an answer or a title in some question set, and why they stay.
# Each is the title of some passage of a corpus, a song's or a film's.
ORDINARY = {
    "united states": "a country the place rules know by name",
    "say what": "prose: the figures say what happened",
    "an event": "prose: a kill triggered by an event",
    "side by side": "prose: two results side by side",
    "the flock": "prose: releasing a file lock (flock)",
    "first run": "prose: the job's first run",
    "this time": "prose: a timeout",
    "the power": "prose: the power iteration",
}
_WORD = re.compile(r"[a-z0-9_']+")  # an identifier is one word: "_author" is not "author"
# Capitalised words in a row, with the joiners titles use: the names a question holds.
_NAME = re.compile(r"[A-Z][\w'\-]*(?:\s+(?:(?:of|the|and|von|van|de)\s+)?[A-Z][\w'\-]*)+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _title(text: str) -> str:
    """A title without its qualifier: "Brother (band)" -> "Brother"."""
    return re.sub(r"\s*\(.*\)$", "", text).strip()


def _named(phrases: Iterable[Any]) -> Iterator[str]:
    """The phrases of two words and eight characters or more: one word is too often a word."""
    for p in phrases:
        if isinstance(p, str) and len(_words(p)) >= 2 and len(p.strip()) >= 8:
            yield " ".join(_words(p))


def _items(record: dict[str, Any]) -> Iterator[str]:
    answers = [record.get("answer"), *(record.get("answer_aliases") or [])]
    yield from _named([*answers, *(record.get("key_points") or [])])
    titles = record.get("supporting_titles") or record.get("gold_documents") or []
    titles += [p["title"] for p in record.get("paragraphs", [])]  # MuSiQue
    titles += [c[0] for c in record.get("context", []) + record.get("supporting_facts", [])]
    yield from _named(_title(t) for t in titles)
    yield from _named(_NAME.findall(str(record.get("question", ""))))


def _records(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        lines = path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
    data = json.loads(path.read_text(encoding="utf-8-sig"))
    rows = data if isinstance(data, list) else data.get("questions", [])
    return [r for r in rows if isinstance(r, dict)]


def _question_files() -> list[Path]:
    files = [SHARED / name / f"{name}_train.json" for name in SHARED_SETS]
    return [
        *files,
        *sorted((ROOT / "bench" / "questions").glob("*.json")),
        ROOT / "demo" / "examples.jsonl",
    ]


def _demo_titles() -> Iterator[str]:
    for path in sorted((ROOT / "demo").iterdir()):
        if path.suffix in {".md", ".txt"} and path.name != "README.md":
            first = path.read_text(encoding="utf-8").lstrip().splitlines()[0]
            yield from _named([first.lstrip("# ")])


def _corpus_titles() -> Iterator[str]:
    for path in sorted(SHARED.glob("*/*_corpus.json")):
        passages = json.loads(path.read_text(encoding="utf-8"))
        yield from _named(_title(p["title"]) for p in passages if isinstance(p, dict))


def benchmark_items() -> tuple[set[str], set[str]]:
    """(names: answers, titles, the questions' names; shingles of one question only), each
    as lower-case words joined by spaces."""
    names: set[str] = {*_demo_titles(), *_corpus_titles()}
    questions: Counter[str] = Counter()
    for path in _question_files():
        for record in _records(path):
            names.update(_items(record))
            w = _words(str(record.get("question", "")))
            questions.update({" ".join(w[i : i + SHINGLE]) for i in range(len(w) - SHINGLE + 1)})
    # Six words that open several questions are a form the rules may quote ("which film has
    # the director who"); six words of one question are that question.
    shingles = {s for s, n in questions.items() if n == 1}
    return names - set(ORDINARY), shingles


def sources() -> list[Path]:
    found = [
        p for d in SOURCE_DIRS for p in (ROOT / d).rglob("*") if p.suffix in {".py", ".cypher"}
    ]
    return sorted(p for p in found if "results" not in p.parts)


def named_in(text: str, names: set[str], shingles: set[str]) -> list[str]:
    """The items ``text`` names, compared as words (punctuation and case aside)."""
    w = _words(text)
    joined = f" {' '.join(w)} "
    hits = [n for n in names if f" {n} " in joined]
    hits += sorted({" ".join(w[i : i + SHINGLE]) for i in range(len(w) - SHINGLE + 1)} & shingles)
    return hits


def test_the_scan_finds_an_answer_a_title_and_a_question_in_a_text() -> None:
    names = {"harbour tales", "two rivers press"}
    shingles = {"on a network founded by who"}
    text = '"""Harbour-Tales is on a network, founded by who? Ask Two Rivers Press."""'
    assert sorted(named_in(text, names, shingles)) == [
        "harbour tales",
        "on a network founded by who",
        "two rivers press",
    ]
    assert named_in("harbour talesman", names, shingles) == []


def test_no_source_file_names_a_benchmark_or_demo_item() -> None:
    if not all((SHARED / name).is_dir() for name in SHARED_SETS):
        pytest.skip("the shared benchmark data is not on this machine")
    names, shingles = benchmark_items()
    assert len(names) > 100 and len(shingles) > 1000  # the sets were read
    found = {
        str(path.relative_to(ROOT)): hits
        for path in sources()
        if (hits := named_in(path.read_text(encoding="utf-8"), names, shingles))
    }
    assert found == {}
