"""Entities over HTTP on the demo graph, on the embedded store and on Neo4j: alias-aware
lookup, details, neighbourhood, relation evidence, paths, and 404 for ids that do not exist."""

from __future__ import annotations

import httpx
import pytest

from tests.integration.api.conftest import assert_problem

UNKNOWN = "ent-0000000000000000"


def _lookup(client: httpx.Client, q: str) -> dict[str, str]:
    response = client.get("/v1/entities", params={"q": q, "k": 5})
    assert response.status_code == 200, response.text
    items = response.json()["items"]
    assert items, f"nothing found for {q!r}"
    return dict(items[0])


def test_an_alias_finds_the_canonical_entity(demo_any_client: httpx.Client) -> None:
    by_alias = _lookup(demo_any_client, "Northdale Minds")
    by_acronym = _lookup(demo_any_client, "NMHT")
    assert by_alias["entity_id"] == by_acronym["entity_id"]
    assert by_alias["name"] == "Northdale Mental Health Trust"
    assert by_alias["matched"] == "Northdale Minds"
    assert demo_any_client.get("/v1/entities", params={"q": "Zzyzx Qqq"}).json()["items"] == []
    assert_problem(demo_any_client.get("/v1/entities", params={"q": ""}), 422)


def test_details_list_aliases_pagerank_and_documents(demo_any_client: httpx.Client) -> None:
    nmht = _lookup(demo_any_client, "NMHT")["entity_id"]
    details = demo_any_client.get(f"/v1/entities/{nmht}").json()
    assert details["id"] == nmht
    assert {"NMHT", "Northdale Minds"} <= set(details["aliases"])
    assert details["pagerank"] > 0
    titles = [d["title"] for d in details["documents"]]
    assert titles and all(d["mentions"] > 0 for d in details["documents"])


def test_neighbourhood_grows_with_hops(demo_any_client: httpx.Client) -> None:
    nmht = _lookup(demo_any_client, "NMHT")["entity_id"]
    one = demo_any_client.get(f"/v1/entities/{nmht}/neighborhood", params={"hops": 1}).json()
    two = demo_any_client.get(f"/v1/entities/{nmht}/neighborhood", params={"hops": 2}).json()
    assert one["center"] == nmht
    assert one["nodes"][0]["id"] == nmht
    ids_one = {n["id"] for n in one["nodes"]}
    assert len(ids_one) > 1
    assert ids_one <= {n["id"] for n in two["nodes"]}
    assert len(two["nodes"]) > len(one["nodes"])
    for edge in one["edges"]:
        assert {edge["source"], edge["target"]} <= ids_one
    capped = demo_any_client.get(
        f"/v1/entities/{nmht}/neighborhood", params={"hops": 2, "limit": 3}
    ).json()
    assert len(capped["nodes"]) <= 4  # the centre plus the limit
    assert_problem(demo_any_client.get(f"/v1/entities/{nmht}/neighborhood?hops=4"), 422)
    assert_problem(demo_any_client.get(f"/v1/entities/{nmht}/neighborhood?hops=0"), 422)


def test_relation_evidence_and_paths(demo_any_client: httpx.Client) -> None:
    nmht = _lookup(demo_any_client, "NMHT")["entity_id"]
    nhcp = _lookup(demo_any_client, "NHCP")["entity_id"]
    found = demo_any_client.get("/v1/relations", params={"source": nhcp, "target": nmht}).json()
    member = [r for r in found["relations"] if r["type"] == "MEMBER_OF"]
    assert member and member[0]["source"] == nmht and member[0]["target"] == nhcp
    evidence = member[0]["evidence"]
    assert evidence and all(c["text"] and c["doc_title"] for c in evidence)

    plan = _lookup(demo_any_client, "Northdale Joint Forward Plan 2026-2031")["entity_id"]
    response = demo_any_client.get("/v1/paths", params={"from": nmht, "to": plan, "max_hops": 3})
    assert response.status_code == 200, response.text
    paths = response.json()["paths"]
    assert paths
    for path in paths:
        assert path["nodes"][0]["id"] == nmht and path["nodes"][-1]["id"] == plan
        assert len(path["edges"]) == len(path["nodes"]) - 1 <= 3
    assert_problem(
        demo_any_client.get("/v1/paths", params={"from": nmht, "to": plan, "max_hops": 9}), 422
    )


@pytest.mark.parametrize(
    "path",
    [
        f"/v1/entities/{UNKNOWN}",
        f"/v1/entities/{UNKNOWN}/neighborhood",
        f"/v1/relations?source={UNKNOWN}&target={UNKNOWN}",
        f"/v1/paths?from={UNKNOWN}&to={UNKNOWN}",
    ],
)
def test_unknown_ids_are_404(demo_any_client: httpx.Client, path: str) -> None:
    body = assert_problem(demo_any_client.get(path), 404)
    assert UNKNOWN in str(body["detail"])


@pytest.mark.parametrize("path", ["/v1/entities/", "/v1/documents/", "/v1/stats/"])
def test_a_trailing_slash_is_not_redirected(demo_client: httpx.Client, path: str) -> None:
    response = demo_client.get(path, follow_redirects=False)
    assert_problem(response, 404)
