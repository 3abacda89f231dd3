"""The load check's entity reads ask for entities the store has (bench/reliability/load.py):
found by the mix's own questions on the demo graph, served by a real API server."""

from __future__ import annotations

from api.app import create_app
from bench.reliability.load import probe_entities
from kg.container import Container
from tests.integration.api.live import live_client


def test_the_probe_finds_entities_whose_details_and_neighbourhood_exist(
    demo_container: Container,
) -> None:
    app = create_app(demo_container.settings, container=demo_container)
    with live_client(app) as client:
        ids = probe_entities(client)
        assert len(ids) >= 5
        for entity_id in ids[:5]:
            assert client.get(f"/v1/entities/{entity_id}").status_code == 200
            hood = client.get(f"/v1/entities/{entity_id}/neighborhood", params={"hops": 1})
            assert hood.status_code == 200
