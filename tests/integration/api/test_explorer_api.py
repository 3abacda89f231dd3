"""What the explorer page reads over HTTP beyond the entity routes' basics: node sizes
(PageRank) in neighbourhoods and paths, the supporting sentence of each evidence chunk, and a
document's text."""

from __future__ import annotations

import re

import httpx

from tests.integration.api.conftest import assert_problem


def _id(client: httpx.Client, q: str) -> str:
    return str(client.get("/v1/entities", params={"q": q, "k": 1}).json()["items"][0]["entity_id"])


def test_neighbourhood_nodes_carry_pagerank_and_mentions(demo_any_client: httpx.Client) -> None:
    nmht = _id(demo_any_client, "NMHT")
    graph = demo_any_client.get(f"/v1/entities/{nmht}/neighborhood", params={"hops": 1}).json()
    for node in graph["nodes"]:
        details = demo_any_client.get(f"/v1/entities/{node['id']}").json()
        assert node["pagerank"] == details["pagerank"]
        assert node["mentions"] == details["mentions"]
    assert len({n["pagerank"] for n in graph["nodes"]}) > 1  # sizes that differ


def test_paths_nodes_carry_pagerank(demo_any_client: httpx.Client) -> None:
    nmht = _id(demo_any_client, "NMHT")
    graph = demo_any_client.get(f"/v1/entities/{nmht}/neighborhood", params={"hops": 2}).json()
    far = next(n["id"] for n in graph["nodes"] if n["hops"] == 2)
    found = demo_any_client.get("/v1/paths", params={"from": nmht, "to": far, "max_hops": 3}).json()
    assert found["paths"]
    for path in found["paths"]:
        assert path["nodes"][0]["id"] == nmht and path["nodes"][-1]["id"] == far
        assert all(n["pagerank"] > 0 for n in path["nodes"])


def test_evidence_chunks_carry_the_sentence_naming_both_ends(demo_any_client: httpx.Client) -> None:
    nmht = _id(demo_any_client, "NMHT")
    graph = demo_any_client.get(f"/v1/entities/{nmht}/neighborhood", params={"hops": 1}).json()
    typed = [e for e in graph["edges"] if e["type"] != "CO_OCCURS"]
    assert typed
    checked = 0
    for edge in typed:
        ends = []
        for eid in (edge["source"], edge["target"]):
            d = demo_any_client.get(f"/v1/entities/{eid}").json()
            ends.append([d["name"], *d["aliases"]])
        found = demo_any_client.get(
            "/v1/relations", params={"source": edge["source"], "target": edge["target"]}
        ).json()
        for relation in found["relations"]:
            for chunk in relation["evidence"]:
                support = chunk["support"]
                if support["start"] < 0:
                    continue
                sentence = chunk["text"][support["start"] : support["end"]]
                assert " ".join(sentence.split()) == support["sentence"]
                named = [any(_names(n, sentence) for n in names) for names in ends]
                if all(named):
                    checked += 1
    assert checked >= len(typed) // 2, (checked, len(typed))


def _names(name: str, sentence: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", sentence, re.IGNORECASE) is not None


def test_a_document_is_read_with_its_text_and_chunks(demo_any_client: httpx.Client) -> None:
    nmht = _id(demo_any_client, "NMHT")
    doc = demo_any_client.get(f"/v1/entities/{nmht}").json()["documents"][0]
    body = demo_any_client.get(f"/v1/documents/{doc['id']}").json()
    assert body["id"] == doc["id"] and body["title"] == doc["title"]
    assert {"uri", "date", "doc_type", "source"} <= body.keys()
    assert body["chunks"] and [c["index"] for c in body["chunks"]] == sorted(
        c["index"] for c in body["chunks"]
    )
    assert all(c["text"][-40:] in body["text"] for c in body["chunks"])
    # The chunker repeats a sentence or two at each chunk boundary; the text does not.
    assert len(body["chunks"]) > 1
    assert len(body["text"]) < sum(len(c["text"]) for c in body["chunks"])
    assert_problem(demo_any_client.get("/v1/documents/doc-0000000000000000"), 404)
