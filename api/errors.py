"""Every error the API returns is ``application/problem+json`` (RFC 9457), built here.

Our own exceptions are translated to HTTP in this one table, walked along the exception's MRO
so that a subclass maps before its base:

| exception | status | detail shown |
|---|---|---|
| ``NotFoundError`` | 404 | the message |
| ``InputError`` | 422 | the message (names the input and the reason) |
| ``ReadOnlyViolation`` | 403 | the message: a policy refusal, like a path outside the roots |
| ``SchemaVersionError`` | 503 | the message (versions only) |
| ``StoreError``, ``StoreUnavailable`` (cannot reach it) | 503 | generic; the cause is logged |
| ``LlmError`` | 502 | generic; the cause is logged |
| ``ConfigError``, ``EmbeddingError``, other ``KgError`` | 500 | generic; the cause is logged |

Server-side messages can carry paths, queries or provider replies, so 5xx details are generic
and the exception goes to the log instead (request headers, and so API keys, never do).
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from core.errors import (
    ConfigError,
    InputError,
    KgError,
    LlmError,
    NotFoundError,
    ReadOnlyViolation,
    SchemaVersionError,
    StoreError,
)

log = logging.getLogger("kg.api")

PROBLEM_JSON = "application/problem+json"

# (status, whether the exception's own message is safe to show)
_MAPPING: dict[type[KgError], tuple[int, bool]] = {
    NotFoundError: (404, True),
    InputError: (422, True),
    ReadOnlyViolation: (403, True),
    SchemaVersionError: (503, True),
    StoreError: (503, False),
    LlmError: (502, False),
    ConfigError: (500, False),
    KgError: (500, False),
}

_GENERIC = {
    500: "The server failed to handle the request; the cause is in the server log.",
    502: "An upstream service failed; the cause is in the server log.",
    503: "The graph store is unavailable; the cause is in the server log.",
}


class Problem(StarletteHTTPException):
    """An HTTP error raised by a route, with optional extension members for the body."""

    def __init__(
        self,
        status: int,
        detail: str,
        headers: dict[str, str] | None = None,
        **extensions: Any,
    ) -> None:
        super().__init__(status, detail, headers)
        self.extensions = extensions


_PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
    },
}


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for error answers, so that clients (and the schemathesis fuzz) see every
    status a route can give and that its body is problem+json, not FastAPI's default JSON."""
    return {
        s: {
            "description": HTTPStatus(s).phrase,
            "content": {PROBLEM_JSON: {"schema": _PROBLEM_SCHEMA}},
        }
        for s in statuses
    }


def problem(status: int, detail: str, *, instance: str = "", **extensions: Any) -> JSONResponse:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    body.update(extensions)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


def status_for(exc: KgError) -> tuple[int, bool]:
    for cls in type(exc).__mro__:
        if cls in _MAPPING:
            return _MAPPING[cls]
    # KgError itself is in the table, so every subclass finds an entry before this.
    return 500, False  # pragma: no cover


def kg_error_response(exc: KgError, path: str) -> JSONResponse:
    status, safe = status_for(exc)
    if safe:
        return problem(status, str(exc), instance=path)
    log.error("%s on %s", type(exc).__name__, path, exc_info=exc)
    return problem(status, _GENERIC.get(status, _GENERIC[500]), instance=path)


def install_error_handlers(app: FastAPI) -> None:
    async def on_kg_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, KgError)
        return kg_error_response(exc, request.url.path)

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        extensions = exc.extensions if isinstance(exc, Problem) else {}
        response = problem(
            exc.status_code, str(exc.detail), instance=request.url.path, **extensions
        )
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in exc.errors()
        ]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        return problem(422, f"{where}: {first['msg']}", instance=request.url.path, errors=errors)

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled error on %s", request.url.path, exc_info=exc)
        return problem(500, _GENERIC[500], instance=request.url.path)

    app.add_exception_handler(KgError, on_kg_error)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(Exception, on_unexpected)
