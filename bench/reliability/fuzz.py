"""A hypothesis-driven fuzz of the API from its own OpenAPI document.

For each operation, hypothesis draws path, query and body values from the schema — valid
ones, unicode, injection payloads, huge integers — and, a third of the time, values of the
wrong type. Each draw is one request to a live server. Counted: 5xx responses (the goal is 0),
statuses the operation does not document, and error bodies that are not problem+json.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bench.reliability.injection import PAYLOADS

Schema = dict[str, Any]

# Statuses every keyed route may answer whatever its own list says: auth, policy, missing,
# conflict (a sync already running), too large. FastAPI documents only 200/422, so these
# are counted apart from real violations.
GLOBAL_STATUSES = frozenset({401, 403, 404, 405, 409, 413, 422})

_WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
_TEXT = st.one_of(
    st.text(max_size=40),
    st.text(min_size=1, max_size=4, alphabet=st.characters(min_codepoint=0x80)),
    st.sampled_from(PAYLOADS),
    st.integers(min_value=1, max_value=6000).map(lambda n: "é" * n),
)


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    params: tuple[Schema, ...]
    body: Schema | None
    multipart: bool
    documented: frozenset[int]


@dataclass
class FuzzResult:
    requests: int = 0
    server_errors: list[str] = field(default_factory=list)
    undocumented: int = 0
    not_problem_json: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    transport_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "fuzz_requests": self.requests,
            "fuzz_5xx": len(self.server_errors),
            "fuzz_5xx_examples": self.server_errors[:10],
            "fuzz_undocumented_status": self.undocumented,
            "fuzz_not_problem_json": self.not_problem_json,
            "fuzz_statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "fuzz_transport_errors": len(self.transport_errors),
            "fuzz_transport_examples": self.transport_errors[:5],
            "fuzz_seconds": round(self.seconds, 1),
        }


def operations(openapi: Schema, skip: frozenset[str] = frozenset()) -> list[Operation]:
    ops = []
    for path, items in openapi["paths"].items():
        for method, op in items.items():
            if path in skip:
                continue
            content = op.get("requestBody", {}).get("content", {})
            body = content.get("application/json", content.get("multipart/form-data"))
            ops.append(
                Operation(
                    method.upper(),
                    path,
                    tuple(op.get("parameters", [])),
                    _resolve(openapi, body["schema"]) if body else None,
                    "multipart/form-data" in content,
                    frozenset(int(s) for s in op.get("responses", {}) if s.isdigit()),
                )
            )
    return ops


def _resolve(openapi: Schema, schema: Schema) -> Schema:
    ref = schema.get("$ref")
    if not ref:
        return schema
    node: Any = openapi
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return _resolve(openapi, node)


def values(openapi: Schema, schema: Schema, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values of ``schema``'s shape (strings get unicode and payloads, ints get huge ones)."""
    schema = _resolve(openapi, schema)
    if "anyOf" in schema:
        return st.one_of(*(values(openapi, s, depth) for s in schema["anyOf"]))
    kind = schema.get("type")
    if kind == "string":
        if schema.get("format") == "binary":
            return st.binary(max_size=2048)
        return _TEXT
    if kind == "integer":
        return st.one_of(
            st.integers(min_value=-5, max_value=200), st.integers(min_value=2**31, max_value=2**70)
        )
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array" and depth < 3:
        return st.lists(values(openapi, schema.get("items", {}), depth + 1), max_size=3)
    if kind == "object" and depth < 3:
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {k: values(openapi, v, depth + 1) for k, v in props.items() if k in required},
            optional={
                k: values(openapi, v, depth + 1) for k, v in props.items() if k not in required
            },
        )
    return _WRONG


def _request(op: Operation, openapi: Schema) -> st.SearchStrategy[dict[str, Any]]:
    def value(schema: Schema) -> st.SearchStrategy[Any]:
        return st.one_of(values(openapi, schema), _WRONG) if schema else _WRONG

    parts: dict[str, st.SearchStrategy[Any]] = {}
    for p in op.params:
        parts[f"{p['in']}:{p['name']}"] = value(p.get("schema", {}))
    if op.body is not None:
        parts["body"] = st.one_of(values(openapi, op.body), values(openapi, op.body), _WRONG)
    return st.fixed_dictionaries(parts)


def send(client: httpx.Client, op: Operation, draw: dict[str, Any]) -> httpx.Response:
    path, query = op.path, {}
    for key, v in draw.items():
        where, _, name = key.partition(":")
        text = "" if v is None else str(v)
        if where == "path":
            path = path.replace("{" + name + "}", quote(text, safe="") or "%20")
        elif where == "query" and v is not None:
            query[name] = text
    body = draw.get("body")
    if op.multipart:
        files = body.get("files") if isinstance(body, dict) else None
        uploads = [
            ("files", (f"f{i}.md" if i % 2 else f"{i}.bin.md", _bytes(f)))
            for i, f in enumerate(files if isinstance(files, list) else [b"x"])
        ]
        return client.request(op.method, path, params=query, files=uploads)
    if op.body is not None:
        return client.request(op.method, path, params=query, json=body)
    return client.request(op.method, path, params=query)


def _bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode("utf-8", "replace")


def run(client: httpx.Client, openapi: Schema, total: int, rng_seed: int = 10) -> FuzzResult:
    """About ``total`` requests, spread evenly over the operations."""
    ops = operations(openapi)
    result = FuzzResult()
    start = time.perf_counter()
    per_op = max(1, -(-total // len(ops)))
    round_ = 0
    # Operations without inputs give one draw each; further rounds top the count up.
    while result.requests + len(result.transport_errors) < total:
        for op in ops:
            _probe(client, openapi, op, result, per_op, rng_seed + round_)
        round_ += 1
    result.seconds = time.perf_counter() - start
    return result


def _probe(
    client: httpx.Client, openapi: Schema, op: Operation, result: FuzzResult, n: int, rng: int
) -> None:
    @seed(rng)
    @settings(
        max_examples=n,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(draw=_request(op, openapi))
    def probe(draw: dict[str, Any]) -> None:
        try:
            response = send(client, op, draw)
        except httpx.TransportError as exc:
            # uvicorn drops a request line over its limit (a 36 kB URL) without a response.
            result.transport_errors.append(f"{op.method} {op.path} {type(exc).__name__}")
            return
        _score(result, op, response, draw)

    probe()


def _score(result: FuzzResult, op: Operation, response: httpx.Response, draw: Any) -> None:
    status = response.status_code
    result.requests += 1
    result.statuses[status] += 1
    if status >= 500:
        result.server_errors.append(f"{op.method} {op.path} {status} {draw!r:.300}")
    elif status not in op.documented and status not in GLOBAL_STATUSES:
        result.undocumented += 1
    if status >= 400 and not response.headers.get("content-type", "").startswith(
        "application/problem+json"
    ):
        result.not_problem_json += 1
