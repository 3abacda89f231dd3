"""Name-shifted copies for the scale benchmark: every name renamed the same way throughout a
copy (titles, texts, questions), differently in each copy, and nothing else touched."""

from __future__ import annotations

import re

from bench.name_shift import NameShift, scaled, shifted, vocabulary

PASSAGES = [
    {
        "title": "Orla Venmarch",
        "text": "Orla Venmarch (born 3 March 1911) was a painter from Kessridge. "
        "She studied at the Kessridge School of Art under Tobin Hale.",
    },
    {
        "title": "Tobin Hale",
        "text": "Tobin Hale was the director of the Kessridge School of Art. "
        "He founded the Hale Prize in 1930.",
    },
]
NAMES = ("Orla", "Venmarch", "Kessridge", "Tobin", "Hale", "School", "Art", "Prize")


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def test_every_name_is_renamed_the_same_way_throughout_a_copy() -> None:
    copy = shifted(PASSAGES, 1)
    text = " ".join(p["title"] + " " + p["text"] for p in copy)
    for name in NAMES:
        assert name not in _words(text)
    shift = NameShift(1, vocabulary(PASSAGES))
    for p in PASSAGES:  # the same renaming as a fresh NameShift of the same copy
        shift.text(p["title"] + p["text"])
    assert copy[1]["title"] == shift.text("Tobin Hale")
    assert copy[1]["title"] in copy[0]["text"]  # the title is the name the other text uses
    assert shift.word("Kessridge") != shift.word("Venmarch")


def test_only_names_change_so_the_shape_of_each_sentence_is_kept() -> None:
    copy = shifted(PASSAGES, 1)
    for before, after in zip(PASSAGES, copy, strict=True):
        a, b = _words(before["text"]), _words(after["text"])
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert (x == y) == (x not in NAMES)  # small words, months and numbers kept
    assert "3 March 1911" in copy[0]["text"] and " She studied at the " in copy[0]["text"]


def test_copies_differ_from_each_other_and_from_the_original() -> None:
    one, two = NameShift(1, vocabulary(PASSAGES)), NameShift(2, vocabulary(PASSAGES))
    assert one.word("Kessridge") != two.word("Kessridge")
    vocab = vocabulary(PASSAGES)
    assert one.word("Kessridge").lower() not in vocab
    big = scaled(PASSAGES, 3)
    assert len(big) == 3 * len(PASSAGES) and big[:2] == PASSAGES
    assert len({p["title"] for p in big}) == len(big)


def test_a_question_renamed_with_its_copy_is_answered_by_the_renamed_passage() -> None:
    question, answer = "Who founded the Hale Prize?", "Tobin Hale"
    shift = NameShift(2, vocabulary(PASSAGES))
    copy = [{"title": shift.text(p["title"]), "text": shift.text(p["text"])} for p in PASSAGES]
    q, a = shift.text(question), shift.text(answer)
    gold = next(p for p in copy if p["title"] == a)
    assert a in gold["text"] and q.split()[-2] in gold["text"]  # the renamed "Hale" in both
    assert q.startswith("Who founded the ")


def test_more_short_names_than_two_syllables_can_spell_still_get_distinct_names() -> None:
    # 15,000 two-letter names: more than the 12,544 two-syllable stems, as in a corpus of
    # thousands of passages with many acronyms.
    shift = NameShift(1, vocabulary=["Harlow", "Brackwell"])
    names = [shift.word(f"Q{n}") for n in range(15_000)]
    assert len(set(names)) == len(names)
    assert {"harlow", "brackwell"}.isdisjoint(n.lower() for n in names)
    assert max(len(n) for n in names) > 4  # some went past two syllables
    assert shift.word("Q7") == names[7]  # and each is still the same throughout the copy
