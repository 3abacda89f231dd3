"""Cypher-injection payloads in every string parameter of every route and CLI command.

An *effect* is a change of the graph's digest; a *failure* is a 5xx. Both should be zero:
every value reaches the database as a ``$param`` or not at all.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

PAYLOADS: tuple[str, ...] = (
    "'",
    '"',
    "`",
    "}) DETACH DELETE n //",
    "') DETACH DELETE n //",
    "//",
    "\\u0027) MATCH (n) DETACH DELETE n //",
    "\u0027 OR 1=1 //",
    "RETURN 1; MATCH (n) DETACH DELETE n",
    "x`]->(n) DETACH DELETE n //",
    "$q */ MATCH (n) SET n.name = 'pwned' /*",
    "%27%29%20DETACH%20DELETE%20n",
)

# A read the caller may legitimately send; the payload travels as its parameter.
PARAM_QUERY = "MATCH (d:Document) WHERE d.title = $t RETURN d.id AS id"


@dataclass(frozen=True)
class Case:
    label: str
    method: str
    path: str
    params: dict[str, Any] | None = None
    json: Any = None


@dataclass
class Outcome:
    cases: int = 0
    server_errors: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)

    def record(self, label: str, status: int) -> None:
        self.cases += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status >= 500:
            self.server_errors.append(f"{label}: {status}")


def api_cases(payload: str, *, ask: bool = True) -> Iterator[Case]:
    """One request per string parameter of every route, the payload in that parameter."""
    seg = quote(payload, safe="")
    yield Case("entities.q", "GET", "/v1/entities", {"q": payload})
    yield Case("entity.id", "GET", f"/v1/entities/{seg}")
    yield Case("neighborhood.id", "GET", f"/v1/entities/{seg}/neighborhood")
    yield Case("relations.source", "GET", "/v1/relations", {"source": payload, "target": "x"})
    yield Case("relations.target", "GET", "/v1/relations", {"source": "x", "target": payload})
    yield Case("paths.from", "GET", "/v1/paths", {"from": payload, "to": "x"})
    yield Case("paths.to", "GET", "/v1/paths", {"from": "x", "to": payload})
    yield Case("documents.offset", "GET", "/v1/documents", {"offset": payload})
    yield Case("search.question", "POST", "/v1/search", json={"question": payload})
    yield Case("search.preset", "POST", "/v1/search", json={"question": "x", "preset": payload})
    if ask:
        yield Case(
            "ask.question", "POST", "/v1/ask", json={"question": payload, "max_iterations": 1}
        )
    yield Case("cypher.query", "POST", "/v1/cypher", json={"query": payload})
    yield Case(
        "cypher.params", "POST", "/v1/cypher", json={"query": PARAM_QUERY, "params": {"t": payload}}
    )
    yield Case("ingest.paths", "POST", "/v1/ingest", json={"paths": [payload]})
    yield Case("document.delete", "DELETE", f"/v1/documents/{seg}")
    yield Case("jobs.id", "GET", f"/v1/jobs/{seg}")


def run_api(
    client: httpx.Client, payloads: tuple[str, ...] = PAYLOADS, *, ask: bool = True
) -> Outcome:
    outcome = Outcome()
    for payload in payloads:
        for case in api_cases(payload, ask=ask):
            response = client.request(case.method, case.path, params=case.params, json=case.json)
            outcome.record(f"{case.label} {payload!r}", response.status_code)
    return outcome


def cli_commands(payloads: tuple[str, ...]) -> Iterator[list[str]]:
    """``kg delete`` takes every payload at once; search and ask take one each."""
    yield ["delete", *payloads]
    for payload in payloads:
        yield ["search", payload, "--k", "3"]
        yield ["ask", payload, "--max-iterations", "1"]


def run_cli(
    data_dir: Path,
    args: list[str],
    timeout_s: float = 300.0,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The real ``kg`` entry point in a subprocess on the store in ``data_dir`` (the embedded
    one unless ``env`` names another)."""
    env = {
        **os.environ,
        "KG_STORE": "embedded",
        "KG_DATA_DIR": str(data_dir),
        "HF_HUB_OFFLINE": "1",
        **(env or {}),
    }
    env.pop("KG_LLM__BASE_URL", None)
    code = "from kg.cli import app; app()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )


def crashed(result: subprocess.CompletedProcess[str]) -> bool:
    """A traceback or a signal is a crash; a clean non-zero exit with a message is not."""
    return result.returncode < 0 or "Traceback (most recent call last)" in result.stderr
