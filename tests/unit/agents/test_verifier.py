"""Deterministic verifier: unknown citations and quotations not in the cited chunk."""

from __future__ import annotations

from agents.models import EvidenceBundle, EvidenceItem, Finding
from agents.verifier import check_deterministic, cited_ids

EVIDENCE = EvidenceBundle(
    items=[
        EvidenceItem(
            chunk_id="doc-a-0001-abc",
            doc_id="a",
            doc_title="A",
            text="We will cut the use of restraint on our wards by 25%.",
            score=1.0,
        ),
        EvidenceItem(
            chunk_id="doc-b-0002-def",
            doc_id="b",
            doc_title="B",
            text="The plan asks every system to deliver three shifts.",
            score=0.5,
        ),
    ]
)


def test_cited_ids_from_answer_and_findings_in_order() -> None:
    answer = "Restraint falls [doc-a-0001-abc]. Three shifts [doc-b-0002-def][doc-a-0001-abc]."
    findings = [Finding(text="x [doc-z-1]", citations=["doc-b-0002-def", "doc-y-2"])]
    assert cited_ids(answer, findings) == ["doc-a-0001-abc", "doc-b-0002-def", "doc-y-2", "doc-z-1"]


def test_good_answer_passes() -> None:
    answer = 'The trust will "cut the use of restraint" by a quarter [doc-a-0001-abc].'
    report = check_deterministic(answer, [], EVIDENCE, quote_min_words=3)
    assert report.passed and report.problems() == []


def test_citation_to_a_chunk_not_in_the_evidence_fails() -> None:
    report = check_deterministic("Claim [doc-x-9999-zzz].", [], EVIDENCE, 3)
    assert not report.passed
    assert report.unknown_citations == ["doc-x-9999-zzz"]
    assert "doc-x-9999-zzz" in report.problems()[0]


def test_quote_must_be_in_the_cited_chunk_not_elsewhere() -> None:
    wrong_chunk = 'It says "deliver three shifts" [doc-a-0001-abc].'
    report = check_deterministic(wrong_chunk, [], EVIDENCE, 3)
    assert report.unsupported_quotes == ["deliver three shifts"]
    right_chunk = "It says “deliver three   Shifts” [doc-b-0002-def]."
    assert check_deterministic(right_chunk, [], EVIDENCE, 3).passed


def test_uncited_quote_is_checked_against_all_evidence_and_short_quotes_skipped() -> None:
    cited = " It cuts restraint [doc-a-0001-abc]."
    assert check_deterministic('They said "deliver three shifts".' + cited, [], EVIDENCE, 3).passed
    report = check_deterministic('They said "abolish all wards now".' + cited, [], EVIDENCE, 3)
    assert report.unsupported_quotes == ["abolish all wards now"]
    assert check_deterministic('A "kinder" approach [doc-a-0001-abc].', [], EVIDENCE, 3).passed


def test_an_answer_that_cites_nothing_fails() -> None:
    report = check_deterministic("Restraint will fall by a quarter.", [], EVIDENCE, 3)
    assert not report.passed and report.uncited == ["the answer cites no evidence chunk"]
    findings = [Finding(text="Restraint falls.", kind="FACT", citations=[])]
    report = check_deterministic("Restraint falls [doc-a-0001-abc].", findings, EVIDENCE, 3)
    assert not report.passed and "finding cites nothing" in report.problems()[0]


def test_a_finding_copied_from_one_chunk_but_citing_another_fails() -> None:
    text = "The plan asks every system to deliver three shifts."
    findings = [Finding(text=text, kind="INFERENCE", citations=["doc-a-0001-abc"])]
    report = check_deterministic("Shifts [doc-b-0002-def].", findings, EVIDENCE, 3)
    assert not report.passed and report.unsupported_quotes == [text]
    findings = [Finding(text=text, kind="FACT", citations=["doc-b-0002-def"])]
    assert check_deterministic("Shifts [doc-b-0002-def].", findings, EVIDENCE, 3).passed


def test_findings_are_checked_too() -> None:
    findings = [Finding(text='"cut restraint by half"', kind="FACT", citations=["doc-a-0001-abc"])]
    report = check_deterministic("Fine [doc-a-0001-abc].", findings, EVIDENCE, 3)
    assert report.unsupported_quotes == ["cut restraint by half"]


def test_an_answer_of_citations_and_labels_only_states_nothing() -> None:
    label_only = "[doc-a-0001-abc] (PRIMARY; In Love and War (1987 film))"
    report = check_deterministic(label_only, [], EVIDENCE, quote_min_words=3)
    assert report.states_nothing and not report.passed
    assert any("states nothing" in p for p in report.problems())
    worded = "Restraint falls by 25% [doc-a-0001-abc] (PRIMARY; A)"
    assert not check_deterministic(worded, [], EVIDENCE, quote_min_words=3).states_nothing


def test_every_number_must_be_in_the_evidence_or_a_tool_result() -> None:
    from agents.models import ToolRecord

    stated = "Restraint falls by 25% [doc-a-0001-abc]; two of three shifts are due."
    assert check_deterministic(stated, [], EVIDENCE, quote_min_words=3).unmatched_numbers == []
    invented = "Restraint falls by 40% [doc-a-0001-abc], saving £1.2m."
    report = check_deterministic(invented, [], EVIDENCE, quote_min_words=3)
    assert report.unmatched_numbers == ["40%", "£1.2m"] and not report.passed
    assert "number not found in the evidence or a tool result: '40%'" in report.problems()
    tool = ToolRecord(
        name="calculate", arguments={"expression": "25 * 1.6"}, result={"result": 39.9876}
    )
    rounded = "Restraint falls by 40.0% [doc-a-0001-abc]."
    assert check_deterministic(rounded, [], EVIDENCE, 3, [tool]).unmatched_numbers == []
