"""Readers for the HippoRAG-format multi-hop sets in ``../shared/bench/multihop/``.

A corpus is a list of ``{title, text}`` or a dict ``title -> [sentences]`` (HotpotQA). Questions
come in two shapes: MuSiQue (``paragraphs`` with ``is_supporting``) and HotpotQA/2Wiki
(``supporting_facts`` as ``[title, sentence index]`` plus ``context`` as ``[title, sentences]``).

Gold passages are resolved to corpus *indices*, not titles: MuSiQue's corpus repeats titles for
different paragraphs, so a title alone would credit the wrong passage.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import InputError


@dataclass(frozen=True)
class Passage:
    index: int
    title: str
    text: str


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    # One entry per gold passage: the corpus indices that count as that passage (one index
    # unless the question file names a duplicated title without its text).
    gold: tuple[frozenset[int], ...]
    gold_titles: tuple[str, ...]


def corpus_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _load_json(path: Path) -> Any:
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise InputError(str(path), "no such file") from exc
    except UnicodeDecodeError as exc:
        raise InputError(str(path), f"not valid UTF-8 (offset {exc.start})") from exc
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(
            str(path), f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc


def read_corpus(path: Path) -> list[Passage]:
    """The passages in file order; the index matches the loader's ``<uri>#<index>``."""
    data = _load_json(path)
    if isinstance(data, dict):
        passages = []
        for i, (title, sentences) in enumerate(data.items()):
            if not isinstance(sentences, list):
                raise InputError(str(path), f"corpus entry {title!r} is not a list of sentences")
            # Joined exactly as extraction.loaders does, so texts compare equal.
            passages.append(Passage(i, str(title), "".join(str(s) for s in sentences)))
    elif isinstance(data, list):
        passages = []
        for i, item in enumerate(data):
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise InputError(str(path), f"corpus item {i} is not an object with a 'text'")
            passages.append(Passage(i, str(item.get("title", "")), item["text"]))
    else:
        raise InputError(str(path), "corpus JSON must be a list of {title, text} or a dict")
    if not passages:
        raise InputError(str(path), "corpus holds no passages")
    return passages


def _key(text: str) -> str:
    # Question files and corpora differ in Unicode form and whitespace runs only.
    return " ".join(unicodedata.normalize("NFC", text).split())


class _CorpusIndex:
    def __init__(self, passages: Sequence[Passage]) -> None:
        self.by_pair: dict[tuple[str, str], list[int]] = {}
        self.by_title: dict[str, list[int]] = {}
        for p in passages:
            self.by_pair.setdefault((_key(p.title), _key(p.text)), []).append(p.index)
            self.by_title.setdefault(_key(p.title), []).append(p.index)

    def resolve(self, title: str, text: str | None) -> frozenset[int] | None:
        if text is not None:
            hit = self.by_pair.get((_key(title), _key(text)))
            if hit:
                return frozenset(hit)
        hit = self.by_title.get(_key(title))
        # Without a text match only an unambiguous title identifies the passage; a duplicated
        # title is accepted as "any of these" only when the file gave no text to tell them apart.
        if hit and (text is None or len(hit) == 1):
            return frozenset(hit)
        return None


def read_questions(path: Path, passages: Sequence[Passage]) -> list[Question]:
    """Questions with their gold passages resolved against ``passages``.

    A gold passage missing from the corpus is an ``InputError``: it means the question file
    and corpus do not belong together, and recall would silently drop.
    """
    data = _load_json(path)
    if not isinstance(data, list):
        raise InputError(str(path), "questions JSON must be a list of objects")
    index = _CorpusIndex(passages)
    questions = []
    for n, item in enumerate(data):
        where = f"question {n}"
        if not isinstance(item, dict) or not isinstance(item.get("question"), str):
            raise InputError(str(path), f"{where} is not an object with a 'question' string")
        if "paragraphs" in item:
            refs = _musique_gold(path, where, item["paragraphs"])
        elif "supporting_facts" in item:
            refs = _hotpot_gold(path, where, item["supporting_facts"], item.get("context"))
        else:
            raise InputError(str(path), f"{where} has neither 'paragraphs' nor 'supporting_facts'")
        gold = []
        for title, text in refs:
            found = index.resolve(title, text)
            if found is None:
                raise InputError(str(path), f"{where}: gold passage {title!r} is not in the corpus")
            gold.append(found)
        qid = str(item.get("id", item.get("_id", n)))
        questions.append(
            Question(qid, item["question"], tuple(gold), tuple(title for title, _ in refs))
        )
    return questions


def _musique_gold(path: Path, where: str, paragraphs: Any) -> list[tuple[str, str | None]]:
    if not isinstance(paragraphs, list):
        raise InputError(str(path), f"{where}: 'paragraphs' is not a list")
    refs: list[tuple[str, str | None]] = []
    for p in paragraphs:
        if not isinstance(p, dict) or "title" not in p:
            raise InputError(str(path), f"{where}: a paragraph is not an object with a 'title'")
        if p.get("is_supporting") in (True, "True", "true", 1):
            text = p.get("paragraph_text", p.get("text"))
            refs.append((str(p["title"]), text if isinstance(text, str) else None))
    return refs


def _hotpot_gold(path: Path, where: str, facts: Any, context: Any) -> list[tuple[str, str | None]]:
    if not isinstance(facts, list) or not all(
        isinstance(f, list | tuple) and f and isinstance(f[0], str) for f in facts
    ):
        raise InputError(str(path), f"{where}: 'supporting_facts' must be [title, sentence] pairs")
    texts: dict[str, str] = {}
    if isinstance(context, list):
        for entry in context:
            if isinstance(entry, list | tuple) and len(entry) == 2 and isinstance(entry[1], list):
                texts.setdefault(str(entry[0]), "".join(str(s) for s in entry[1]))
    titles = list(dict.fromkeys(str(f[0]) for f in facts))
    return [(t, texts.get(t)) for t in titles]


def read_question_texts(path: Path) -> list[str]:
    """Only the question strings of a question file (gold is not needed to time retrieval)."""
    data = _load_json(path)
    if not isinstance(data, list):
        raise InputError(str(path), "questions JSON must be a list of objects")
    texts = []
    for n, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("question"), str):
            raise InputError(str(path), f"question {n} is not an object with a 'question' string")
        texts.append(item["question"])
    return texts


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
DERIVED_WORDS = 25


def derived_questions(passages: Sequence[Passage], count: int, seed: int = 0) -> list[str]:
    """Questions made from the corpus itself: the first sentence of sampled passages, cut to
    ``DERIVED_WORDS`` words. They name the corpus's own entities, so entity linking and graph
    expansion do their full work, as they would on real questions about this corpus."""
    usable = [p for p in passages if len(p.text.split()) >= 5]
    picked = random.Random(seed).sample(usable, min(count, len(usable)))
    questions = []
    for p in picked:
        first = _SENTENCE_END.split(p.text.strip(), maxsplit=1)[0]
        questions.append(" ".join(first.split()[:DERIVED_WORDS]))
    return questions
