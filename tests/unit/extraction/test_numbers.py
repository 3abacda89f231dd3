"""Numbers read from text with their units, parsed and formatted back; numeric facts read from
invented chunks with their measure, direction and entity."""

from __future__ import annotations

import pytest

from extraction.nlp import DEFAULT_TRAINED, load_pipeline
from extraction.numbers import extract_numbers, format_value, parse_amount
from extraction.numeric_facts import chunk_facts
from graph_schema import Alias, Entity, Mention


@pytest.mark.parametrize(
    ("text", "value", "unit", "label"),
    [
        ("£1,234.56", 1234.56, "GBP", "MONEY"),
        ("£48.5m", 48_500_000.0, "GBP", "MONEY"),
        ("12%", 12.0, "%", "PERCENT"),
        ("3.5 per cent", 3.5, "%", "PERCENT"),
        ("30 days", 30.0, "day", "QUANTITY"),
        ("1.2 million", 1_200_000.0, "", "CARDINAL"),
        ("twelve months", 12.0, "month", "QUANTITY"),
        ("in 2031", 2031.0, "", "DATE"),
    ],
)
def test_extract_numbers_values_and_units(text: str, value: float, unit: str, label: str) -> None:
    (n,) = extract_numbers(text)
    assert (n.value, n.unit, n.label) == (value, unit, label)


def test_spacy_labels_a_bare_number_and_a_range_is_two_years() -> None:
    nlp = load_pipeline(DEFAULT_TRAINED)
    found = extract_numbers("In March 2031 the fund paid £90 to 1,400 people in 2030-31.", nlp)
    assert [(n.text, n.label) for n in found] == [
        ("2031", "DATE"),
        ("£90", "MONEY"),
        ("1,400 people", "QUANTITY"),
        ("2030", "DATE"),
    ]


def test_format_and_parse_round_trip() -> None:
    assert format_value(1234.56, "GBP") == "£1,234.56"
    assert format_value(50000, "GBP") == "£50,000"
    # Millions as the documents write them, when that loses nothing.
    assert format_value(386_400_000, "GBP") == "£386.4m"
    assert format_value(18_000_000, "GBP") == "£18m"
    assert format_value(1_234_567, "GBP") == "£1,234,567"
    assert parse_amount("£386.4m").value == 386_400_000
    assert format_value(12.5, "%") == "12.5%"
    assert format_value(1, "day") == "1 day" and format_value(30, "day") == "30 days"
    assert parse_amount("£1,234.56").value == 1234.56
    with pytest.raises(ValueError):
        parse_amount("£1 and £2")


def test_chunk_facts_read_limits_and_amounts_with_their_entity() -> None:
    scheme = Entity(id="e1", name="Sample Relief Scheme", type="ORG")
    person = Entity(id="e2", name="Ann Example", type="PERSON")
    text = (
        "Under the Sample Relief Scheme (SRS), savings must not exceed £1,500. "
        "Applicants must have lived in the county for at least 2 years. "
        "Ann Example has savings of £640, owes rent arrears of £2,100.50; "
        "her monthly income: £980."
    )
    facts = chunk_facts(
        "d1",
        [("d1-c0", text)],
        [scheme, person],
        [Alias(name="SRS", normalized="srs", entity_id="e1", method="acronym")],
        [Mention(chunk_id="d1-c0", entity_id="e1"), Mention(chunk_id="d1-c0", entity_id="e2")],
    )
    got = [(f.value, f.unit, f.measure, f.kind, f.entity_name) for f in facts]
    assert got == [
        (1500.0, "GBP", "saving", "max", "Sample Relief Scheme"),
        (2.0, "year", "applicant lived county", "min", "Sample Relief Scheme"),
        (640.0, "GBP", "saving", "amount", "Ann Example"),
        (2100.5, "GBP", "owe rent arrear", "amount", "Ann Example"),
        (980.0, "GBP", "monthly income", "amount", "Ann Example"),
    ]
    assert {f.chunk_id for f in facts} == {"d1-c0"} and len({f.id for f in facts}) == 5


def test_numeric_facts_of_a_batch_are_those_of_each_document_alone() -> None:
    """One spaCy stream over a batch's sentences labels them as a call per sentence does."""
    from extraction.numeric_facts import FactSource, chunk_facts_many

    nlp = load_pipeline(DEFAULT_TRAINED)
    scheme = Entity(id="e1", name="Sample Relief Scheme", type="ORG")
    docs = [
        FactSource(
            f"d{i}",
            [(f"d{i}-c0", text)],
            [scheme],
            [],
            [Mention(chunk_id=f"d{i}-c0", entity_id="e1")],
        )
        for i, text in enumerate(
            [
                "In March 2031 the Sample Relief Scheme paid £90 to 1,400 people.",
                "The Sample Relief Scheme ran from 1998 to 2004 with 12 staff and 3.5 per cent.",
                "No numbers in this one.",
            ]
        )
    ]
    batched = chunk_facts_many(docs, nlp)
    alone = [chunk_facts(d.doc_id, d.chunks, d.entities, d.aliases, d.mentions, nlp) for d in docs]
    assert batched == alone and any(batched)


def test_a_streamed_sentence_is_labelled_as_a_call_on_it_alone() -> None:
    from extraction.numeric_facts import _Parsed

    nlp = load_pipeline(DEFAULT_TRAINED)
    sentences = [
        "In March 2031 the fund paid £90 to 1,400 people in 2030-31.",
        "The scheme ran from 1998 to 2004 with 12 staff.",
        "It had 3 offices and 250 members by 1999.",
    ]
    streamed = _Parsed(nlp, sentences)
    for s in sentences:
        assert extract_numbers(s, streamed) == extract_numbers(s, nlp)


def test_a_chunk_the_extraction_parsed_is_labelled_from_that_parse() -> None:
    """The extractor's value entities label the numbers (no second NER pass: no ``nlp`` is
    given); here the chunk's parse and each sentence's alone agree, so the facts are equal.
    A sentence the split collapsed whitespace in is not found in the chunk as written and
    falls back to its own parse."""
    from extraction.numbers import value_spans
    from extraction.numeric_facts import FactSource, chunk_facts_many
    from extraction.spacy_rules import SpacyRuleExtractor

    nlp = load_pipeline(DEFAULT_TRAINED)
    scheme = Entity(id="e1", name="Sample Relief Scheme", type="ORG")
    text = (
        "In March 2031 the Sample Relief Scheme paid £90 to 1,400 people. "
        "The Sample Relief Scheme ran from 1998 to 2004 with 12 staff and 3.5 per cent."
    )
    (facts,) = SpacyRuleExtractor(DEFAULT_TRAINED).extract_many([("Sample", [text])])
    assert facts.ner_model == DEFAULT_TRAINED
    assert facts.chunks[0].values == value_spans(nlp(text)) and facts.chunks[0].values

    def source(chunk: str, values: list[list[tuple[int, int, str]] | None]) -> FactSource:
        mention = Mention(chunk_id="d-c0", entity_id="e1")
        return FactSource("d", [("d-c0", chunk)], [scheme], [], [mention], values)

    from_parse = chunk_facts_many([source(text, [facts.chunks[0].values])], None)
    alone = chunk_facts_many([source(text, [])], nlp)
    assert from_parse == alone and from_parse[0]
    assert {f.value for f in from_parse[0]} >= {1400.0, 12.0}

    # Two spaces inside a sentence: the split collapses them, so the sentence is not found
    # in the chunk and is parsed alone, as before.
    spaced = text.replace("paid £90", "paid  £90")
    parsed = SpacyRuleExtractor(DEFAULT_TRAINED).extract_many([("Sample", [spaced])])[0]
    got = chunk_facts_many([source(spaced, [parsed.chunks[0].values])], nlp)
    assert [(f.value, f.measure) for f in got[0]] == [(f.value, f.measure) for f in alone[0]]


def test_a_blank_pipeline_gives_no_values_and_numeric_facts_parse_alone() -> None:
    from extraction.numeric_facts import chunk_values
    from extraction.spacy_rules import SpacyRuleExtractor

    (facts,) = SpacyRuleExtractor("").extract_many([("T", ["It paid 12 staff in 2031."])])
    assert facts.ner_model == "" and facts.chunks[0].values is None
    assert chunk_values(facts, "") == [] and chunk_values(facts, DEFAULT_TRAINED) == []
    trained = SpacyRuleExtractor(DEFAULT_TRAINED).extract_many([("T", ["It paid 12 staff."])])
    assert chunk_values(trained[0], DEFAULT_TRAINED) == [trained[0].chunks[0].values]
    assert chunk_values(trained[0], "another_pipeline") == []
