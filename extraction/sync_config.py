"""Scheduled sync settings (``KG_SYNC__DIRS``, ``KG_SYNC__EVERY``).

``KG_SYNC__DIRS`` is a comma-separated list of directories (or corpus files) the graph follows;
``KG_SYNC__EVERY`` is how often the API re-syncs them, e.g. ``30s``, ``10m``, ``1h30m``, ``1d``.
Both stay plain strings in the environment; a bad interval fails when settings are read.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, field_validator

from core.errors import ConfigError

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd])")
# Below this a sync would mostly re-read unchanged files; nobody needs it faster.
MIN_INTERVAL_S = 1.0


def parse_interval(text: str) -> float:
    """Seconds in ``"30s"``, ``"10m"``, ``"1h30m"``, ``"1d"`` or a bare number of seconds."""
    spec = text.strip().lower()
    if not spec:
        raise ConfigError("empty sync interval: use e.g. 30s, 10m, 1h")
    if _NUMBER.fullmatch(spec):
        seconds = float(spec)
    else:
        pos, seconds = 0, 0.0
        for m in _PART.finditer(spec):
            if spec[pos : m.start()].strip():
                break
            seconds += float(m.group(1)) * _UNITS[m.group(2)]
            pos = m.end()
        if pos == 0 or spec[pos:].strip():
            raise ConfigError(
                f"sync interval {text!r} is not understood: use e.g. 30s, 10m, 1h30m, 1d"
            )
    if seconds < MIN_INTERVAL_S:
        raise ConfigError(f"sync interval {text!r} is under {MIN_INTERVAL_S:g} second")
    return seconds


def parse_dirs(text: str) -> list[Path]:
    """Paths of a comma-separated list, in order, blanks and repeats dropped."""
    seen: dict[str, Path] = {}
    for part in text.split(","):
        if part.strip():
            seen.setdefault(part.strip(), Path(part.strip()).expanduser())
    return list(seen.values())


class SyncSettings(BaseModel):
    dirs: str = ""
    every: str = ""

    @field_validator("every")
    @classmethod
    def _check_every(cls, value: str) -> str:
        if value.strip():
            try:
                parse_interval(value)
            except ConfigError as exc:
                raise ValueError(str(exc)) from exc
        return value

    @property
    def paths(self) -> list[Path]:
        return parse_dirs(self.dirs)

    @property
    def interval_s(self) -> float | None:
        """Seconds between scheduled runs, or None when no schedule is configured."""
        return parse_interval(self.every) if self.every.strip() else None

    @property
    def scheduled(self) -> bool:
        return bool(self.paths) and self.interval_s is not None
