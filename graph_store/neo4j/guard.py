"""The read-only Cypher guard: untrusted Cypher (an LLM's, a user's) runs only if Neo4j's own
planner says it reads.

The query is EXPLAINed first (planned, not run) and refused with ``ReadOnlyViolation`` unless
the plan's query type is ``'r'`` and it loads no files; it then runs in a READ transaction,
in which the server refuses writes as well, with a timeout and a row cap. The guard never edits
the query text and passes values only as parameters.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from core.errors import ReadOnlyViolation

# Plan operators refused although they do not write: LOAD CSV reads files on the server or
# fetches URLs.
FORBIDDEN_OPERATORS = ("LoadCSV",)
# The guard prepends its own EXPLAIN; pre-parser options (CYPHER ...) would have to precede it.
_REFUSED_PREFIXES = {"EXPLAIN", "PROFILE", "CYPHER"}
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def first_keyword(query: str) -> str:
    """The first word of a query after comments, upper-cased."""
    match = re.match(r"[A-Za-z]+", _COMMENTS.sub(" ", query).strip())
    return match.group(0).upper() if match else ""


def plan_operators(plan: Any) -> list[str]:
    """Operator names of a query plan as the driver returns it (nested dicts)."""
    if not isinstance(plan, Mapping):
        return []
    names = [str(plan.get("operatorType", ""))]
    for child in plan.get("children", ()) or ():
        names += plan_operators(child)
    return names


def forbidden_operators(plan: Any) -> list[str]:
    """Refused operators in the plan (Neo4j 5 names carry a ``@runtime`` suffix)."""
    return [op for op in plan_operators(plan) if op.split("@", 1)[0] in FORBIDDEN_OPERATORS]


def check_plan(query_type: str | None, plan: Any) -> None:
    """Raise ReadOnlyViolation unless an EXPLAIN summary describes a plain read."""
    if query_type != "r":
        raise ReadOnlyViolation(
            f"refused: Neo4j plans this query as type {query_type!r}; only read queries "
            "('r') may run"
        )
    bad = forbidden_operators(plan)
    if bad:
        raise ReadOnlyViolation(f"refused: the plan uses {', '.join(sorted(set(bad)))}")


def run_read_only(
    neo4j: Any,
    driver: Any,
    database: str,
    query: str,
    params: Mapping[str, Any] | None,
    timeout_s: float,
    max_rows: int,
) -> list[dict[str, Any]]:
    """EXPLAIN, check, then run ``query`` in a READ transaction; rows as dicts.

    Driver errors propagate; the adapter maps them to StoreError."""
    if first_keyword(query) in _REFUSED_PREFIXES:
        raise ReadOnlyViolation("refused: the query must not start with EXPLAIN, PROFILE or CYPHER")
    values = dict(params or {})
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
        summary = session.run("EXPLAIN " + query, values).consume()
        check_plan(summary.query_type, summary.plan)
        fetch = neo4j.unit_of_work(timeout=timeout_s)(_fetch)
        rows: list[dict[str, Any]] = session.execute_read(fetch, query, values, max(1, max_rows))
        return rows


def _fetch(tx: Any, query: str, params: dict[str, Any], max_rows: int) -> list[dict[str, Any]]:
    result = tx.run(query, params)
    return [record.data() for record in itertools.islice(result, max_rows)]
