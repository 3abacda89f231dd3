"""``POST /v1/cypher``: read-only Cypher, written by the caller or generated from a question.

A query that would write, load or export files, or change settings is refused with 403 by
the store's read-only guard (``ReadOnlyViolation``), whoever wrote it. A caller's query the
database rejects is the caller's to fix (422); a generated one is the model's (502); a store
that cannot be reached is neither (503, ``StoreUnavailable``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.deps import AppState, StateDep
from api.errors import Problem
from api.explore import explore_port
from api.schemas import CypherRequest, jsonable
from core.errors import StoreError, StoreUnavailable
from graph_store.explore_port import GraphExplorer
from retrieval.text2cypher import Text2Cypher

router = APIRouter(prefix="/v1", tags=["cypher"])


@router.post("/cypher")
def run_cypher(body: CypherRequest, state: StateDep) -> dict[str, Any]:
    """Run ``query`` with ``params``, or turn ``question`` into Cypher with the LLM
    (text2cypher) and run that; either way only as a read."""
    limit = state.settings.api.max_cypher_rows
    if body.max_rows > limit:
        raise Problem(422, f"max_rows: at most {limit} (KG_API__MAX_CYPHER_ROWS)")
    if (body.query is None) == (body.question is None):
        raise Problem(422, "give exactly one of 'query' (Cypher) and 'question' (text2cypher)")
    explorer = explore_port(state.container.store)
    if body.query is not None:
        try:
            rows = explorer.run_read_only(body.query, body.params, max_rows=body.max_rows)
        except StoreUnavailable:
            raise  # the store is away (503), whatever the query
        except StoreError as exc:
            # The caller wrote this query, so the database's complaint (syntax, unknown
            # property, timeout) is theirs to read and fix, not a server failure.
            raise Problem(422, str(exc)) from exc
        return {"query": body.query, "generated": False, "rows": jsonable(rows)}
    assert body.question is not None
    return _text2cypher(state, explorer, body.question, body.max_rows)


def _text2cypher(
    state: AppState, explorer: GraphExplorer, question: str, max_rows: int
) -> dict[str, Any]:
    if state.llm is None:
        raise Problem(503, "text2cypher needs an LLM: set KG_LLM__BASE_URL and KG_LLM__MODEL")
    try:
        found = Text2Cypher(explorer, state.llm, max_rows=max_rows).ask(question)
    except StoreUnavailable:
        raise
    except StoreError as exc:
        # The model, not the caller, wrote a query the database could not run.
        raise Problem(502, f"the generated query failed: {exc}") from exc
    return {
        "question": question,
        "query": found.cypher,
        "generated": True,
        "dialect": found.dialect,
        "rows": jsonable(found.rows),
    }
