"""The answering sentence and short answer that fill the role a question asks about.

``reader.parse`` reads which verb and role the question asks ("who wrote" -> the writer);
of a part's few best answering sentences the first where a candidate of the asked type fills
that role answers ("Ann Lee decided to write it" over "The novel is about Tom").
"""

from __future__ import annotations

from collections.abc import Sequence

from reader.answer_types import candidates as typed_candidates
from reader.answer_types import in_role
from reader.parse import asked, role_spans
from reader.question import QuestionPart, interrogative_sentence
from reader.sentence_rank import Candidate

# Kinds answered by a name that can fill a verb's role: "who wrote", "which firm built".
_CAST_KINDS = frozenset({"PERSON", "PLACE", "THING"})


def cast_sentence(
    part: QuestionPart,
    question: str,
    candidates: list[Candidate],
    answering: list[int],
    sentences: int,
) -> tuple[int, list[tuple[int, int]]] | None:
    """The first of the part's ``sentences`` best answering sentences where a candidate of
    the asked type fills the role the part asks about (``reader.parse``): for "who wrote the
    novel", "Ann Lee decided to write it" over "The novel is about Tom", and the spans of
    that role. Only these few sentences are parsed."""
    if part.kind not in _CAST_KINDS or not answering or sentences <= 0:
        return None
    want = asked(interrogative_sentence(part.text))
    if want is None:
        return None
    for i in answering[:sentences]:
        c = candidates[i]
        spans = role_spans(c.sentence, want)
        typed = typed_candidates(part.kind, c.entities or (), question)
        if spans and in_role(c.sentence, typed, spans):
            return i, spans
    return None


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
