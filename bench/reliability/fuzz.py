"""Schemathesis fuzz of the API from its own OpenAPI document.

For each operation schemathesis draws requests from the schema, in two modes: positive (values
the schema allows, including unicode, edge lengths and huge numbers) and negative (values it
forbids: wrong types, missing required fields, out-of-range numbers). Each draw is one request
to a live server, and each response goes through schemathesis' own checks, counted apart:

- ``not_a_server_error``: any 5xx (the goal is 0);
- ``status_code_conformance``: a status the operation does not document;
- ``content_type_conformance`` / ``response_schema_conformance``: a body that is not what the
  operation documents for that status;
- ``negative_data_rejection``: a request the schema forbids that was answered 2xx;

plus one check of ours: every error answer is ``application/problem+json``.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import APIOperation, CheckFunction, GenerationMode
from schemathesis import Case as AnyCase
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Ok
from schemathesis.core.version import SCHEMATHESIS_VERSION
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

Schema = dict[str, Any]
Case = AnyCase[APIOperation[Any, Any, Any, Any]]

CHECKS: dict[str, CheckFunction] = {
    "server_error": not_a_server_error,
    "undocumented_status": status_code_conformance,
    "content_type": content_type_conformance,
    "response_schema": response_schema_conformance,
    "negative_accepted": negative_data_rejection,
}
MODES = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)


@dataclass
class FuzzResult:
    requests: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    not_problem_json: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    transport_errors: list[str] = field(default_factory=list)
    operations: int = 0
    seconds: float = 0.0
    # 5xx answers the operation does not document (a documented 503 says "the store or the
    # LLM is not there", which a client can act on; an undocumented one is a bug).
    server_errors_undocumented: int = 0

    @property
    def server_errors(self) -> list[str]:
        return self.examples.get("server_error", [])

    @property
    def undocumented(self) -> int:
        return self.failures["undocumented_status"]

    def note(self, check: str, example: str) -> None:
        self.failures[check] += 1
        kept = self.examples.setdefault(check, [])
        if len(kept) < 10:
            kept.append(example)

    def as_dict(self) -> dict[str, Any]:
        return {
            "fuzz_tool": f"schemathesis {SCHEMATHESIS_VERSION}",
            "fuzz_operations": self.operations,
            "fuzz_requests": self.requests,
            "fuzz_5xx": self.failures["server_error"],
            "fuzz_5xx_examples": self.server_errors,
            "fuzz_5xx_undocumented": self.server_errors_undocumented,
            "fuzz_undocumented_status": self.undocumented,
            "fuzz_undocumented_examples": self.examples.get("undocumented_status", [])[:5],
            "fuzz_content_type_mismatch": self.failures["content_type"],
            "fuzz_response_schema_mismatch": self.failures["response_schema"],
            "fuzz_response_schema_examples": self.examples.get("response_schema", [])[:5],
            "fuzz_negative_accepted": self.failures["negative_accepted"],
            "fuzz_negative_accepted_examples": self.examples.get("negative_accepted", [])[:5],
            "fuzz_not_problem_json": self.not_problem_json,
            "fuzz_statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "fuzz_transport_errors": len(self.transport_errors),
            "fuzz_transport_examples": self.transport_errors[:5],
            "fuzz_seconds": round(self.seconds, 1),
        }


def run(base_url: str, openapi: Schema, total: int, rng_seed: int = 10) -> FuzzResult:
    """About ``total`` requests, spread evenly over the operations and the two modes."""
    schema = schemathesis.openapi.from_dict(openapi)
    operations = []
    for found in schema.get_all_operations():
        if not isinstance(found, Ok):
            raise ValueError(f"schemathesis cannot read an operation: {found.err()}")
        operations.append(found.ok())
    result = FuzzResult(operations=len(operations))
    per_draw = max(1, -(-total // (len(operations) * len(MODES))))
    start = time.perf_counter()
    with requests.Session() as session:
        round_ = 0
        # Operations with few distinct inputs run out of draws early; rounds top the count up.
        while result.requests + len(result.transport_errors) < total and round_ < 5:
            for op in operations:
                for mode in MODES:
                    strategy = op.as_strategy(generation_mode=mode)
                    _probe(strategy, per_draw, rng_seed + round_, _send(base_url, session, result))
            round_ += 1
    result.seconds = time.perf_counter() - start
    return result


def _send(base_url: str, session: requests.Session, result: FuzzResult) -> Callable[[Case], None]:
    def send(case: Case) -> None:
        label = f"{case.operation.method.upper()} {case.operation.path}"
        try:
            response = case.call(base_url=base_url, session=session, timeout=300)
        except requests.RequestException as exc:
            # uvicorn drops a request line over its limit (a 36 kB URL) without a response.
            result.transport_errors.append(f"{label} {type(exc).__name__}")
            return
        result.requests += 1
        result.statuses[response.status_code] += 1
        documented = case.operation.definition.raw.get("responses", {})
        if response.status_code >= 500 and str(response.status_code) not in documented:
            result.server_errors_undocumented += 1
        for name, check in CHECKS.items():
            try:
                case.validate_response(response, checks=[check])
            except FailureGroup as group:
                title = group.exceptions[0].title if group.exceptions else name
                result.note(name, f"{label} {response.status_code} {title}: {_draw(case):.300}")
        # schemathesis keeps every value of a header, under its lower-cased name.
        content_type = next(iter(response.headers.get("content-type", [])), "")
        if response.status_code >= 400 and not content_type.startswith("application/problem+json"):
            result.not_problem_json += 1

    return send


def _probe(strategy: Any, n: int, rng: int, send: Callable[[Case], None]) -> None:
    # No shrinking: each draw is counted once, and a failure is reported, not minimised.
    @seed(rng)
    @settings(
        max_examples=n,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def probe(case: Case) -> None:
        send(case)

    # Negative mode on an operation without inputs: nothing can be made invalid.
    with contextlib.suppress(Unsatisfiable):
        probe()


def _draw(case: Case) -> str:
    parts = {
        "path": case.path_parameters,
        "query": case.query,
        "body": case.body if not isinstance(case.body, bytes) else f"<{len(case.body)} bytes>",
    }
    return repr({k: v for k, v in parts.items() if v})
