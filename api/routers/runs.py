"""A run's audit trail: ``GET /v1/runs/{run_id}`` (the id ``/v1/ask`` returns).

The events of the run's JSONL audit file, in order (``agents.audit``): settings, context, plan,
every retrieval with ids and scores, critiques, LLM calls, tool calls, verifier, result. Server
file paths are left out; an id that is not a run id, or names no run, is a 404.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter

from agents.audit import read
from api.deps import SettingsDep
from api.errors import Problem

router = APIRouter(prefix="/v1", tags=["runs"])

# agents.audit.new_run_id: UTC stamp and 8 hex digits; nothing else can name a file.
_RUN_ID = re.compile(r"^\d{8}T\d{6}Z-[0-9a-f]{8}$")
# Keys whose values are server paths.
_PATH_KEYS = {"audit_log", "audit_dir", "examples_path"}


@router.get("/runs/{run_id}")
def run(run_id: str, settings: SettingsDep) -> dict[str, Any]:
    """The audit trail of one ``/v1/ask`` (or ``kg ask``) run."""
    if not _RUN_ID.fullmatch(run_id):
        raise Problem(404, f"no run {run_id!r}")
    directory = settings.agent.audit_dir or settings.data_dir / "audit"
    path = directory / f"{run_id}.jsonl"
    if not path.is_file():
        raise Problem(404, f"no run {run_id!r}")
    return {"run_id": run_id, "events": [_public(e) for e in read(path)]}


def _public(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _public(v) for k, v in value.items() if k not in _PATH_KEYS}
    if isinstance(value, list):
        return [_public(v) for v in value]
    return value
