"""Parallel requests: FastAPI runs the sync routes in a thread pool, all on one embedded store."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

READS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/v1/stats", None),
    ("POST", "/v1/search", {"question": "out-of-area placements", "k": 3}),
    ("GET", "/v1/entities?q=NHCP&k=3", None),
    ("GET", "/v1/documents?limit=5", None),
    ("POST", "/v1/cypher", {"query": "MATCH (a:Alias) RETURN count(a) AS n"}),
]


def _call(client: httpx.Client, request: tuple[str, str, dict[str, Any] | None]) -> Any:
    method, path, body = request
    response = client.request(method, path, json=body)
    assert response.status_code == 200, f"{path}: {response.text}"
    return response.json()


def test_parallel_reads_agree_with_serial_ones(demo_client: httpx.Client) -> None:
    serial = [_call(demo_client, r) for r in READS]
    with ThreadPoolExecutor(max_workers=6) as pool:
        parallel = list(pool.map(lambda r: _call(demo_client, r), READS * 6))
    for i, got in enumerate(parallel):
        assert got == serial[i % len(READS)], READS[i % len(READS)][1]


def test_reads_while_uploads_write(rw_client: httpx.Client) -> None:
    def upload(i: int) -> Any:
        text = f"# Pier note {i}\n\nThe Pier Trust funds lantern repair number {i} in Eastmere."
        files = [("files", (f"pier-{i}.md", text.encode(), "text/markdown"))]
        response = rw_client.post("/v1/documents", files=files)
        assert response.status_code == 200, response.text
        return response.json()

    with ThreadPoolExecutor(max_workers=4) as pool:
        writes = [pool.submit(upload, i) for i in range(4)]
        reads = [pool.submit(_call, rw_client, r) for r in READS[:4] * 3]
        assert sum(w.result()["added"] for w in writes) == 4
        for r in reads:
            r.result()
    assert rw_client.get("/v1/stats").json()["documents"] == 4
    found = rw_client.post("/v1/search", json={"question": "lantern repair", "k": 4}).json()
    assert len(found["results"]) == 4
