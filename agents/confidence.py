"""How sure an answer is: from the evidence (how much of it is about the question, how many
sources, whether the critique found gaps), then capped by what the offline answer could check
(the asked-for fact found, of the asked type, in a well-matched sentence)."""

from __future__ import annotations

from agents.config import AgentSettings
from agents.loop import Gathered
from agents.models import LEVELS, EvidenceBundle, Finding, Level
from reader.answer_types import TYPED_KINDS
from reader.choice import options as choice_options
from reader.question import names_through_another
from reader.reading import PartAnswer
from reader.settings import ReaderSettings
from reader.verdict import subject_key


def cap_by_parts(
    level: Level,
    reason: str,
    parts: list[PartAnswer],
    question: str = "",
    settings: ReaderSettings | None = None,
) -> tuple[Level, str]:
    """Confidence may not be HIGH when what the question asks for was not found: MEDIUM at
    most when a part lacks its fact, LOW when every part does. HIGH needs the answering
    sentence to use ``settings.high_support`` of the asked relation's words."""
    high_support = (settings or ReaderSettings()).high_support
    missing = [p for p in parts if not p.found]
    if not missing:
        # HIGH needs the asked-for fact itself: a list's items, or a candidate of the asked
        # type (a person, a place, a date, a number, by NER) in the answering sentence, which
        # uses most of the words of the asked relation. A "what is ..." answer of no checkable
        # type, a sentence without such a candidate, or a loosely matching one stays MEDIUM.
        loose = [p for p in parts if not _checked(p, question, high_support)]
        if level == "HIGH" and loose:
            return "MEDIUM", f"{reason}; the asked-for fact could not be checked closely"
        # The answering sentence may be about the wrong bridge ("the state where ..."): its
        # link to the thing the question describes is not checked offline.
        if level == "HIGH" and names_through_another(question):
            return "MEDIUM", f"{reason}; the question's subject is reached through another"
        return level, reason
    said = "; ".join(
        "no yes/no verdict is given offline"
        if p.kind == "YESNO"
        else f'no {p.kind.lower()} found for "{p.text}"'
        for p in missing
    )
    cap: Level = "LOW" if len(missing) == len(parts) else "MEDIUM"
    return LEVELS[min(LEVELS.index(level), LEVELS.index(cap))], f"{reason}; {said}"


def _checked(part: PartAnswer, question: str, high_support: float) -> bool:
    if part.kind == "LIST":
        return part.support >= high_support
    if part.kind not in TYPED_KINDS or part.phrase is None:
        return False
    # Strong support: the best-ranked sentence of all holds the candidate and uses most of
    # the asked relation's words (for "which ..., A or B?" the candidate is one of the two)...
    options = [subject_key(o) for o in choice_options(question)]
    if options and not any(o in part.phrase.lower() for o in options):
        return False
    # ... and the evidence holds every name the question uses: without them it is about
    # something else ("the chief executive of the Fen Trust" for "... of the Kelton Zoo").
    return part.top and part.support >= high_support and part.named >= 1.0


def evidence_confidence(
    g: Gathered, evidence: EvidenceBundle, findings: list[Finding], cfg: AgentSettings
) -> tuple[Level, str]:
    """Confidence from the evidence alone: how much of what is cited is about the question's
    subject or authoritative context, how many sources, and whether the critique found gaps."""
    known = evidence.by_id()
    cited = [known[c] for f in findings for c in f.citations if c in known]
    if not cited:
        return "LOW", "no evidence was found for the question"
    strong = sum(i.tag != "GENERAL" for i in cited) / len(cited)
    docs = len({i.doc_id for i in cited})
    covered = bool(g.critiques) and g.critiques[-1].covered
    score = int(strong >= cfg.high_confidence_share) + int(covered and docs >= cfg.min_documents)
    level = LEVELS[score]
    reason = (
        f"{strong:.0%} of cited evidence is about the question's entities or reached through "
        f"the graph; {docs} source document(s); "
        + (
            "every entity and sub-task has evidence"
            if covered
            else "some entities or sub-tasks lack evidence"
        )
    )
    return level, reason
