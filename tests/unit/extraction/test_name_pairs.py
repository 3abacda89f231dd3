"""``similar_name_pairs``: every pair of names ``judge`` can accept is a candidate, in the order
the all-pairs comparison met them, with the cosine of their rows, and far fewer pairs are
compared than all of them."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np

from extraction.config import ResolutionSettings
from extraction.facts import CONCEPT, NAME
from extraction.name_pairs import close_words, similar_name_pairs
from extraction.similarity import Named, judge

# Invented words, some in two spellings, some sharing most of their letters.
_VOCABULARY = (
    "harbour harbor centre center colour color northern north saint st river rivers bridge "
    "bridges tamsin vell dr quill quell orchard orchards company companies board boards of the "
    "east eastern mill mills lantern lanterns"
)
_WORDS = _VOCABULARY.split()


def _names(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    names: set[str] = set()
    while len(names) < count:
        size = int(rng.integers(1, 5))
        words = [str(w) for w in rng.choice(_WORDS, size=size)]
        if rng.random() < 0.3:  # a word of its own, as most real names have
            words.append("x" + "".join(rng.choice(list("abcdefgh"), size=5)))
        names.add(" ".join(words))
    return sorted(names)


def _items(keys: list[str]) -> list[Named]:
    kinds = (NAME, CONCEPT, "PERSON", "ORGANIZATION")
    return [Named(k, k.title(), kinds[i % 4]) for i, k in enumerate(keys)]


def test_every_pair_judge_accepts_is_a_candidate_in_all_pairs_order() -> None:
    keys = _names(700, seed=3)
    items = _items(keys)
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((len(keys), 24)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    # Any cosine passes, so what decides is the names' spelling alone.
    cfg = ResolutionSettings(merge_embedding_similarity=-1.0, same_as_embedding_similarity=-1.0)
    whole = vectors @ vectors.T

    expected = [
        (i, j, d.method)
        for i, j in itertools.combinations(range(len(keys)), 2)
        if (d := judge(items[i], items[j], float(whole[i, j]), cfg)) is not None
    ]
    candidates = similar_name_pairs(keys, vectors, -1.0)
    found = [
        (i, j, d.method)
        for i, j, c in candidates
        if (d := judge(items[i], items[j], c, cfg)) is not None
    ]

    methods = Counter(m for _, _, m in expected)
    assert methods["similarity"] >= 20 and methods["short_form"] >= 10  # both shapes, many
    assert found == expected
    assert [(i, j) for i, j, _ in candidates] == sorted({(i, j) for i, j, _ in candidates})
    for i, j, cosine in candidates:
        assert i < j
        assert abs(cosine - float(whole[i, j])) < 1e-5
    all_pairs = len(keys) * (len(keys) - 1) // 2
    assert len(candidates) < all_pairs / 4


def test_only_pairs_at_the_threshold_are_returned() -> None:
    keys = ["north harbour board", "north harbor board", "north harbour mill"]
    vectors = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0]], dtype=np.float32)

    assert [(i, j) for i, j, _ in similar_name_pairs(keys, vectors, 0.75)] == [(0, 1)]
    assert similar_name_pairs(keys, vectors, 0.9) == []


def test_a_short_form_is_found_from_the_shorter_name() -> None:
    keys = ["tamsin vell", "dr tamsin vell", "vell"]  # a single word is no short form
    vectors = np.ones((3, 2), dtype=np.float32) / np.sqrt(2)

    assert [(i, j) for i, j, _ in similar_name_pairs(keys, vectors, 0.5)] == [(0, 1)]


def test_close_words_are_spellings_not_strangers() -> None:
    vocab = ["colour", "color", "hospital", "hospitals", "cat", "dog", "a"]
    close = close_words(vocab)

    assert sorted(close[0]) == [0, 1]
    assert sorted(close[2]) == [2, 3]
    assert close[4] == [4]
    assert close[5] == [5]
    assert close[6] == [6]
