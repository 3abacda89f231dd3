"""Schema-guided LLM extraction on top of the rule extractor.

Each chunk is sent to the LLM with a versioned prompt (extraction/prompts/<version>.md) asking
for entities (name, type, description, aliases) and typed relations, within a JSON schema
built from the configured types (the server constrains the reply to it; pydantic parses it).
The answer is then held to the passage and to the schema's directions: any name the passage
does not contain is rejected, which keeps prompt-injected or invented content out of the
graph, and so is a relation whose source or target type the relation type does not allow
("an organisation WORKS_FOR ..."). A failed request, a cut-off or unreadable reply leaves the
chunk with its rule-based facts, counted in the ingest report; there is no repair round.
Valid answers are cached on disk by (chunk hash, prompt version, model, schema). Every call is
written to the extraction journal. Retries are the client's (``llm``); chunks go one at a
time by default, as a one-slot local server serves them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from string import Template
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from core.errors import ConfigError, LlmError
from core.names import content_hash, normalize_name
from extraction.config import ExtractionSettings
from extraction.facts import AliasFact, ChunkFacts, DocFacts, ExtractionStats, RelationFact
from extraction.llm_cache import LlmCache, cache_key
from extraction.spacy_rules import SpacyRuleExtractor
from graph_schema.models import RELATION_TYPE_PATTERN
from llm import LlmClient, ask_json
from llm.journal import Journal

log = logging.getLogger(__name__)

ALIAS_CONFIDENCE = 0.8  # an alias the LLM read in the passage: below the rules' explicit cues


# --- the answer's shape -----------------------------------------------------------
class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


class LlmEntity(_Answer):
    name: str = Field(min_length=1, max_length=200)
    type: str = Field(min_length=1, max_length=50)
    description: str = Field(default="", max_length=1000)
    aliases: list[str] = Field(default_factory=list, max_length=20)


class LlmRelation(_Answer):
    source: str = Field(min_length=1, max_length=200)
    type: str = Field(min_length=1, max_length=50)
    target: str = Field(min_length=1, max_length=200)


class LlmExtraction(_Answer):
    entities: list[LlmEntity] = Field(default_factory=list)
    relations: list[LlmRelation] = Field(default_factory=list)


def reply_model(entity_types: Sequence[str], relation_types: Sequence[str]) -> type[BaseModel]:
    """The schema the server constrains a reply to: configured types as enums, bounded lists
    and strings (a small model that loops stops at the grammar, not at the token cap)."""
    etype: Any = Literal[tuple(entity_types)]
    rtype: Any = Literal[tuple(relation_types)]
    entity = create_model(
        "Entity",
        name=(str, Field(min_length=1, max_length=100)),
        type=(etype, ...),
        description=(str, Field(default="", max_length=200)),
        aliases=(list[Annotated[str, Field(max_length=100)]], Field(default=[], max_length=4)),
    )
    relation = create_model(
        "Relation",
        source=(str, Field(min_length=1, max_length=100)),
        type=(rtype, ...),
        target=(str, Field(min_length=1, max_length=100)),
    )
    model: type[BaseModel] = create_model(
        "Extraction",
        entities=(list[entity], Field(max_length=15)),  # type: ignore[valid-type]
        relations=(list[relation], Field(max_length=15)),  # type: ignore[valid-type]
    )
    return model


@dataclass(frozen=True)
class _Prompt:
    version: str
    system: str
    user: str


def load_prompt(version: str) -> _Prompt:
    try:
        text = (resources.files("extraction") / "prompts" / f"{version}.md").read_text("utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise ConfigError(f"no extraction prompt {version!r} in extraction/prompts") from exc
    _, _, rest = text.partition("## system\n")
    system, _, user = rest.partition("## user\n")
    if not system.strip() or not user.strip():
        raise ConfigError(f"prompt {version!r} needs '## system' and '## user' sections")
    return _Prompt(version, system.strip(), user.strip())


class LlmExtractor:
    """Rules first, then the LLM's facts merged on top, chunk by chunk."""

    def __init__(
        self,
        rules: SpacyRuleExtractor,
        client: LlmClient,
        cache: LlmCache,
        settings: ExtractionSettings,
        journal: Journal | None = None,
    ) -> None:
        self._journal = journal
        self._rules = rules
        self._client = client
        self._cache = cache
        self._cfg = settings
        self._prompt: _Prompt | None = None
        self._lock = threading.Lock()
        self._stats = ExtractionStats()
        self._entity_types = frozenset(settings.entity_types)
        self._relation_types = frozenset(settings.relation_types)
        self._reply = reply_model(settings.entity_types, settings.relation_types)
        schema = json.dumps(
            [
                sorted(self._entity_types),
                sorted(self._relation_types),
                sorted((k, sorted(v)) for k, v in settings.relation_sources.items()),
                sorted((k, sorted(v)) for k, v in settings.relation_targets.items()),
            ]
        )
        self._schema = hashlib.sha256(schema.encode()).hexdigest()[:16]

    @property
    def version(self) -> str:
        return f"{self._rules.version}+llm:{self._cfg.prompt_version}:{self._client.model}"

    def usage(self) -> ExtractionStats:
        with self._lock:
            return self._stats

    def _count(self, **delta: int) -> None:
        with self._lock:
            now = self._stats
            self._stats = ExtractionStats(
                *(getattr(now, f) + delta.get(f, 0) for f in ExtractionStats.__dataclass_fields__)
            )

    def extract_many(self, docs: Sequence[tuple[str, Sequence[str]]]) -> list[DocFacts]:
        base = self._rules.extract_many(docs)
        jobs = [(title, text) for title, chunks in docs for text in chunks]
        with ThreadPoolExecutor(max_workers=self._cfg.llm_concurrency) as pool:
            answers = list(pool.map(lambda job: self._answer(*job), jobs))
        it = iter(answers)
        for facts, (_, chunks) in zip(base, docs, strict=True):
            llm = DocFacts(facts.title_key, {}, {}, [], [ChunkFacts() for _ in chunks])
            for chunk, text in zip(llm.chunks, chunks, strict=True):
                answer = next(it)
                if answer is not None:
                    self._add(llm, chunk, answer, text)
            facts.merge(llm)
        return base

    # --- one chunk ------------------------------------------------------------
    def _answer(self, title: str, text: str) -> LlmExtraction | None:
        prompt = self._load()
        key = cache_key(content_hash(text), prompt.version, self._client.model, self._schema)
        cached = self._cache.get(key)
        if cached is not None:
            try:
                answer = LlmExtraction.model_validate(cached)
            except ValidationError:
                answer = None
            if answer is not None:
                self._count(cached=1)
                return answer
        messages = self._messages(prompt, title, text)
        self._count(chunks=1)
        answer = self._ask(messages)
        if answer is None:
            self._count(failed_chunks=1)
            return None
        self._cache.put(key, answer.model_dump(mode="json"))
        return answer

    def _load(self) -> _Prompt:
        with self._lock:
            if self._prompt is None:
                self._prompt = load_prompt(self._cfg.prompt_version)
            return self._prompt

    def _messages(self, prompt: _Prompt, title: str, text: str) -> list[dict[str, Any]]:
        values = {
            "entity_types": ", ".join(self._cfg.entity_types),
            "relation_types": ", ".join(self._cfg.relation_types),
            # The passage cannot close its own delimiter.
            "title": title.replace("<", "‹"),
            "text": text.replace("</passage", "‹/passage"),
        }
        return [
            {"role": "system", "content": Template(prompt.system).safe_substitute(values)},
            {"role": "user", "content": Template(prompt.user).safe_substitute(values)},
        ]

    def _ask(self, messages: list[dict[str, Any]]) -> LlmExtraction | None:
        """One schema-constrained request (the client retries transport failures)."""
        prompt = self._cfg.prompt_version
        if self._journal is not None:
            self._journal.write("llm_request", step="extract", prompt=prompt, messages=messages)

        def attempt(n: int) -> None:
            if n > 1:
                self._count(retries=1)
                if self._journal is not None:
                    self._journal.write("llm_retry", step="extract", attempt=n)

        try:
            answer, reply = ask_json(
                self._client,
                messages,
                self._reply,
                max_tokens=self._cfg.llm_max_tokens,
                temperature=0.0,
                on_attempt=attempt,
            )
        except LlmError as exc:
            self._count(requests=exc.attempts, tokens_in=exc.tokens[0], tokens_out=exc.tokens[1])
            log.warning("llm extraction: %s; the chunk keeps its rule facts", exc)
            if self._journal is not None:
                self._journal.write(
                    "llm_error",
                    step="extract",
                    kind=type(exc).__name__,
                    error=str(exc),
                    attempts=exc.attempts,
                    prompt_tokens=exc.tokens[0],
                    completion_tokens=exc.tokens[1],
                )
            return None
        self._count(
            requests=reply.attempts,
            tokens_in=reply.usage.prompt_tokens,
            tokens_out=reply.usage.completion_tokens,
        )
        if self._journal is not None:
            self._journal.write("llm_response", step="extract", **reply.audit_fields())
        return LlmExtraction.model_validate(answer.model_dump())

    def _direction_ok(self, rtype: str, source: str | None, target: str | None) -> bool:
        """Whether the configured source and target types of ``rtype`` admit these types (a
        relation type without a table entry admits any)."""
        return _allowed(self._cfg.relation_sources, rtype, source) and _allowed(
            self._cfg.relation_targets, rtype, target
        )

    # --- answer -> facts ----------------------------------------------------------
    def _add(self, facts: DocFacts, chunk: ChunkFacts, answer: LlmExtraction, text: str) -> None:
        """Keep what is inside the schema and written in the passage; drop the rest."""
        passage = f" {normalize_name(text)} "
        limit = self._cfg.llm_max_items
        names: dict[str, str] = {}  # any accepted name or alias key -> entity key
        rejected = 0
        for e in answer.entities[:limit]:
            key = normalize_name(e.name)
            if e.type not in self._entity_types or not _written(key, passage):
                rejected += 1
                continue
            names[key] = key
            facts.surfaces.setdefault(key, e.name)
            facts.types.setdefault(key, e.type)
            if e.description:
                facts.descriptions.setdefault(key, e.description)
            chunk.mentions[key] = max(chunk.mentions[key], passage.count(f" {key} "))
            for alias in e.aliases:
                akey = normalize_name(alias)
                # An alias is a name: "the trust" must not become every trust's alias.
                proper = any(c.isupper() for c in alias)
                if proper and akey and akey != key and _written(akey, passage):
                    names.setdefault(akey, key)
                    facts.aliases.append(AliasFact(alias, key, "llm", ALIAS_CONFIDENCE))
        for r in answer.relations[:limit]:
            src, dst = names.get(normalize_name(r.source)), names.get(normalize_name(r.target))
            if (
                r.type not in self._relation_types
                or not RELATION_TYPE_PATTERN.match(r.type)
                or src is None
                or dst is None
                or src == dst
                or not self._direction_ok(r.type, facts.types.get(src), facts.types.get(dst))
            ):
                rejected += 1
                continue
            chunk.relations.append(RelationFact(src, r.type, dst, 1.0, self.version))
        rejected += max(0, len(answer.entities) - limit) + max(0, len(answer.relations) - limit)
        if rejected:
            log.warning(
                "llm extraction: dropped %d item(s) outside the schema, the passage or the limit",
                rejected,
            )


def _allowed(table: dict[str, list[str]], rtype: str, etype: str | None) -> bool:
    allowed = table.get(rtype)
    return not allowed or etype is None or etype in allowed


def _written(key: str, passage: str) -> bool:
    return bool(key) and f" {key} " in passage
