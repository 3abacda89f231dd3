"""Comparisons of amounts worked out by the tools: "Which depot handles more parcels, North or
South?", "Whose rent arrears are higher, Ann Example's or Ben Sample's?".

The reader does not compare sizes from sentences (their units differ from sentence to
sentence). The graph's numeric facts carry a value, a unit, what it measures and what it is
about, so here each option's figure is the stored fact about that option (its linked entity,
its name in the fact's entity or document title) whose measure shares the most words with the
question's; the two are compared by ``compare_amounts`` only when both exist and share a unit.
The result is a tool record, a sentence citing both chunks and a finding; the chunks join the
evidence, so the citations are checked like any other. No figure is typed into code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agents.models import Finding, LinkedEntity, ToolRecord
from agents.numeric import compare_amounts
from agents.numeric_answer import ChunkSource, LimitChecks, evidence_item
from agents.numeric_catalogue import FactSource
from extraction.numbers import Direction
from extraction.numeric_facts import measure_words
from graph_store.types import FactHit
from reader.choice import AMOUNT_COMPARATIVES, options

# The comparatives that ask for the smaller figure; every other amount comparative asks for
# the larger ("more", "higher", "larger").
_SMALLER = frozenset(
    {"smaller", "smallest", "less", "least", "fewer", "fewest", "lower", "lowest"}
    | {"shorter", "shortest", "cheaper", "cheapest"}
)
_POSSESSIVE = re.compile(r"['’]s?$")


@dataclass(frozen=True)
class Figure:
    option: str
    hit: FactHit


def compare_options(
    question: str, linked: Sequence[LinkedEntity], facts: FactSource, chunks: ChunkSource
) -> LimitChecks:
    """The comparison an amount question between two options calls for (empty when it is
    not one, or when the graph holds no comparable figure for both options)."""
    checks = LimitChecks()
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", question)}
    comparatives = said & AMOUNT_COMPARATIVES
    named = _options(question)
    if not comparatives or len(named) != 2:
        return checks
    wanted = set(measure_words(question)) - comparatives - _option_words(named)
    amounts = facts(("amount",))
    figures = [_figure(o, amounts, wanted, linked) for o in named]
    a, b = figures
    if a is None or b is None or a.hit.fact.unit != b.hit.fact.unit:
        return checks
    direction: Direction = "min" if comparatives & _SMALLER else "max"
    result = compare_amounts(
        {a.option: a.hit.fact.value, b.option: b.hit.fact.value},
        direction,
        a.hit.fact.unit,
        _shared_measure(a, b, wanted),
    )
    cited = [a.hit.fact.chunk_id, b.hit.fact.chunk_id]
    result.update({"chunk_ids": cited, "sources": [a.hit.doc_title, b.hit.doc_title]})
    checks.records.append(
        ToolRecord(
            name="compare_amounts",
            arguments={"options": [a.option, b.option], "direction": direction},
            result=result,
        )
    )
    cite = " ".join(f"[{c}]" for c in dict.fromkeys(cited))
    checks.lead = f"{result['winner'] or result['sentence']} {cite}"
    checks.sentences.append(f"{result['sentence']} {cite}")
    checks.findings.append(
        Finding(text=str(result["sentence"]), kind="INFERENCE", citations=list(cited))
    )
    checks.items = [evidence_item(h) for h in chunks(list(dict.fromkeys(cited)))]
    return checks


def _options(question: str) -> list[str]:
    """The two options as the question writes them, less a possessive ("Ann's" -> "Ann"):
    named options ("..., A or B?"), else the clause after the last comma split at "or"
    ("..., night shifts at North or day shifts at South?")."""
    found = options(question)
    if not found:
        tail = question.rstrip(" ?").rsplit(",", 1)
        parts = tail[1].split(" or ") if len(tail) == 2 else []
        found = [p.strip() for p in parts] if len(parts) == 2 else []
    return [_POSSESSIVE.sub("", o.strip()) for o in found if o.strip()]


def _option_words(named: Sequence[str]) -> set[str]:
    return {w for o in named for w in measure_words(o)}


def _figure(
    option: str, amounts: Sequence[FactHit], wanted: set[str], linked: Sequence[LinkedEntity]
) -> Figure | None:
    """The option's stated figure measuring the asked thing best: most shared measure words,
    then fewest other words; None when none shares one."""
    about = _about(option, linked)
    best: tuple[int, int, str] | None = None
    found: FactHit | None = None
    for hit in amounts:
        if not about(hit):
            continue
        measure = set(measure_words(hit.fact.measure))
        shared = len(measure & wanted)
        if not shared:
            continue
        key = (-shared, len(measure - wanted), hit.fact.id)
        if best is None or key < best:
            best, found = key, hit
    return Figure(option, found) if found is not None else None


def _about(option: str, linked: Sequence[LinkedEntity]) -> Callable[[FactHit], bool]:
    """Whether a fact is about ``option``: its entity is one the option's words link to, or
    the option's name words all appear in the fact's entity name or document title."""
    ids = {e.entity_id for e in linked if e.matched and e.matched.lower() in option.lower()}
    names = {w.lower() for w in re.findall(r"[A-Z][\w-]*", option)}

    def check(hit: FactHit) -> bool:
        if hit.fact.entity_id in ids:
            return True
        if not names:
            return False
        held = {w.lower() for w in re.findall(r"[\w-]+", f"{hit.fact.entity_name} {hit.doc_title}")}
        entity = {w.lower() for w in re.findall(r"[\w-]+", hit.fact.entity_name)}
        return names <= held or (bool(entity) and entity <= names)

    return check


def _shared_measure(a: Figure, b: Figure, wanted: set[str]) -> str:
    both = wanted | set(measure_words(b.hit.fact.measure))
    return " ".join(dict.fromkeys(w for w in measure_words(a.hit.fact.measure) if w in both))


__all__ = ["compare_options"]
