"""Every Neo4j query is checked by Neo4j's own Cypher parser and semantic analysis.

No Neo4j runs on the development machines, so ``tools/cypher-lint/lint.mjs`` (the npm package
``@neo4j-cypher/language-support``) stands in: syntax, undefined variables and parameters,
procedures and functions with their signatures, labels and relationship types.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import cypher

ROOT = Path(__file__).resolve().parents[2]
LINTER = ROOT / "tools" / "cypher-lint"
PACKAGE = LINTER / "node_modules" / "@neo4j-cypher" / "language-support"
NODE = shutil.which("node")
PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
# How the adapter names a query: _read("x"), _write("x"), tq(tx, "x"), self._run("x"),
# self._projection(_KIND, "x"), run("x") in the explore logic both adapters share,
# cypher.statements("neo4j", "x").
QUERY_USE = re.compile(
    r"\b(?:_read|read|_write|_run|run|tq|tq_rows|_projection|_with_vectors)\(\s*(?:\w+,\s*)?\"([a-z0-9_]+)\""
    r"|cypher\.(?:load|statements)\(\s*\"neo4j\",\s*\"([a-z0-9_]+)\""
)

pytestmark = pytest.mark.skipif(
    NODE is None or not PACKAGE.is_dir(),
    reason="needs node and tools/cypher-lint/node_modules (run: npm ci --prefix tools/cypher-lint)",
)


def run_lint(queries: list[dict[str, Any]]) -> dict[str, Any]:
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(LINTER / "lint.mjs")],
        input=json.dumps({"queries": queries}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def query(name: str, text: str) -> dict[str, Any]:
    return {"name": name, "text": text, "params": sorted(set(PARAM.findall(text)))}


def diagnostics(result: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return next(r["diagnostics"] for r in result["results"] if r["name"] == name)


# neo4j-graphrag's HybridCypherRetriever appends a retrieval query to its own search, which
# leaves each hit as `node` with its `score`: lint such a fragment behind a search like it.
FRAGMENT_PREFIX = "retrieval_query_"
FRAGMENT_CONTEXT = (
    "CALL db.index.vector.queryNodes('chunk_embedding', 10, $query_vector) YIELD node, score\n"
)


def project_query(name: str) -> dict[str, Any]:
    text = cypher.load("neo4j", name)
    return query(name, FRAGMENT_CONTEXT + text if name.startswith(FRAGMENT_PREFIX) else text)


@pytest.fixture(scope="module")
def project_lint() -> dict[str, Any]:
    queries = [project_query(name) for name in cypher.names("neo4j")]
    # The schema file also runs statement by statement: lint each as it is sent.
    for i, stmt in enumerate(cypher.statements("neo4j", "schema")):
        queries.append(query(f"schema#{i}", stmt.rstrip().rstrip(";")))
    return run_lint(queries)


def test_there_are_neo4j_queries() -> None:
    assert len(cypher.names("neo4j")) > 40


def test_every_neo4j_query_lints_clean(project_lint: dict[str, Any]) -> None:
    problems = [
        f"{r['name']}:{d['line']}:{d['column']} {d['severity']}: {d['message']}"
        for r in project_lint["results"]
        for d in r["diagnostics"]
        if d["severity"] in ("error", "warning")
    ]
    assert project_lint["errors"] == 0 and not problems, "\n".join(problems)


# Deliberately broken queries and the error each must produce.
BROKEN = {
    "syntax": ("MATCH (n:Entity) RETRN n", "Invalid input 'RETRN'"),
    "procedure": ("CALL gds.pageRank.streem('g') YIELD nodeId RETURN nodeId", "streem"),
    "arguments": (
        "CALL db.index.vector.queryNodes('chunk_embedding', 3) YIELD node RETURN node",
        "required number of arguments",
    ),
    "function": ("RETURN gds.util.asNodes([1]) AS n", "gds.util.asNodes"),
    "variable": ("MATCH (e:Entity) RETURN f", "Variable `f` not defined"),
    "parameter": ("MATCH (e:Entity {id: $id}) RETURN e", "$id"),
}


@pytest.fixture(scope="module")
def broken_lint() -> dict[str, Any]:
    queries = [{"name": k, "text": text, "params": []} for k, (text, _) in BROKEN.items()]
    queries.append({"name": "label", "text": "MATCH (e:Entty) RETURN e", "params": []})
    return run_lint(queries)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_queries_are_errors(broken_lint: dict[str, Any], name: str) -> None:
    expected = BROKEN[name][1]
    errors = [d for d in diagnostics(broken_lint, name) if d["severity"] == "error"]
    assert any(expected in d["message"] for d in errors), errors


def test_unknown_label_is_a_warning(broken_lint: dict[str, Any]) -> None:
    assert any(
        d["severity"] == "warning" and "Entty" in d["message"]
        for d in diagnostics(broken_lint, "label")
    )


def test_adapter_runs_only_existing_queries_and_every_query_is_used() -> None:
    shared = ("explore_core.py", "rows.py", "named_reads.py")
    files = sorted((ROOT / "graph_store" / "neo4j").glob("*.py")) + [
        ROOT / "graph_store" / name for name in shared
    ]
    sources = "\n".join(p.read_text() for p in files)
    used = {a or b for a, b in QUERY_USE.findall(sources)}
    known = set(cypher.names("neo4j"))
    assert used - known == set(), "the adapter names queries that do not exist"
    assert known - used == set(), "queries no code runs"
