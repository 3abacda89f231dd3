"""A local OpenAI-compatible chat server with scripted replies: the network edge, faked.

Usage::

    with FakeOpenAIServer([Reply.text("hello"), Reply.error(429, retry_after=0)]) as server:
        client = OpenAICompatClient(LlmSettings(base_url=server.base_url, model="fake-model"))
        ...
        assert server.count == 1
        assert server.requests[0]["messages"][-1]["content"] == "..."

Replies are served from the queue in order; when it is empty, ``responder`` (a callable
receiving the request body and returning a ``Reply`` or a plain string) decides; with neither,
the server answers 500 and sets ``exhausted`` so a test can tell a script ran short.
Every request's JSON body is recorded in ``requests`` (and its path in ``paths``).
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

PATHS = ("/v1/chat/completions", "/chat/completions")


@dataclass(frozen=True)
class Reply:
    content: str | None = None
    tool_calls: tuple[tuple[str, str], ...] = ()  # (name, arguments JSON)
    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    raw_body: str | None = None  # sent verbatim instead of a completion (malformed replies)
    prompt_tokens: int = 11
    completion_tokens: int = 7
    delay_s: float = 0.0
    finish_reason: str = ""  # "" means "stop" (or "tool_calls"); "length" is a cut-off reply

    @classmethod
    def cut_off(
        cls, content: str = '{"answer": "the reply ran on and on', tokens: int = 64
    ) -> Reply:
        return cls(content=content, completion_tokens=tokens, finish_reason="length")

    @classmethod
    def text(cls, content: str, *, prompt_tokens: int = 11, completion_tokens: int = 7) -> Reply:
        return cls(
            content=content, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens
        )

    @classmethod
    def json(cls, value: Any) -> Reply:
        return cls(content=json.dumps(value))

    @classmethod
    def tool(cls, name: str, arguments: dict[str, Any] | str) -> Reply:
        args = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return cls(tool_calls=((name, args),))

    @classmethod
    def tools(cls, *calls: tuple[str, dict[str, Any]]) -> Reply:
        return cls(tool_calls=tuple((n, json.dumps(a)) for n, a in calls))

    @classmethod
    def error(cls, status: int, *, retry_after: float | None = None, message: str = "") -> Reply:
        headers = (("Retry-After", str(retry_after)),) if retry_after is not None else ()
        body = json.dumps({"error": {"message": message or f"status {status}", "type": "fake"}})
        return cls(status=status, headers=headers, raw_body=body)

    @classmethod
    def malformed(cls, body: str = "{this is not json") -> Reply:
        return cls(raw_body=body)


Responder = Callable[[dict[str, Any]], "Reply | str"]


@dataclass
class _State:
    queue: deque[Reply]
    responder: Responder | None
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    exhausted: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: itertools.count[int] = field(default_factory=itertools.count)


class FakeOpenAIServer:
    def __init__(
        self, replies: Iterable[Reply | str] = (), responder: Responder | None = None
    ) -> None:
        self._state = _State(deque(_as_reply(r) for r in replies), responder)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- script -------------------------------------------------------------
    def push(self, *replies: Reply | str) -> None:
        with self._state.lock:
            self._state.queue.extend(_as_reply(r) for r in replies)

    def set_responder(self, responder: Responder | None) -> None:
        self._state.responder = responder

    # --- what was asked -----------------------------------------------------
    @property
    def requests(self) -> list[dict[str, Any]]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def paths(self) -> list[str]:
        with self._state.lock:
            return list(self._state.paths)

    @property
    def count(self) -> int:
        with self._state.lock:
            return len(self._state.requests)

    @property
    def exhausted(self) -> bool:
        return self._state.exhausted

    @property
    def pending(self) -> int:
        with self._state.lock:
            return len(self._state.queue)

    # --- lifecycle ----------------------------------------------------------
    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the fake server is not running")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> Self:
        handler = type("Handler", (_Handler,), {"state": self._state})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _as_reply(reply: Reply | str) -> Reply:
    return Reply.text(reply) if isinstance(reply, str) else reply


class _Handler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        return

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if path not in PATHS:
            self._send(404, json.dumps({"error": {"message": f"no route {path}"}}))
            return
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send(400, json.dumps({"error": {"message": "request body is not JSON"}}))
            return
        state = self.state
        with state.lock:
            state.requests.append(body)
            state.paths.append(path)
            reply = state.queue.popleft() if state.queue else None
            serial = next(state.ids)
        if reply is None and state.responder is not None:
            reply = _as_reply(state.responder(body))
        if reply is None:
            state.exhausted = True
            reply = Reply.error(500, message="fake server: no scripted reply left")
        if reply.delay_s:
            time.sleep(reply.delay_s)
        text = reply.raw_body if reply.raw_body is not None else _completion(reply, body, serial)
        self._send(reply.status, text, reply.headers)

    def _send(self, status: int, text: str, headers: tuple[tuple[str, str], ...] = ()) -> None:
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        try:
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing left to answer


def _completion(reply: Reply, request: dict[str, Any], serial: int) -> str:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{serial}_{i}",
                "type": "function",
                "function": {"name": name, "arguments": args},
            }
            for i, (name, args) in enumerate(reply.tool_calls)
        ]
    return json.dumps(
        {
            "id": f"chatcmpl-fake-{serial}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(request.get("model", "fake-model")),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": reply.finish_reason
                    or ("tool_calls" if reply.tool_calls else "stop"),
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": reply.prompt_tokens,
                "completion_tokens": reply.completion_tokens,
                "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            },
        }
    )
