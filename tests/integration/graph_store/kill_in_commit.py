"""Run by test_kuzu_recovery in a child process: ingest a corpus in batches and SIGKILL this
process inside the Nth batch's ``COMMIT``, once Kùzu has written the commit's log and is
folding it into the database file: the state Kùzu 0.11.3 cannot replay.

Usage: python -m tests.integration.graph_store.kill_in_commit CORPUS N
(KG_DATA_DIR and KG_INGEST__BATCH_DOCUMENTS come from the environment.)
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import kuzu


def _kill_once_logged(wal: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if wal.exists() and wal.stat().st_size > 0:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.0002)


def main() -> None:
    corpus, nth = sys.argv[1], int(sys.argv[2])
    wal = Path(os.environ["KG_DATA_DIR"]) / "graph.kuzu.wal"
    commits = 0
    execute = kuzu.Connection.execute

    def killing_execute(self: kuzu.Connection, query: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal commits
        if query == "COMMIT":
            commits += 1
            if commits == nth:  # Kùzu releases the GIL while it commits: the watcher runs
                threading.Thread(target=_kill_once_logged, args=(wal,), daemon=True).start()
        return execute(self, query, *args, **kwargs)

    kuzu.Connection.execute = killing_execute  # type: ignore[method-assign]
    from kg.cli import app

    sys.argv = ["kg", "ingest", corpus]
    app()


if __name__ == "__main__":
    main()
