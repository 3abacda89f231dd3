"""The embedded read-only guard's text checks, without a database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import InputError, ReadOnlyViolation
from graph_store.kuzu.guard import ALLOWED_CALLS, DENIED, check, code_only


def test_code_only_blanks_strings_comments_and_quoted_names() -> None:
    text = "MATCH (`CREATE x`) WHERE n.a = 'it\\'s; DROP' // SET\n/* COPY\n */ RETURN \"LOAD\""
    code = code_only(text)
    assert len(code) == len(text) and code.count("\n") == text.count("\n")
    assert code.split() == ["MATCH", "(", ")", "WHERE", "n.a", "=", "RETURN"]


@pytest.mark.parametrize(
    "text", ["RETURN 'open", 'RETURN "open', "MATCH (`open) RETURN 1", "RETURN 1 /* open"]
)
def test_unterminated_text_is_refused(text: str) -> None:
    with pytest.raises(ReadOnlyViolation, match="not terminated"):
        check(text)


@pytest.mark.parametrize(
    "text",
    [
        "MATCH (e:Entity) RETURN e.name",
        "MATCH (e:Entity) RETURN e.name;",
        "MATCH (e:Entity) WHERE e.name = 'CREATE; DELETE' RETURN e",
        "MATCH (e:Entity) RETURN e.set, e.load, $create",  # properties/params named like keywords
        "CALL QUERY_FTS_INDEX('Alias', 'alias_fts', $q) RETURN node.name",
        "call show_tables() return *",
        "EXPLAIN MATCH (n) RETURN n",
    ],
)
def test_reads_pass(text: str) -> None:
    check(text)


@pytest.mark.parametrize("keyword", sorted(DENIED))
def test_each_denied_keyword_is_refused(keyword: str) -> None:
    with pytest.raises(ReadOnlyViolation, match=keyword):
        check(f"MATCH (n) {keyword.lower()} n")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("RETURN 1; RETURN 2", "single statement"),
        ("RETURN 1;;", "single statement"),
        ("CALL threads = 1", "setting"),
        ("CALL CREATE_VECTOR_INDEX('Chunk', 'x', 'embedding')", "not a read-only"),
        ("CALL show_functions() RETURN *", "not a read-only"),
        ("CALL { MATCH (n) RETURN n } RETURN 1", "named table function"),
    ],
)
def test_refusals_say_why(text: str, reason: str) -> None:
    with pytest.raises(ReadOnlyViolation, match=reason):
        check(text)


def test_calls_are_reported() -> None:
    assert check("CALL QUERY_FTS_INDEX('Alias', 'a', 'x') RETURN *").uses_fulltext
    assert not check("CALL SHOW_TABLES() RETURN *").uses_fulltext
    assert "SHOW_FUNCTIONS" not in ALLOWED_CALLS


def test_empty_query_is_an_input_error() -> None:
    with pytest.raises(InputError):
        check(" \n ")


@given(st.text(alphabet="ab ';\"`/*\\\n", max_size=30))
def test_blanking_never_exposes_a_semicolon_inside_a_string(text: str) -> None:
    try:
        code = code_only("RETURN " + text)
    except ReadOnlyViolation:
        return
    assert len(code) == len("RETURN " + text)
    assert not set(code) & {"'", '"', "`"}  # every quoted region is blanked whole
