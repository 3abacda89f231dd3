"""Format readers: both question shapes, both corpus shapes, duplicate titles, bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.datasets import (
    DERIVED_WORDS,
    Passage,
    derived_questions,
    read_corpus,
    read_question_texts,
    read_questions,
)
from core.errors import InputError

SHARED = Path(__file__).resolve().parents[4] / "shared" / "bench" / "multihop"


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture()
def dup_corpus(tmp_path: Path) -> Path:
    # Two different passages share a title, as in MuSiQue.
    return write(
        tmp_path / "corpus.json",
        [
            {"title": "Same", "text": "Same one is a river in France."},
            {"title": "Same", "text": "Same two is a village in Wales."},
            {"title": "Other", "text": "Other is a band from Leeds."},
        ],
    )


def test_list_corpus_keeps_file_order_and_indices(dup_corpus: Path) -> None:
    passages = read_corpus(dup_corpus)
    assert [(p.index, p.title) for p in passages] == [(0, "Same"), (1, "Same"), (2, "Other")]


def test_dict_corpus_joins_sentences_like_the_loader(tmp_path: Path) -> None:
    corpus = write(tmp_path / "c.json", {"A": ["One.", " Two."], "B": ["Three."]})
    assert read_corpus(corpus) == [Passage(0, "A", "One. Two."), Passage(1, "B", "Three.")]


def test_musique_gold_is_matched_by_title_and_text_not_title(
    dup_corpus: Path, tmp_path: Path
) -> None:
    questions = write(
        tmp_path / "q.json",
        [
            {
                "id": "q1",
                "question": "Which band comes from the place next to Same two?",
                "paragraphs": [
                    {
                        "idx": 0,
                        "title": "Same",
                        "paragraph_text": "Same one is a river in France.",
                        "is_supporting": False,
                    },
                    {
                        "idx": 1,
                        "title": "Same",
                        "paragraph_text": "Same two is a village  in Wales.",
                        "is_supporting": True,
                    },
                    {
                        "idx": 2,
                        "title": "Other",
                        "paragraph_text": "Other is a band from Leeds.",
                        "is_supporting": True,
                    },
                ],
            }
        ],
    )
    (q,) = read_questions(questions, read_corpus(dup_corpus))
    assert q.id == "q1"
    assert q.gold == (frozenset({1}), frozenset({2}))
    assert q.gold_titles == ("Same", "Other")


def test_hotpot_gold_uses_context_text_and_collapses_repeated_titles(
    dup_corpus: Path, tmp_path: Path
) -> None:
    questions = write(
        tmp_path / "q.json",
        [
            {
                "_id": "h1",
                "question": "q?",
                "supporting_facts": [["Other", 0], ["Same", 0], ["Other", 1]],
                "context": [["Same", ["Same two is a village in Wales."]], ["Other", ["x"]]],
            }
        ],
    )
    (q,) = read_questions(questions, read_corpus(dup_corpus))
    assert q.id == "h1"
    assert q.gold_titles == ("Other", "Same")
    # "Other" is unique, so its differing context text still resolves by title.
    assert q.gold == (frozenset({2}), frozenset({1}))


def test_duplicated_title_without_text_accepts_any_of_its_passages(
    dup_corpus: Path, tmp_path: Path
) -> None:
    questions = write(tmp_path / "q.json", [{"question": "q?", "supporting_facts": [["Same", 0]]}])
    (q,) = read_questions(questions, read_corpus(dup_corpus))
    assert q.gold == (frozenset({0, 1}),)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"question": "q?"}, "must be a list"),
        ([{"paragraphs": []}], "question 0 is not an object with a 'question'"),
        ([{"question": "q?"}], "neither 'paragraphs' nor 'supporting_facts'"),
        ([{"question": "q?", "supporting_facts": "Same"}], "[title, sentence] pairs"),
        ([{"question": "q?", "supporting_facts": [["Nowhere", 0]]}], "'Nowhere' is not in"),
        (
            [
                {
                    "question": "q?",
                    "paragraphs": [
                        {"title": "Same", "paragraph_text": "unrelated", "is_supporting": True}
                    ],
                }
            ],
            "'Same' is not in the corpus",
        ),
    ],
)
def test_bad_question_files_are_input_errors(
    dup_corpus: Path, tmp_path: Path, data: Any, reason: str
) -> None:
    questions = write(tmp_path / "q.json", data)
    with pytest.raises(InputError) as caught:
        read_questions(questions, read_corpus(dup_corpus))
    assert caught.value.source == str(questions)
    assert reason in caught.value.reason


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('[{"title": "A", "text": "x"', "malformed JSON at line 1"),
        ("42", "must be a list of {title, text} or a dict"),
        ("[]", "no passages"),
        ('[{"title": "A"}]', "corpus item 0"),
        ('{"A": "not a list"}', "not a list of sentences"),
    ],
)
def test_bad_corpus_files_are_input_errors(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "corpus.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_corpus(path)
    assert caught.value.source == str(path)
    assert reason in caught.value.reason


def test_missing_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_corpus(tmp_path / "absent.json")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'[{"title": "caf\xe9", "text": "x"}]')
    with pytest.raises(InputError, match="not valid UTF-8"):
        read_corpus(latin)


@pytest.mark.parametrize(
    ("name", "questions_file", "corpus_file"),
    [
        ("musique", "musique_train.json", "musique_train_corpus.json"),
        ("hotpotqa", "hotpotqa_train.json", "hotpotqa_train_corpus.json"),
    ],
)
def test_shared_sets_resolve_every_gold_passage_to_one_passage(
    name: str, questions_file: str, corpus_file: str
) -> None:
    if not (SHARED / name).is_dir():
        pytest.skip("the shared benchmark data is not on this machine")
    passages = read_corpus(SHARED / name / corpus_file)
    questions = read_questions(SHARED / name / questions_file, passages)
    assert len(questions) == len(read_question_texts(SHARED / name / questions_file))
    for q in questions:
        assert len(q.gold) >= 2  # multi-hop: at least two supporting passages
        assert all(len(g) == 1 for g in q.gold)
        for g, title in zip(q.gold, q.gold_titles, strict=True):
            assert passages[next(iter(g))].title == title


def test_derived_questions_are_seeded_first_sentences(dup_corpus: Path) -> None:
    passages = [*read_corpus(dup_corpus), Passage(3, "Long", " ".join(["word"] * 60) + ". End.")]
    first = derived_questions(passages, 3, seed=7)
    assert first == derived_questions(passages, 3, seed=7)
    assert len(first) == 3
    assert all(len(q.split()) <= DERIVED_WORDS for q in first)
    assert set(first) <= {
        "Same one is a river in France.",
        "Same two is a village in Wales.",
        "Other is a band from Leeds.",
        " ".join(["word"] * DERIVED_WORDS),
    }
