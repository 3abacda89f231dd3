"""Cypher-injection payloads against Neo4j's write and read paths.

Write paths: documents whose titles, texts, file names (and so ids and URIs) and header
lines carry the payloads are ingested by ``kg ingest`` and by ``POST /v1/ingest``, found
again with their strings stored verbatim, then deleted by those payloads (``kg delete`` with
the titles) and by id (``DELETE /v1/documents/{id}``): the graph must come back to the digest
and census it had. Read paths: every string parameter of every route (``injection.api_cases``)
and Cypher that tries to write through the read-only endpoint (``CYPHER_WRITES``, APOC and
GDS included): the graph must not change at all.

An *effect* is any change of the digest (documents, chunks, entities, mentions, relations)
or of the census (every label and relationship type counted, and nodes with a property set
to ``'pwned'``, which one payload tries to write).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from bench.reliability import injection
from bench.reliability.crash import complete
from bench.reliability.digest import graph_digest
from bench.reliability.neo4j import Neo4jBackend
from graph_store.explore_port import GraphExplorer
from graph_store.port import GraphStore

# Writes, file access and server changes sent as the caller's own query to POST /v1/cypher;
# every one must be refused (403 by the guard, or 422 when Neo4j rejects it in a READ
# transaction).
CYPHER_WRITES: tuple[str, ...] = (
    "MATCH (n) DETACH DELETE n",
    "CREATE (:Pwned {name: 'pwned'})",
    "MATCH (d:Document) SET d.title = 'pwned' RETURN d",
    "MERGE (e:Entity {id: 'pwned'}) RETURN e",
    "MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS RETURN count(*)",
    "CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DETACH DELETE n', {batchSize: 100})",
    "CALL apoc.cypher.doIt('MATCH (n) DETACH DELETE n', {}) YIELD value RETURN value",
    "CALL apoc.cypher.run('MATCH (n) DETACH DELETE n RETURN 1', {}) YIELD value RETURN value",
    "RETURN apoc.cypher.runFirstColumnSingle('CREATE (n:Pwned) RETURN n', {}) AS x",
    "CALL apoc.create.node(['Pwned'], {name: 'pwned'}) YIELD node RETURN node",
    "MATCH (e:Entity) CALL apoc.create.setProperty(e, 'name', 'pwned') YIELD node RETURN node",
    "CALL apoc.refactor.rename.label('Entity', 'Pwned')",
    "CALL apoc.export.json.all('/tmp/kg-pwned.json', {})",
    "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row",
    "CALL gds.graph.project('pwned', 'Entity', 'RELATED') YIELD graphName "
    "CALL gds.pageRank.write('pwned', {writeProperty: 'name'}) YIELD nodePropertiesWritten "
    "RETURN nodePropertiesWritten",
    "CALL db.createLabel('Pwned')",
    "CALL dbms.setConfigValue('db.logs.query.enabled', 'OFF')",
    "CREATE USER pwned SET PASSWORD 'pwned-pwned'",
    "DROP INDEX chunk_fulltext",
    "CREATE INDEX pwned FOR (n:Entity) ON (n.pwned)",
)

CENSUS = (
    "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n ORDER BY label",
    "MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n ORDER BY type",
    "MATCH (n) WHERE any(k IN keys(n) WHERE n[k] = 'pwned') RETURN count(n) AS n",
    "SHOW INDEXES YIELD name RETURN collect(name) AS names",
)


def census(store: GraphStore) -> list[list[dict[str, Any]]]:
    """Every label and relationship type counted, 'pwned' values, index names; read through
    the store's read-only Cypher (constant queries, no parameters)."""
    assert isinstance(store, GraphExplorer)
    return [store.run_read_only(q) for q in CENSUS]


def write_payload_documents(folder: Path, payloads: tuple[str, ...]) -> list[str]:
    """A corpus JSON with a payload as title and in the text of each passage, and one
    Markdown file per payload with it in the file name, title, header lines and body.
    Returns the titles written."""
    folder.mkdir(parents=True, exist_ok=True)
    body = "The Orbital Survey Office in Lisbon catalogues comets."
    passages = [{"title": p, "text": f"{p} {body} {p}"} for p in payloads]
    (folder / "payloads.json").write_text(json.dumps(passages, ensure_ascii=False), "utf-8")
    for i, p in enumerate(payloads):
        # '/' and NUL cannot be in a file name; everything else of the payload is.
        name = re.sub(r"[/\x00]", "_", p)
        text = f"# {p}\nSource: {p}\nType: {p}\nDate: {p}\n\n{p} {body} {p}\n"
        (folder / f"inj-{i} {name}.md").write_text(text, "utf-8")
    return list(payloads)


def _verbatim(store: GraphStore, titles: list[str]) -> int:
    """Payload titles stored exactly as written (JSON passage and Markdown file each)."""
    found: list[str] = []
    while page := store.list_documents(len(found), 500):
        found += [d.title for d in page]
    return sum(min(found.count(t), 2) for t in titles)


def run(
    backend: Neo4jBackend,
    store: GraphStore,
    client: httpx.Client,
    roots: Path,
    data_dir: Path,
) -> dict[str, Any]:
    """``store`` is the API's own (open) store; ``client`` speaks to that API, which ingests
    from ``roots``; ``data_dir`` is the CLI's."""
    payloads = injection.PAYLOADS
    folder = roots / "injection"
    titles = write_payload_documents(folder, payloads)
    before, counted = graph_digest(store), census(store)
    effects: list[str] = []
    statuses: dict[str, int] = {}

    def note(label: str, status: int | str) -> None:
        key = f"{label} {status}"
        statuses[key] = statuses.get(key, 0) + 1

    def check(step: str) -> None:
        if graph_digest(store) != before or census(store) != counted:
            effects.append(step)

    # Write path 1: the CLI.
    complete(backend, data_dir, folder)
    cli_verbatim = _verbatim(store, titles)
    deleted = injection.run_cli(data_dir, ["delete", *titles], env=backend.env(data_dir))
    note("cli delete", deleted.returncode)
    cli_crashed = injection.crashed(deleted)
    check("cli ingest + delete")
    # Write path 2: the API.
    response = client.post("/v1/ingest", json={"paths": [folder.name]})
    note("api ingest", response.status_code)
    api_added = response.json().get("added", 0) if response.status_code == 200 else 0
    api_verbatim = _verbatim(store, titles)
    ids = sorted({d.id for t in titles for d in store.find_documents(t)})
    for doc_id in ids:
        note("api delete", client.delete(f"/v1/documents/{doc_id}").status_code)
    check("api ingest + delete")
    # Read paths: every route's strings, then writes dressed as reads.
    got = injection.run_api(client, payloads)
    check("api read paths")
    refused = 0
    for query in CYPHER_WRITES:
        status = client.post("/v1/cypher", json={"query": query}).status_code
        note("cypher write", status)
        refused += status in (403, 422)
    check("cypher writes")
    return {
        "neo4j_injection_payloads": len(payloads),
        "neo4j_injection_documents": 2 * len(titles),
        "neo4j_injection_stored_verbatim_cli": cli_verbatim,
        "neo4j_injection_stored_verbatim_api": api_verbatim,
        "neo4j_injection_api_added": api_added,
        "neo4j_injection_cli_crashed": cli_crashed,
        "neo4j_injection_read_cases": got.cases,
        "neo4j_injection_5xx": len(got.server_errors),
        "neo4j_injection_5xx_examples": got.server_errors[:10],
        "neo4j_injection_cypher_writes": len(CYPHER_WRITES),
        "neo4j_injection_cypher_writes_refused": refused,
        "neo4j_injection_effects": len(effects),
        "neo4j_injection_effect_steps": effects,
        "neo4j_injection_statuses": dict(sorted(statuses.items())),
    }
