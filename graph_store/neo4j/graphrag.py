"""neo4j-graphrag inside the Neo4j adapter: our chat model behind its ``LLMBase`` interface,
its ``Text2CypherRetriever`` with the adapter's read-only guard in place of a plain run, its
``VectorCypherRetriever`` with our retrieval query (the Neo4j read model's vector candidates),
and its index look-up to check the vector indexes ``init_schema`` finds.

The indexes themselves are created by ``cypher/neo4j/schema.cypher`` rather than the
library's ``create_vector_index`` / ``create_fulltext_index``: those build the same statements
from Python strings, where the schema file keeps every statement in one place, checked by
Neo4j's own linter.

graph_store sits below the ``llm`` package, so the chat adapter here is the small one
text2cypher needs, over the
structural ``ChatModel``. neo4j-graphrag is imported by this module only, and this module only
where one of these is used.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import neo4j
from neo4j_graphrag.generation.prompts import Text2CypherTemplate
from neo4j_graphrag.indexes import retrieve_vector_index_info
from neo4j_graphrag.llm.base import LLMBase
from neo4j_graphrag.llm.types import LLMResponse
from neo4j_graphrag.message_history import MessageHistory
from neo4j_graphrag.retrievers import Text2CypherRetriever, VectorCypherRetriever
from neo4j_graphrag.retrievers.text2cypher import extract_cypher
from neo4j_graphrag.types import LLMMessage, RawSearchResult, RetrieverResultItem
from pydantic import BaseModel

import cypher
from core.errors import InputError
from graph_store.explore_port import ChatModel
from graph_store.explore_types import CypherAnswer
from graph_store.neo4j.rows import cosine_from_score
from graph_store.read_model import ChunkDetail

ReadOnlyRun = Callable[[str], list[dict[str, Any]]]
# The indexes cypher/neo4j/schema.cypher creates.
CHUNK_VECTOR_INDEX = "chunk_embedding"
VECTOR_INDEXES = {CHUNK_VECTOR_INDEX: "Chunk", "entity_embedding": "Entity"}


def vector_index_dimensions(driver: neo4j.Driver, database: str) -> dict[str, int]:
    """The dimension each of our vector indexes was created with (``CREATE ... IF NOT
    EXISTS`` keeps an index of an earlier model's dimension without a word)."""
    out = {}
    for name, label in VECTOR_INDEXES.items():
        info = retrieve_vector_index_info(driver, name, label, "embedding", database)
        if info is not None and info["name"] == name:
            out[name] = int(info["options"]["indexConfig"]["vector.dimensions"])
    return out


# A Cypher query, or a small structured reply; a cap is what stops a small model that loops.
CYPHER_MAX_TOKENS = 400


class ChatModelLLM(LLMBase):
    """A neo4j-graphrag LLM that answers through our ``ChatModel`` (both call shapes)."""

    def __init__(self, chat: ChatModel) -> None:
        super().__init__(model_name=chat.model)
        self._chat = chat

    def invoke(
        self,
        input: str | list[LLMMessage],
        message_history: list[LLMMessage] | MessageHistory | None = None,
        system_instruction: str | None = None,
        response_format: type[BaseModel] | dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> LLMResponse:
        messages: list[dict[str, Any]] = []
        if system_instruction:
            messages.append({"role": "system", "content": system_instruction})
        if isinstance(message_history, MessageHistory):
            message_history = message_history.messages
        history = list(message_history or [])
        if isinstance(input, str):
            turns = [*history, {"role": "user", "content": input}]
        else:
            turns = list(input)
        messages += [{"role": m["role"], "content": m["content"]} for m in turns]
        schema = None
        if isinstance(response_format, type) and issubclass(response_format, BaseModel):
            schema = {
                "name": response_format.__name__,
                "strict": True,
                "schema": response_format.model_json_schema(),
            }
        reply = self._chat.complete(
            messages, max_tokens=CYPHER_MAX_TOKENS, json_schema=schema, temperature=0.0
        )
        return LLMResponse(content=reply.content)

    async def ainvoke(
        self,
        input: str | list[LLMMessage],
        message_history: list[LLMMessage] | MessageHistory | None = None,
        system_instruction: str | None = None,
        response_format: type[BaseModel] | dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> LLMResponse:
        # Our chat models are synchronous; a worker thread keeps the event loop free.
        return await asyncio.to_thread(
            self.invoke, input, message_history, system_instruction, response_format
        )


class GuardedText2Cypher(Text2CypherRetriever):
    """``Text2CypherRetriever`` whose generated query runs through the adapter's read-only
    guard (EXPLAIN, query type ``r``, no LOAD CSV, READ transaction, timeout, row cap) rather
    than the library's plain read: the guard refuses file access as well as writes, and caps
    what an ad-hoc query may cost."""

    # The version check is for vector-index retrievers; text2cypher needs none, and skipping
    # it saves a round trip per question.
    VERIFY_NEO4J_VERSION = False

    def __init__(
        self,
        driver: neo4j.Driver,
        llm: LLMBase,
        schema: str,
        examples: Sequence[str],
        database: str,
        run: ReadOnlyRun,
    ) -> None:
        super().__init__(
            driver=driver,
            llm=llm,
            neo4j_schema=schema,
            examples=list(examples),
            result_formatter=_row_item,
            neo4j_database=database,
        )
        self._run = run

    def get_search_results(
        self, query_text: str, prompt_params: dict[str, Any] | None = None
    ) -> RawSearchResult:
        prompt = Text2CypherTemplate(template=self.custom_prompt).format(
            schema=self.neo4j_schema,
            examples="\n".join(self.examples or ()),
            query_text=query_text,
            **(prompt_params or {}),
        )
        query = extract_cypher(self.llm.invoke(prompt).content).strip().rstrip(";").strip()
        if not query:
            raise InputError("question", "the model wrote no Cypher query for it")
        rows = self._run(query)
        record: Any = neo4j.Record  # untyped in the driver
        return RawSearchResult(records=[record(r) for r in rows], metadata={"cypher": query})


def _row_item(record: neo4j.Record) -> RetrieverResultItem:
    row = record.data()
    return RetrieverResultItem(content=str(row), metadata={"row": row})


def text2cypher(
    driver: neo4j.Driver,
    database: str,
    question: str,
    llm: ChatModel,
    schema: str,
    examples: Sequence[str],
    run: ReadOnlyRun,
) -> CypherAnswer:
    """The question answered by neo4j-graphrag's text2cypher, guarded by ``run``."""
    retriever = GuardedText2Cypher(driver, ChatModelLLM(llm), schema, examples, database, run)
    result = retriever.search(query_text=question)
    rows = [dict((item.metadata or {}).get("row", {})) for item in result.items]
    query = str((result.metadata or {}).get("cypher", ""))
    return CypherAnswer(question=question, cypher=query, rows=rows, dialect="neo4j")


def vector_retriever(driver: neo4j.Driver, database: str) -> VectorCypherRetriever:
    """neo4j-graphrag's vector retriever over the chunk index, each chunk expanded to its
    document by ``cypher/neo4j/retrieval_query_chunk.cypher``; asked with our own question
    vector (no embedder). Reads the index definition when built."""
    return VectorCypherRetriever(
        driver,
        index_name=CHUNK_VECTOR_INDEX,
        retrieval_query=cypher.load("neo4j", "retrieval_query_chunk"),
        neo4j_database=database,
    )


def vector_details(
    retriever: VectorCypherRetriever, vector: Sequence[float], k: int
) -> list[tuple[float, ChunkDetail]]:
    """The ``k`` chunks nearest ``vector``, best first: each hit's cosine by the index and
    its details (the retrieval query's columns, as ``read_chunk_details`` reads them)."""
    raw = retriever.get_search_results(query_vector=[float(x) for x in vector], top_k=max(1, k))
    return [
        (
            cosine_from_score(r["score"]),
            ChunkDetail(
                r["chunk_id"],
                r["doc_id"],
                r["doc_title"] or "",
                r["text"] or "",
                int(r["idx"] or 0),
                int(r["tokens"] or 0),
                cosine_from_score(r["similarity"]) if r["similarity"] is not None else 0.0,
                float(r["authority"] or 0.0),
                r["source"],
                r["doc_type"],
                r["date"],
            ),
        )
        for r in raw.records
    ]
