"""Health, readiness and graph statistics."""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import StoreDep
from api.errors import Problem

router = APIRouter(tags=["system"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up (no store access; never needs a key)."""
    return {"status": "ok"}


@router.get("/readyz")
def readyz(request: Request) -> dict[str, str]:
    """The store is open and answers a query (never needs a key)."""
    state = getattr(request.app.state, "kg", None)
    if state is None:
        raise Problem(503, "the API is still starting")
    try:
        state.container.store.counts()
    except Exception as exc:  # any failure means "not ready", reported without its details
        raise Problem(503, "the graph store does not answer") from exc
    return {"status": "ready", "store": state.settings.store}


stats_router = APIRouter(prefix="/v1", tags=["system"])


@stats_router.get("/stats")
def stats(store: StoreDep) -> dict[str, int]:
    """Counts of documents, chunks, entities, relations, aliases and mentions."""
    return store.counts().as_dict()
