"""API keys (``X-API-Key``) and the request-size limit."""

from __future__ import annotations

import hashlib
import hmac
from typing import Annotated

from fastapi import Security
from fastapi.security import APIKeyHeader
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.deps import StateDep
from api.errors import problem

_header = APIKeyHeader(
    name="X-API-Key",
    auto_error=False,
    description="Required on every /v1 route when KG_API_KEYS is set.",
)


def key_digests(api_keys: str) -> tuple[bytes, ...]:
    """Digests of the comma-separated keys; hashing first makes the comparison length-blind."""
    keys = [k.strip() for k in api_keys.split(",") if k.strip()]
    return tuple(hashlib.sha256(k.encode()).digest() for k in keys)


def require_api_key(state: StateDep, key: Annotated[str | None, Security(_header)] = None) -> None:
    if not state.key_digests:
        return
    challenge = {"WWW-Authenticate": 'ApiKey header="X-API-Key"'}
    if not key:
        raise HTTPException(401, "this route needs an X-API-Key header", headers=challenge)
    if not key_matches(key.encode(), state.key_digests):
        raise HTTPException(401, "the X-API-Key is not valid", headers=challenge)


def key_matches(key: bytes, digests: tuple[bytes, ...]) -> bool:
    """Whether ``key`` is one of the keys behind ``digests``."""
    given = hashlib.sha256(key).digest()
    # Compare against every key, without stopping early, so timing says nothing about which.
    matched = False
    for digest in digests:
        matched |= hmac.compare_digest(given, digest)
    return matched


class RequestTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(
            413,
            f"the request body is over the limit of {limit:,} bytes (KG_API__MAX_REQUEST_BYTES)",
        )


class BodyLimitMiddleware:
    """Refuses bodies over ``max_bytes``: by Content-Length before reading anything, and by
    counting for chunked bodies (the error surfaces where the route reads its body)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            too_large = RequestTooLarge(self.max_bytes)
            response = problem(413, str(too_large.detail), instance=scope.get("path", ""))
            await response(scope, receive, send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise RequestTooLarge(self.max_bytes)
            return message

        await self.app(scope, counting_receive, send)
