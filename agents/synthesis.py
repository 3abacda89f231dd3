"""Synthesis with an LLM: cited answer, tagged findings, confidence; numeric tools on demand.

The model sees the evidence (id, tag, title, text) and the closest few-shot examples, and
replies within the JSON schema of ``SynthesisDraft`` (grammar-constrained by the server): the
tool calls it needs, named with their arguments, then the answer. Local models served by
llama.cpp write native tool calls as text, so the calls travel in the schema instead. When it
asked for tools, they run through the run's ``ToolBox`` (recorded), their results go back as a
user message, and the model may ask for more, up to ``max_tool_rounds`` rounds; the answer
after the last allowed round comes within ``SynthesisReply``'s schema, which has no tools.
``refine`` continues the same conversation with the verifier's problems as a user message (no
``system`` message mid-conversation: some chat templates refuse it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agents.calls import LLMCaller
from agents.models import EvidenceBundle, Finding, FindingKind, Level, ToolRecord
from agents.prompt_files import load
from agents.tools import ToolBox, ToolRequest
from agents.verifier import CITATION, evidence_block
from core.errors import LlmBadReply

OnTool = Callable[[ToolRecord], None]


class CitedFinding(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = Field(min_length=1, max_length=250)
    kind: FindingKind
    citations: list[str] = Field(max_length=3)


class SynthesisReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Bounded so that a looping small model stops at the grammar, not at the token cap: the
    # whole reply stays under about 2,300 characters (~650 tokens) against the 1,000-token
    # cap. With 2,500 characters of answer and 8 findings of 400, the 0.5B model ran into
    # the cap on the demo question.
    answer: str = Field(min_length=1, max_length=1000)
    findings: list[CitedFinding] = Field(max_length=4)
    confidence: Level
    reason: str = Field(max_length=200)
    # Questions an analyst should ask next (what the evidence could not settle).
    next_questions: list[str] = Field(default_factory=list, max_length=3)

    def finding_models(self) -> list[Finding]:
        return [
            Finding(text=f.text, kind=f.kind, citations=[_chunk_id(c) for c in f.citations])
            for f in self.findings
        ]


class SynthesisDraft(SynthesisReply):
    # Listed first in the schema, so the model decides on tools before it writes the answer.
    tool_calls: list[ToolRequest] = Field(max_length=3)


# The draft's properties in generation order: tool calls, then the answer.
_ORDER = ["tool_calls", "answer", "findings", "confidence", "reason", "next_questions"]


class LLMSynthesis:
    def __init__(
        self,
        caller: LLMCaller,
        tools: ToolBox,
        max_tool_rounds: int,
        on_tool: OnTool | None = None,
    ) -> None:
        self._caller = caller
        self._tools = tools
        self._max_tool_rounds = max_tool_rounds
        self._on_tool = on_tool
        self._messages: list[dict[str, Any]] = []
        self._prompt = load("synthesis")

    def answer(
        self, question: str, evidence: EvidenceBundle, examples: str, gaps: str = ""
    ) -> SynthesisReply:
        """``gaps``: the open gaps of the evidence (``agents.gaps.gaps_note``), shown after it."""
        self._messages = self._prompt.messages(
            question=question, evidence=evidence_block(evidence) + gaps, examples=examples
        )
        ref = self._prompt.ref
        if self._max_tool_rounds <= 0:
            return self._final("synthesis", ref)
        rounds = 0
        while True:
            draft, reply = self._caller.json("synthesis", ref, self._messages, _Draft)
            self._messages.append({"role": "assistant", "content": reply.content})
            if not draft.tool_calls:
                return SynthesisReply.model_validate(draft.model_dump(exclude={"tool_calls"}))
            rounds += 1
            last = rounds >= self._max_tool_rounds
            self._run_tools(draft.tool_calls, last)
            if last:
                # The limit is reached: the answer is asked for in a schema with no tools.
                return self._final("synthesis", ref)

    def _run_tools(self, calls: list[ToolRequest], last: bool) -> None:
        results = []
        for call in calls:
            record = self._tools.run(call)
            if self._on_tool is not None:
                self._on_tool(record)
            body = {"error": record.error} if record.error else record.result
            results.append(f"{record.name}({json.dumps(record.arguments)}) -> {json.dumps(body)}")
        then = (
            "\nWrite the final answer with these results, citing the evidence chunks."
            if last
            else "\nCall more tools only if the answer still needs them; otherwise write the "
            "final answer with these results, citing the evidence chunks."
        )
        self._messages.append(
            {"role": "user", "content": "Tool results:\n" + "\n".join(results) + then}
        )

    def refine(self, problems: list[str]) -> SynthesisReply:
        prompt = load("refine")
        text = (
            prompt.system_text()
            + "\n\n"
            + prompt.user_message(problems="\n".join(f"- {p}" for p in problems))["content"]
        )
        self._messages.append({"role": "user", "content": text})
        value = self._final("refine", f"{self._prompt.ref}+{prompt.ref}")
        if echoes(value.answer, text):
            # Small models answer a correction request by repeating it ("The answer states
            # nothing but citations: write the answer in words"): no answer at all.
            raise LlmBadReply("the refined answer repeats the checker's request")
        # ... or put the request in a finding, which would become the answer if the answer
        # itself says nothing.
        kept = [f for f in value.findings if not echoes(f.text, text)]
        return value.model_copy(update={"findings": kept})

    def _final(self, step: str, ref: str) -> SynthesisReply:
        value, reply = self._caller.json(step, ref, self._messages, SynthesisReply)
        self._messages.append({"role": "assistant", "content": reply.content})
        return value


_ECHO_WORDS = 4  # word n-grams compared
_ECHO_SHARE = 0.5  # share of the answer's n-grams found in the request
_WORDS = re.compile(r"\w+")


def echoes(answer: str, request: str) -> bool:
    """Whether ``answer`` is mostly the words of ``request``, in its order: half or more of
    its four-word runs (citations and punctuation aside: the model drops the request's
    commas) occur in the request."""
    said = _WORDS.findall(re.sub(r"\[[^\]]*\]", " ", answer).lower())
    asked = " " + " ".join(_WORDS.findall(request.lower())) + " "
    runs = [" ".join(said[i : i + _ECHO_WORDS]) for i in range(len(said) - _ECHO_WORDS + 1)]
    if not runs:
        return False
    return sum(f" {r} " in asked for r in runs) / len(runs) >= _ECHO_SHARE


def _chunk_id(cited: str) -> str:
    """The id in a citation written as "[id]" or "[id] (tag; title)": the form the evidence
    block shows, which small models copy whole. Anything else stays as written, so the
    verifier still reports it."""
    found = CITATION.search(cited)
    return found.group(1) if found else cited.strip()


class _Draft(SynthesisDraft):
    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        schema = super().model_json_schema(*args, **kwargs)
        props = schema["properties"]
        schema["properties"] = {k: props[k] for k in _ORDER if k in props}
        return schema
