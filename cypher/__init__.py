"""Every query kg-first runs, one named ``.cypher`` file per purpose, loaded once by name.

Values always travel as ``$params``; the only text substitution anywhere is the embedding
dimension in the Kùzu DDL (a validated int), because DDL cannot take parameters.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from core.errors import StoreError

Backend = Literal["kuzu", "neo4j", "falkordb"]


@cache
def load(backend: Backend, name: str) -> str:
    """The text of ``cypher/<backend>/<name>.cypher``."""
    path = resources.files(__package__).joinpath(backend, f"{name}.cypher")
    if not path.is_file():
        raise StoreError(f"no query named {backend}/{name}.cypher")
    return path.read_text(encoding="utf-8").strip()


def statements(backend: Backend, name: str) -> list[str]:
    """A multi-statement file (DDL) split on ``;`` at line ends, comments dropped."""
    text = "\n".join(
        line for line in load(backend, name).splitlines() if not line.lstrip().startswith("//")
    )
    return [s.strip() for s in text.split(";\n") if s.strip().rstrip(";")]


def names(backend: Backend) -> list[str]:
    folder = resources.files(__package__).joinpath(backend)
    return sorted(p.name[: -len(".cypher")] for p in folder.iterdir() if p.name.endswith(".cypher"))
