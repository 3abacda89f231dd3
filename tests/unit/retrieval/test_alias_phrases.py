"""Alias spans found by the token-tuple matcher are the spans spaCy's PhraseMatcher (attr
LOWER) finds for the same invented names: multi-word, overlapping, nested, any casing."""

from __future__ import annotations

import spacy
from spacy.matcher import PhraseMatcher

from retrieval.graph_index import AliasPhrases

NAMES = [
    "Ann Example",
    "Example",
    "Ann Example Jr.",
    "River Nowhere",
    "the River Nowhere Bridge",
    "Dr. Sample",
    "U.S. Fictional Office",
    "a a",
    "Sample–Town",
]
QUESTIONS = [
    "Who did ann example meet at the River Nowhere Bridge?",
    "Was Ann Example Jr. born before Dr. Sample?",
    "Which U.S. Fictional Office is near Sample–Town and the river nowhere?",
    "a a a a",
    "Nothing here matches at all.",
    "",
]


def test_token_tuples_find_the_phrase_matcher_spans() -> None:
    nlp = spacy.blank("en")
    matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
    for name in NAMES:
        matcher.add(name.lower(), [nlp.make_doc(name)])
    builder = spacy.blank("en")
    phrases = AliasPhrases(
        spacy.blank("en"), {tuple(t.lower_ for t in builder.make_doc(n)) for n in NAMES}
    )
    for question in QUESTIONS:
        want = sorted({(s, e) for _, s, e in matcher(nlp.make_doc(question))})
        assert sorted(phrases.spans(phrases.nlp.make_doc(question))) == want, question
