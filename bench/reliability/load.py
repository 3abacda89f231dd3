"""Load: concurrent clients send mixed reads to the API while an ingest runs in the same
server; errors and latency percentiles are the figures."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import numpy as np

QUESTIONS = (
    "Who founded the company?",
    "Which river flows through the city?",
    "When was the album released?",
    "What is the capital of the region?",
    "Who directed the film?",
)


@dataclass
class LoadResult:
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    ingest_status: int | None = None
    ingest_seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        lat = np.array(self.latencies_ms or [0.0])
        return {
            "load_requests": self.requests,
            "load_errors": len(self.errors),
            "load_error_examples": self.errors[:10],
            "load_p50_ms": round(float(np.percentile(lat, 50)), 1),
            "load_p95_ms": round(float(np.percentile(lat, 95)), 1),
            "load_ingest_status": self.ingest_status,
            "load_ingest_seconds": round(self.ingest_seconds, 1),
        }


def _mixed(rng: random.Random, entity_ids: list[str]) -> tuple[str, str, dict[str, Any]]:
    roll = rng.random()
    question = rng.choice(QUESTIONS)
    if roll < 0.35:
        return "POST", "/v1/search", {"json": {"question": question, "k": 5}}
    if roll < 0.40:
        return "POST", "/v1/ask", {"json": {"question": question, "max_iterations": 1}}
    if roll < 0.65:
        return "GET", "/v1/entities", {"params": {"q": question.split()[-1].strip("?")}}
    eid = rng.choice(entity_ids) if entity_ids else "ent-0000000000000000"
    if roll < 0.82:
        return "GET", f"/v1/entities/{eid}", {}
    return "GET", f"/v1/entities/{eid}/neighborhood", {"params": {"hops": 1, "limit": 50}}


def run(
    base_url: str,
    ingest_paths: list[str],
    clients: int = 8,
    per_client: int = 200,
    seed: int = 10,
) -> LoadResult:
    result = LoadResult()
    lock = threading.Lock()
    with httpx.Client(base_url=base_url, timeout=300) as probe:
        hits = probe.get("/v1/entities", params={"q": "the", "k": 50}).json()
    entity_ids = [h["id"] for h in hits.get("items", hits) if isinstance(h, dict) and "id" in h]

    def ingest() -> None:
        start = time.perf_counter()
        with httpx.Client(base_url=base_url, timeout=1800) as client:
            response = client.post("/v1/ingest", json={"paths": ingest_paths})
        result.ingest_status = response.status_code
        result.ingest_seconds = time.perf_counter() - start

    def worker(index: int) -> None:
        rng = random.Random(seed * 100 + index)
        with httpx.Client(base_url=base_url, timeout=300) as client:
            for _ in range(per_client):
                method, path, kwargs = _mixed(rng, entity_ids)
                start = time.perf_counter()
                try:
                    status = client.request(method, path, **kwargs).status_code
                    error = f"{method} {path}: {status}" if status >= 500 else None
                except httpx.HTTPError as exc:
                    error = f"{method} {path}: {type(exc).__name__}"
                ms = (time.perf_counter() - start) * 1000
                with lock:
                    result.requests += 1
                    result.latencies_ms.append(ms)
                    if error:
                        result.errors.append(error)

    writer = threading.Thread(target=ingest, name="load-ingest")
    writer.start()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(worker, range(clients)))
    writer.join()
    return result
