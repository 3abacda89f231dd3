"""A question that describes its subject by a clause, read in two steps (``reader.compose``).
Real trained pipeline and embedder, invented passages."""

from __future__ import annotations

import pytest

from reader.answer_types import Ner
from reader.compose import Described, described, descriptions, walk
from reader.extractive import extractive_answer, one_part_reader
from reader.sentence_rank import sentence_candidates
from reader.settings import ReaderSettings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.unit.conftest import Doc


@pytest.mark.parametrize(
    ("question", "want"),
    [
        (
            "Who runs the port that Ann Lee founded?",
            Described("the port that Ann Lee founded", ("Ann Lee",)),
        ),
        (
            "Who governed the country where Ann Lee was born?",
            Described("the country where Ann Lee was born", ("Ann Lee",)),
        ),
        # "Of" a name describes too, innermost first.
        (
            "Who led the country where the author of Harbour Tales was born?",
            Described("the author of Harbour Tales", ("Harbour Tales",)),
        ),
        # What the question's copula says the interrogative is, is what it asks.
        ("Who was the first chair of the Harbour Guild?", None),
        # What a sentence says its subject became is no way to another subject.
        ("When did Ostland become a member of the Elm League?", None),
        # The asked noun's own clause is the question, not a way to its subject.
        ("Which port that Ann Lee founded is the oldest?", None),
        # A clause that holds the interrogative asks; it describes nothing.
        ("Ostland joined a union that Ann Lee led when?", None),
        # A clause that names nothing gives no way in.
        ("Who led the country where the painter was born?", None),
    ],
)
def test_the_described_phrase_is_a_noun_with_a_clause_or_of_that_names_something(
    ner: Ner, question: str, want: Described | None
) -> None:
    assert described(question) == want


def test_descriptions_come_innermost_first(ner: Ner) -> None:
    question = "Who led the country where the author of Harbour Tales was born?"
    assert [d.phrase for d in descriptions(question)] == [
        "the author of Harbour Tales",
        "the country where the author of Harbour Tales was born",
    ]


_EVIDENCE = [
    Doc("a", "Ann Lee", "Ann Lee is a painter. She was born in Varn, a town in Ostland."),
    Doc(
        "b",
        "Ostland",
        "Ostland is a small republic on the coast. From 1990 to 2004 the republic was led "
        "by President Tom Hale, a former judge.",
    ),
    Doc("c", "Brook Hale", "Brook Hale painted portraits of the judges of Norland."),
]
_QUESTION = "Who led the country where Ann Lee was born?"
# The leader's page is not titled with the country, which too many pages name for a chain's
# second hop to follow.
_UNLINKED = [
    Doc("a", "Ann Lee", "Ann Lee was born in Varn, a town in Ostland, to judge Brook Hale."),
    Doc("d", "Coastal republics", "From 1990 to 2004 Ostland was led by Tom Hale."),
    Doc("e", "Varn", "Varn is a market town in Ostland with a large harbour."),
    Doc("f", "Elm River", "The Elm River flows through Ostland to the sea."),
]


def test_the_description_is_answered_then_the_question_about_the_name_found(ner: Ner) -> None:
    embedder, opts = SentenceTransformerEmbedder(), ReaderSettings()
    cands = sentence_candidates(_EVIDENCE, opts.min_words, ner)
    read = one_part_reader(cands, embedder, opts)
    got = walk(_QUESTION, cands, [True] * len(cands), embedder, opts, read).best
    assert got is not None
    assert got.question == "Who led Ostland?"
    assert [s.name for s in got.steps] == ["Ostland"]
    assert "Ann Lee" in cands[got.steps[0].index].passage.text
    assert (got.phrase, cands[got.index].passage.chunk_id) == ("Tom Hale", "b")


def test_the_two_step_answer_leads_where_no_second_hop_links_the_name(ner: Ner) -> None:
    """The sentence about Ann Lee's birth names a person and ranks first; the leader's
    sentence is on a page not titled with the country, which too many pages name for a
    chain's second hop (``reader.chain``) to follow. The two-step reading answers "Who led
    Ostland?" from the sentences that mention it."""
    evidence = _UNLINKED
    opts = ReaderSettings()
    ex = extractive_answer(_QUESTION, evidence, SentenceTransformerEmbedder(), ner=ner)
    assert ex.answer.startswith("Tom Hale [d]"), ex.answer
    assert {"a", "d"} <= {cid for _, cid in ex.sentences}
    off = opts.model_copy(update={"compose_steps": 0})
    before = extractive_answer(
        _QUESTION, evidence, SentenceTransformerEmbedder(), ner=ner, options=off
    )
    assert not before.answer.startswith("Tom Hale"), before.answer


def test_without_a_sentence_about_the_name_found_there_is_no_two_step_answer(ner: Ner) -> None:
    embedder, opts = SentenceTransformerEmbedder(), ReaderSettings()
    evidence = [d for d in _EVIDENCE if d.chunk_id != "b"]
    cands = sentence_candidates(evidence, opts.min_words, ner)
    read = one_part_reader(cands, embedder, opts)
    assert walk(_QUESTION, cands, [True] * len(cands), embedder, opts, read).best is None


def test_a_name_of_another_kind_than_the_described_noun_is_not_tried(ner: Ner) -> None:
    """ "The county where Varn is" is Kelton County, which no other sentence mentions; the
    country the same sentence names is no county, so its council does not answer."""
    embedder, opts = SentenceTransformerEmbedder(), ReaderSettings()
    evidence = [
        Doc("a", "Varn", "Varn is a village in Kelton County, Ostland."),
        Doc("b", "Ostland", "The council of Ostland was chaired by Tom Hale from 1990."),
    ]
    cands = sentence_candidates(evidence, opts.min_words, ner)
    read = one_part_reader(cands, embedder, opts)
    question = "Who chaired the council of the county where Varn is located?"
    assert described(question) == Described("the county where Varn is located", ("Varn",))
    assert walk(question, cands, [True] * len(cands), embedder, opts, read).best is None


def test_the_question_left_when_the_names_page_is_missing_is_unanswered(ner: Ner) -> None:
    """Ann Lee's page names her birthplace, and nothing about Ostland is in the evidence:
    "Who led Ostland?" is what to retrieve next."""
    embedder, opts = SentenceTransformerEmbedder(), ReaderSettings()
    evidence = [d for d in _EVIDENCE if d.chunk_id != "b"]
    cands = sentence_candidates(evidence, opts.min_words, ner)
    read = one_part_reader(cands, embedder, opts)
    left = walk(_QUESTION, cands, [True] * len(cands), embedder, opts, read).unanswered
    assert left[0] == "Who led Ostland?", left
    full = sentence_candidates(_EVIDENCE, opts.min_words, ner)
    read = one_part_reader(full, embedder, opts)
    assert walk(_QUESTION, full, [True] * len(full), embedder, opts, read).unanswered == ()
