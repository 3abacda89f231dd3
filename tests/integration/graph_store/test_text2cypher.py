"""Questions → Cypher through a chat model (the fake OpenAI-compatible server, scripted) on the
demo graph: reads come back as rows, writes are refused and leave the graph as it was. The
neo4j-graphrag retriever is driven the same way, with the embedded store's guard as its run."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import neo4j
import pytest

from core.errors import InputError, ReadOnlyViolation
from graph_store.explore_port import GraphExplorer
from graph_store.neo4j.graphrag import ChatModelLLM, GuardedText2Cypher
from kg.container import Container
from llm import LlmSettings
from llm.openai_compat import OpenAICompatClient
from retrieval.text2cypher import EXAMPLES, Text2Cypher, extract_cypher
from tests.fakes.openai_server import FakeOpenAIServer, Reply

LEAK = Path(tempfile.gettempdir()) / "kg-text2cypher-leak.csv"
MEMBER_OF = (
    "MATCH (a:Alias {normalized: 'nmht'})-[:ALIAS_OF]->(e:Entity)-[r:RELATED]->(o:Entity) "
    "WHERE r.type = 'MEMBER_OF' RETURN o.name AS organisation"
)


@pytest.fixture()
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer([]) as s:
        yield s


@pytest.fixture()
def client(server: FakeOpenAIServer) -> OpenAICompatClient:
    return OpenAICompatClient(
        LlmSettings(base_url=server.base_url, model="fake-model", max_retries=0)
    )


def digest(c: Container) -> tuple[Any, ...]:
    return c.store.counts(), c.store.export_graph(), c.store.graph_version()


def prompt_of(server: FakeOpenAIServer) -> str:
    return "\n".join(str(m["content"]) for m in server.requests[-1]["messages"])


def test_a_read_query_comes_back_as_rows(
    explorer: GraphExplorer, server: FakeOpenAIServer, client: OpenAICompatClient
) -> None:
    server.push(Reply.text(f"Here it is:\n```cypher\n{MEMBER_OF};\n```"))
    answer = Text2Cypher(explorer, client).ask("What is NMHT a member of?")
    assert answer.cypher == MEMBER_OF and answer.dialect == "kuzu"
    assert answer.rows == [{"organisation": "Northdale Health and Care Partnership"}]
    prompt = prompt_of(server)
    assert "What is NMHT a member of?" in prompt
    assert "(:Entity)-[:RELATED" in prompt and "MEMBER_OF" in prompt  # schema from the store
    assert "label(n)" in prompt  # the Kùzu dialect's rules
    assert EXAMPLES[0] in prompt
    assert server.requests[-1]["temperature"] == 0.0


@pytest.mark.parametrize(
    "reply",
    [
        "MATCH (e:Entity) DETACH DELETE e",
        "```cypher\nCREATE (e:Entity {id: 'llm'}) RETURN e.id\n```",
        "MATCH (e:Entity) RETURN e.id; MATCH (e:Entity) SET e.name = 'x'",
        f"COPY (MATCH (e:Entity) RETURN e.name) TO '{LEAK}'",
        "CALL DROP_FTS_INDEX('Chunk', 'chunk_fts')",
    ],
)
def test_a_generated_write_is_refused(
    explore_demo: Container,
    explorer: GraphExplorer,
    server: FakeOpenAIServer,
    client: OpenAICompatClient,
    reply: str,
) -> None:
    before = digest(explore_demo)
    server.push(Reply.text(reply))
    with pytest.raises(ReadOnlyViolation, match="refused"):
        Text2Cypher(explorer, client).ask("Tidy up the graph")
    assert digest(explore_demo) == before
    assert not LEAK.exists()


def test_no_query_or_no_question(
    explorer: GraphExplorer, server: FakeOpenAIServer, client: OpenAICompatClient
) -> None:
    server.push(Reply.text("```\n```"))
    with pytest.raises(InputError, match="no Cypher"):
        Text2Cypher(explorer, client).ask("Anything?")
    with pytest.raises(InputError, match="empty"):
        Text2Cypher(explorer, client).ask("   ")
    assert server.count == 1  # an empty question never reaches the model


def test_extract_cypher() -> None:
    assert extract_cypher("```cypher\nRETURN 1;\n```") == "RETURN 1"
    assert extract_cypher("RETURN 2") == "RETURN 2"
    assert extract_cypher("Sure.\n```\nRETURN 3\n``` done") == "RETURN 3"


def test_graphrag_retriever_runs_its_query_through_the_guard(
    explore_demo: Container,
    explorer: GraphExplorer,
    server: FakeOpenAIServer,
    client: OpenAICompatClient,
) -> None:
    """neo4j-graphrag's prompt and extraction, our chat model and our guard; the driver is
    never connected (the retriever's version check is off for text2cypher)."""
    schema = explorer.describe_schema().as_text()
    ran: list[str] = []

    def run(query: str) -> list[dict[str, Any]]:
        ran.append(query)
        return explorer.run_read_only(query)

    driver = neo4j.GraphDatabase.driver("bolt://127.0.0.1:9", auth=("neo4j", "x"))
    try:
        retriever = GuardedText2Cypher(driver, ChatModelLLM(client), schema, EXAMPLES, "neo4j", run)
        server.push(Reply.text(f"```cypher\n{MEMBER_OF}\n```"))
        result = retriever.search(query_text="What is NMHT a member of?")
        assert ran == [MEMBER_OF] and result.metadata is not None
        assert result.metadata["cypher"] == MEMBER_OF
        rows = [item.metadata["row"] for item in result.items if item.metadata]
        assert rows == [{"organisation": "Northdale Health and Care Partnership"}]
        prompt = prompt_of(server)
        assert schema in prompt and EXAMPLES[1] in prompt and "What is NMHT" in prompt

        before = digest(explore_demo)
        server.push(Reply.text("MATCH (e:Entity) DETACH DELETE e"))
        with pytest.raises(ReadOnlyViolation):
            retriever.search(query_text="Delete everything")
        assert digest(explore_demo) == before
    finally:
        driver.close()
