"""Dependencies point one way, downward: a lower package never imports a higher one, not even
lazily inside a function or under TYPE_CHECKING. The order is DESIGN.md's, with the LLM seam and
the query files beside the graph schema at the bottom."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Bottom first. Packages of one layer may not import each other, except in the shell, where the
# CLI runs the benchmarks and the benchmarks build the CLI's container.
LAYERS: list[set[str]] = [
    {"core"},
    {"llm", "cypher"},
    {"graph_schema"},
    {"graph_store"},
    {"retrieval"},
    {"extraction"},
    {"reader"},
    {"agents"},
    {"api"},
    {"kg", "bench"},
]
SHELL = LAYERS[-1]
RANK = {pkg: i for i, layer in enumerate(LAYERS) for pkg in layer}


def imported_packages(path: Path) -> set[tuple[str, int]]:
    """(our top-level package, line) for every import in the file, wherever it stands."""
    found: set[tuple[str, int]] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in RANK:
                found.add((top, node.lineno))
    return found


def violations(pkg: str) -> list[str]:
    bad = []
    for path in sorted((ROOT / pkg).rglob("*.py")):
        for other, line in imported_packages(path):
            if other == pkg or (pkg in SHELL and other in SHELL):
                continue
            if RANK[other] >= RANK[pkg]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {other}")
    return bad


@pytest.mark.parametrize("pkg", sorted(RANK))
def test_no_package_imports_a_higher_or_sibling_one(pkg: str) -> None:
    assert (ROOT / pkg / "__init__.py").exists(), f"{pkg} is listed but is not a package"
    assert violations(pkg) == []


def test_every_package_of_ours_has_a_layer() -> None:
    ours = {
        p.parent.name
        for p in ROOT.glob("*/__init__.py")
        if p.parent.name not in {"tests", "tools", "docs", "demo"}
    }
    assert ours - set(RANK) == set()


def test_the_check_sees_a_lazy_upward_import(tmp_path: Path) -> None:
    # The check itself must be able to fail: an upward import hidden in a function is found.
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from kg.settings import Settings\n    return Settings\n")
    assert ("kg", 2) in imported_packages(module)
