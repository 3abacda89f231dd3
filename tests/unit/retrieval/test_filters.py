"""Search filters that cannot match because they are malformed say so."""

from __future__ import annotations

import pytest

from core.errors import InputError
from retrieval.filters import SearchFilters


@pytest.mark.parametrize(
    ("kwargs", "names"),
    [
        ({"date_from": "2026-13"}, "2026-13"),
        ({"date_to": "2026-02-30"}, "2026-02-30"),
        ({"date_from": "2026-00"}, "2026-00"),
        ({"date_from": "2026-04", "date_to": "2026-03-31"}, "ends (2026-03-31) before"),
        ({"date_from": "2027", "date_to": "2026-12"}, "before it starts (2027)"),
    ],
)
def test_impossible_dates_and_reversed_ranges_are_errors(
    kwargs: dict[str, str], names: str
) -> None:
    with pytest.raises(InputError) as caught:
        SearchFilters(**kwargs)
    assert names in str(caught.value)
    assert caught.value.source in ("from", "to")


def test_valid_ranges_still_hold() -> None:
    same_month = SearchFilters(date_from="2026-03", date_to="2026-03-31")
    assert same_month.accepts("", "", "2026-03-14")
    assert not same_month.accepts("", "", "2026-04-01")
    assert SearchFilters(date_from="2024-02-29").accepts("", "", "2024-03-01")


def test_source_matches_without_trailing_slash_and_by_folder() -> None:
    assert SearchFilters(source="/data/notes/").accepts("/data/notes", "", "")
    assert SearchFilters(source="/data/notes").accepts("/data/notes/", "", "")
    by_folder = SearchFilters(source="notes", source_folder="/data/notes/")
    assert by_folder.accepts("/data/notes", "", "") and by_folder.accepts("notes", "", "")
    assert not by_folder.accepts("/data/other", "", "")
    assert SearchFilters(source="/").accepts("/", "", "")
