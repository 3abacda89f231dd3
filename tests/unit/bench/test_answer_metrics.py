"""Answer metrics worked by hand: SQuAD normalisation, EM, F1, answer recall, calibration."""

from __future__ import annotations

import pytest

from bench.answer_metrics import (
    answer_recall,
    calibration,
    exact_match,
    f1_score,
    normalize_answer,
    score_answer,
    strip_citations,
)


def test_normalisation_drops_case_punctuation_articles_and_extra_spaces() -> None:
    assert normalize_answer("The  Eiffel-Tower, in Paris!") == "eiffeltower in paris"
    assert normalize_answer("An apple a day") == "apple day"
    # Articles only as whole words: "Theatre" keeps its "the".
    assert normalize_answer("Theatre Royal") == "theatre royal"


def test_exact_match_takes_the_best_alias() -> None:
    assert exact_match("the Stanley Hall", ["G. Stanley Hall", "Stanley Hall"]) == 1.0
    assert exact_match("Stanley", ["G. Stanley Hall", "Stanley Hall"]) == 0.0


def test_f1_by_hand() -> None:
    # prediction "john smith jr" vs gold "john smith": 2 common, P = 2/3, R = 1, F1 = 0.8.
    assert f1_score("John Smith Jr.", ["John Smith"]) == pytest.approx(0.8)
    # Repeated tokens count once each side: "paris paris" vs "paris": P = 1/2, R = 1 -> 2/3.
    assert f1_score("Paris Paris", ["Paris"]) == pytest.approx(2 / 3)
    # Best over aliases: 0 against the first, 1 against the second.
    assert f1_score("NYC", ["New York City", "NYC"]) == 1.0
    assert f1_score("", ["x"]) == 0.0


def test_answer_recall_needs_whole_tokens() -> None:
    sentence = "The band released 10 albums between 1990 and 2010."
    assert answer_recall(sentence, ["10"]) == 1.0
    assert answer_recall(sentence, ["201"]) == 0.0
    assert answer_recall("It was founded in 2010.", ["10"]) == 0.0
    assert answer_recall("Lilu is a spirit [doc-3:0].", ["a spirit"]) == 1.0


def test_citations_are_not_scored() -> None:
    assert strip_citations("Paris is big [abc123:4]. Yes [x].").split() == [
        "Paris",
        "is",
        "big",
        ".",
        "Yes",
        ".",
    ]
    # A gold answer that only appears inside a chunk id is not found.
    assert score_answer("Quoted text [paris-1]", ["paris"]).recall == 0.0
    scored = score_answer("Paris [c1]", ["Paris"])
    assert (scored.em, scored.f1, scored.recall) == (1.0, 1.0, 1.0)


def test_calibration_counts_per_level() -> None:
    table = calibration([("HIGH", 1.0), ("HIGH", 0.0), ("HIGH", 1.0), ("LOW", 0.0)])
    assert table["HIGH"] == {"count": 3, "right": 2, "accuracy": 0.6667}
    assert table["MEDIUM"] == {"count": 0, "right": 0, "accuracy": 0.0}
    assert table["LOW"] == {"count": 1, "right": 0, "accuracy": 0.0}
