"""Analysts' ad-hoc structured questions: natural language → one read-only Cypher query → rows.

The model is shown the graph's schema as the store describes it (labels, relationship types,
properties, the relation kinds and entity types in use), the rules of our graph model and of
the store's Cypher dialect, and a few examples. Whatever it writes runs only through the
store's ``run_read_only``, so a generated write (or file access, or second statement) is
refused with ReadOnlyViolation and the graph is left as it was. A query the database cannot
run (a syntax or binder error) gets one more try: the model is shown its query and the
database's error; a refused write gets none.

On Neo4j the store's own component answers (neo4j-graphrag's ``Text2CypherRetriever``, see
``graph_store.neo4j.graphrag``), shown the same schema text and examples and guarded the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.errors import InputError, ReadOnlyViolation, StoreError
from graph_store.explore_port import ChatModel, GraphExplorer, NativeText2Cypher
from graph_store.explore_types import CypherAnswer, SchemaDescription

# Rules of our graph model, whatever the store.
MODEL_RULES = (
    "Write one read-only query: MATCH, OPTIONAL MATCH, WITH, UNWIND, WHERE, RETURN, ORDER BY, "
    "LIMIT. Never create, change, delete, load or export anything.",
    "Every relation between two entities is a RELATED relationship; the kind of relation is "
    "its `type` property (WHERE r.type = 'MEMBER_OF'). Never use a relation kind as a "
    "relationship type.",
    "Find an entity by any of its names or abbreviations through its aliases: "
    "(a:Alias)-[:ALIAS_OF]->(e:Entity) WHERE a.normalized = 'the name in lower case, "
    "punctuation removed, without a leading the'.",
    "A chunk is a passage of a document: (d:Document)-[:HAS_CHUNK]->(c:Chunk), and "
    "(c:Chunk)-[m:MENTIONS]->(e:Entity) with m.count mentions.",
    "Name every returned column with AS and return values, not whole nodes.",
)
DIALECT_RULES = {
    "kuzu": (
        "Kùzu Cypher: a node has one label, read with label(n); paths give nodes(p) and "
        "rels(p); variable-length patterns look like -[:RELATED*1..3]-; strings have lower() "
        "and CONTAINS.",
    ),
    "neo4j": (
        "Neo4j 5 Cypher: labels(n), relationships(p); variable-length patterns look like "
        "-[:RELATED*1..3]-; strings have toLower() and CONTAINS.",
    ),
}
# Valid in both dialects; made-up names, so that nothing real leaks into answers.
EXAMPLES = (
    "USER INPUT: 'Which documents mention the Example Trust most often?' QUERY: "
    "MATCH (a:Alias {normalized: 'example trust'})-[:ALIAS_OF]->(e:Entity)"
    "<-[m:MENTIONS]-(:Chunk)<-[:HAS_CHUNK]-(d:Document) "
    "RETURN d.title AS document, sum(m.count) AS mentions ORDER BY mentions DESC LIMIT 10",
    # Not shaped like any demo question: an example the model can copy with a name swapped
    # in answers one question and teaches nothing about the others.
    "USER INPUT: 'How is the Example Fund connected to other entities, and how?' QUERY: "
    "MATCH (a:Alias {normalized: 'example fund'})-[:ALIAS_OF]->(e:Entity)-[r:RELATED]-(o:Entity) "
    "RETURN r.type AS relation, o.name AS other, o.type AS kind LIMIT 20",
)
SYSTEM = (
    "You translate an analyst's question about a knowledge graph into one Cypher query. "
    "Reply with the query only, in a ```cypher block."
)
_FENCE = re.compile(r"```[A-Za-z]*\s*\n?(.*?)```", re.DOTALL)


def extract_cypher(reply: str) -> str:
    """The query in a model's reply: the first fenced block, else the whole reply; a trailing
    semicolon is dropped."""
    match = _FENCE.search(reply)
    text = (match.group(1) if match else reply).strip()
    return text[:-1].rstrip() if text.endswith(";") else text


def schema_prompt(schema: SchemaDescription, max_rows: int) -> str:
    """What the model is told about the graph: the schema, then the rules."""
    rules = [*MODEL_RULES, *DIALECT_RULES.get(schema.dialect, ())]
    rules.append(f"End with LIMIT {max_rows} or less.")
    return schema.as_text() + "\nRules:\n" + "\n".join(f"- {r}" for r in rules)


class Text2Cypher:
    """Questions → Cypher over one store with one chat model; no I/O until asked."""

    def __init__(
        self,
        store: GraphExplorer,
        llm: ChatModel,
        *,
        examples: Sequence[str] = EXAMPLES,
        max_rows: int = 200,
        timeout_s: float = 30.0,
        max_tokens: int = 400,
    ) -> None:
        self._max_tokens = max_tokens
        self._store = store
        self._llm = llm
        self._examples = tuple(examples)
        self._max_rows = max(1, max_rows)
        self._timeout_s = timeout_s

    def ask(self, question: str) -> CypherAnswer:
        """Generate the query and run it read-only. ReadOnlyViolation when the model wrote
        anything but a single read; InputError for an empty question or a reply with no
        query."""
        question = question.strip()
        if not question:
            raise InputError("question", "the question is empty")
        schema = self._store.describe_schema()
        prompt_schema = schema_prompt(schema, self._max_rows)
        if isinstance(self._store, NativeText2Cypher):
            return self._store.text2cypher(
                question,
                self._llm,
                schema=prompt_schema,
                examples=self._examples,
                timeout_s=self._timeout_s,
                max_rows=self._max_rows,
            )
        examples = "\n".join(self._examples)
        user = f"Schema:\n{prompt_schema}\n\nExamples:\n{examples}\n\nQuestion: {question}"
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": user},
        ]
        cypher = self._generate(messages)
        try:
            rows = self._run(cypher)
        except ReadOnlyViolation:
            raise
        except StoreError as exc:
            messages += [
                {"role": "assistant", "content": f"```cypher\n{cypher}\n```"},
                {
                    "role": "user",
                    "content": f"The database refused that query: {str(exc)[:500]}\n"
                    "Write a corrected query, in a ```cypher block.",
                },
            ]
            cypher = self._generate(messages)
            rows = self._run(cypher)
        return CypherAnswer(question=question, cypher=cypher, rows=rows, dialect=schema.dialect)

    def _run(self, cypher: str) -> list[dict[str, Any]]:
        return self._store.run_read_only(cypher, timeout_s=self._timeout_s, max_rows=self._max_rows)

    def generate(self, question: str, prompt_schema: str) -> str:
        examples = "\n".join(self._examples)
        user = f"Schema:\n{prompt_schema}\n\nExamples:\n{examples}\n\nQuestion: {question}"
        return self._generate(
            [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]
        )

    def _generate(self, messages: list[dict[str, Any]]) -> str:
        reply = self._llm.complete(messages, max_tokens=self._max_tokens, temperature=0.0)
        cypher = extract_cypher(reply.content)
        if not cypher:
            raise InputError("question", "the model wrote no Cypher query for it")
        return cypher
