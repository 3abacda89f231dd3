"""The answering sentence and short answer that fill the role a question asks about.

``reader.parse`` reads which verb and role the question asks ("who wrote" -> the writer);
of a part's few best answering sentences the first where a candidate of the asked type fills
that role answers ("Ann Lee decided to write it" over "The novel is about Tom").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reader.answer_types import Entity, in_role
from reader.answer_types import candidates as typed_candidates
from reader.parse import asked, parsed, role_spans
from reader.question import QuestionPart, interrogative_sentence
from reader.sentence_rank import Candidate

# Kinds answered by a name that can fill a verb's role: "who wrote", "which firm built".
_CAST_KINDS = frozenset({"PERSON", "PLACE", "THING"})


@dataclass(frozen=True)
class Cast:
    """The sentence (its index among the candidates) where a candidate fills the asked role,
    the spans of that role, and the names filling it that NER left unlabelled."""

    index: int
    spans: list[tuple[int, int]]
    unlabelled: tuple[Entity, ...] = ()


def cast_sentence(
    part: QuestionPart,
    question: str,
    candidates: list[Candidate],
    answering: list[int],
    sentences: int,
    holder_sentences: int = 0,
) -> Cast | None:
    """The first of the part's ``sentences`` best answering sentences where a candidate of
    the asked type fills the role the part asks about (``reader.parse``): for "who wrote the
    novel", "Ann Lee decided to write it" over "The novel is about Tom", and the spans of
    that role. Only these few sentences are parsed: ``sentences`` for a verb's role,
    ``holder_sentences`` for the holder of a role a noun names ("who was the founding chair
    of the guild")."""
    if part.kind not in _CAST_KINDS or not answering or max(sentences, holder_sentences) <= 0:
        return None
    want = asked(interrogative_sentence(part.text))
    if want is None:
        return None
    for i in answering[: holder_sentences if want.role == "holder" else sentences]:
        c = candidates[i]
        spans = role_spans(c.sentence, want)
        typed = typed_candidates(part.kind, c.entities or (), question)
        if spans and in_role(c.sentence, typed, spans):
            return Cast(i, spans)
        names = _unlabelled(c.sentence, c.entities or (), spans) if part.kind == "PERSON" else ()
        if names and typed_candidates(part.kind, names, question):
            return Cast(i, spans, names)
    return None


def _unlabelled(
    sentence: str, entities: Sequence[Entity], spans: Sequence[tuple[int, int]]
) -> tuple[Entity, ...]:
    """The proper names (by the parse's tags) heading a role span that NER labelled as
    nothing: "Hale, who was the founding chair of the guild" names a person the small
    model can miss when a surname stands alone. A person is what a "who" role asks for."""
    doc = parsed(sentence)
    if doc is None:
        return ()
    starts = [(sentence.find(t), t) for t, _ in entities]
    labelled = [(a, a + len(t)) for a, t in starts if a >= 0]
    out: list[Entity] = []
    for a, b in spans:
        head = doc.char_span(a, b, alignment_mode="expand")
        words = [w for w in (head.root.lefts if head is not None else ()) if w.dep_ == "compound"]
        run = [w for w in (*words, head.root) if w.pos_ == "PROPN"] if head is not None else []
        if not run:
            continue
        start, end = run[0].idx, run[-1].idx + len(run[-1])
        if not any(x < end and start < y for x, y in labelled):
            out.append((sentence[start:end], "PERSON"))
    return tuple(out)


def full_name(name: str, title: str, candidates: Sequence[Candidate]) -> str:
    """A person named by one word ("Lee") is the person of that surname or first name the
    same document names in full ("Ann Lee"), when it names exactly one."""
    if " " in name.strip():
        return name
    full = {
        text
        for c in candidates
        if c.passage.doc_title == title
        for text, label in c.entities or ()
        if label == "PERSON" and (text.endswith(f" {name}") or text.startswith(f"{name} "))
    }
    return full.pop() if len(full) == 1 else name
