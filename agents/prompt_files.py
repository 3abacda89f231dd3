"""Versioned prompt files in ``agents/prompts/``: ``<name>.v<N>.md``.

Each file has a ``## system`` and a ``## user`` section; placeholders are ``$name``
(``string.Template``), so JSON examples in a prompt need no escaping and values are never
re-parsed. The highest version is used unless one is pinned; the name and version go into the
audit log with every call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from string import Template
from typing import Any

from core.errors import ConfigError

_FILE = re.compile(r"^(?P<name>[a-z_]+)\.v(?P<version>\d+)\.md$")
_SECTION = re.compile(r"^## (system|user)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Prompt:
    name: str
    version: int
    system: str
    user: str

    @property
    def ref(self) -> str:
        return f"{self.name}.v{self.version}"

    def messages(self, **values: Any) -> list[dict[str, Any]]:
        text = {k: str(v) for k, v in values.items()}
        return [
            {"role": "system", "content": Template(self.system).safe_substitute(text).strip()},
            {"role": "user", "content": Template(self.user).safe_substitute(text).strip()},
        ]

    def user_message(self, **values: Any) -> dict[str, Any]:
        text = {k: str(v) for k, v in values.items()}
        return {"role": "user", "content": Template(self.user).safe_substitute(text).strip()}

    def system_text(self, **values: Any) -> str:
        text = {k: str(v) for k, v in values.items()}
        return Template(self.system).safe_substitute(text).strip()


@lru_cache(maxsize=64)
def load(name: str, version: int | None = None) -> Prompt:
    folder = resources.files("agents") / "prompts"
    found: dict[int, str] = {}
    for entry in folder.iterdir():
        match = _FILE.match(entry.name)
        if match and match["name"] == name:
            found[int(match["version"])] = entry.name
    if not found:
        raise ConfigError(f"no prompt file named {name!r} in agents/prompts")
    chosen = max(found) if version is None else version
    if chosen not in found:
        raise ConfigError(f"prompt {name!r} has no version {chosen}")
    text = (folder / found[chosen]).read_text(encoding="utf-8")
    parts = _SECTION.split(text)
    sections = dict(zip(parts[1::2], parts[2::2], strict=True))
    if set(sections) != {"system", "user"}:
        raise ConfigError(f"prompt {found[chosen]} needs a '## system' and a '## user' section")
    return Prompt(name, chosen, sections["system"], sections["user"])
