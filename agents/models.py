"""Typed records passed between the loop's steps and returned to callers (CLI, API)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agents.config import Complexity

Tag = Literal["PRIMARY", "STRATEGIC", "GENERAL"]
FindingKind = Literal["FACT", "INFERENCE", "ASSUMPTION"]
Level = Literal["HIGH", "MEDIUM", "LOW"]
Origin = Literal["question", "planner", "neighbour", "gap", "hop"]
GapCategory = Literal["coverage", "source_dominance", "recency", "subtask", "missing_fact"]
Severity = Literal["high", "medium", "low"]
LEVELS: tuple[Level, ...] = ("LOW", "MEDIUM", "HIGH")


class LinkedEntity(BaseModel):
    entity_id: str
    name: str
    score: float
    method: Literal["alias", "embedding", "retrieval"]
    matched: str = ""  # the question's words an alias link matched ("" for other links)


class Neighbour(BaseModel):
    entity_id: str
    name: str
    hops: int
    strength: float
    authority: float
    path: list[str]


class QueryContext(BaseModel):
    """What the loop knows about the question before it plans."""

    run_id: str
    question: str
    linked: list[LinkedEntity] = Field(default_factory=list)
    # Strongest graph neighbours of the linked entities, by authority reached through relations.
    neighbours: list[Neighbour] = Field(default_factory=list)
    complexity: Complexity = "simple"
    iteration_budget: int = 1
    mode: Literal["llm", "offline"] = "offline"


class SubTask(BaseModel):
    id: str
    description: str
    query: str
    origin: Origin = "planner"
    focus_entity_id: str | None = None
    focus_name: str | None = None
    # A gap query may look only at documents dated from here (ISO prefix), as a recency gap
    # asks; the run's own filters still apply.
    date_from: str | None = None


class SubTaskPlan(BaseModel):
    complexity: Complexity
    subtasks: list[SubTask]
    source: Literal["llm", "offline"]
    warnings: list[str] = Field(default_factory=list)


class EvidenceItem(BaseModel):
    chunk_id: str
    doc_id: str
    doc_title: str
    text: str
    score: float  # final evidence score (fused over every list it appeared in, tag-boosted)
    tag: Tag = "GENERAL"
    distance: int | None = None  # RELATED hops from the question's entities, None if unreached
    authority: float = 0.0
    authority_entity: str | None = None
    subtask_ids: list[str] = Field(default_factory=list)
    first_iteration: int = 1
    retrieval: dict[str, float] = Field(default_factory=dict)  # best score per sub-task
    path: list[str] = Field(default_factory=list)
    # The document's metadata (``Date:`` / ``Type:`` lines) and its subject organisation (the
    # entity its title or source names), so readers can weigh recency and whose view it is.
    doc_date: str = ""
    doc_type: str = ""
    subject: str = ""
    tokens: int = 0

    def cite(self) -> str:
        return f"[{self.chunk_id}]"


class EvidenceBundle(BaseModel):
    items: list[EvidenceItem] = Field(default_factory=list)  # best first

    def ids(self) -> list[str]:
        return [i.chunk_id for i in self.items]

    def by_id(self) -> dict[str, EvidenceItem]:
        return {i.chunk_id: i for i in self.items}

    def top(self, n: int) -> EvidenceBundle:
        return EvidenceBundle(items=self.items[:n])

    def documents(self) -> set[str]:
        return {i.doc_id for i in self.items}


class Gap(BaseModel):
    """Something the evidence lacks, and the query that would close it."""

    category: GapCategory
    severity: Severity
    description: str
    query: str = ""


class IterationRound(BaseModel):
    """One evidence round as the report's iteration log shows it."""

    iteration: int
    queries: list[str] = Field(default_factory=list)
    retrieved: int = 0
    new_evidence: int = 0
    failed: list[str] = Field(default_factory=list)  # "query: error" of failed sub-queries
    stop_reason: str = ""


class Critique(BaseModel):
    iteration: int
    entity_coverage: float
    subtask_coverage: float
    documents: int
    new_share: float
    converged: bool
    covered: bool
    gaps: list[str] = Field(default_factory=list)  # entity names without evidence yet
    # names the evidence gives in the question's role whose own pages it lacks (role_gaps.py)
    role_pages: list[str] = Field(default_factory=list)
    typed_gaps: list[Gap] = Field(default_factory=list)
    new_subtasks: list[SubTask] = Field(default_factory=list)
    stop: bool = False
    reason: str = ""


class Citation(BaseModel):
    chunk_id: str
    document_title: str


class Finding(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str
    kind: FindingKind = "FACT"
    citations: list[str] = Field(default_factory=list)


class ToolRecord(BaseModel):
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None


class VerifierReport(BaseModel):
    passed: bool
    unknown_citations: list[str] = Field(default_factory=list)
    unsupported_quotes: list[str] = Field(default_factory=list)
    # "the answer cites no evidence chunk", or the start of each finding that cites none.
    uncited: list[str] = Field(default_factory=list)
    llm_problems: list[str] = Field(default_factory=list)
    llm_checked: bool = False
    # The answer is citations and evidence labels only: small models copy the evidence
    # block's "[id] (PRIMARY; title)" header into the answer and put the content in findings.
    states_nothing: bool = False
    # Numbers the answer states that no evidence chunk and no tool result holds, as written.
    unmatched_numbers: list[str] = Field(default_factory=list)

    def problems(self) -> list[str]:
        out = [f"cited chunk {c} is not in the evidence" for c in self.unknown_citations]
        if self.states_nothing:
            out.append("the answer states nothing but citations: write the answer in words")
        out += [f"quoted text not found in its cited chunk: {q!r}" for q in self.unsupported_quotes]
        out += [
            u if u.startswith("the answer") else f"finding cites nothing: {u!r}"
            for u in self.uncited
        ]
        out += [
            f"number not found in the evidence or a tool result: {n!r}"
            for n in self.unmatched_numbers
        ]
        out += self.llm_problems
        return out


class AgenticResult(BaseModel):
    run_id: str
    question: str
    answer: str
    findings: list[Finding] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    used_chunk_ids: list[str] = Field(default_factory=list)
    confidence: Level = "LOW"
    reason: str = ""
    warnings: list[str] = Field(default_factory=list)
    iterations: int = 0
    complexity: Complexity = "simple"
    # "llm-failed": an LLM was configured but its step failed; the answer is extractive.
    mode: Literal["llm", "llm-failed", "offline"] = "offline"
    # Set when the answer is extractive: says that no LLM was configured, or that it failed.
    note: str = ""
    model: str | None = None
    plan: SubTaskPlan | None = None
    critiques: list[Critique] = Field(default_factory=list)
    tool_calls: list[ToolRecord] = Field(default_factory=list)
    verifier: VerifierReport | None = None
    tokens: dict[str, int] = Field(default_factory=dict)  # per step, prompt + completion
    audit_log: str = ""
    gaps: list[Gap] = Field(default_factory=list)
    rounds: list[IterationRound] = Field(default_factory=list)
    recommendations: list[str] = Field(default_factory=list)
    # The analyst's report (agents.report.Report), built last.
    report: dict[str, Any] = Field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """The fields ``kg ask --json`` and the API promise."""
        return {
            "run_id": self.run_id,
            "answer": self.answer,
            "citations": [c.model_dump() for c in self.citations],
            "confidence": self.confidence,
            "reason": self.reason,
            "warnings": self.warnings,
            "iterations": self.iterations,
            "complexity": self.complexity,
            "mode": self.mode,
            "note": self.note,
            "model": self.model,
            "findings": [f.model_dump() for f in self.findings],
            "tool_calls": [t.model_dump() for t in self.tool_calls],
            "tokens": self.tokens,
            "audit_log": self.audit_log,
            "report": self.report,
            "used_chunk_ids": self.used_chunk_ids,
            "plan": self.plan.model_dump(mode="json") if self.plan else None,
            "critiques": [c.model_dump(mode="json") for c in self.critiques],
            "verifier": self.verifier.model_dump(mode="json") if self.verifier else None,
        }
