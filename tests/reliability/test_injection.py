"""Cypher-injection payloads in every string parameter of every route and CLI command:
the graph's digest must not change and nothing may answer 5xx or crash."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bench.reliability import injection
from bench.reliability.digest import graph_digest
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.reliability.conftest import write_docs


def test_api_payloads_change_nothing(
    demo_container: Container, demo_reliability_client: httpx.Client
) -> None:
    before = graph_digest(demo_container.store)
    # The offline agent is slow on this machine; one payload per route through /v1/ask.
    outcome = injection.run_api(demo_reliability_client, ask=False)
    asked = injection.run_api(demo_reliability_client, injection.PAYLOADS[3:4], ask=True)
    assert graph_digest(demo_container.store) == before
    assert outcome.server_errors + asked.server_errors == []
    assert outcome.cases >= len(injection.PAYLOADS) * 15
    # The payload bound as a parameter is a value: the read runs and finds nothing.
    assert outcome.statuses.get(200, 0) > 0


@pytest.fixture(scope="module")
def cli_store(
    tmp_path_factory: pytest.TempPathFactory, embedder: SentenceTransformerEmbedder
) -> Path:
    """A small store on disk, closed again so a ``kg`` subprocess can open it."""
    base = tmp_path_factory.mktemp("cli-injection")
    c = build(Settings(data_dir=base / "kg"))
    c.embedder = embedder
    with c.store:
        c.store.init_schema()
        c.ingestor().ingest_paths([write_docs(base / "docs")])
    return base / "kg"


def _digest(data_dir: Path, embedder: SentenceTransformerEmbedder) -> object:
    c = build(Settings(data_dir=data_dir))
    c.embedder = embedder
    with c.store:
        return graph_digest(c.store)


@pytest.mark.parametrize(
    "args",
    [
        ["delete", *injection.PAYLOADS],
        ["search", "}) DETACH DELETE n //", "--k", "3"],
        ["ask", "RETURN 1; MATCH (n) DETACH DELETE n", "--max-iterations", "1"],
    ],
    ids=["delete", "search", "ask"],
)
def test_cli_payloads_change_nothing(
    cli_store: Path, embedder: SentenceTransformerEmbedder, args: list[str]
) -> None:
    before = _digest(cli_store, embedder)
    result = injection.run_cli(cli_store, args)
    assert not injection.crashed(result), result.stderr[-2000:]
    assert _digest(cli_store, embedder) == before
    if args[0] == "delete":
        # Nothing matches any payload: each is reported missing, and the exit says so.
        assert result.returncode == 1
        assert result.stderr.count("no document matches") == len(injection.PAYLOADS)
