"""Things the evidence names in a role the question asks about, whose own pages it lacks.

"When did the director of the film Sea Glass die?" is answered on the director's page, which
shares no word with the question: the film's page names the director ("directed by Ann
Lee"), and the next round asks for Ann Lee. A word of the question and a word of the evidence
are one role when they are one word family (`reader.text.one_family`: "director",
"directed"); the named entity must follow that word closely, be one the
graph says the passage mentions, and be the subject of a document in the graph that the
evidence does not hold yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.graph_reach import GraphReach
from agents.models import EvidenceItem
from reader.question import STOPWORDS, words
from reader.text import FAMILY_LETTERS, WORD

# How far after the role's word its filler may start: "directed by Ann Lee", "written and
# directed by Ann Lee and Bo Kim".
_NEAR = 40


def role_fillers(
    question: str, items: Sequence[EvidenceItem], reach: GraphReach
) -> list[tuple[str, str]]:
    """(entity id, name) of each entity named in an asked role whose page is missing."""
    role = [w.lower() for w in words(question) if w[:1].islower() and w.lower() not in STOPWORDS]
    stems = {w[:FAMILY_LETTERS] for w in role if len(w) >= FAMILY_LETTERS}
    if not stems:
        return []
    found: dict[str, str] = {}
    for item in items:
        ends = [
            m.end()
            for m in WORD.finditer(item.text)
            if len(m.group()) >= FAMILY_LETTERS and m.group().lower()[:FAMILY_LETTERS] in stems
        ]
        names = reach.names(list(reach.mentions(item.chunk_id))) if ends else {}
        for end in ends:
            # the first name after the role's word fills it ("directed by Ann Lee and
            # starring Bo Kim": Ann Lee)
            after = [
                (at, entity)
                for entity, name in names.items()
                if 0 <= (at := item.text.find(name, end)) - end <= _NEAR
            ]
            if after:
                entity = min(after)[1]
                found.setdefault(entity, names[entity])
    if not found:
        return []
    held = {i.chunk_id for i in items}
    pages = reach.pages(list(found))
    return [(e, n) for e, n in found.items() if pages.get(e) and not held & set(pages[e])]
