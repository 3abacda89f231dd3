"""Opening an embedded store whose last writer died: replay its log in a throwaway process.

The store checkpoints after every commit (``KuzuGraphStore._checkpoint``), so a write-ahead
log is left on disk only when a process died between writing a commit and folding it in.
Kùzu 0.11.3 replays most such logs, but one left by a ``COMMIT`` cut short by SIGKILL (a
commit that bulk-copies a batch checkpoints inside ``COMMIT``) crashes the replaying process
with SIGSEGV every time, so the store could never be opened again. The main file is not
clean either: the cut-short checkpoint had already written primary-key index pages, so a key
of the lost batch is "taken" by a row nobody can see (reproduced: killing an ingest during its
second batch's ``COMMIT``). Garbage or truncated logs are dropped by Kùzu itself.

So before the database is opened in-process, a log left behind is replayed in a child
process. If the child opens and closes the store, the log was fine (the child folded it in).
If the child dies on a signal or its replay stops on an error (seen: "duplicated primary key
value"), the store is salvaged: the log is set aside, the rows of the
last checkpoint are exported (``EXPORT DATABASE``, which scans rows and never trusts an index)
and imported into a fresh file that replaces the old one, so every index is rebuilt from the
rows. The lost transaction is the one whose ``COMMIT`` never returned, so no caller was told
it was written; an ingest that died then is redone by the next ingest
(``extraction/run_markers.py``). Each step can be interrupted and is redone at the next open
while ``<db>.wal.unreplayable`` exists; the log and the export are kept under ``recovered/``.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from core.errors import StoreError

log = logging.getLogger(__name__)

EXTENSIONS = ("vector", "fts", "algo")  # built into the Kùzu 0.11.3 wheel
_PROBE = "import sys, kuzu; kuzu.Database(sys.argv[1]).close()"
_LOCKED = "Could not set lock"  # another process holds the store: its log is not ours
_PROBE_TIMEOUT_S = 1800.0  # a replay of a long log is slow, not stuck


def load_extensions(conn: Any) -> None:
    for ext in EXTENSIONS:
        conn.execute(f"LOAD EXTENSION {ext}")


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def _set_aside(path: Path) -> Path:
    return path.with_name(path.name + ".wal.unreplayable")


def recover_unreplayable_log(path: Path) -> Path | None:
    """Make the store at ``path`` openable and consistent if replaying its log fails.

    Returns the folder where the salvage kept the log and the export, or ``None`` when there
    was nothing to do: no log, a log the child replayed, or a store another process holds
    (its log is that process's, and the caller's own open reports the lock)."""
    if not _set_aside(path).exists():
        wal = _wal(path)
        if not path.exists() or not wal.exists() or wal.stat().st_size == 0:
            return None
        failure = replay_in_child(path)
        if failure is None:
            return None
        shadow = path.with_name(path.name + ".shadow")
        if shadow.exists() and shadow.stat().st_size > 0:
            # A checkpoint was half applied: the main file alone is not a consistent state.
            raise StoreError(
                f"the embedded graph at {path} cannot be opened: replaying its write-ahead "
                f"log fails ({failure}) and a checkpoint was under way; "
                "run `kg init --reset` and ingest again"
            )
        shadow.unlink(missing_ok=True)  # empty: no checkpoint had started writing it
        wal.rename(_set_aside(path))  # from here on, the next open salvages (atomic)
        log.warning(
            "replaying the embedded graph's write-ahead log failed (%s): rebuilding the "
            "graph from its last checkpoint",
            failure,
        )
    kept = _salvage(path)
    log.warning(
        "the embedded graph was rebuilt from its last checkpoint, without the one write "
        "whose commit was cut short (run an interrupted ingest again to redo it); the log "
        "and the exported rows are kept in %s",
        kept,
    )
    return kept


def replay_in_child(path: Path) -> str | None:
    """How a child replaying the log failed, or None if it did not (or the store is locked).

    Besides the crash, a replay that stops on an error ("duplicated primary key value") is a
    log the store cannot get past either: the same kill inside a checkpoint, seen twice."""
    try:
        probe = subprocess.run(
            [sys.executable, "-c", _PROBE, str(path)],
            capture_output=True,
            text=True,
            timeout=_PROBE_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None  # let the in-process open take its time
    if probe.returncode < 0:
        return f"Kùzu crashed with signal {-probe.returncode}"
    if probe.returncode == 0 or _LOCKED in probe.stderr:
        return None
    # The exception's line; Kùzu may add lines of advice after it.
    lines = probe.stderr.strip().splitlines()
    return next((ln for ln in reversed(lines) if "Error: " in ln), lines[-1] if lines else "?")


def _salvage(path: Path) -> Path:
    """Export the checkpointed rows, import them into a new file and put it in place."""
    keep = path.parent / "recovered" / time.strftime("%Y%m%dT%H%M%S")
    if "'" in str(keep) or "\\" in str(keep):
        raise StoreError(
            f"cannot rebuild the embedded graph at {path}: Kùzu's EXPORT/IMPORT take the "
            "folder as a literal, and this path has a quote or backslash; move the data "
            "directory and open it again (the log is set aside, nothing is lost)"
        )
    shutil.rmtree(keep, ignore_errors=True)  # what an interrupted salvage left
    rebuilt = keep / "rebuilt" / path.name
    rebuilt.parent.mkdir(parents=True)
    export = keep / "export"
    try:
        _database_statement(path, f"EXPORT DATABASE '{export.as_posix()}'")
        _tables_only(export)
        _database_statement(rebuilt, f"IMPORT DATABASE '{export.as_posix()}'")
    except RuntimeError as exc:
        raise StoreError(f"could not rebuild the embedded graph at {path}: {exc}") from exc
    rebuilt.replace(path)  # atomic: the old file or the rebuilt one, never neither
    shutil.rmtree(rebuilt.parent)
    _set_aside(path).rename(keep / _wal(path).name)
    return keep


def _database_statement(path: Path, statement: str) -> None:
    """Run one statement on the database file at ``path``, opened just for it. The statements
    name a folder of ours (a timestamp under the data dir): Kùzu takes no parameter there."""
    import kuzu

    db = kuzu.Database(str(path))
    try:
        conn = kuzu.Connection(db)
        load_extensions(conn)
        conn.execute(statement)
        conn.close()
    finally:
        db.close()


def _tables_only(export: Path) -> None:
    """Import tables and rows, no indexes: the store rebuilds its indexes when it finds them
    missing, and Kùzu 0.11.3's import fails on its own export of two full-text indexes (both
    create the stopword table). Macros left by dropped full-text indexes go too."""
    schema = export / "schema.cypher"
    tables = ("CREATE NODE TABLE ", "CREATE REL TABLE ")
    kept = [line for line in schema.read_text().splitlines() if line.startswith(tables)]
    schema.write_text("\n".join(kept) + "\n")
    (export / "index.cypher").write_text("")
