"""The analyst's report offline on the demo graph: subject first, sources with dates, gaps
that mean something, questions the documents cannot answer, filters and failed sub-queries."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from agents.config import AgentSettings
from agents.models import AgenticResult
from agents.orchestrator import answer
from agents.report import Report
from core.errors import StoreError
from graph_store import GraphStore
from kg.container import Container
from kg.settings import Settings
from retrieval.embedder import Embedder
from retrieval.filters import SearchFilters
from retrieval.search import Searcher
from retrieval.search_types import Retrieval

QUESTION = "What are NMHT's priorities for the next 12 months?"


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("audit")


@pytest.fixture(scope="module")
def priorities(demo_container: Container, audit: Path) -> AgenticResult:
    return answer(demo_container, QUESTION, settings=AgentSettings(audit_dir=audit))


def _titles(container: Container, chunk_ids: list[str]) -> list[str]:
    by_id = {c.chunk_id: c.doc_title for c in container.store.get_chunks(chunk_ids)}
    return [by_id[c] for c in chunk_ids]


def test_the_subject_s_own_document_outranks_a_parallel_one_about_another_trust(
    priorities: AgenticResult, demo_container: Container
) -> None:
    titles = _titles(demo_container, priorities.used_chunk_ids)
    own = [n for n, t in enumerate(titles) if t == "NMHT Priorities for the Next 12 Months"]
    other = [n for n, t in enumerate(titles) if t == "RUHT Priorities for the Next 12 Months"]
    assert len(own) == 3
    assert all(o > max(own) for o in other), titles


def test_report_lists_sources_by_tier_with_dates_and_an_iteration_log(
    priorities: AgenticResult,
) -> None:
    report = Report.model_validate(priorities.report)
    first = report.sources[0]
    assert (
        first.line() == "[PRIMARY] NMHT Priorities for the Next 12 Months — 2026-03-19 (3 chunks)"
    )
    assert first.doc_type == "priorities" and first.subject == "Northdale Mental Health Trust"
    tiers = [s.tier for s in report.sources]
    assert tiers == sorted(tiers, key=("PRIMARY", "STRATEGIC", "GENERAL").index)
    assert "STRATEGIC" in tiers
    assert report.epistemic["FACT"] == len(report.findings) > 0
    assert report.confidence.level == priorities.confidence
    assert 0 <= report.confidence.score <= 100 and report.confidence.reason
    (round_one,) = report.iterations
    assert round_one.queries[0] == QUESTION and round_one.new_evidence > 0
    assert round_one.stop_reason


def test_a_question_the_documents_cannot_answer_says_so_at_low(
    demo_container: Container, audit: Path
) -> None:
    question = "Who is the chief executive of the Northdale Zoo?"
    result = answer(demo_container, question, settings=AgentSettings(audit_dir=audit))
    assert result.answer.startswith(
        'The documents do not answer this question. No evidence mentions "Zoo".'
    )
    assert result.confidence == "LOW"
    gap = result.gaps[0]
    assert gap.category == "missing_fact" and '"Zoo"' in gap.description
    assert result.recommendations  # the open gaps, as questions to ask next
    assert Report.model_validate(result.report).gaps[0] == gap


def test_a_stale_horizon_is_a_recency_gap_whose_query_reads_recent_documents_only(
    demo_container: Container, audit: Path
) -> None:
    cfg = AgentSettings(audit_dir=audit, reference_date="2031-06-01", iterations_simple=2)
    result = answer(demo_container, "What are NMHT's latest priorities?", settings=cfg)
    recency = [g for g in result.gaps if g.category == "recency"]
    assert recency and recency[0].severity == "high" and "2026-03-" in recency[0].description
    # The answer still stands, and says at its end what the evidence lacks.
    assert f"What the evidence lacks: {recency[0].description}" in result.answer
    asked = [t for t in result.critiques[0].new_subtasks if t.date_from]
    assert asked and asked[0].date_from == "2030-06-01"
    assert len(result.rounds) == 2 and asked[0].query in result.rounds[1].queries


def test_filters_apply_to_every_retrieval(demo_container: Container, audit: Path) -> None:
    result = answer(
        demo_container,
        QUESTION,
        settings=AgentSettings(audit_dir=audit),
        filters=SearchFilters(doc_type="annual plan"),
    )
    report = Report.model_validate(result.report)
    assert report.sources and {s.doc_type for s in report.sources} == {"annual plan"}


class _FailingSearcher(Searcher):
    """A store that times out on sub-queries (a fault: the real store does not)."""

    def retrieve(
        self,
        question: str,
        k: int = 5,
        preset: str | None = None,
        filters: SearchFilters | None = None,
    ) -> Retrieval:
        if question != QUESTION:
            raise StoreError("the store timed out")
        return super().retrieve(question, k, preset, filters)


@dataclass
class _Faulty:
    inner: Container

    @property
    def settings(self) -> Settings:
        return self.inner.settings

    @property
    def embedder(self) -> Embedder:
        return self.inner.embedder

    @property
    def store(self) -> GraphStore:
        return self.inner.store

    def searcher(self) -> Searcher:
        c = self.inner
        return _FailingSearcher(c.store, c.embedder, c.settings.retrieval, c.read_model())


def test_a_failed_sub_query_is_logged_and_the_loop_goes_on(
    demo_container: Container, audit: Path
) -> None:
    result = answer(_Faulty(demo_container), QUESTION, settings=AgentSettings(audit_dir=audit))
    failed = result.rounds[0].failed
    assert failed and all(f.endswith("the store timed out") for f in failed)
    assert result.citations and result.answer
