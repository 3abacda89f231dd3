"""The second hop of a chain question, answered on the bridge's own page.

"Who started the channel that airs Harbour Tales?": the series' page names the channel ("It
aired on Harbour Network"), and the channel's page says who started it ("It was founded by
Ann Lee"). That sentence shares few words with the question, so the embedding
ranking puts the first hop's near-duplicates above it; the words the first hop leaves unused
("founded") find it. Measured on the shared sets' captured evidence: HotpotQA answer recall
0.75 -> 0.77 and lead EM 0.26 -> 0.32, MuSiQue 0.52 unchanged and lead EM 0.03 -> 0.05.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from core.names import unqualified_name
from reader.answer_facts import carries, sentence_lemmas
from reader.answer_types import Entity, bridges, short_answer, the_asked
from reader.question import QuestionPart
from reader.sentence_rank import Candidate, rarity_of, typed, weighted_share
from reader.text import mentions


@dataclass(frozen=True)
class Hop:
    index: int  # of the candidate sentence
    # The sentence states a fact of the asked kind; then a one-part question's short answer
    # is read from it ("who founded the network" is answered on the network's page).
    phrase: str | None


def second_hop(
    cands: Sequence[Candidate],
    ranking: np.ndarray,
    parts: Sequence[QuestionPart],
    question: str,
    top: int,
    max_spread: int = 2,
) -> Hop | None:
    """The sentence that answers the rest of a chain: one of the ``top`` sentences names
    another evidence document (the bridge, "... aired on Harbour Network"), or adds a name to
    the question that a sentence of another document holds ("born in Fernhollow" and "The
    Diocese of Fernhollow is ..."; only names at most ``max_spread`` documents hold), and that
    sentence uses the question's relation words the naming sentence leaves unused ("It was
    founded by Ann Lee"). A sentence stating a fact of the asked kind wins ("It is
    headquartered in Portlow" over "... is a restaurant holding company" for "in what city");
    then the most of those words, rarest counted most; then the ranking. The short answer is
    never the linking name itself (the chain went through it). None when no chain is there."""
    words = {w for p in parts for w in p.relation_words}
    if not words:
        return None
    own = [sentence_lemmas(c.sentence) for c in cands]
    rarity = rarity_of(sorted(words), own)
    asked = question.lower()
    lows = [c.sentence.lower() for c in cands]
    anchors = _anchors(cands, ranking, question, top, (words, own, rarity), max_spread, lows)
    best: tuple[bool, float, float, int] | None = None
    # Each linked sentence's entities less the names that linked it: the bridge itself is
    # what the chain went through, not its answer.
    kept: dict[int, tuple[Entity, ...]] = {}
    for i, c in enumerate(cands):
        title = unqualified_name(c.passage.doc_title).lower()
        if len(title) < 3 or title in asked:
            continue
        gain, through = _link(anchors, c.passage.doc_title, title, lows[i], own[i])
        if gain <= 0:
            continue
        kept[i] = tuple(e for e in c.entities or () if e[0].lower() not in through)
        fact = any(
            carries(p.kind, c.sentence, question)
            and (p.kind == "NUMBER" or typed(p, replace(c, entities=kept[i]), question) > 0)
            for p in parts
        )
        key = (fact, gain, float(ranking[i]), i)
        if best is None or key[:3] > best[:3]:
            best = key
    if best is None:
        return None
    c = cands[best[3]]
    one = parts[0] if len(parts) == 1 else None
    if one is None or one.kind in ("YESNO", "LIST"):
        return Hop(best[3], None)
    ents = kept[best[3]]
    phrase = short_answer(one.kind, c.sentence, ents, question) if best[0] and ents else None
    return Hop(best[3], the_asked(c.sentence, question) or phrase)


@dataclass(frozen=True)
class _Anchor:
    sentence: str  # lower-cased
    adds: frozenset[str]  # the names it adds to the question (lower-cased) that may link
    doc: str
    rest: dict[str, float]  # the relation words it leaves unused, by rarity


def _anchors(
    cands: Sequence[Candidate],
    ranking: np.ndarray,
    question: str,
    top: int,
    relation: tuple[set[str], Sequence[set[str]], dict[str, float]],
    max_spread: int,
    lows: Sequence[str],
) -> list[_Anchor]:
    words, own, rarity = relation
    spread = _spread(cands, lows)
    out = []
    for a in (int(i) for i in np.argsort(-ranking)[:top]):
        adds = (b.lower() for b in bridges(cands[a].entities or (), question))
        unused = words - own[a] - sentence_lemmas(cands[a].passage.doc_title)
        out.append(
            _Anchor(
                lows[a],
                frozenset(t for t in adds if spread(t) <= max_spread),
                cands[a].passage.doc_title,
                {w: rarity[w] for w in unused},
            )
        )
    return out


def _link(
    anchors: Sequence[_Anchor], doc: str, title: str, low: str, own: set[str]
) -> tuple[float, set[str]]:
    """The best share of an anchor's unused relation words that a sentence (of document
    ``doc``, lower-cased ``low``) uses, where the anchor names the document's title or a name
    it adds is in the sentence; and those names."""
    gain, through = 0.0, set[str]()
    for a in anchors:
        if not a.rest or a.doc == doc:
            continue
        linked = {t for t in a.adds if _names(low, t)}
        if title in a.sentence or linked:
            share = weighted_share(a.rest, own)
            if share > gain:
                gain, through = share, linked
    return gain, through


def _spread(cands: Sequence[Candidate], lows: Sequence[str]) -> Callable[[str], int]:
    """How many evidence documents a term appears in."""
    cache: dict[str, int] = {}

    def count(term: str) -> int:
        if term not in cache:
            pairs = zip(cands, lows, strict=True)
            cache[term] = len({c.passage.doc_title for c, low in pairs if _names(low, term)})
        return cache[term]

    return count


def _names(sentence: str, term: str) -> bool:
    return len(term) >= 3 and mentions(sentence, term)
