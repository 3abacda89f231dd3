"""Question grammar (parts, kinds, words) and sentence facts, on made-up sentences."""

from __future__ import annotations

import pytest

from reader.answer_facts import carries, coverage, item_head, numbers_in, sentence_lemmas
from reader.question import analyse, part_queries, split_parts
from reader.text import forms, lemma, verb_lemma


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many moons does Jupiter have?", "NUMBER"),
        ("What percentage of voters chose Smith?", "NUMBER"),
        ("By how much will the trust cut the use of restraint?", "NUMBER"),
        ("When was the bridge opened?", "DATE"),
        ("In what year did the war end?", "DATE"),
        ("Who wrote the novel?", "PERSON"),
        ("Which actor played the lead?", "PERSON"),
        ("Where is the museum?", "PLACE"),
        ("In which county is the village?", "PLACE"),
        ("What is the capital of the region?", "PLACE"),
        ("What was the birthplace of the painter?", "PLACE"),
        ("What is the hometown of the band?", "PLACE"),
        ("What are the aims of the plan?", "LIST"),
        ("Are both bands from the same city?", "YESNO"),
        ("What is the name of the ship?", "THING"),
        # A title starting "How to" does not ask; the interrogative comes later.
        ("How to Cook, released in which year, is a cookbook by Ann Lee?", "DATE"),
        # A period after an initial or a title ends no sentence: the question is whole.
        ("In what county is the town where Ann B. Lee was born?", "PLACE"),
        ("In which year did Dr. Grey open the clinic?", "DATE"),
        # A sentence that sets the scene, then the one that asks.
        ("The Fens is an album by a band from Leeds. Who produced it?", "PERSON"),
    ],
)
def test_kind_of_answer_from_the_question_grammar(question: str, kind: str) -> None:
    assert [p.kind for p in analyse(question)] == [kind]


def test_two_questions_joined_by_and_are_two_parts() -> None:
    q = "How many bridges will the city build and how many trains will it buy?"
    assert split_parts(q) == [
        "How many bridges will the city build",
        "how many trains will it buy",
    ]
    # "and" inside one question does not split it.
    assert len(split_parts("Who founded Acme and Beta Corp?")) == 1
    # A later part saying "it" gets the earlier part's names for its own retrieval.
    assert (
        part_queries("How many staff does Acme Ltd have and how many sites does it run?")[1]
        == "how many sites does it run (Acme Ltd)"
    )


def test_relation_and_name_words() -> None:
    (part,) = analyse("Who directed the film Blue Harbour?")
    assert part.relation_words == ("direct", "film")
    assert part.name_words == ("blue", "harbour")
    assert lemma("priorities") == lemma("priority") and lemma("cafés") == lemma("café")
    # A word the lemmatizer does not know is read as a noun: both forms meet.
    assert lemma("Halvorsens") == lemma("Halvorsen")


def test_a_fact_must_be_new_and_of_the_asked_kind() -> None:
    q = "How many staff did Acme hire in 2020?"
    assert carries("NUMBER", "In 2020 Acme hired 340 staff.", q)
    # The only number is the question's own year: nothing new.
    assert not carries("NUMBER", "Acme hired staff in 2020 as well.", q)
    assert carries("NUMBER", "Acme opened offices in Leeds, York and Hull.", q)
    assert carries("DATE", "The bridge opened in March 1932.", "When did the bridge open?")
    assert not carries("DATE", "The bridge is long.", "When did the bridge open?")
    assert carries("PERSON", "It was directed by Ann Lee.", "Who directed Blue Harbour?")
    # A sentence repeating the question's names only does not name anyone new.
    assert not carries("PERSON", "Blue Harbour is a film.", "Who directed Blue Harbour?")


def test_enumerated_items_share_a_head() -> None:
    assert item_head("Goal one is cleaner air.") == item_head("Goal two is less noise.")
    assert item_head("First, the roads are mended.") == "ordinal"
    assert item_head("2. Train more staff.") == "mark"
    assert item_head("The goal is cleaner air.") is None


def test_a_subject_named_through_another_thing_is_told_apart() -> None:
    from reader.question import names_through_another

    assert names_through_another("When did the city where the next Olympics are held fall?")
    assert names_through_another("What label signed the band that recorded Mercy?")
    assert names_through_another("Who founded the same company as Jan Koum?")
    assert not names_through_another("Which city is the capital of Wales?")
    assert not names_through_another("Who wrote a song after attending a luau in Laie?")
    assert not names_through_another("Where was Duffy born?")


def test_the_sentence_that_asks_gives_the_kind() -> None:
    # The first sentence sets the scene; the second asks.
    q = "Ann Lee directed Blue Harbour. Did she also direct Grey Water?"
    assert [p.kind for p in analyse(q)] == ["YESNO"]
    q = "Blue Harbour is a film by Ann Lee. Which actor played its lead?"
    assert [p.kind for p in analyse(q)] == ["PERSON"]


def test_the_clause_that_asks_gives_the_focus_words() -> None:
    (part,) = analyse("Ann Lee starred in a series that originally aired on what network?")
    assert part.focus_words == ("originally", "air", "network")
    assert {"star", "series"} <= set(part.relation_words)
    (part,) = analyse("Grey Water was printed by a firm founded in 1990, and is based where?")
    assert part.focus_words == ("base",)
    # A question that starts with its interrogative is not cut: its relation may come last.
    (part,) = analyse("In what year was the man who founded Acme born?")
    assert part.focus_words == ()


def test_a_relation_word_meets_the_sentence_in_any_verb_form() -> None:
    assert verb_lemma("chairs") == verb_lemma("chaired") == verb_lemma("chairing") == "chair"
    assert verb_lemma("starred") == verb_lemma("starring") == "star"
    assert verb_lemma("studied") == "study" and verb_lemma("speed") == "speed"
    assert verb_lemma("king") == "king" and verb_lemma("born") == "bear"
    # "released" asks, "release" answers, and the other way round.
    assert verb_lemma("released") in forms("release")
    assert verb_lemma("release") in forms("released")
    assert "plane" not in forms("planned")
    (part,) = analyse("Who chairs the board of Kelby Trust?")
    sentence = "The board of directors is chaired by Tom Ash."
    assert coverage(part, sentence, "Kelby Trust Annual Plan")[0] == 1.0
    assert verb_lemma("chaired") in sentence_lemmas(sentence)


def test_quantities_are_not_ordinals_years_or_days() -> None:
    q = "How many times was Ann Lee elected?"
    assert numbers_in("It was the 27th election, held on 25 April 1845 and May 3, 1990.") == []
    assert numbers_in("She was a two-time winner, elected twice.") == ["two-time", "twice"]
    assert numbers_in("It sold 1,200 copies in 1990.") == ["1,200"]
    assert not carries("NUMBER", "Ann Lee (25 April 1845 – 3 May 1925) was a mayor.", q)
    assert carries("NUMBER", "Ann Lee was a two-time mayor.", q)
    # A compound's parts count as the sentence's words: "two-time" uses "time".
    assert "time" in sentence_lemmas("Ann Lee was a two-time mayor.")
