"""Kinship questions answered by composing what the evidence says of parents and spouses.

"Who is the paternal grandfather of Ann Lee?" asks for the father of Ann Lee's father: the
reader finds Ann Lee's father on her page ("Ann Lee is the daughter of Tom Lee and Eva
Ray"), then Tom Lee's father on his. The words for kin are English, not any corpus's:

- a parent is named after "son of", "daughter of" or "child of": the father first, the
  mother after "and" (how biographies name parents), or after "his/her father" / "mother";
- a spouse after "married", "wife of", "husband of", or as the page whose subject "married"
  the person ("Tom Lee married Eva Ray" on Tom Lee's page).

Each step reads the person's own page first, then sentences naming them. No answer is given
when a step finds nobody; the answer is read from word patterns, so it is never rated HIGH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.names import unqualified_name
from reader.choice import Choice
from reader.sentence_rank import Candidate
from reader.verdict import subject_key, subject_sentences

# The kin a question asks for, as the steps that reach it from the named person.
_CHAINS: dict[str, tuple[str, ...]] = {
    "paternal grandfather": ("father", "father"),
    "maternal grandfather": ("mother", "father"),
    "paternal grandmother": ("father", "mother"),
    "maternal grandmother": ("mother", "mother"),
    "father-in-law": ("spouse", "father"),
    "mother-in-law": ("spouse", "mother"),
}
_ASKED = re.compile(
    r"\b(" + "|".join(map(re.escape, _CHAINS)) + r")\s+of\s+(.+?)\s*\??\s*$", re.IGNORECASE
)
# A person's name in a sentence: capitalised words, with the particles of noble names
# ("Otto of Brenna", "Ludwig von Arnim", "Ivo the Tall") and a regnal number ("Aldo III").
_NAME = r"[A-Z][\w'’.\-]*(?:\s+(?:(?:of|the|von|van|de|du|la|le)\s+)?[A-Z][\w'’.\-]*)*"
_PARENTS = re.compile(
    rf"\b(?:son|daughter|child)\s+of\s+(?:the\s+)?(?P<father>{_NAME})"
    rf"(?:,[^,]*,)?(?:\s+and\s+(?:of\s+)?(?:(?:his|her)\s+(?:\w+\s+)?wife,?\s+)?(?P<mother>{_NAME}))?"
)
_NAMED_PARENT = re.compile(
    rf"\b(?:[Hh]is|[Hh]er)\s+(?P<kin>father|mother)(?:,|\s+was|\s+is)\s+(?P<name>{_NAME})"
)
_SPOUSE = re.compile(rf"\b(?:married|wife of|husband of|widow of)\s+(?:to\s+)?(?P<name>{_NAME})")


def asked_chain(question: str) -> tuple[tuple[str, ...], str] | None:
    """The steps a kinship question asks for and the person it names, or None."""
    m = _ASKED.search(question.strip())
    if m is None:
        return None
    return _CHAINS[m.group(1).lower()], m.group(2)


def kin(question: str, cands: Sequence[Candidate]) -> Choice | None:
    """The person a kinship question asks for, with the sentences of each step."""
    asked = asked_chain(question)
    if asked is None:
        return None
    steps, person = asked
    support: list[int] = []
    said: list[str] = []
    for step in steps:
        found = _relative(person, step, cands)
        if found is None:
            return None
        name, index = found
        said.append(f"the {step} of {person} is {name}")
        support.append(index)
        person = name
    return Choice(person, "; ".join(said), support)


def _relative(person: str, step: str, cands: Sequence[Candidate]) -> tuple[str, int] | None:
    """``person``'s father, mother or spouse and the sentence saying so."""
    key = subject_key(person)
    # Sentences naming the person, also when no page of theirs is in the evidence.
    named = subject_sentences([person], cands).get(key) or [
        i for i, c in enumerate(cands) if key in c.sentence.lower()
    ]
    own = [i for i in named if subject_key(cands[i].passage.doc_title).startswith(key)]
    for i in sorted(own, key=lambda i: (cands[i].passage.chunk_id, cands[i].position)):
        found = _said(cands[i].sentence, step)
        if found:
            return found, i
    if step == "spouse":
        # "Tom Lee married Eva Ray" on Tom Lee's page: the page's subject is the spouse.
        for i in named:
            c = cands[i]
            m = _SPOUSE.search(c.sentence)
            if i not in own and m and subject_key(m.group("name")).startswith(key):
                return unqualified_name(c.passage.doc_title), i
    return None


def _said(sentence: str, step: str) -> str | None:
    """The name the sentence gives for ``step``, without a sentence's closing full stop."""
    found: str | None = None
    if step == "spouse":
        m = _SPOUSE.search(sentence)
        found = m.group("name") if m else None
    elif (m := _PARENTS.search(sentence)) and m.group(step):
        found = m.group(step)
    else:
        kin = (n for n in _NAMED_PARENT.finditer(sentence) if n.group("kin") == step)
        found = next((n.group("name") for n in kin), None)
    return found.rstrip(".") if found else None
