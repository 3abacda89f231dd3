"""Sync settings: intervals and directory lists as operators write them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from core.errors import ConfigError
from extraction.sync_config import SyncSettings, parse_dirs, parse_interval
from kg.settings import Settings


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("30s", 30),
        ("10m", 600),
        ("1h", 3600),
        ("1h30m", 5400),
        ("1h 30m", 5400),
        ("2d", 172_800),
        ("0.5m", 30),
        ("45", 45),
        (" 10M ", 600),
    ],
)
def test_intervals(text: str, seconds: float) -> None:
    assert parse_interval(text) == seconds


@pytest.mark.parametrize("text", ["", "ten minutes", "10x", "10m junk", "m10", "-5", "0s", "inf"])
def test_bad_intervals_say_what_is_expected(text: str) -> None:
    with pytest.raises(ConfigError, match=r"sync interval|e\.g\. 30s"):
        parse_interval(text)


def test_dirs_are_split_trimmed_and_deduplicated() -> None:
    assert parse_dirs(" /a ,, /b,/a ,") == [Path("/a"), Path("/b")]
    assert parse_dirs("") == []


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KG_SYNC__DIRS", "/srv/docs,/srv/board")
    monkeypatch.setenv("KG_SYNC__EVERY", "10m")
    sync = Settings().sync
    assert sync.paths == [Path("/srv/docs"), Path("/srv/board")]
    assert sync.interval_s == 600 and sync.scheduled


def test_no_schedule_without_both() -> None:
    assert not SyncSettings(dirs="/srv/docs").scheduled
    assert SyncSettings(dirs="/srv/docs").interval_s is None
    assert not SyncSettings(every="10m").scheduled


def test_bad_interval_fails_when_settings_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KG_SYNC__EVERY", "often")
    with pytest.raises(ValidationError, match="not understood"):
        Settings()
