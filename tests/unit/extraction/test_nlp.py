import pytest

from core.errors import ConfigError
from extraction.chunking import chunk_text
from extraction.nlp import DEFAULT_TRAINED, load_pipeline, resolve_model, split_sentences
from extraction.spacy_rules import SpacyRuleExtractor

TEXT = (
    "Dr. Amira Holt joined the U.S. Department of Energy in 2004. She left e.g. after two "
    'years! Was it 2006? "Yes," said the report. it ends here'
)


def test_one_definition_of_a_sentence_for_chunking_and_extraction() -> None:
    sentences = split_sentences(TEXT)
    # Tokenizer exceptions keep "Dr.", "U.S." and "e.g." inside their sentence.
    assert sentences[0] == "Dr. Amira Holt joined the U.S. Department of Energy in 2004."
    assert len(sentences) == 5
    # Extraction reads the chunk text with the same sentence boundaries, blank or trained.
    for model in ("", resolve_model("auto")):
        doc = load_pipeline(model)(" ".join(sentences))
        assert [s.text for s in doc.sents] == sentences
    chunks = chunk_text(TEXT, max_tokens=20, overlap_sentences=0)
    assert [s for c in chunks for s in split_sentences(c.text)] == sentences


def test_unknown_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="en_no_such_pipeline"):
        load_pipeline("en_no_such_pipeline")


def test_empty_setting_means_rules_alone() -> None:
    assert resolve_model("") == ""
    assert load_pipeline("").pipe_names == ["sentencizer", "amount_full_stops"]


def test_an_amount_with_its_scale_ends_a_sentence() -> None:
    # The tokenizer keeps "m." whole, as it keeps an initial; a unit letter is lower case.
    text = "The deficit is £18.6m. The capital programme is £48.5m. Then J. Smith left at 5 p.m."
    expected = ["The deficit is £18.6m.", "The capital programme is £48.5m."]
    assert split_sentences(text) == [*expected, "Then J. Smith left at 5 p.m."]
    for model in ("", resolve_model("auto")):
        doc = load_pipeline(model)(text)
        assert [s.text for s in doc.sents][:2] == expected


@pytest.fixture(scope="module")
def trained() -> SpacyRuleExtractor:
    if resolve_model("auto") != DEFAULT_TRAINED:
        pytest.skip(f"{DEFAULT_TRAINED} is not installed")
    return SpacyRuleExtractor(DEFAULT_TRAINED)


def test_trained_pipeline_runs_its_ner_only(trained: SpacyRuleExtractor) -> None:
    assert trained._pipeline().pipe_names == ["sentencizer", "amount_full_stops", "ner"]
    assert trained.version.endswith(f"+{DEFAULT_TRAINED}")


def test_ner_types_rule_names_and_adds_missed_ones(trained: SpacyRuleExtractor) -> None:
    text = (
        "Paris lies on the Seine. Marie Curie worked near the Eiffel Tower in 1900 for "
        "3 francs a day, and later met delegates of the democratic party."
    )
    rules = SpacyRuleExtractor("").extract("Notes", [text])
    facts = trained.extract("Notes", [text])
    # Sentence-initial "Paris" is weak for the rules; NER makes it a typed name.
    assert "paris" in rules.weak and rules.types["paris"] == "NAME"
    assert "paris" not in facts.weak and facts.types["paris"] == "LOCATION"
    assert facts.types["marie curie"] == "PERSON"
    # "the Eiffel Tower" (NER, with the article) types the rules' "Eiffel Tower".
    assert facts.types["eiffel tower"] == "LOCATION"
    assert facts.types["notes"] == "SUBJECT"
    # Dates and amounts are values, never entities.
    assert not {"1900", "3 francs"} & set(facts.types)
    # Every rule name is kept.
    assert set(rules.types) <= set(facts.types)
