"""Agent-loop settings (``KG_AGENT__*``); every limit the loop uses is named here.

Each default says why it has its value. None of them names a word, an entity or a domain
threshold: thresholds a tool compares against come from the corpus, never from here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, model_validator

from llm.config import LlmSettings
from reader.settings import ReaderSettings

Complexity = Literal["simple", "moderate", "complex"]


# Named presets (``KG_PROFILE`` or ``KG_AGENT__PROFILE``): each sets the budgets below; any
# KG_AGENT__* given explicitly still wins. ``balanced`` is the defaults as measured on the shared
# sets; ``fast`` is one retrieval round over a smaller pool (a lookup); ``thorough`` gives gap
# queries room (more rounds, a larger pool and evidence budget) for analysts' reports.
PROFILES: dict[str, dict[str, Any]] = {
    "fast": {
        "max_iterations": 1,
        "k_per_query": 4,
        "max_evidence": 8,
        "evidence_token_budget": 1_500,
        "max_gap_queries": 0,
        "neighbour_subtasks": 0,
        "refinement_passes": 0,
        "max_tool_rounds": 1,
    },
    "balanced": {},
    "thorough": {
        "max_iterations": 4,
        "iterations_simple": 2,
        "iterations_moderate": 3,
        "iterations_complex": 4,
        "k_per_query": 10,
        "max_evidence": 20,
        "evidence_token_budget": 5_000,
        "max_gap_queries": 5,
        "max_subtasks": 6,
        "max_tokens_total": 120_000,
    },
}


class AgentSettings(BaseModel):
    # One of PROFILES; empty is "balanced". Fills only the settings not given explicitly.
    profile: str = ""

    @model_validator(mode="before")
    @classmethod
    def _apply_profile(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not data.get("profile"):
            return data
        name = str(data["profile"]).strip().lower()
        if name not in PROFILES:
            raise ValueError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}")
        return {**PROFILES[name], **data, "profile": name}

    # --- budgets ------------------------------------------------------------
    # Hard cap on evidence rounds whatever the planner says. Three rounds reach an entity three
    # RELATED hops away (the graph's own expansion depth, graph_store.port.MAX_HOPS).
    max_iterations: int = Field(default=3, ge=1, le=10)
    # Rounds per complexity class: a definition is one lookup, a comparison needs a round per
    # side plus one to close gaps.
    iterations_simple: int = Field(default=1, ge=1, le=10)
    iterations_moderate: int = Field(default=2, ge=1, le=10)
    iterations_complex: int = Field(default=3, ge=1, le=10)
    # Rounds added (up to max_iterations) when the last round's evidence names who fills the
    # question's role but lacks their page (agents/role_gaps.py): "the director of X" names
    # one thing and is still two hops. 1 answered 2 more of the 30 2Wiki-style dev questions
    # (session 22).
    role_extra_rounds: int = Field(default=1, ge=0, le=3)
    # Offline complexity from the number of distinct entities the question links to: one entity
    # is a lookup, two a relation between them, three or more a comparison.
    moderate_min_entities: int = Field(default=2, ge=1)
    complex_min_entities: int = Field(default=3, ge=1)
    # LLM tokens for the whole run (prompt + completion, as reported by the server). Sized for
    # three rounds of ~4k-token evidence prompts plus synthesis and verification.
    max_tokens_total: int = Field(default=60_000, ge=1_000)
    # Completion cap of synthesis; an answer with citations for a handful of findings fits in
    # 1k. Small steps get their own caps: at 6-12 tokens/s written on CPU every token counts,
    # and a cap is what stops a small model that loops.
    max_completion_tokens: int = Field(default=1_000, ge=64)
    planner_max_tokens: int = Field(default=300, ge=32)
    verifier_max_tokens: int = Field(default=300, ge=32)
    # Tool calls the synthesis step may make before it must answer.
    max_tool_rounds: int = Field(default=4, ge=0, le=20)

    # --- planning -----------------------------------------------------------
    max_subtasks: int = Field(default=4, ge=1, le=12)
    # Entities a question links to at most; more dilutes the personalisation of the expansion.
    max_linked_entities: int = Field(default=5, ge=1, le=50)
    # Used only when no alias of the graph occurs in the question: the nearest entity by name
    # embedding (MiniLM cosine) is linked if at least this similar. Measured on demo/ questions:
    # the intended entity scored 0.59-0.94 as nearest, and unrelated names 0.24-0.45; 0.5 sits
    # between the two.
    link_min_similarity: float = Field(default=0.5, ge=0.0, le=1.0)
    # Neighbours (within max_hops) turned into sub-tasks by the offline planner, strongest first.
    neighbour_subtasks: int = Field(default=2, ge=0, le=10)
    # Neighbours kept as bridge candidates and shown to the LLM planner: enough for three
    # rounds of max_gap_queries, short enough for a planner prompt.
    context_neighbours: int = Field(default=10, ge=0, le=100)
    max_hops: int = Field(default=3, ge=1, le=3)

    # --- evidence -----------------------------------------------------------
    k_per_query: int = Field(default=6, ge=1, le=50)
    # Retrieval preset per sub-query; empty means the configured default (KG_RETRIEVAL__PRESET).
    preset: str = ""
    # Weight of a sub-query's ranking relative to the question's own when fusing (RRF): below 1
    # so expansion adds evidence without outvoting what the question itself retrieves.
    # Measured (50 MuSiQue questions, agent vs graph preset, R@2/R@5): 0.25 gave 0.497/0.615,
    # 0.5 gave 0.487/0.615; the graph preset alone 0.503/0.613.
    subquery_weight: float = Field(default=0.25, ge=0.0, le=1.0)
    rrf_k: int = Field(default=60, ge=1)
    # The reader's hop (``agents.reader_hop``): once the loop is done, a question that
    # describes its subject ("the town where Ann Lee was born") is unwound by the reader over
    # the evidence; when no sentence about the name found ("Elmford") answers the rest, the
    # rewritten question ("In what county is Elmford?") is retrieved as a sub-query, at most
    # this many of them (0: off). MuSiQue lead F1, dev / 51-100: 0.310 / 0.180 off, 0.317 /
    # 0.218 with 2; fused at the question's own weight instead of ``subquery_weight``, dev
    # fell to 0.290 (0.35 and 0.5: 0.303; 0.15: 0.317 / 0.198).
    reader_hop_queries: int = Field(default=2, ge=0, le=10)
    # STRATEGIC evidence: reached through the graph and mentioning an entity in this top share
    # by authority (global PageRank percentile x path strength). 0.25 = the top quarter; on
    # demo/ that admits the national plan (top 7% of entities, three stated hops from the trust)
    # and no date or place reached only by co-occurrence (strength 0.2).
    strategic_top_share: float = Field(default=0.25, ge=0.0, le=1.0)
    # Multiplicative score bonus for PRIMARY / STRATEGIC evidence in the final ranking. Off by
    # default: 1.2 / 1.1 lowered R@5 on 20 MuSiQue questions from 0.621 to 0.596 (likely as
    # gold second-hop passages seldom mention the question's own entity). The tags still choose the
    # STRATEGIC evidence synthesis must see and feed the confidence.
    primary_boost: float = Field(default=1.0, ge=1.0, le=5.0)
    strategic_boost: float = Field(default=1.0, ge=1.0, le=5.0)
    # Evidence passed to synthesis, best first; about 3k tokens of MiniLM-sized chunks.
    max_evidence: int = Field(default=12, ge=1, le=100)
    # Token budget of that evidence (``agents.budget``): documents ranked by their summed
    # relevance, their best chunks admitted while they fit, near-duplicates dropped (MMR),
    # strongest documents at both ends. 3,000 is max_evidence x ~250-token chunks, so the
    # budget only binds when chunks are long; 0 turns packing off (rank order, max_evidence).
    evidence_token_budget: int = Field(default=3_000, ge=0, le=100_000)
    # Chunks of one document admitted at most: three keeps one long document from filling the
    # budget (the demo's priorities papers are three chunks each, all kept).
    evidence_per_document: int = Field(default=3, ge=1, le=50)
    # Chunks of each sub-query admitted before the budget packs the rest (its best by its own
    # retrieval score): a sub-query's bridge ranks low in the fused pool. Off (0): on MuSiQue
    # dev the budget never bound (12 chunks of 800-1,100 tokens against 3,000; q29 and q35
    # admitted the same set with and without it), and the demo's analyst set scores the
    # same at 0 and 1 (key points 0.890, numbers 0.853 both).
    evidence_subtask_anchors: int = Field(default=0, ge=0, le=10)
    # MMR trade-off over the admitted chunks' embeddings (1 = relevance only). Two chunks
    # whose cosine is above near_duplicate are copies (a board paper quoting a plan word for
    # word): the later one is dropped. MiniLM cosines of distinct passages on one topic
    # measured 0.55-0.85 on demo/; verbatim repeats are above 0.95.
    near_duplicate: float = Field(default=0.95, ge=0.0, le=1.0)
    # Only chunks whose stored embeddings (title and text, as ingested) are at least this close
    # to another admitted chunk's have their texts embedded for the near_duplicate test: the
    # model's pass over every admitted chunk was a third of an offline ask's CPU. On the
    # admitted windows of 50 HotpotQA and 50 MuSiQue dev questions (5,635 pairs) the 4 pairs
    # of copies had stored cosines of 0.976 and more, and 27 pairs reached 0.85.
    near_duplicate_screen: float = Field(default=0.85, ge=0.0, le=1.0)
    # A question about one organisation is answered from its own documents first: a chunk
    # of a parallel document (the same kind of document about another subject, not
    # mentioning the question's entities) goes behind the first this many chunks of the
    # subject's own document of that kind (agents/evidence.py, subject_first). Three = one
    # short document; 0 turns it off.
    subject_first_chunks: int = Field(default=3, ge=0, le=20)
    # Neighbours expanded (planner sub-tasks, gap bridges) are ranked by
    # (1 - w) x authority + w x cosine(question's topic, entity name), the topic being the
    # question less its names (``agents.context.topic_text``): authority alone sent a
    # workforce and a digital question about one trust to the same neighbours; the whole
    # question's cosine sent MuSiQue dev questions to look-alikes of their subject ("Lake X"
    # for "Mount X") instead of the bridge (q29 and q35 of 1-50 lost their answer).
    neighbour_relevance_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    # Sentences of that evidence the LLM reads (the offline ranking's best, each chunk's first
    # beside them: ``agents.focus``); 0 for whole chunks. 12 cut the 0.5B model's synthesis
    # prompt by 30% (2,150 -> 1,510 tokens) but its answer recall on 20+20 benchmark
    # questions went 0.65 -> 0.50 (HotpotQA) and 0.30 -> 0.35 (MuSiQue): off by default.
    synthesis_sentences: int = Field(default=0, ge=0, le=200)
    # Which answerer reads the evidence when an LLM is configured: "synthesis" (the model
    # writes the cited answer with findings, confidence and tools, ``agents.synthesis_answer``),
    # "reader" (the question and the Reading's best sentences, numbered; the model names the
    # short answer and the sentences that support it, ``agents.reader``) or "report" (the
    # offline report, led by the reader's kind of short answer where the cited sentences hold
    # it, the model's next questions as recommendations, ``agents.report_answer``). "report"
    # is the default: on 16 analyst questions with the local 1.5B it kept the offline key
    # points (0.795), gold cited (0.923) and no confident unanswerable answer at 28.5 s a
    # question, where synthesis scored key points 0.00 on 3 questions at about 500 s each
    # (bench/results/analyst-llm-report.json; docs/benchmarks.md).
    llm_answerer: Literal["synthesis", "reader", "report"] = "report"
    # Sentences the reader numbers for the model, best first. Not tuned: ten made prompts of
    # 500-700 tokens on three HotpotQA dev questions (38-102 s a question with the shared 1.5B
    # server and a loaded machine); eight keeps it near 450.
    reader_sentences: int = Field(default=8, ge=1, le=40)
    # The reader's reply is a short answer and at most three sentence numbers.
    reader_max_tokens: int = Field(default=120, ge=16, le=1000)
    # Whether the report answerer keeps the model's short answer out of an offline report at
    # LOW confidence (True), or only out of one the documents do not answer or that is read
    # from passages about something else (False: the report stays LOW either way). Dev split,
    # 20 questions of each shared set with the local 1.5B (docs/benchmarks.md, session 19):
    # HotpotQA lead F1 0.500 with True, 0.600 with False (offline 0.483); MuSiQue 0.082 both.
    report_lead_needs_confidence: bool = False

    # --- critique / stopping ------------------------------------------------
    # Converged when less than this share of a round's evidence is new: another round would
    # mostly re-read what we have.
    convergence_min_new_share: float = Field(default=0.2, ge=0.0, le=1.0)
    # Covered when this share of the question's entities and sub-tasks has evidence.
    coverage_target: float = Field(default=1.0, ge=0.0, le=1.0)
    # Distinct source documents wanted before the answer counts as diverse.
    min_documents: int = Field(default=2, ge=1)
    # New sub-queries the critique may add per round (through bridge entities).
    max_gap_queries: int = Field(default=3, ge=0, le=10)

    # --- gaps (agents.gaps) ---------------------------------------------------
    # Coverage gap below this many distinct source documents in the synthesis evidence. Two is
    # the least that lets one source be checked against another (min_documents' reasoning).
    gap_min_sources: int = Field(default=2, ge=1)
    # Source-dominance gap when one document holds more than this share of the evidence: an
    # answer resting mostly on one paper repeats that paper's view ("more than half").
    gap_dominance_share: float = Field(default=0.5, ge=0.0, le=1.0)
    # Recency: a question about "the latest" / "the next 12 months" / "now" wants evidence no
    # older than this many days before the reference date; a year the question names ("2026/27",
    # "in 2026") wants documents dated from the year before it (plans are written a year ahead).
    # 365: an annual planning cycle, the cadence of the plans and reports analysts read.
    recency_max_age_days: int = Field(default=365, ge=1)
    # The reference date for recency ("YYYY-MM-DD"); empty: today's date.
    reference_date: str = ""

    # --- synthesis / verification -------------------------------------------
    # Optional few-shot file (JSONL or JSON list of {question, evidence_ids, answer}).
    examples_path: Path | None = None
    examples_shown: int = Field(default=2, ge=0, le=10)
    # The offline reader's weights and thresholds (``KG_AGENT__READER__*``).
    reader: ReaderSettings = Field(default_factory=ReaderSettings)
    # STRATEGIC passages given their own line in the extractive answer.
    extractive_graph_lines: int = Field(default=2, ge=0, le=10)
    # Trained spaCy pipeline whose NER finds the candidates of the asked type in evidence
    # sentences ("auto": the default one when installed, as KG_EXTRACTION__SPACY_MODEL; ""
    # for none, leaving the capitalised-span rules alone).
    answer_spacy_model: str = "auto"
    # Quotations shorter than this are scare quotes, not claims to check against the chunk.
    quote_min_words: int = Field(default=3, ge=1)
    # Refinement passes after a failed verification; the issue asks for exactly one.
    refinement_passes: int = Field(default=1, ge=0, le=3)
    # Confidence of the offline answer from evidence alone: HIGH needs this share of
    # citations to be PRIMARY/STRATEGIC and at least min_documents sources. (A model's own
    # HIGH is checked against the offline answer's parts instead: answerer.LlmAnswerer.settle.)
    high_confidence_share: float = Field(default=0.5, ge=0.0, le=1.0)
    # Audit logs go to <data_dir>/audit unless set.
    audit_dir: Path | None = None


class AgentHost(Protocol):
    """What the agents read of the assembled settings (the shell's ``Settings``)."""

    @property
    def agent(self) -> AgentSettings: ...
    @property
    def llm(self) -> LlmSettings: ...
    @property
    def data_dir(self) -> Path: ...
    @property
    def api_keys(self) -> str: ...
