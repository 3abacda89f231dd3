"""The read-only Cypher guard of the embedded store: untrusted Cypher (an LLM's, a user's) runs
only as a single read.

Kùzu 0.11.3 refuses writes inside ``BEGIN TRANSACTION READ ONLY``, but not everything harmful
is a write: ``COPY ... TO`` and ``EXPORT DATABASE`` write files from a read-only transaction,
``LOAD FROM`` reads any file the server can, ``CALL threads=1`` changes settings, and some
table functions (``CALL SHOW_FUNCTIONS()``) crash the process. A string of several statements
would also leave the read-only transaction with its own ``COMMIT``. So, before anything runs:

1. string literals, comments and back-quoted names are blanked out (an unterminated one is
   refused), so that keywords are looked for in code only;
2. a second statement is refused, and so is any statement keyword outside plain reading
   (``DENIED``), and any ``CALL`` of a table function not known to be a harmless read
   (``ALLOWED_CALLS``);
3. the query is prepared (Kùzu's own parser refuses several statements once more) and run in a
   read-only transaction that is always rolled back, with a timeout and a row cap.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import InputError, ReadOnlyViolation, StoreError

# Statement keywords that write, read or write files, reach other databases, manage
# transactions or change the database; none is needed to read the graph.
DENIED = frozenset(
    {
        "ALTER",
        "ATTACH",
        "BEGIN",
        "CHECKPOINT",
        "COMMIT",
        "COPY",
        "CREATE",
        "DELETE",
        "DETACH",
        "DROP",
        "EXPORT",
        "IMPORT",
        "INSTALL",
        "LOAD",
        "MACRO",
        "MERGE",
        "REMOVE",
        "ROLLBACK",
        "SET",
        "TRANSACTION",
        "UNINSTALL",
        "UPDATE",
        "USE",
    }
)
# Table functions that only read the graph or the catalogue (checked inside a read-only
# transaction on Kùzu 0.11.3). Everything else is refused: index builders and graph
# projections write, settings change the connection, and SHOW_FUNCTIONS crashes the process.
ALLOWED_CALLS = frozenset(
    {
        "CURRENT_SETTING",
        "DB_VERSION",
        "QUERY_FTS_INDEX",
        "QUERY_VECTOR_INDEX",
        "SHOW_CONNECTION",
        "SHOW_INDEXES",
        "SHOW_TABLES",
        "TABLE_INFO",
    }
)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CALL = re.compile(r"\bCALL\s+([A-Za-z_][A-Za-z0-9_.]*)\s*(\(|=)?", re.IGNORECASE)
# Keys of node and relationship values that are Kùzu's internal addresses, not properties.
_INTERNAL_KEYS = frozenset({"_id", "_src", "_dst"})


@dataclass(frozen=True)
class Checked:
    """What the checks learnt about an accepted query."""

    calls: frozenset[str]  # upper-cased names of the table functions it calls

    @property
    def uses_fulltext(self) -> bool:
        return "QUERY_FTS_INDEX" in self.calls

    @property
    def uses_vectors(self) -> bool:
        return "QUERY_VECTOR_INDEX" in self.calls


def code_only(query: str) -> str:
    """The query with string literals, comments and back-quoted names blanked out (same
    length, newlines kept). Raises ReadOnlyViolation on an unterminated one."""
    out: list[str] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch in "'\"":
            j = i + 1
            while j < n and query[j] != ch:
                j += 2 if query[j] == "\\" else 1
            if j >= n:
                raise ReadOnlyViolation("refused: a string literal is not terminated")
            out.append(" " * (j + 1 - i))
            i = j + 1
        elif ch == "`":
            j = query.find("`", i + 1)
            if j < 0:
                raise ReadOnlyViolation("refused: a back-quoted name is not terminated")
            out.append(" " * (j + 1 - i))
            i = j + 1
        elif query.startswith("//", i):
            j = query.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif query.startswith("/*", i):
            j = query.find("*/", i + 2)
            if j < 0:
                raise ReadOnlyViolation("refused: a comment is not terminated")
            out.append("".join(c if c == "\n" else " " for c in query[i : j + 2]))
            i = j + 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def check(query: str) -> Checked:
    """Raise ReadOnlyViolation unless ``query`` is one statement that can only read."""
    if not query.strip():
        raise InputError("query", "the query is empty")
    code = code_only(query)
    body = code.rstrip()
    if ";" in (body[:-1] if body.endswith(";") else body):
        raise ReadOnlyViolation("refused: only a single statement may run")
    words = {
        m.group(0).upper()
        for m in _WORD.finditer(code)
        # A property or parameter may be named like a keyword (e.property, $set).
        if m.start() == 0 or code[m.start() - 1] not in ".$"
    }
    denied = sorted(words & DENIED)
    if denied:
        raise ReadOnlyViolation(
            f"refused: {', '.join(denied)} is not allowed in a read-only query "
            "(it writes, touches files or other databases, or manages transactions)"
        )
    calls = set()
    for m in _CALL.finditer(code):
        name = m.group(1).upper()
        if m.group(2) != "(":
            raise ReadOnlyViolation(f"refused: CALL {m.group(1)} changes a setting")
        if name not in ALLOWED_CALLS:
            raise ReadOnlyViolation(
                f"refused: CALL {m.group(1)} is not a read-only table function; allowed: "
                + ", ".join(sorted(ALLOWED_CALLS))
            )
        calls.add(name)
    if "CALL" in words and not calls:
        raise ReadOnlyViolation("refused: only CALL of a named table function may run")
    return Checked(calls=frozenset(calls))


def plain(value: Any) -> Any:
    """A result value without Kùzu's internal node and relationship addresses."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if k not in _INTERNAL_KEYS}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def run_read_only(
    conn: Any,
    query: str,
    params: Mapping[str, Any] | None,
    timeout_s: float,
    max_rows: int,
) -> list[dict[str, Any]]:
    """Run an already ``check``-ed query in a read-only transaction on ``conn`` (a connection
    no other thread uses meanwhile); rows as dicts keyed by column name."""
    values = dict(params or {})
    conn.set_query_timeout(max(1, int(timeout_s * 1000)))
    conn.execute("BEGIN TRANSACTION READ ONLY")
    try:
        with warnings.catch_warnings():
            # kuzu deprecates prepare() in favour of execute(text), but only prepare() refuses
            # a string of several statements, which execute(text) would run one by one.
            warnings.simplefilter("ignore", DeprecationWarning)
            prepared = conn.prepare(query)
        result = conn.execute(prepared, values)
        columns = result.get_column_names()
        rows: list[dict[str, Any]] = []
        while len(rows) < max(1, max_rows) and result.has_next():
            rows.append({c: plain(v) for c, v in zip(columns, result.get_next(), strict=True)})
        result.close()
        return rows
    except RuntimeError as exc:
        if "read-only transaction" in str(exc):
            raise ReadOnlyViolation(f"refused: the query writes ({exc})") from exc
        if "Interrupted" in str(exc):
            raise StoreError(f"the query ran longer than {timeout_s:g} s and was stopped") from exc
        raise StoreError(f"read-only query failed: {exc}") from exc
    finally:
        # Kùzu has already rolled back when a statement failed.
        with contextlib.suppress(RuntimeError):
            conn.execute("ROLLBACK")
        conn.set_query_timeout(0)
