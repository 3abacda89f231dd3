from extraction.normalize import normalize_name
from extraction.resolution import Resolver
from extraction.spacy_rules import CO_OCCURS, SpacyRuleExtractor

TEXT = (
    "Northdale Mental Health Trust (NMHT), formerly known as Northdale and Harrowmere "
    "Partnership NHS Foundation Trust, runs services. NMHT is a member of the Northdale "
    "Health and Care Partnership. RUHT is also known as Ravensford Teaching Hospitals."
)


def test_acronyms_aliases_relations_and_title_subject() -> None:
    facts = SpacyRuleExtractor().extract("Annual Plan", [TEXT])
    assert facts.title_key == "annual plan"
    assert facts.types["annual plan"] == "SUBJECT"
    aliases = {(a, t, m) for a, t, m, _ in facts.aliases}
    assert ("NMHT", "northdale mental health trust", "acronym") in aliases
    # "X (ACR), formerly known as Y" names the acronym; resolution follows the chain.
    resolver = Resolver()
    resolver.register(facts)
    former = normalize_name("Northdale and Harrowmere Partnership NHS Foundation Trust")
    assert resolver.canonical(former) == "northdale mental health trust"
    assert resolver.canonical("nmht") == "northdale mental health trust"
    assert ("Ravensford Teaching Hospitals", "ruht", "also_known_as") in aliases
    typed = {(a, r, b) for a, r, b, _ in facts.chunks[0].relations if r != CO_OCCURS}
    assert ("nmht", "MEMBER_OF", "northdale health and care partnership") in typed
    assert facts.chunks[0].mentions["annual plan"] == 1


def test_sentence_initial_common_words_are_not_entities() -> None:
    facts = SpacyRuleExtractor().extract("T", ["Each year the Board meets. During 2026 nothing."])
    assert "each" not in facts.surfaces and "during" not in facts.surfaces
