"""Server-sent events for long-running work: each step as it happens, then the result.

The work runs in its own thread and reports through a queue, so a step reaches the client as
soon as it is done rather than when the whole answer is.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from api.errors import status_for
from core.errors import KgError

log = logging.getLogger("kg.api")

EventSink = Callable[[str, Any], None]
Work = Callable[[EventSink], Any]

_DONE = object()


def sse(event: str, data: Any) -> str:
    # json.dumps never emits a raw newline, so one ``data:`` line always holds the payload.
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def error_payload(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, KgError):
        status, safe = status_for(exc)
        if safe:
            return {"status": status, "detail": str(exc)}
        log.error("%s while streaming", type(exc).__name__, exc_info=exc)
        return {"status": status, "detail": "the work failed; the cause is in the server log"}
    log.error("unhandled error while streaming", exc_info=exc)
    return {"status": 500, "detail": "the work failed; the cause is in the server log"}


def event_stream(work: Work) -> Iterator[str]:
    """Run ``work(sink)`` in a thread; yield one SSE message per ``sink`` call, then ``result``
    (or ``error``) and finally ``end``."""
    items: queue.Queue[object] = queue.Queue()

    def sink(step: str, payload: Any) -> None:
        items.put((step, payload))

    def run() -> None:
        try:
            items.put(("result", work(sink)))
        except Exception as exc:  # reported to the client as an ``error`` event
            items.put(("error", error_payload(exc)))
        finally:
            items.put(_DONE)

    threading.Thread(target=run, name="kg-api-stream", daemon=True).start()
    while True:
        item = items.get()
        if item is _DONE:
            break
        assert isinstance(item, tuple)
        yield sse(*item)
    yield sse("end", {})
