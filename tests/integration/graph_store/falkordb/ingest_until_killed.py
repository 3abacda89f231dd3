"""Run by test_persistence in a child process: write tiny documents one transaction each
and print each one's id once ``upsert_documents`` has returned (committed), until killed.

Usage: python -m tests.integration.graph_store.falkordb.ingest_until_killed DATA_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from graph_store.falkordb.store import FalkorGraphStore
from tests.integration.tiny_graphs import DIM, graph


def main() -> None:
    store = FalkorGraphStore(Path(sys.argv[1]), DIM, "test-model")
    store.open()
    store.init_schema()
    print(f"server {store.server_pid}", flush=True)
    i = 0
    while True:
        doc = f"d{i:05d}"
        store.upsert_documents(
            [graph(doc, [f"text {doc} one", f"text {doc} two"], [f"e{i}", "shared"], [])]
        )
        print(f"committed {doc}", flush=True)
        i += 1


if __name__ == "__main__":
    main()
