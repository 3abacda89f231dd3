"""Load: concurrent clients send mixed reads to the API while ingests run in the same server;
errors and latency percentiles are the figures.

The writer ingests a stream of new documents (the next passages of the corpus, a small file
per call, one call after the other) from the first read to the last, so that every read of
the window meets a write in progress; ``load_ingest_overlap_s`` is how many seconds of the
window an ingest call was running, out of ``load_window_s``.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
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
ASK = "POST /v1/ask"


@dataclass
class LoadResult:
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    # latencies by route ("GET /v1/entities/{id}"), to see which reads wait
    by_route: dict[str, list[float]] = field(default_factory=dict)
    # (start, end, status, documents added) of each ingest call, perf_counter seconds.
    ingests: list[tuple[float, float, int | str, int]] = field(default_factory=list)
    window: tuple[float, float] = (0.0, 0.0)
    entity_ids: int = 0  # entities the detail and neighbourhood reads chose from

    def overlap_s(self) -> float:
        w0, w1 = self.window
        return sum(max(0.0, min(end, w1) - max(start, w0)) for start, end, _, _ in self.ingests)

    def _without_ask(self) -> list[float]:
        kept = [ms for route, got in self.by_route.items() if route != ASK for ms in got]
        return kept or [0.0]

    def as_dict(self) -> dict[str, Any]:
        lat = np.array(self.latencies_ms or [0.0])
        w0, w1 = self.window
        inside = [i for i in self.ingests if i[0] < w1]
        return {
            "load_requests": self.requests,
            "load_errors": len(self.errors),
            "load_error_examples": self.errors[:10],
            "load_p50_ms": round(float(np.percentile(lat, 50)), 1),
            "load_p95_ms": round(float(np.percentile(lat, 95)), 1),
            # /v1/ask runs the agent loop (seconds of CPU in the offline reader): the reads'
            # own p95 without it.
            "load_p95_ms_without_ask": round(float(np.percentile(self._without_ask(), 95)), 1),
            "load_window_s": round(w1 - w0, 1),
            "load_entity_ids": self.entity_ids,
            "load_ingest_overlap_s": round(self.overlap_s(), 1),
            "load_ingest_calls": len(inside),
            "load_ingest_documents": sum(added for *_, added in inside),
            "load_ingest_statuses": sorted({str(status) for _, _, status, _ in self.ingests}),
            "load_p95_ms_by_route": {
                route: round(float(np.percentile(ms, 95)), 1)
                for route, ms in sorted(self.by_route.items())
            },
        }


def passage_stream(source: Path, start: int, per_file: int, folder: Path) -> Iterator[str]:
    """Names (relative to ``folder``) of corpus files of ``per_file`` passages each, taken in
    order from passage ``start`` of ``source``: documents the store has not seen."""
    passages = json.loads(source.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    for i, at in enumerate(range(start, len(passages), per_file)):
        name = f"load-stream-{i:04d}.json"
        chunk = passages[at : at + per_file]
        (folder / name).write_text(json.dumps(chunk, ensure_ascii=False), encoding="utf-8")
        yield name


def probe_entities(client: httpx.Client, per_question: int = 10) -> list[str]:
    """Entities the detail and neighbourhood reads ask for: those the mix's questions link and
    bridge to, and those named by the titles of the documents they find. (A lookup of "the"
    found none, and the items were read by a key they do not have, so those reads measured a
    404 for a made-up id.)"""
    ids: dict[str, None] = {}
    titles: dict[str, None] = {}
    for question in QUESTIONS:
        body = client.post("/v1/search", json={"question": question, "k": per_question}).json()
        for key in ("linked_entities", "bridge_entities"):
            ids.update((e["entity_id"], None) for e in body.get(key, []) if "entity_id" in e)
        titles.update((r["document_title"], None) for r in body.get("results", []))
    for title in titles:
        hits = client.get("/v1/entities", params={"q": title, "k": 3}).json()
        ids.update((h["entity_id"], None) for h in hits.get("items", []) if "entity_id" in h)
    return list(ids)


def _route(method: str, path: str) -> str:
    parts = path.split("/")
    if len(parts) > 3 and parts[2] == "entities":
        parts[3] = "{id}"
    return f"{method} {'/'.join(parts)}"


def _mixed(rng: random.Random, entity_ids: list[str]) -> tuple[str, str, dict[str, Any]]:
    roll = rng.random()
    question = rng.choice(QUESTIONS)
    if roll < 0.35:
        return "POST", "/v1/search", {"json": {"question": question, "k": 5}}
    if roll < 0.40:
        return "POST", ASK.split()[1], {"json": {"question": question, "max_iterations": 1}}
    if roll < 0.65:
        return "GET", "/v1/entities", {"params": {"q": question.split()[-1].strip("?")}}
    eid = rng.choice(entity_ids) if entity_ids else "ent-0000000000000000"
    if roll < 0.82:
        return "GET", f"/v1/entities/{eid}", {}
    return "GET", f"/v1/entities/{eid}/neighborhood", {"params": {"hops": 1, "limit": 50}}


def run(
    base_url: str,
    stream: Iterator[str],
    clients: int = 8,
    per_client: int = 200,
    seed: int = 10,
) -> LoadResult:
    """``stream`` yields paths (relative to the server's first ingest root) of new documents;
    the writer ingests them one call after the other until the last client is done."""
    result = LoadResult()
    lock = threading.Lock()
    reading = threading.Event()
    done = threading.Event()
    with httpx.Client(base_url=base_url, timeout=300) as probe:
        entity_ids = probe_entities(probe)
    result.entity_ids = len(entity_ids)

    def ingest() -> None:
        reading.wait()
        with httpx.Client(base_url=base_url, timeout=1800) as client:
            for path in stream:
                if done.is_set():
                    return
                start = time.perf_counter()
                status: int | str
                added = 0
                try:
                    response = client.post("/v1/ingest", json={"paths": [path]})
                    status = response.status_code
                    if status == 200:
                        added = int(response.json().get("added", 0))
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                result.ingests.append((start, time.perf_counter(), status, added))

    def worker(index: int) -> None:
        rng = random.Random(seed * 100 + index)
        reading.set()
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
                    result.by_route.setdefault(_route(method, path), []).append(ms)
                    if error:
                        result.errors.append(error)

    writer = threading.Thread(target=ingest, name="load-ingest")
    writer.start()
    w0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(worker, range(clients)))
    result.window = (w0, time.perf_counter())
    done.set()
    writer.join()
    return result
