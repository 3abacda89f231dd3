"""The evidence the LLM reads: the best sentences of each chunk, verbatim, under its id."""

from __future__ import annotations

import pytest

from agents.focus import focused
from agents.models import EvidenceBundle, EvidenceItem
from extraction.chunking import split_sentences
from reader.answer_types import Ner, spacy_ner
from retrieval.embedder import SentenceTransformerEmbedder

FILLER = [
    "The station has two platforms and a footbridge.",
    "Its ticket office opens at six in the morning.",
    "A car park with forty spaces lies beside the line.",
    "The waiting room was rebuilt after a fire.",
]


def _item(chunk_id: str, title: str, text: str) -> EvidenceItem:
    return EvidenceItem(chunk_id=chunk_id, doc_id=chunk_id, doc_title=title, text=text, score=1.0)


EVIDENCE = EvidenceBundle(
    items=[
        _item(
            "film",
            "The Quiet Harbour",
            "The Quiet Harbour is a 1998 drama film. "
            + " ".join(FILLER)
            + " The film was directed by Marta Kowal.",
        ),
        _item(
            "kowal",
            "Marta Kowal",
            "Marta Kowal is a Polish director. "
            + " ".join(FILLER[:2])
            + " She was born in Gdansk in 1961.",
        ),
        _item("station", "Brill station", " ".join(FILLER)),
    ]
)


@pytest.fixture(scope="module")
def embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


@pytest.fixture(scope="module")
def ner() -> Ner:
    found = spacy_ner("auto")
    assert found is not None, "make installs en_core_web_sm"
    return found


def test_the_chain_sentences_are_kept_verbatim_under_their_chunk(
    embedder: SentenceTransformerEmbedder, ner: Ner
) -> None:
    question = "Where was the director of The Quiet Harbour born?"
    out = focused(question, EVIDENCE, embedder, 4, ner)
    text = {i.chunk_id: i.text for i in out.items}
    assert list(text) == ["film", "kowal"]  # the station says nothing the question asks
    assert "The film was directed by Marta Kowal." in text["film"]
    assert "She was born in Gdansk in 1961." in text["kowal"]
    # Each kept chunk keeps its first sentence: it names who "she" is.
    assert text["kowal"].startswith("Marta Kowal is a Polish director.")
    whole = {i.chunk_id: split_sentences(i.text) for i in EVIDENCE.items}
    for item in out.items:
        kept = split_sentences(item.text)
        assert set(kept) <= set(whole[item.chunk_id])
        # In the chunk's own order.
        assert kept == [s for s in whole[item.chunk_id] if s in kept]
    assert sum(len(i.text) for i in out.items) < sum(len(i.text) for i in EVIDENCE.items)
    # Everything else about a kept chunk (tag, title, score) is as it was.
    original = EVIDENCE.by_id()
    for item in out.items:
        assert item.model_dump(exclude={"text"}) == original[item.chunk_id].model_dump(
            exclude={"text"}
        )


def test_small_evidence_and_zero_keep_are_left_whole(embedder: SentenceTransformerEmbedder) -> None:
    question = "Where was the director of The Quiet Harbour born?"
    assert focused(question, EVIDENCE, embedder, 100) == EVIDENCE
    assert focused(question, EVIDENCE, embedder, 0) == EVIDENCE
