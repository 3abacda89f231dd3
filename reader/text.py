"""The reader's text toolkit: word, year and name-span patterns and the joiner sets, in one place.

These were copied from module to module and drifted; they are gathered here unchanged, each
variant named for what it matches, so that answers stay byte-identical. Where two variants
differ, the difference is said beside them: folding them into one is a change to measure, not
a tidy-up. (``core.names.unqualified_name`` strips a title's qualifier.)
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# A word: a letter, then letters, digits, apostrophes and hyphens ("O'Neill", "re-election");
# numbers are not words.
WORD = re.compile(r"[^\W\d_][\w'’\-]*")
# A word or a number ("1,200", "3.5"): the tokens of a question, whose numbers count.
WORD_OR_NUMBER = re.compile(r"[^\W\d_][\w'’\-]*|\d[\d,.]*")

# A year from 1000 to 2099 ("1961").
YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
# The same, or its decade ("the 1960s"): a date an answer may give.
YEAR_OR_DECADE = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")

# Lower-case words inside a name ("Bank of England", "Ludwig van Beethoven").
NAME_JOINER_WORDS = "of|the|and|de|von|van"
NAME_JOINERS = frozenset(NAME_JOINER_WORDS.split("|"))
# The same and the particles of titles and places ("Leonardo da Vinci", "Stratford on Avon"):
# words that do not count against a title being a name.
TITLE_JOINERS = NAME_JOINERS | {"da", "du", "la", "le", "in", "on"}

# Capitalised words in a row ("Marta Kowal"), no joiners: the names of a list in a sentence.
NAME_WORDS = r"[A-Z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*)*"
# A name that may open with "the", with joiners and numbered words ("the Bank of England",
# "Apollo 11"): an option at a question's end.
OPTION_SPAN = (
    r"(?:the\s+)?[A-Z][\w'’.\-]*(?:\s+(?:(?:of|the|and the|de|von|van)\s+)?[A-Z0-9][\w'’.\-]*)*"
)
# A name in a question, not inside a word, with joiners ("Walk from the Shore", "Anna von
# Lindberg").
QUESTION_NAME = re.compile(
    r"(?<![\w'’])[A-Z][\w'’\-]*(?:\s+(?:(?:of|the|from|von|van|de|la|and the)\s+)?[A-Z][\w'’\-]*)*"
)


# Words of one family share their first five letters: "published" / "publication",
# "director" / "directed". Looser than lemmas, for matching a question's words to evidence.
FAMILY_LETTERS = 5


def mentions(text: str, term: str) -> bool:
    """Whether ``term`` stands in ``text`` as whole words ("Lee" in "Ann Lee's", not in
    "Leeds"); both as the caller cased them."""
    return re.search(rf"\b{re.escape(term)}\b", text) is not None


def one_family(a: str, b: str) -> bool:
    """Whether two words (lower case) are one word family by ``FAMILY_LETTERS``."""
    n = FAMILY_LETTERS
    return a == b or (len(a) >= n and len(b) >= n and a[:n] == b[:n])


# A biography's "(7 March 1901, Leeds – 2 May 1960, York)": birth before the dash, death
# after it. A hyphen counts as the dash between spaces or right after a year ("1782- 1858").
_PARENTHESIS = re.compile(r"\(([^()]*)\)")
_LIFE_DASH = re.compile(r"\s*[–—]\s*|\s+-\s+|(?<=\d)-(?=\s*\d)")


def lifespan(sentence: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Character spans of the birth and the death half of the sentence's first parenthesis
    that gives a year on each side of a dash; None when it has none."""
    for m in _PARENTHESIS.finditer(sentence):
        dash = _LIFE_DASH.search(m.group(1))
        if dash is None:
            continue
        start, cut, end = m.start(1), m.start(1) + dash.start(), m.end(1)
        if YEAR.search(sentence, start, cut) and YEAR.search(
            sentence, cut + len(dash.group()), end
        ):
            return (start, cut), (cut + len(dash.group()), end)
    return None


# --- Lemmas -------------------------------------------------------------------------------
# Words are matched across a question and its evidence by lemma: "chairs", "chaired" and
# "chairing" meet on "chair", "priorities" on "priority", "born" on "bear". The lemmas are the
# trained spaCy pipeline's own (its lemmatizer's exception lists, suffix rules and word index),
# read for each word on its own: a word's noun, verb and adjective readings, each kept only
# when the pipeline knows the form it yields. Tagging the evidence in context was measured and
# not taken: on 60 HotpotQA passages, in one process, the tagger pipeline read 922 tokens a
# second and these look-ups 26,600 words a second, uncached (docs/benchmarks.md, "Lemmas");
# an answer reads every sentence of a dozen passages.

_READINGS = ("noun", "verb", "adj")
_POSSESSIVE = re.compile(r"['’]s$")


class _LemmaTables:
    """The lemmatizer's tables, per part of speech: exceptions, suffix rules, known lemmas."""

    def __init__(
        self,
        exceptions: dict[str, dict[str, list[str]]],
        rules: dict[str, list[list[str]]],
        index: dict[str, frozenset[str]],
    ) -> None:
        self.exceptions = exceptions
        self.rules = rules
        self.index = index

    def reading(self, word: str, pos: str, unknown: bool = False) -> str | None:
        """The lemma of lower-case ``word`` read as ``pos``, or None when the pipeline knows
        no such reading ("king" is no verb form; "kings" is a noun form of "king"). With
        ``unknown``, a word the index lacks gets the first suffix rule's form, as spaCy gives an
        unknown word ("cafés" -> café)."""
        exc = self.exceptions.get(pos, {}).get(word)
        if exc:
            return exc[0]
        known = self.index.get(pos, frozenset())
        guess = None
        for old, new in self.rules.get(pos, []):
            if word.endswith(old) and len(word) > len(old):
                form = word[: len(word) - len(old)] + new
                if form in known:
                    return form
                guess = guess or form
        if word in known:
            return word
        return guess if unknown else None


@lru_cache(maxsize=1)
def _tables() -> _LemmaTables | None:
    """The tables of the default trained pipeline, loaded once (about 1.4 s); None when no
    trained pipeline is installed, and words then match as written (lower case)."""
    from extraction.nlp import AUTO, resolve_model

    model = resolve_model(AUTO)
    if not model:
        return None
    import spacy

    nlp = spacy.load(model, exclude=list(_PIPES_BUT_LEMMATIZER))
    lookups: Any = getattr(nlp.get_pipe("lemmatizer"), "lookups")  # noqa: B009 - untyped
    exc, rules, index = (lookups.get_table(t) for t in ("lemma_exc", "lemma_rules", "lemma_index"))
    return _LemmaTables(
        exceptions={p: dict(exc.get(p, {})) for p in _READINGS},
        rules={p: list(rules.get(p, [])) for p in _READINGS},
        index={p: frozenset(index.get(p, [])) for p in _READINGS},
    )


_PIPES_BUT_LEMMATIZER = ("tok2vec", "tagger", "parser", "senter", "attribute_ruler", "ner")


def _clean(word: str) -> str:
    return _POSSESSIVE.sub("", word.lower()).strip("'’.,")


@lru_cache(maxsize=65536)  # once per word: every evidence sentence is read through it
def readings(word: str) -> tuple[str, ...]:
    """The word's lemmas as a noun, a verb and an adjective, those the pipeline knows, in that
    order ("chairs" -> chair; "left" -> left, leave)."""
    w = _clean(word)
    tables = _tables()
    if tables is None:
        return (w,)
    found = [r for p in _READINGS if (r := tables.reading(w, p)) is not None]
    # A word the pipeline knows in no reading (a name, a rare word) is read as a noun, as
    # spaCy reads it: "Halvorsens" -> halvorsen.
    return tuple(dict.fromkeys(found)) or (tables.reading(w, "noun", unknown=True) or w,)


def lemma(word: str) -> str:
    """One lemma for a word, its noun reading first: the key names and content words are
    matched by ("priorities" and "priority" -> priority)."""
    return readings(word)[0]


@lru_cache(maxsize=65536)
def verb_lemma(word: str) -> str:
    """One lemma for a relation word, its verb reading first ("starred", "stars" -> star;
    "director" -> director): what a question's relation words are kept as."""
    w = _clean(word)
    tables = _tables()
    if tables is not None:
        for pos in ("verb", "noun", "adj"):
            if (r := tables.reading(w, pos)) is not None:
                return r
    return w


@lru_cache(maxsize=65536)
def forms(word: str) -> frozenset[str]:
    """Every key a sentence's word answers to: all its readings and the word as written, so a
    question's ``verb_lemma`` or ``lemma`` meets it in any of its forms."""
    return frozenset((*readings(word), _clean(word)))
