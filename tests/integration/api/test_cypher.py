"""``POST /v1/cypher``: reads run, anything that writes is refused and changes nothing, on the
embedded store and on Neo4j."""

from __future__ import annotations

import httpx
import pytest

from api.app import create_app
from kg.container import Container
from llm.config import LlmSettings
from tests.fakes.openai_server import FakeOpenAIServer
from tests.integration.api.conftest import assert_problem
from tests.integration.api.live import live_server


def test_a_read_query_returns_rows(demo_any_client: httpx.Client, demo_any: Container) -> None:
    response = demo_any_client.post(
        "/v1/cypher", json={"query": "MATCH (e:Entity) RETURN count(e) AS n"}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["generated"] is False
    assert body["rows"] == [{"n": demo_any.store.counts().entities}]


def test_parameters_and_row_limit(demo_any_client: httpx.Client) -> None:
    body = demo_any_client.post(
        "/v1/cypher",
        json={
            "query": "MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity) WHERE a.name = $name "
            "RETURN e.name AS entity",
            "params": {"name": "Northdale Minds"},
        },
    ).json()
    assert body["rows"] == [{"entity": "Northdale Mental Health Trust"}]
    many = demo_any_client.post(
        "/v1/cypher", json={"query": "MATCH (c:Chunk) RETURN c.id AS id", "max_rows": 3}
    ).json()
    assert len(many["rows"]) == 3
    assert_problem(
        demo_any_client.post("/v1/cypher", json={"query": "MATCH (n) RETURN n", "max_rows": 10**6}),
        422,
    )


@pytest.mark.parametrize(
    ("query", "neo4j_parses"),
    [
        ("CREATE (:Entity {id: 'ent-intruder', name: 'Intruder'})", True),
        ("MATCH (e:Entity) SET e.name = 'renamed'", True),
        ("MATCH (d:Document) DETACH DELETE d", True),
        # Neo4j's parser rejects these two before any plan exists (one statement per query; no
        # COPY clause): a 422 there, and nothing changes either way.
        ("MATCH (e:Entity) RETURN e.id; MATCH (d:Document) DETACH DELETE d", False),
        ("COPY Entity FROM '/tmp/entities.csv'", False),
    ],
)
def test_writes_are_refused(
    demo_any_client: httpx.Client, demo_any: Container, query: str, neo4j_parses: bool
) -> None:
    before = demo_any.store.counts()
    response = demo_any_client.post("/v1/cypher", json={"query": query})
    if demo_any.settings.store == "neo4j" and not neo4j_parses:
        assert "SyntaxError" in str(assert_problem(response, 422)["detail"])
    else:
        assert "refused" in str(assert_problem(response, 403)["detail"])
    assert demo_any.store.counts() == before


def test_bad_requests(demo_any_client: httpx.Client) -> None:
    assert_problem(demo_any_client.post("/v1/cypher", json={}), 422)
    assert_problem(
        demo_any_client.post("/v1/cypher", json={"query": "MATCH (n) RETURN n", "question": "x"}),
        422,
    )
    broken = assert_problem(
        demo_any_client.post("/v1/cypher", json={"query": "MATCH (n RETURN n"}), 422
    )
    assert "failed" in str(broken["detail"])


READ = (
    "```cypher\nMATCH (a:Alias {normalized: 'nmht'})-[:ALIAS_OF]->(e:Entity) "
    "RETURN e.name AS name\n```"
)
WRITE = "```cypher\nMATCH (e:Entity) DETACH DELETE e\n```"


def test_text2cypher_runs_the_generated_read_and_refuses_a_write(
    demo_container: Container,
) -> None:
    with FakeOpenAIServer([READ, WRITE]) as llm_server:
        llm = LlmSettings(base_url=llm_server.base_url, model="fake-model")
        settings = demo_container.settings.model_copy(update={"llm": llm})
        with (
            live_server(create_app(settings, container=demo_container)) as url,
            httpx.Client(base_url=url, timeout=60) as client,
        ):
            read = client.post("/v1/cypher", json={"question": "What is NMHT called?"})
            before = demo_container.store.counts()
            write = client.post("/v1/cypher", json={"question": "Remove every entity"})
        assert read.status_code == 200, read.text
        body = read.json()
        assert body["generated"] is True
        assert body["query"].startswith("MATCH (a:Alias {normalized: 'nmht'})")
        assert body["rows"] == [{"name": "Northdale Mental Health Trust"}]
        # The model saw the question and the graph's schema.
        prompt = llm_server.requests[0]["messages"][-1]["content"]
        assert "What is NMHT called?" in prompt and "RELATED" in prompt
        assert_problem(write, 403)
        assert demo_container.store.counts() == before


def test_text2cypher_without_an_llm_is_503(demo_client: httpx.Client) -> None:
    body = assert_problem(demo_client.post("/v1/cypher", json={"question": "Who leads?"}), 503)
    assert "KG_LLM__BASE_URL" in str(body["detail"])
