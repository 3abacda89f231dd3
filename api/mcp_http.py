"""The MCP endpoint over HTTP: the same API keys as the HTTP API (``X-API-Key``)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from api.deps import AppState
from api.errors import problem
from api.security import key_matches


def keyed(app: ASGIApp, state: AppState) -> ASGIApp:
    """``app`` behind the key check when keys are configured; as it is otherwise."""
    if not state.key_digests:
        return app
    digests = state.key_digests

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not _accepted(scope, digests):
            response = problem(401, "this endpoint needs a valid X-API-Key header")
            response.headers["WWW-Authenticate"] = 'ApiKey header="X-API-Key"'
            await response(scope, receive, send)
            return
        await app(scope, receive, send)

    return guarded


def _accepted(scope: Scope, digests: tuple[bytes, ...]) -> bool:
    key: bytes | None = dict(scope.get("headers") or []).get(b"x-api-key")
    return key is not None and key_matches(key, digests)
