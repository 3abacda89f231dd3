"""The sentence of an evidence chunk that supports a relation (what the explorer highlights)."""

from __future__ import annotations

from api.explore import Support, document_text, supporting_sentence

TEXT = (
    "The Lakeside Rowing Club held its spring regatta.  Ada Fenwick, its captain,\n"
    "thanked the volunteers. Ada Fenwick chairs the Lakeside Rowing Club board. "
    "Lakeside RC was founded in 1901."
)


def test_the_sentence_naming_both_ends_is_chosen_with_its_span() -> None:
    found = supporting_sentence(TEXT, [("Ada Fenwick",), ("Lakeside Rowing Club", "Lakeside RC")])
    assert found.sentence == "Ada Fenwick chairs the Lakeside Rowing Club board."
    assert TEXT[found.start : found.end] == found.sentence


def test_aliases_count_and_case_does_not_matter() -> None:
    found = supporting_sentence(TEXT, [("LAKESIDE rc",), ("1901",)])
    assert found.sentence == "Lakeside RC was founded in 1901."


def test_a_span_is_found_across_collapsed_whitespace() -> None:
    found = supporting_sentence(TEXT, [("Ada Fenwick",), ("captain",)])
    assert found.sentence == "Ada Fenwick, its captain, thanked the volunteers."
    assert TEXT[found.start : found.end] == "Ada Fenwick, its captain,\nthanked the volunteers."


def test_names_match_whole_words_only_and_one_end_is_a_fallback() -> None:
    # "Club" inside "Clubhouse" is no mention; the sentence naming one end is still offered.
    text = "The Clubhouse opened. Ada Fenwick spoke."
    found = supporting_sentence(text, [("Ada Fenwick",), ("Club",)])
    assert found.sentence == "Ada Fenwick spoke."
    assert supporting_sentence(text, [("Nobody",), ("Club",)]) == Support()


def test_a_document_is_its_chunks_without_their_overlap() -> None:
    chunks = [
        "The club was founded in 1901. It rows on the lake.",
        "It rows on the lake. Its boathouse burnt down in 1950.",
        "A new boathouse opened in 1953.",
    ]
    assert document_text(chunks) == (
        "The club was founded in 1901. It rows on the lake. Its boathouse burnt down in 1950."
        "\n\nA new boathouse opened in 1953."
    )
    assert document_text([]) == ""
