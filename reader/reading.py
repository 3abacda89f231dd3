"""What one reading of a question over its evidence holds: each part's answer, the answer
written from them, and the evidence sentences with their ranking (``reader.extractive``
computes it; the answerers and the confidence step share it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from reader.question import Kind
from reader.sentence_rank import Candidate

NO_LLM_NOTE = "No LLM is configured: this answer is extractive, quoted from the cited evidence."


@dataclass(frozen=True)
class Citation:
    chunk_id: str
    document_title: str


@dataclass(frozen=True)
class PartAnswer:
    text: str
    kind: Kind
    found: bool  # the best sentence states a fact of the asked kind about the asked relation
    sentence: str | None
    chunk_id: str | None
    # Share of the part's relation words that sentence uses (1.0 when the part has none).
    support: float = 0.0
    # The short answer: the candidate of the asked type (NER) in that sentence, when one is,
    # or a yes/no verdict; and the chunks it was read from.
    phrase: str | None = None
    read_from: tuple[str, ...] = ()
    # The answering sentence is the part's best-ranked sentence of all (not one further down
    # that merely holds a fact of the asked kind).
    top: bool = False
    # Share of the part's name words that the evidence holds anywhere (1.0 when the part
    # names nothing): a name no passage holds is a subject the evidence is not about.
    named: float = 0.0
    # The short answer fills the role the part asks about, by the parse ("who wrote" ->
    # the one who writes): a chain's second hop does not replace it.
    cast: bool = False
    # The short answer is what the sentence gives the asked noun (its figure, what it is of,
    # the class of the asked subject), which a chain's second hop does not read: a hop to the
    # same sentence keeps it.
    by_noun: bool = False

    @property
    def cites(self) -> str:
        ids = self.read_from or ((self.chunk_id,) if self.chunk_id else ())
        return " ".join(f"[{c}]" for c in ids)


@dataclass(frozen=True)
class Reading:
    """One reading of a question over its evidence, computed once and shared by the answerers
    and the confidence step: each part's answer (``parts``: its kind, answering sentence,
    short answer, support), the extractive answer written from them, and every evidence
    sentence (``candidates``) with its ``ranking`` (best part score plus the bridge bonus)."""

    answer: str
    sentences: list[tuple[str, str]]  # (sentence, chunk id)
    citations: list[Citation] = field(default_factory=list)
    note: str = NO_LLM_NOTE
    parts: list[PartAnswer] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    ranking: tuple[float, ...] = ()

    def top(self, keep: int) -> list[Candidate]:
        """The ``keep`` best-ranked sentences, best first (what the LLM reader is shown)."""
        order = sorted(range(len(self.ranking)), key=lambda i: -self.ranking[i])
        return [self.candidates[i] for i in order[: max(keep, 0)]]


@dataclass
class Picked:
    """What the question's parts chose: (sentence, chunk id) pairs in order, the lines of an
    asked-for list and its items, and each part's answer."""

    chosen: list[tuple[str, str]] = field(default_factory=list)
    list_lines: list[str] = field(default_factory=list)
    list_items: list[Candidate] = field(default_factory=list)
    parts: list[PartAnswer] = field(default_factory=list)
