from core.names import normalize_name
from extraction.facts import ACRONYM, CO_OCCURS, CONCEPT, SUBJECT, DocFacts
from extraction.resolution import Resolver
from extraction.spacy_rules import SpacyRuleExtractor

TEXT = (
    "Northdale Mental Health Trust (NMHT), formerly known as Northdale and Harrowmere "
    "Partnership NHS Foundation Trust, runs services. NMHT is a member of the Northdale "
    "Health and Care Partnership. RUHT is also known as Ravensford Teaching Hospitals."
)


def _facts(*chunks: str, title: str = "T") -> DocFacts:
    return SpacyRuleExtractor().extract(title, list(chunks))


def _aliases(facts: DocFacts) -> set[tuple[str, str, str]]:
    return {(a.alias, a.target, a.method) for a in facts.aliases}


def _typed(facts: DocFacts) -> set[tuple[str, str, str]]:
    return {
        (r.source, r.type, r.target)
        for c in facts.chunks
        for r in c.relations
        if r.type != CO_OCCURS
    }


def test_acronyms_aliases_relations_and_title_subject() -> None:
    facts = _facts(TEXT, title="Annual Plan")
    assert facts.title_key == "annual plan"
    assert facts.types["annual plan"] == SUBJECT
    aliases = _aliases(facts)
    assert ("NMHT", "northdale mental health trust", "acronym") in aliases
    # "X (ACR), formerly known as Y" names the acronym; resolution follows the chain.
    resolver = Resolver()
    resolver.register(facts)
    former = normalize_name("Northdale and Harrowmere Partnership NHS Foundation Trust")
    assert resolver.canonical(former) == "northdale mental health trust"
    assert resolver.canonical("nmht") == "northdale mental health trust"
    assert ("Ravensford Teaching Hospitals", "ruht", "also_known_as") in aliases
    assert ("nmht", "MEMBER_OF", "northdale health and care partnership") in _typed(facts)
    assert facts.chunks[0].mentions["annual plan"] == 1


def test_sentence_initial_common_words_are_weak() -> None:
    facts = _facts("Each year the Board meets. During 2026 nothing. Causes vary. Kelby grows.")
    assert "each" not in facts.surfaces and "during" not in facts.surfaces
    assert {"causes", "kelby"} <= facts.weak
    assert {"year", "vary", "grows"} <= facts.lowercase
    # a one-word heading is no name at all, and number words are values
    facts = _facts("Purpose. This paper asks. Seven members met.")
    assert "purpose" not in facts.surfaces and "seven" not in facts.surfaces
    # the same word capitalised mid-sentence elsewhere in the document is evidence enough
    facts = _facts("Kelby grows. The clinic at Kelby opened.")
    assert "kelby" in facts.surfaces and "kelby" not in facts.weak


def test_dates_are_not_names() -> None:
    facts = _facts(
        "The ICSB in October 2025 visited the Kelby Treatment Centre in May 2026. "
        "Between April 2026 and March 2027 the trust met on Monday. Theresa May spoke."
    )
    assert "icsb" in facts.surfaces and "kelby treatment centre" in facts.surfaces
    assert not [k for k in facts.surfaces if any(m in k for m in ("october", "april", "monday"))]
    assert "theresa may" in facts.surfaces


def test_acronyms_stand_alone_and_lists_split() -> None:
    facts = _facts(
        "Working with NCCT and NMHT, the trust grew. Chair of NMHT. "
        "Cafés open in Ravensford, Kelby, Thornwick and Easterby."
    )
    keys = set(facts.surfaces)
    assert {"ncct", "nmht", "ravensford", "kelby", "thornwick", "easterby"} <= keys
    assert "ncct and nmht" not in keys and "thornwick and easterby" not in keys
    assert facts.types["ncct"] == ACRONYM


def test_compounds_are_proposed_not_decided() -> None:
    facts = _facts(
        "The Department for Health and Social Wellbeing pays. Chief Executive Sarah Kettering said."
    )
    key = "department for health and social wellbeing"
    assert key in facts.surfaces
    assert facts.compounds[key] == (("Department for Health", "Social Wellbeing"),)
    assert ("Chief Executive", "Sarah Kettering") in facts.compounds[
        "chief executive sarah kettering"
    ]


def test_long_form_is_split_from_a_leading_title() -> None:
    facts = _facts("The Chief Executive of Northdale Mental Health Trust (NMHT) spoke.")
    assert ("NMHT", "northdale mental health trust", "acronym") in _aliases(facts)
    assert "chief executive" in facts.surfaces


def test_alias_patterns() -> None:
    facts = _facts(
        "NHS (National Health Service) is large. NHCP, the Northdale Health and Care "
        "Partnership, plans. Ravensford Mill, now known as Ravensford Arts Centre, opened. "
        "Among carers, NMHT is also called Northdale Minds."
    )
    aliases = _aliases(facts)
    assert ("NHS", "national health service", "acronym") in aliases
    assert ("NHCP", "northdale health and care partnership", "apposition") in aliases
    assert ("Ravensford Mill", "ravensford arts centre", "renamed") in aliases
    assert ("Northdale Minds", "nmht", "also_called") in aliases


def test_relation_patterns_passive_and_noun_phrase_objects() -> None:
    facts = _facts(
        "NMHT provides community crisis cafés. The Northdale Elective Recovery Programme is "
        "led by RUHT. The Horizon Ten Plan is produced by the Department of Health."
    )
    typed = _typed(facts)
    cafes = normalize_name("community crisis cafés")
    assert ("nmht", "PROVIDES", cafes) in typed
    assert ("ruht", "LEADS", "northdale elective recovery programme") in typed
    assert ("department of health", "PRODUCES", "horizon ten plan") in typed
    assert facts.types[cafes] == CONCEPT
    assert facts.surfaces[cafes] == "community crisis cafés"
    assert facts.chunks[0].mentions[cafes] == 1


def test_unrelated_words_between_names_give_only_co_occurrence() -> None:
    facts = _facts("NMHT rarely meets RUHT.")
    assert not _typed(facts)
    pairs = {(r.source, r.target) for r in facts.chunks[0].relations if r.type == CO_OCCURS}
    assert ("nmht", "ruht") in pairs


def test_extract_many_keeps_documents_apart() -> None:
    many = SpacyRuleExtractor().extract_many([("A", ["Kelby is near NMHT."]), ("B", ["RUHT."])])
    assert "nmht" in many[0].surfaces and "nmht" not in many[1].surfaces
    assert many[1].chunks[0].mentions["ruht"] == 1


def test_a_report_says_we_for_the_organisation_its_title_begins_with() -> None:
    facts = _facts(
        "This paper sets out what NMHT will do.",
        "We will recruit 24 additional therapists.",
        "Our cafés open in Kelby.",
        "The US agreed. Kelby grows.",
        title="NMHT Priorities for the Next 12 Months",
    )
    assert [c.mentions["nmht"] for c in facts.chunks] == [1, 1, 1, 0]
    # the author must be named in the text, and be an organisation rather than a place
    for title in ("RUHT Priorities", "Kelby Annual Report"):
        facts = _facts("Kelby grows. We will recruit.", title=title)
        assert facts.chunks[0].mentions == {normalize_name(title): 1, "kelby": 1}
