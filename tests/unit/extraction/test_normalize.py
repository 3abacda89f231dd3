from core.names import acronym_matches, chunk_id, doc_id, normalize_name


def test_normalize_is_case_accent_punctuation_and_article_insensitive() -> None:
    assert normalize_name("The  Northdale Mental-Health Trust") == "northdale mental health trust"
    assert normalize_name("Café Crème") == "cafe creme"


def test_acronyms_match_initials_with_or_without_connectors() -> None:
    assert acronym_matches("NMHT", "Northdale Mental Health Trust")
    assert acronym_matches("NHCP", "Northdale Health and Care Partnership")
    assert acronym_matches("DHSW", "Department for Health and Social Wellbeing")
    assert not acronym_matches("ICSB", "Northdale Mental Health Trust")
    # No word starts with a letter (a trained NER span): no match, and no IndexError.
    assert not acronym_matches("UNESCO", "1990s")


def test_ids_are_stable_and_chunk_ids_carry_the_document_prefix() -> None:
    d = doc_id("/a/b.md")
    assert d == doc_id("/a/b.md") and d != doc_id("/a/c.md")
    assert chunk_id(d, 3, "text").startswith(f"{d}-0003-")
