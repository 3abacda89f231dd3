"""Candidates of the asked-for type: the named entities of a sentence that could answer a question.

A question asking "who" wants a person, "where" a place, "when" a date, "how many" a number
(``reader.question``); the trained spaCy pipeline's NER labels what a sentence names. A sentence
holds a candidate when it names an entity of a fitting label that the question does not already
name: "Lantern Press is ... based in Millbrook, Oregon" holds a place for "... is based where?",
"Ann Lee is an American author" holds none the question lacks. The candidates also
give the short answer phrase (the one nearest the question's own words in the sentence) and
the bridge entities of a multi-hop question (what a sentence about the question's subject names
that the question does not).

Without a trained pipeline (``spacy_model`` empty or not installed) there are no candidates and
the offline answer falls back on the capitalised-span rules of ``reader.answer_facts``.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from reader.nouns import asked_class, asked_noun, called, class_of, completes, of_what, valued
from reader.question import (
    STOPWORDS,
    Kind,
    asked_lemmas,
    content_lemmas,
    interrogative_sentence,
    place_level,
    thing_labels,
    words,
)
from reader.text import NAME_WORDS, WORD, forms, lemma, lifespan

# (entity text, NER label) per sentence.
Entity = tuple[str, str]
# A question's words for a birth and for a death, in any of their forms.
_BIRTH = frozenset({"bear", "born", "birth", "birthplace"})
_DEATH = frozenset({"die", "died", "death", "dead"})
Ner = Callable[[Sequence[str]], list[list[Entity]]]

# OntoNotes labels (en_core_web_*) that answer each kind of question. A THING ("what genre",
# "which company") is any named thing; a LIST or a yes/no question has no single entity.
_LABELS: dict[str, frozenset[str]] = {
    "PERSON": frozenset({"PERSON"}),
    "PLACE": frozenset({"GPE", "LOC", "FAC"}),
    "DATE": frozenset({"DATE"}),
    "NUMBER": frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT"}),
    "THING": frozenset(
        {"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "WORK_OF_ART", "EVENT", "PRODUCT",
         "LANGUAGE", "LAW"}
    ),
}  # fmt: skip
_CURRENCY = frozenset("£$€¥")
_SCALE = re.compile(r"(?:bn|m|k|%)(?!\w)")
# Kinds answered by names, which a sentence can list ("A, B and C").
_NAME_KINDS = frozenset({"PERSON", "PLACE", "THING"})
_LIST_TAIL = re.compile(rf"(?:,\s+{NAME_WORDS})*,?\s+and\s+{NAME_WORDS}")
# Labels of things a multi-hop question can pass through (the bridge): names, not amounts.
_BRIDGE_LABELS = _LABELS["THING"]
# Kinds whose candidates are checked closely enough for HIGH confidence: a THING may be any name.
TYPED_KINDS = frozenset({"PERSON", "PLACE", "DATE", "NUMBER"})


def spacy_ner(model: str) -> Ner | None:
    """NER over sentences with the trained pipeline ``model`` ("auto": the default one when
    installed); None when no trained pipeline is configured. The pipeline loads on first use."""
    from extraction.nlp import load_pipeline, resolve_model

    name = resolve_model(model)
    if not name:
        return None

    def run(sentences: Sequence[str]) -> list[list[Entity]]:
        with _read_lock:
            known = {s: found for s in sentences if (found := _read.get((name, s))) is not None}
        fresh = [s for s in dict.fromkeys(sentences) if s not in known]
        if fresh:
            nlp = load_pipeline(name)
            parsed = [[(e.text, e.label_) for e in doc.ents] for doc in nlp.pipe(fresh)]
            known.update(zip(fresh, parsed, strict=True))
            with _read_lock:
                for s, found in zip(fresh, parsed, strict=True):
                    _read[(name, s)] = found
                while len(_read) > _READ_KEPT:
                    _read.popitem(last=False)
        return [list(known[s]) for s in sentences]

    return run


# Sentences already read, per pipeline. An ask reads most of its evidence twice (the reader's
# hop, then the answerer), and each sentence is its own doc, so its entities do not depend on
# what it was read with. Bounded: a long-running API reads new evidence every question.
_READ_KEPT = 4096
_read: OrderedDict[tuple[str, str], list[Entity]] = OrderedDict()
_read_lock = threading.Lock()


def _lemmas(text: str) -> set[str]:
    return set(content_lemmas(text)) - STOPWORDS


def new_entities(entities: Sequence[Entity], question: str) -> list[Entity]:
    """Entities with a word the question does not use: what the sentence adds to the question."""
    asked = _lemmas(question)
    return [(t, label) for t, label in entities if _lemmas(t) and not _lemmas(t) <= asked]


def candidates(kind: Kind, entities: Sequence[Entity], question: str) -> list[str]:
    """New entities of a label that answers ``kind``."""
    labels = _LABELS.get(kind)
    if labels is None:
        return []
    found = [(t, label) for t, label in new_entities(entities, question) if label in labels]
    if kind == "THING":
        # "What language ...": a language first, when the sentence names one.
        wanted = thing_labels(question)
        preferred = [t for t, label in found if label in wanted]
        if preferred:
            return preferred
    return [t for t, _ in found]


def bridges(entities: Sequence[Entity], question: str) -> list[str]:
    """Names a sentence adds to the question: the entities a second hop may be about."""
    return [t for t, label in new_entities(entities, question) if label in _BRIDGE_LABELS]


def short_answer(
    kind: Kind,
    sentence: str,
    entities: Sequence[Entity],
    question: str,
    roles: Sequence[tuple[int, int]] = (),
) -> str | None:
    """The candidate of the asked type nearest the question's own words in ``sentence``:
    "... based in Millbrook, Oregon" answers "is based where" with "Millbrook, Oregon". With
    ``roles`` (where the sentence states who fills the role the question asks about,
    ``reader.parse.role_spans``), a candidate there comes first: "Ann Lee decided to write a
    novel about Tom" answers "who wrote the novel" with Ann Lee, not Tom."""
    found = _joined(sentence, candidates(kind, entities, question))
    if not found:
        return None
    fresh = [t for t in found if not _echoes(t, question)]
    if fresh:
        found = fresh
    # A name that carries the asked noun is one of the asked kind ("Kelton Municipal District"
    # for "what district", beside the river the same sentence names).
    kinds = [t for t in found if names_kind(t, question)]
    if kinds:
        found = kinds
    cast = in_role(sentence, found, roles)
    if cast:
        found = cast
    half = _life_half(sentence, question)
    if half is not None:
        # "When was ... born" of "(7 March 1901 – 2 May 1960)": the date before the dash.
        inside = [t for t in found if half[0] <= sentence.find(t) < half[1]]
        found = inside or found
    relation, named = _anchors(sentence, question)
    spans = relation + named

    def distance(text: str) -> int:
        at = sentence.find(text)
        return min((abs(at - a) for a, _ in spans), default=at)

    best = min(found, key=distance)
    level = place_level(question) if kind == "PLACE" and ", " in best else None
    if level is not None:
        # "Dale, Ostland" asked "in what state": Ostland.
        parts = best.split(", ")
        return parts[max(level, -len(parts) + 1)] if len(parts) > 2 else parts[-1]
    if kind == "NUMBER":
        return _with_marks(sentence, best)
    return _with_list_tail(sentence, best) if kind in _NAME_KINDS else best


def names_kind(text: str, question: str) -> bool:
    """Whether a name carries the asked noun as one of its words: "Kelton Municipal
    District" for "what district", "the Greyfoss Medal" for "which medal"."""
    nouns = set(asked_lemmas(question))
    return bool(nouns) and any(lemma(w.lower()) in nouns for w in words(text))


def _echoes(text: str, question: str) -> bool:
    """Whether a candidate only repeats names of the question, whole or as the start of one
    of its words: "St. Lucian" in a question about "Lucian Grey", "Ostland" for a question
    that says "Ostlandish". The question already holds it; the answer is something else."""
    asked = [w.lower() for w in words(question)[1:] if w[:1].isupper()]
    own = [w.lower() for w in words(text) if w.lower() not in STOPWORDS and len(w) > 2]
    return bool(own) and all(
        any(a == o or (len(o) >= 5 and a.startswith(o)) for a in asked) for o in own
    )


def in_role(sentence: str, found: Sequence[str], roles: Sequence[tuple[int, int]]) -> list[str]:
    """The ``found`` candidates written inside one of the ``roles`` spans of ``sentence``."""
    out = []
    for text in found:
        at = sentence.find(text)
        if at >= 0 and any(a <= at < b or at <= a < at + len(text) for a, b in roles):
            out.append(text)
    return out


def _anchors(sentence: str, question: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where ``sentence`` uses the question's relation words ("chairs") and its names.
    The answer sits next to the relation; a name the question gives is its subject."""
    asked = _lemmas(question)
    names = {lemma(w) for w in words(question)[1:] if w[:1].isupper()}
    found = [(m.start(), m.end(), lemma(m.group(0))) for m in WORD.finditer(sentence)]
    relation = [(a, b) for a, b, s in found if s in asked and s not in names]
    return relation, [(a, b) for a, b, s in found if s in asked and s in names]


def _with_marks(sentence: str, text: str) -> str:
    """An amount with the currency sign and scale written onto it: NER reads "48.5" out of
    "£48.5m", which alone says neither pounds nor millions."""
    at = sentence.find(text)
    if at < 0:
        return text
    start = at - 1 if at > 0 and sentence[at - 1] in _CURRENCY else at
    scale = _SCALE.match(sentence, at + len(text))
    return sentence[start : scale.end() if scale else at + len(text)]


def _with_list_tail(sentence: str, text: str) -> str:
    """A name that begins a list answers with the whole list: "depots in Ashford, Kelton
    and Marsh End" answers "where" with all three, where NER may read "Kelton and Marsh End"
    as one organisation."""
    at = sentence.find(text)
    tail = _LIST_TAIL.match(sentence, at + len(text)) if at >= 0 else None
    if tail is None:
        return text
    listed = tail.group(0)
    if tail.end() >= len(sentence.rstrip()) and listed.endswith("."):
        listed = listed[:-1]  # the sentence's full stop, not the last name's
    return text + listed


def _joined(sentence: str, found: list[str]) -> list[str]:
    """Entities written next to each other with a comma between them are one answer
    ("Millbrook, Oregon"; "May 4 and 5, 2019" stays as NER found it)."""
    out: list[str] = []
    for text in found:
        if out and f"{out[-1]}, {text}" in sentence:
            out[-1] = f"{out[-1]}, {text}"
        else:
            out.append(text)
    return out


def _life_half(sentence: str, question: str) -> tuple[int, int] | None:
    """The half of a biography's lifespan the question asks about: the birth half for "born",
    the death half for "died"; None when it asks neither or the sentence gives no lifespan."""
    halves = lifespan(sentence)
    if halves is None:
        return None
    said = {f for w in words(question) for f in forms(w)}
    if said & _BIRTH:
        return halves[0]
    if said & _DEATH:
        return halves[1]
    return None


def asked_figure(sentence: str, question: str) -> str | None:
    """The figure ``sentence`` gives what the question asks for ("What is the museum's
    budget?" and "The museum's budget of £4.2m ..." -> £4.2m; ``reader.nouns.valued``)."""
    noun = asked_noun(interrogative_sentence(question))
    return valued(sentence, noun) if noun else None


def asked_completion(sentence: str, question: str, about_subject: bool) -> str | None:
    """What ``sentence`` says the noun "of what" completes is of ("... known for his bold
    depictions of what?" and "... known for his bold depictions of harbour towns" -> harbour
    towns; ``reader.nouns.completes``): in a sentence about the question's subject, or
    describing the noun as the question does. "What is Greyfoss an instance of?" asks for
    the class a sentence about the subject puts it in ("Greyfoss is a tall waterfall ..." ->
    waterfall; ``reader.nouns.class_of``)."""
    asking = interrogative_sentence(question)
    subject = asked_class(asking)
    if subject is not None:
        return class_of(sentence, subject)
    asked = of_what(asking)
    if asked is None or not (about_subject or asked[1]):
        return None
    found = completes(sentence, *asked)
    return None if found is None or _echoes(found, question) else found


def the_asked(sentence: str, question: str) -> str | None:
    """The name ``sentence`` says is what the question asks for ("Which
    waterfall ...?" and "Greyfoss is a waterfall on the Elm" -> Greyfoss), when the question
    does not name it already (``reader.nouns``)."""
    noun = asked_noun(interrogative_sentence(question))
    name = called(sentence, noun) if noun else None
    return None if name is None or _echoes(name, question) else name
