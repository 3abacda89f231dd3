"""Retrieval and answers: ``POST /v1/search`` and ``POST /v1/ask`` (optionally streamed)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from api.answering import answer
from api.deps import ContainerDep, StateDep
from api.errors import Problem, problem_responses
from api.schemas import AskRequest, SearchOut, SearchRequest
from api.streaming import EventSink, event_stream
from retrieval.filters import SearchFilters, check_known
from retrieval.search import PRESETS

router = APIRouter(prefix="/v1", tags=["query"])

# An empty store (a new server, or the last document deleted) is not an error for a search
# (200, no results, this message), but there is nothing to answer from: /v1/ask is a 409.
NO_DOCUMENTS = "no documents yet: upload some (POST /v1/documents) or ingest a folder first"


@router.post("/search")
def search(body: SearchRequest, container: ContainerDep) -> SearchOut:
    """The chunks that best answer a question, each with its component scores and path, and
    the entities the question linked to and bridged through; ``source``, ``type``, ``from``
    and ``to`` filter documents as ``kg search`` does."""
    preset = body.preset or container.settings.retrieval.preset
    if preset not in PRESETS:
        raise Problem(422, f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
    filters = SearchFilters(body.source, body.doc_type, body.date_from, body.date_to)
    got = container.searcher().retrieve(body.question, body.k, preset, filters)
    # Only a search that found nothing asks the store whether it has documents at all: on
    # the embedded store that read would wait for a commit in progress, which the graph
    # preset's in-memory search does not.
    if not got.results and not container.store.list_documents(0, 1):
        return SearchOut(
            question=body.question,
            preset=preset,
            results=[],
            linked_entities=[],
            bridge_entities=[],
            message=NO_DOCUMENTS,
        )
    if not got.results and filters.active:
        check_known(filters, container.store)  # a type or source no document has: 422
    return SearchOut.model_validate({"question": body.question, **got.as_dict()})


@router.post(
    "/ask",
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "JSON, or SSE"},
        **problem_responses(409),
    },
)
def ask(body: AskRequest, state: StateDep) -> Any:
    """Answer a question from the graph: the analyst's report (``report``: findings with
    FACT / INFERENCE / ASSUMPTION and citations, sources by tier, typed gaps, confidence level
    and score, iteration log, next questions). ``source``, ``type``, ``from`` and ``to``
    filter every retrieval as in ``/v1/search``. With ``stream: true`` the reply is
    ``text/event-stream``: one event per agent step, then ``result`` (or ``error``), then
    ``end``."""

    if not state.container.store.list_documents(0, 1):
        raise Problem(409, NO_DOCUMENTS)
    filters = SearchFilters(body.source, body.doc_type, body.date_from, body.date_to)

    def work(sink: EventSink) -> dict[str, Any]:
        return answer(
            state,
            body.question,
            sink,
            k=body.k,
            max_iterations=body.max_iterations,
            filters=filters,
        )

    if body.stream:
        return StreamingResponse(
            event_stream(work),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
    return work(lambda _step, _payload: None)
