"""Quoted sentences keep their subject: a leading pronoun gets the passage's title."""

from __future__ import annotations

import pytest

from reader.quote import is_name, with_subject


@pytest.mark.parametrize(
    ("sentence", "title", "quoted"),
    [
        ("They are native to Asia.", "Pterocarya", "They (Pterocarya) are native to Asia."),
        # The disambiguation is not part of the name.
        (
            "He was runner-up in 1999.",
            "Eddie Irvine (racing driver)",
            "He (Eddie Irvine) was runner-up in 1999.",
        ),
        ("Its stem is thin.", "Cotula mexicana", "Its (Cotula mexicana's) stem is thin."),
        # A sentence that names its subject, or opens with no pronoun, is quoted as it is.
        ("It is Pterocarya's tallest.", "Pterocarya", "It is Pterocarya's tallest."),
        ("Italy is a country.", "Pterocarya", "Italy is a country."),
        ("The tree is tall.", "Pterocarya", "The tree is tall."),
    ],
)
def test_a_leading_pronoun_is_resolved_to_the_title(sentence: str, title: str, quoted: str) -> None:
    assert with_subject(sentence, title) == quoted


def test_a_title_that_is_no_name_is_not_what_the_pronoun_stands_for() -> None:
    assert is_name("Northdale Mental Health Trust Annual Plan 2026/27")
    assert not is_name("priorities for the next 12 months")
    assert with_subject("It will open three cafés.", "list of new cafés") == (
        "It will open three cafés."
    )
