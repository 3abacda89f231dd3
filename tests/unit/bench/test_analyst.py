"""The analyst scorer on invented answers: key points (as text or as the same number written
another way), a gold document cited, expected numbers, and questions the corpus cannot
answer, where only a confident claim counts against the answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.analyst import (
    QUESTIONS,
    AnalystQuestion,
    demo_key,
    read_questions,
    score,
    summarise,
)
from core.errors import InputError

ANSWERABLE = AnalystQuestion(
    id="x1",
    kind="numeric",
    text="Is Ann Example within the Sample Scheme limits?",
    key_points=("Yes", "£12,000", "savings"),
    gold_documents=("Sample Scheme Manual",),
    expected_numbers=("£12,000", "£450"),
    answerable=True,
)
UNANSWERABLE = AnalystQuestion(
    id="x2",
    kind="unanswerable",
    text="What is the Sample Scheme limit on boats?",
    key_points=(),
    gold_documents=(),
    expected_numbers=(),
    answerable=False,
)


def test_a_right_answer_scores_full_marks() -> None:
    s = score(
        ANSWERABLE,
        "Yes: debts of £12k are within the limit, and savings of £450 are too.",
        ["Sample Scheme Manual", "Case File"],
        "MEDIUM",
    )
    assert (s["key_points"], s["gold_cited"], s["numbers"]) == (1.0, True, 1.0)
    assert s["not_found"] is None and s["confident_claim"] is None


def test_a_partial_answer_citing_the_wrong_document() -> None:
    s = score(ANSWERABLE, "Savings are £450.", ["Another Paper"], "HIGH")
    assert s["key_points"] == pytest.approx(1 / 3) and s["missing_points"] == ["Yes", "£12,000"]
    assert s["gold_cited"] is False and s["numbers"] == 0.5


@pytest.mark.parametrize(
    ("answer", "confidence", "not_found", "confident"),
    [
        ("The documents do not state a limit on boats.", "MEDIUM", True, False),
        ("Boats up to £3,000 are allowed.", "LOW", True, False),
        ("Boats up to £3,000 are allowed.", "HIGH", False, True),
    ],
)
def test_unanswerable_questions_count_only_confident_claims(
    answer: str, confidence: str, not_found: bool, confident: bool
) -> None:
    s = score(UNANSWERABLE, answer, ["Sample Scheme Manual"], confidence)
    assert (s["not_found"], s["confident_claim"]) == (not_found, confident)
    assert s["key_points"] is None and s["gold_cited"] is None


def test_summary_counts_confident_answers_to_unanswerable_questions() -> None:
    rows = [
        {"kind": "numeric", "seconds": 1.0, **score(ANSWERABLE, "Yes, £12,000.", [], "LOW")},
        {"kind": "unanswerable", "seconds": 3.0, **score(UNANSWERABLE, "£9.", [], "HIGH")},
    ]
    s = summarise(rows)
    assert s["confident_unanswerable"] == 1 and s["not_found"] == 0.0
    assert s["key_points"] == 0.6667 and s["seconds_per_question"] == 2.0
    assert s["by_kind"]["numeric"]["questions"] == 1


def test_the_shipped_question_set_is_well_formed() -> None:
    questions = read_questions(QUESTIONS)
    assert len(questions) >= 30 and len({q.id for q in questions}) == len(questions)
    assert sum(not q.answerable for q in questions) >= 5
    for q in questions:
        assert q.answerable == bool(q.key_points) == bool(q.gold_documents), q.id


def test_a_bad_question_file_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "q.json"
    bad.write_text(json.dumps({"questions": [{"id": "1"}]}))
    with pytest.raises(InputError, match="not an analyst question set"):
        read_questions(bad)


def test_the_demo_store_is_keyed_by_the_folder_path_and_contents(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        folder.mkdir()
        (folder / "a.md").write_text("# A\n\nSame words.\n", encoding="utf-8")
    # The same files at another path are other documents: another store, never a shared one.
    assert demo_key(one) != demo_key(two)
    before = demo_key(one)
    assert demo_key(one) == before
    (one / "a.md").write_text("# A\n\nEdited words.\n", encoding="utf-8")
    assert demo_key(one) != before
