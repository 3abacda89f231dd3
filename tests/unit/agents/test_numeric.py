"""The numeric tools on invented figures: sums with their spread, subsets that add up to a
round or given total, repeated and near values, and limits that know a maximum from a minimum."""

from __future__ import annotations

import pytest

from agents.numeric import (
    NumericError,
    assess_threshold,
    compare_amounts,
    detect_patterns,
    find_convenient_sums,
    sum_numbers,
)
from extraction.numbers import direction_of


def test_sum_numbers_gives_spread_and_formatted_values() -> None:
    s = sum_numbers([1200.5, 300, 49.5], unit="GBP")
    assert (s["sum"], s["min"], s["max"], s["mean"]) == (1550.0, 49.5, 1200.5, 1550.0 / 3)
    assert s["formatted"] == {
        "sum": "£1,550",
        "min": "£49.50",
        "max": "£1,200.50",
        "mean": "£516.67",
    }
    with pytest.raises(NumericError):
        sum_numbers([])


@pytest.mark.parametrize(
    ("words", "direction"),
    [
        ("must be no more than", "max"),
        ("up to", "max"),
        ("must not exceed", "max"),
        ("the limit for savings is", "max"),
        ("at least", "min"),
        ("a minimum of", "min"),
        ("no less than", "min"),
        ("or more", "min"),
        ("is exactly", "exact"),
    ],
)
def test_direction_of_knows_a_maximum_from_a_minimum(words: str, direction: str) -> None:
    assert direction_of(words) == direction


def test_assess_threshold_gives_headroom_utilisation_and_a_sentence() -> None:
    inside = assess_threshold(600.0, 2000.0, "max", "GBP", "savings")
    assert inside["passes"] and inside["headroom"] == 1400.0
    assert inside["utilisation_percent"] == 30.0
    assert inside["sentence"] == (
        "Savings of £600 is within the maximum of £2,000 (30.0% of it), leaving headroom of £1,400."
    )
    over = assess_threshold(2500.0, 2000.0, "max", "GBP", "savings")
    assert not over["passes"] and over["headroom"] == -500.0 and "by £500" in over["sentence"]
    short = assess_threshold(2.0, 5.0, "min", "year", "residence")
    assert not short["passes"] and "below the minimum of 5 years" in short["sentence"]
    met = assess_threshold(7.0, 5.0, "min", "year", "residence")
    assert met["passes"] and met["headroom"] == 2.0


def test_find_convenient_sums_to_a_target_and_to_round_totals() -> None:
    values = [420.0, 580.0, 250.0, 333.33]
    exact = find_convenient_sums(values, target=1000.0)
    assert [s["values"] for s in exact["sums"]] == [[420.0, 580.0]]
    near = find_convenient_sums(values, target=1250.0, tolerance=1.0)
    assert [s["values"] for s in near["sums"]] == [[420.0, 580.0, 250.0]]
    rounds = find_convenient_sums([120.0, 380.0, 77.0])
    assert [s["formatted_total"] for s in rounds["sums"]] == ["500"]
    with pytest.raises(NumericError):
        find_convenient_sums([1.0] * 30, target=3.0)


def test_detect_patterns_finds_repeats_near_values_and_multiples() -> None:
    p = detect_patterns([750.0, 750.0, 770.0, 1500.0, 13.0])
    assert [d["value"] for d in p["duplicates"]] == [750.0]
    assert {tuple(n["values"]) for n in p["near"]} == {(750.0, 770.0)}
    assert {(m["values"][0], m["values"][1], m["ratio"]) for m in p["multiples"]} == {
        (750.0, 1500.0, 2)
    }
    with pytest.raises(NumericError):
        detect_patterns([1.0])


def test_compare_amounts_names_the_larger_or_the_smaller_with_the_difference() -> None:
    larger = compare_amounts({"North": 1_200.0, "South": 950.5}, "max", "GBP", "rent arrears")
    assert larger["winner"] == "North"
    assert larger["difference"] == 249.5
    assert larger["sentence"] == (
        "North has the higher rent arrears: £1,200 against £950.50 for South, "
        "a difference of £249.50."
    )
    smaller = compare_amounts({"North": 1_200.0, "South": 950.5}, "min", "GBP")
    assert smaller["winner"] == "South"
    tie = compare_amounts({"North": 7.0, "South": 7.0}, "max", "%")
    assert tie["winner"] == ""
    with pytest.raises(NumericError):
        compare_amounts({"North": 1.0}, "max")
