"""``POST /v1/search`` over real HTTP: the filters ``kg search`` has (source, type, from, to)
and the linked and bridge entities the README promises, on the demo graph."""

from __future__ import annotations

from typing import Any

import httpx

from graph_store import DocumentInfo
from kg.container import Container
from retrieval.filters import SearchFilters
from tests.integration.api.conftest import assert_problem

QUESTION = "Which services does Northdale Mental Health Trust provide?"


def _docs(container: Container) -> dict[str, DocumentInfo]:
    return {d.id: d for d in container.store.list_documents(0, 1000)}


def _search(client: httpx.Client, **body: object) -> dict[str, Any]:
    response = client.post("/v1/search", json={"question": QUESTION, "k": 8, **body})
    assert response.status_code == 200, response.text
    got: dict[str, Any] = response.json()
    return got


def test_type_source_and_dates_filter_every_preset(
    demo_any_client: httpx.Client, demo_any: Container
) -> None:
    docs = _docs(demo_any)
    typed = next(d for d in docs.values() if d.doc_type)
    sourced = next(d for d in docs.values() if d.source)
    for preset in ("dense", "hybrid", "graph"):
        unfiltered = _search(demo_any_client, preset=preset)["results"]
        assert isinstance(unfiltered, list)
        assert {docs[r["doc_id"]].doc_type for r in unfiltered} != {typed.doc_type}, preset
        results = _search(demo_any_client, preset=preset, type=typed.doc_type.upper())["results"]
        assert isinstance(results, list) and results, preset
        assert {docs[r["doc_id"]].doc_type for r in results} == {typed.doc_type}, preset
        results = _search(demo_any_client, preset=preset, source=sourced.source)["results"]
        assert isinstance(results, list) and results, preset
        assert {docs[r["doc_id"]].source for r in results} == {sourced.source}, preset
        results = _search(demo_any_client, preset=preset, **{"from": "2026-01", "to": "2026-06-30"})
        assert isinstance(results["results"], list) and results["results"], preset
        for r in results["results"]:
            assert "2026-01" <= docs[r["doc_id"]].date[:10] <= "2026-06-30", preset


def test_filtered_http_answer_is_the_libraries(
    demo_any_client: httpx.Client, demo_any: Container
) -> None:
    body = _search(demo_any_client, **{"from": "2026-01-01"})
    direct = demo_any.searcher().retrieve(QUESTION, 8, None, SearchFilters(date_from="2026-01-01"))
    assert [r["chunk_id"] for r in body["results"]] == [r.chunk_id for r in direct.results]


def test_graph_preset_returns_linked_and_bridge_entities(
    demo_any_client: httpx.Client, demo_any: Container
) -> None:
    body = _search(demo_any_client, preset="graph")
    direct = demo_any.searcher().retrieve(QUESTION, 8, "graph").as_dict()
    linked = body["linked_entities"]
    assert isinstance(linked, list) and linked
    assert "Northdale Mental Health Trust" in {x["name"] for x in linked}
    assert linked == direct["linked_entities"]
    assert body["bridge_entities"] == direct["bridge_entities"]
    assert isinstance(body["bridge_entities"], list) and body["bridge_entities"]
    dense = _search(demo_any_client, preset="dense")
    assert dense["linked_entities"] == [] and dense["bridge_entities"] == []


def test_bad_filters_are_problems(demo_client: httpx.Client) -> None:
    for bad in ({"from": "March 2026"}, {"to": "2026-3-1"}, {"type": 5}, {"source": ["a"]}):
        assert_problem(demo_client.post("/v1/search", json={"question": QUESTION, **bad}), 422)
    assert_problem(
        demo_client.post("/v1/search", json={"question": QUESTION, "type": "x" * 201}), 422
    )


def test_malformed_filters_and_unknown_fields_say_so(demo_client: httpx.Client) -> None:
    """A filter that cannot match because it is wrong is a 422 naming it, not an empty 200."""
    cases = {
        "2026-13": {"from": "2026-13"},
        "ends (2026-03-31) before it starts (2026-04)": {"from": "2026-04", "to": "2026-03-31"},
        "no document has type 'nonexistent'": {"type": "nonexistent"},
        "no document has source '/no/such/folder'": {"source": "/no/such/folder/"},
        "tpye": {"tpye": "board paper"},
    }
    for says, bad in cases.items():
        body = assert_problem(
            demo_client.post("/v1/search", json={"question": QUESTION, **bad}), 422
        )
        assert says in str(body["detail"]), body
    body = assert_problem(
        demo_client.post("/v1/search", json={"question": QUESTION, "type": "nonexistent"}), 422
    )
    assert "types: " in str(body["detail"])  # the types present, to pick from
    for route in ("/v1/ask", "/v1/cypher"):
        assert_problem(demo_client.post(route, json={"question": QUESTION, "kk": 3}), 422)


def test_source_accepts_a_folder_with_its_trailing_slash(
    demo_client: httpx.Client, demo_container: Container
) -> None:
    folder = next(d.source for d in _docs(demo_container).values() if d.source.startswith("/"))
    plain = _search(demo_client, source=folder)["results"]
    slashed = _search(demo_client, source=folder + "/")["results"]
    assert plain and [r["chunk_id"] for r in slashed] == [r["chunk_id"] for r in plain]


def test_an_empty_store_answers_no_documents_yet(rw_client: httpx.Client) -> None:
    """A new server, or one whose last document was deleted: search is a 200 with no results
    and a message; ask has nothing to answer from, a 409 problem saying how to add some."""
    for preset in ("dense", "hybrid", "graph"):
        got = _search(rw_client, preset=preset)
        assert got["results"] == [] and "no documents yet" in got["message"]
    for stream in (False, True):
        asked = rw_client.post("/v1/ask", json={"question": QUESTION, "stream": stream})
        assert "no documents yet" in str(assert_problem(asked, 409)["detail"])
