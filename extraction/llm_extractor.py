"""Schema-guided LLM extraction on top of the rule extractor.

Each chunk is sent to the LLM with a versioned prompt (extraction/prompts/<version>.md) asking
for entities (name, type, description, aliases) and typed relations as one JSON object. The
answer is validated by pydantic and then held to the configured schema and to the passage:
entity types and relation types outside the configured lists are rejected, and so is any name
the passage does not contain, which keeps prompt-injected or invented content out of the graph.
A malformed answer gets one repair request; if that fails too the chunk keeps its rule-based
facts only, with a warning. Valid answers are cached on disk by (chunk hash, prompt version,
model, schema). Chunks are sent by a bounded thread pool; rate-limit retries with backoff are
the client's job (agents/llm.py), whose errors arrive here as ``KgError``.
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
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import ConfigError, KgError
from core.names import content_hash, normalize_name
from extraction.config import ExtractionSettings
from extraction.facts import AliasFact, ChunkFacts, DocFacts, ExtractionStats, RelationFact
from extraction.llm_cache import LlmCache, cache_key
from extraction.spacy_rules import SpacyRuleExtractor
from graph_schema.models import RELATION_TYPE_PATTERN

log = logging.getLogger(__name__)

ALIAS_CONFIDENCE = 0.8  # an alias the LLM read in the passage: below the rules' explicit cues


# --- the client, structurally (extraction never imports agents) ----------------
class _Usage(Protocol):
    @property
    def prompt_tokens(self) -> int: ...

    @property
    def completion_tokens(self) -> int: ...


class _Reply(Protocol):
    @property
    def content(self) -> str | None: ...

    @property
    def usage(self) -> _Usage: ...


class ChatClient(Protocol):
    @property
    def model(self) -> str: ...

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        json_mode: bool = False,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> _Reply: ...


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
        client: ChatClient,
        cache: LlmCache,
        settings: ExtractionSettings,
    ) -> None:
        self._rules = rules
        self._client = client
        self._cache = cache
        self._cfg = settings
        self._prompt: _Prompt | None = None
        self._lock = threading.Lock()
        self._stats = ExtractionStats()
        self._entity_types = frozenset(settings.entity_types)
        self._relation_types = frozenset(settings.relation_types)
        schema = json.dumps([sorted(self._entity_types), sorted(self._relation_types)])
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
        """One request and, for an unreadable answer, one repair request."""
        for attempt in range(2):
            try:
                reply = self._client.chat(
                    messages, json_mode=True, temperature=0.0, max_tokens=self._cfg.llm_max_tokens
                )
            except KgError as exc:
                log.warning("llm extraction: request failed, chunk keeps rule facts: %s", exc)
                self._count(requests=1)
                return None
            self._count(
                requests=1,
                tokens_in=reply.usage.prompt_tokens,
                tokens_out=reply.usage.completion_tokens,
            )
            content = reply.content or ""
            try:
                return LlmExtraction.model_validate(json.loads(_strip_fence(content)))
            except (ValueError, ValidationError) as exc:
                problem = str(exc).splitlines()[0][:300]
                if attempt == 0:
                    messages = [
                        *messages,
                        {"role": "assistant", "content": content[:4000]},
                        {
                            "role": "user",
                            "content": f"That reply was not valid ({problem}). Reply with only "
                            "the corrected JSON object of the required shape.",
                        },
                    ]
                    continue
                log.warning("llm extraction: malformed answer after repair, rejected: %s", problem)
        return None

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


def _written(key: str, passage: str) -> bool:
    return bool(key) and f" {key} " in passage


def _strip_fence(content: str) -> str:
    """Models sometimes wrap JSON in a Markdown code fence despite json mode."""
    text = content.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text
