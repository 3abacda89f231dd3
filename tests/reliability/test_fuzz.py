"""A reduced OpenAPI fuzz (the full 1,000 requests run in ``make reliability``)."""

from __future__ import annotations

import httpx

from api.app import create_app
from bench.reliability import fuzz
from bench.reliability.digest import graph_digest
from kg.container import Container

REQUESTS = 200


def test_generated_requests_never_get_a_5xx(
    small_container: Container, small_client: httpx.Client
) -> None:
    openapi = create_app(small_container.settings, container=small_container).openapi()
    result = fuzz.run(small_client, openapi, REQUESTS, rng_seed=7)
    print(result.as_dict())
    assert result.requests >= REQUESTS
    assert result.transport_errors == []
    assert result.server_errors == []
    assert result.undocumented == 0
    assert result.not_problem_json == 0
    # The store still answers and still holds a graph after the fuzz.
    assert graph_digest(small_container.store).counts["documents"] >= 1
