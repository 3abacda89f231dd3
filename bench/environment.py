"""What a benchmark number was measured on, recorded next to the number."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

from kg.container import Container

_PACKAGES = ("kuzu", "neo4j", "torch", "sentence-transformers", "bm25s", "numpy")


def describe(container: Container) -> dict[str, object]:
    versions: dict[str, str | None] = {}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "git_commit": _git_commit(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "store": container.settings.store,
        **_server(container),
        "embedding_model": container.embedder.model_name,
        "extractor_version": container.ingestor().extractor_version,
        "llm_configured": container.settings.llm.configured,
        "packages": versions,
    }


def _server(container: Container) -> dict[str, object]:
    """On Neo4j: the server's GDS version, as far as the store already asked for it."""
    gds = getattr(container.store, "gds", None)
    version = getattr(gds, "version", "") if gds is not None else ""
    return {"gds": version} if version else {}


def _git_commit() -> str | None:
    root = Path(__file__).resolve().parent.parent
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None
