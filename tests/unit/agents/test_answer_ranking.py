"""The offline answer's rules on made-up texts: the asked-for type, ranking sentences that
hold it above those that only share the question's names, the multi-hop bridge, the short
answer first, yes/no verdicts, and confidence that is never HIGH without the asked-for fact."""

from __future__ import annotations

import pytest

from agents.confidence import cap_by_parts
from reader.answer_types import Ner, candidates, short_answer
from reader.extractive import extractive_answer
from reader.question import analyse
from reader.reading import PartAnswer
from reader.settings import ReaderSettings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.unit.conftest import Doc


@pytest.fixture(scope="module")
def embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Jon Bell is father to which Bollywood actress?", "PERSON"),
        ("Toad Hall is a hall in a university located in what Australian city?", "PLACE"),
        ("In which year did the mill close?", "DATE"),
        ("What genre is the author associated with?", "THING"),
    ],
)
def test_the_asked_noun_may_follow_its_modifiers(question: str, kind: str) -> None:
    assert [p.kind for p in analyse(question)] == [kind]


def test_candidates_are_new_entities_of_the_asked_label() -> None:
    question = "Where is Kestrel Books based?"
    entities = [("Kestrel Books", "ORG"), ("Hullford", "GPE"), ("Norland", "GPE"), ("1999", "DATE")]
    # The question's own name is no candidate; a date does not answer "where".
    assert candidates("PLACE", entities, question) == ["Hullford", "Norland"]
    assert candidates("DATE", entities, question) == ["1999"]
    assert candidates("PERSON", entities, question) == []
    sentence = "Kestrel Books is a publisher based in Hullford, Norland, since 1999."
    assert short_answer("PLACE", sentence, entities, question) == "Hullford, Norland"


def test_a_name_that_begins_a_list_answers_with_the_list() -> None:
    question = "Where will the trust open new cafés?"
    sentence = "We will add cafés in Oakhallow, Wetherdale and Millbridge by March 2027."
    # As the small NER model reads it: the last two places as one organisation.
    entities = [("Oakhallow", "GPE"), ("Wetherdale and Millbridge", "ORG"), ("March 2027", "DATE")]
    listed = "Oakhallow, Wetherdale and Millbridge"
    assert short_answer("PLACE", sentence, entities, question) == listed
    sentence = "Good Omens was written by Ann Lee and Bo Tan."
    entities = [("Good Omens", "WORK_OF_ART"), ("Ann Lee", "PERSON"), ("Bo Tan", "PERSON")]
    asked = "Who wrote Good Omens?"
    assert short_answer("PERSON", sentence, entities, asked) == "Ann Lee and Bo Tan"
    # Numbers and dates are not lists of names.
    sentence = "The cafés open on 3 March and Easter Monday."
    assert short_answer("DATE", sentence, [("3 March", "DATE")], "When?") == "3 March"


def test_an_amount_keeps_its_currency_sign_and_scale() -> None:
    # NER reads "48.5" out of "£48.5m", which alone says neither pounds nor millions.
    sentence = "The capital programme is £48.5m and includes a new centre."
    asked = "How much is the capital programme?"
    assert short_answer("NUMBER", sentence, [("48.5", "MONEY")], asked) == "£48.5m"
    assert (
        short_answer("NUMBER", "Use rose 12% in 2020.", [("12", "PERCENT")], "By how much?")
        == "12%"
    )


def test_the_sentence_holding_the_asked_type_is_quoted_and_its_answer_leads(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    evidence = [
        Doc(
            "c1",
            "Blue Harbour",
            "Blue Harbour is a film about the harbour of Blue Bay and its old film studios. "
            "Blue Harbour was shot in the harbour and premiered at the film festival there.",
        ),
        Doc("c2", "Blue Harbour (crew)", "The film Blue Harbour was directed by Ann Lee."),
    ]
    ex = extractive_answer(
        "Who directed the film Blue Harbour?", evidence, embedder, ner=ner, max_sentences=2
    )
    lead, _, quotes = ex.answer.partition("\n\n")
    assert lead == "Ann Lee [c2]"
    assert quotes.startswith("The film Blue Harbour was directed by Ann Lee. [c2]")
    assert ex.parts[0].found and ex.parts[0].phrase == "Ann Lee"
    # The same Reading gives the LLM reader its sentences: every evidence sentence, ranked,
    # the answering one first.
    assert len(ex.candidates) == len(ex.ranking) == 3
    assert [c.sentence for c in ex.top(1)] == ["The film Blue Harbour was directed by Ann Lee."]
    assert len(ex.top(10)) == 3 and ex.top(0) == []


def test_the_bridge_sentence_of_a_multi_hop_question_is_quoted(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    evidence = [
        Doc(
            "novel",
            "Grey Water",
            "Grey Water is the first novel by Ada Stone. It was published by Kestrel Books.",
        ),
        Doc("stone", "Ada Stone", "Ada Stone is a novelist who writes about rivers and the sea."),
        Doc("rivers", "River novels", "Many first novels are about rivers and the sea."),
        Doc(
            "kestrel",
            "Kestrel Books",
            "Kestrel Books is an independent house. It is based in Hullford, Norland.",
        ),
    ]
    question = "Ada Stone's first novel was published by a house that is based where?"
    ex = extractive_answer(question, evidence, embedder, ner=ner, max_sentences=3)
    assert "Hullford" in ex.answer
    assert ("It is based in Hullford, Norland.", "kestrel") in ex.sentences


def test_the_second_hop_is_answered_on_the_bridge_s_own_page(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    """The series' page names the network; the network's page says who founded it. That
    sentence shares few words with the question, yet it is quoted and its person leads."""
    evidence = [
        Doc(
            "tales",
            "Marsh Tales",
            "Marsh Tales is a children's series about marsh animals. "
            "It aired on Harbour Network in Norland and on other networks across Europe.",
        ),
        Doc("season", "Marsh Tales (season 1)", "Marsh Tales ran for two seasons on networks."),
        Doc(
            "harbour",
            "Harbour Network",
            "Harbour Network is a cable channel for children's series and cartoons. "
            "It was founded by Ann Lee in 1992.",
        ),
        Doc("animals", "Marsh animals", "Marsh animals appear in children's series on networks."),
    ]
    question = "Marsh Tales is on a network founded by who?"
    ex = extractive_answer(question, evidence, embedder, ner=ner, max_sentences=2)
    assert ("It was founded by Ann Lee in 1992.", "harbour") in ex.sentences
    assert ex.answer.startswith("Ann Lee [harbour]")


def _birthplace_chain(extra: list[Doc]) -> list[Doc]:
    return [
        Doc(
            "kim",
            "Bo Kim",
            "Bo Kim (born 4 May 1950 in Fernhollow) is a retired ice hockey player. "
            "He played for three clubs.",
        ),
        Doc(
            "diocese",
            "Northern dioceses",
            "The Diocese of Fernhollow is a diocese of the Reformed Church of Norland.",
        ),
        Doc("stave", "Stave churches", "The Diocese of Eskvik is a diocese of the Old Church."),
        *extra,
    ]


CHURCH = "Of what church is the diocese of the birthplace of Bo Kim?"


def test_the_second_hop_goes_through_a_name_the_first_hop_adds(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    """The birthplace has no page of its own: the sentence naming it answers, and the short
    answer is not the birthplace the chain went through."""
    ex = extractive_answer(CHURCH, _birthplace_chain([]), embedder, ner=ner, max_sentences=3)
    assert ex.answer.startswith("the Reformed Church of Norland [diocese]"), ex.answer


def test_a_name_many_documents_hold_is_no_bridge(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    """Three more documents name the birthplace: no one of them is the chain's second hop,
    so the first hop's own reading stands (the settings say how many documents a bridge may
    have). The two-step reading (``reader.compose``) needs no rare bridge: it reads "the
    birthplace of Bo Kim" as Fernhollow and asks about Fernhollow itself."""
    towns = [
        Doc(f"t{i}", f"Fernhollow {name}", f"Fernhollow {name} is a hall of the {name} Church.")
        for i, name in enumerate(("Green", "Iron", "Salt"))
    ]
    evidence = _birthplace_chain(towns)
    chain_only = ReaderSettings(max_sentences=3, compose_steps=0)
    ex = extractive_answer(CHURCH, evidence, embedder, ner=ner, options=chain_only)
    assert not ex.answer.startswith("the Reformed Church of Norland"), ex.answer
    wide = chain_only.model_copy(update={"hop_bridge_documents": 10})
    ex = extractive_answer(CHURCH, evidence, embedder, ner=ner, options=wide)
    assert ex.answer.startswith("the Reformed Church of Norland [diocese]"), ex.answer
    ex = extractive_answer(CHURCH, evidence, embedder, ner=ner, max_sentences=3)
    assert ex.answer.startswith("the Reformed Church of Norland [diocese]"), ex.answer


BOTH = "Are Ann Lee and Bo Kim both film directors?"
# "Does B also have one?": the auxiliary and "one" name no property; the OBE is asked of both.
ALSO = "The director Ann Lee has an OBE. Does the director Bo Kim also have one?"


@pytest.mark.parametrize(
    ("question", "lee", "kim", "verdict"),
    [
        (BOTH, "", " is an English film director", "Yes"),
        (BOTH, "", " is an English painter", "No"),
        (ALSO, ", OBE,", ", OBE, is an English film director", "Yes"),
        (ALSO, ", OBE,", " is an English film director", "No"),
    ],
)
def test_a_yes_no_comparison_gets_a_verdict_from_each_subject(
    ner: Ner,
    embedder: SentenceTransformerEmbedder,
    question: str,
    lee: str,
    kim: str,
    verdict: str,
) -> None:
    evidence = [
        Doc("lee", "Ann Lee", f"Ann Lee{lee} (born 1950) is an American film director."),
        Doc("kim", "Bo Kim", f"Bo Kim (born 1961){kim}."),
    ]
    ex = extractive_answer(question, evidence, embedder, ner=ner)
    assert ex.answer.startswith(f"{verdict} [lee] [kim]\n\n")
    assert {cid for _, cid in ex.sentences} == {"lee", "kim"}
    # A verdict read from word overlap is never HIGH.
    level, _ = cap_by_parts("HIGH", "strong evidence", ex.parts)
    assert level == "MEDIUM"


def test_a_quoted_pronoun_names_its_passage(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    evidence = [
        Doc(
            "ada",
            "Ada Stone",
            "Ada Stone is a novelist from Norland. She was shortlisted for the Hullford Prize "
            "in 2004.",
        ),
    ]
    question = "Which prize was Ada Stone shortlisted for?"
    ex = extractive_answer(question, evidence, embedder, ner=ner)
    assert "She (Ada Stone) was shortlisted for the Hullford Prize in 2004." in ex.answer
    # The sentence itself is kept as the evidence says it.
    assert ("She was shortlisted for the Hullford Prize in 2004.", "ada") in ex.sentences


def test_same_place_questions_compare_the_places_named(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    evidence = [
        Doc("a", "Amble Airport", "Amble Airport is an airport in Dorset, England."),
        Doc("b", "Bexley Airport", "Bexley Airport is an airport in Ohio."),
    ]
    question = "Are Amble Airport and Bexley Airport in the same county?"
    assert extractive_answer(question, evidence, embedder, ner=ner).answer.startswith("No ")


@pytest.mark.parametrize(
    ("kim", "verdict"),
    [(" is an Italian painter. She toured Spain and France", "Yes"), (" is an Irish poet", "No")],
)
def test_same_nationality_is_read_from_each_subjects_own_page(
    ner: Ner, embedder: SentenceTransformerEmbedder, kim: str, verdict: str
) -> None:
    # Other nationalities in a subject's later sentences ("Italy", "French") do not count.
    evidence = [
        Doc(
            "lee", "Ann Lee", "Ann Lee (born 1950) is an Italian poet. She wrote for French papers."
        ),
        Doc("kim", "Bo Kim", f"Bo Kim (born 1961){kim}."),
    ]
    for question in (
        "Are Ann Lee and Bo Kim of the same nationality?",
        "Are both Ann Lee and Bo Kim from the same country?",
    ):
        answer = extractive_answer(question, evidence, embedder, ner=ner).answer
        assert answer.startswith(f"{verdict} [lee] [kim]"), (question, answer[:60])


def _part(
    kind: str, phrase: str | None, support: float = 1.0, top: bool = True, named: float = 1.0
) -> PartAnswer:
    return PartAnswer(
        "who did it",
        kind,
        True,
        "A sentence.",
        "c1",
        support,
        phrase,
        top=top,
        named=named,  # type: ignore[arg-type]
    )


def test_high_needs_a_candidate_of_the_asked_type_in_a_well_matched_sentence() -> None:
    assert cap_by_parts("HIGH", "r", [_part("PERSON", "Ann Lee")])[0] == "HIGH"
    # The asked-for person was not found in the answering sentence: at most MEDIUM.
    assert cap_by_parts("HIGH", "r", [_part("PERSON", None)])[0] == "MEDIUM"
    # A sentence using under half of the question's relation words.
    assert cap_by_parts("HIGH", "r", [_part("PERSON", "Ann Lee", 0.3)])[0] == "MEDIUM"
    # The answering sentence is not the best-ranked one: something else matched better.
    assert cap_by_parts("HIGH", "r", [_part("PERSON", "Ann Lee", top=False)])[0] == "MEDIUM"
    # A name of the question that no evidence holds: the evidence is about something else.
    assert cap_by_parts("HIGH", "r", [_part("PERSON", "Ann Lee", named=0.5)])[0] == "MEDIUM"
    # "Which ..., A or B?" is answered by one of the two, not by a third name.
    choice = "Which singer is American, Mark King or Nick Hexum?"
    assert cap_by_parts("HIGH", "r", [_part("PERSON", "Nick Hexum")], choice)[0] == "HIGH"
    assert cap_by_parts("HIGH", "r", [_part("PERSON", "Bo Kim")], choice)[0] == "MEDIUM"
    # A subject described through another thing is a chain that offline answers do not check.
    through = "Where does the Merrimack River start in the state where the Kraus House is?"
    assert cap_by_parts("HIGH", "r", [_part("PLACE", "Salem")], through)[0] == "MEDIUM"
    same = "In which country is Midway, in the same county as McRae?"
    assert cap_by_parts("HIGH", "r", [_part("PLACE", "Arkansas")], same)[0] == "MEDIUM"
    named = "Who wrote a song after attending a luau in the Koolauloa District?"
    assert cap_by_parts("HIGH", "r", [_part("PERSON", "Jack Owens")], named)[0] == "HIGH"
    # A "what is ..." answer has no type to check.
    assert cap_by_parts("HIGH", "r", [_part("THING", "Blue Bay")])[0] == "MEDIUM"
    missing = PartAnswer("how many", "NUMBER", False, None, None)
    level, reason = cap_by_parts("HIGH", "r", [missing])
    assert level == "LOW" and 'no number found for "how many"' in reason


def test_the_clause_that_asks_outranks_the_words_that_lead_to_its_subject(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    # The portraits sentence shares more of the question's words; the asked clause ("is
    # father to which actress") is what the answering sentence is about.
    evidence = [
        Doc(
            "bell",
            "Jon Bell",
            "Jon Bell (1950-2010) was an Irish film photographer. In his career he took "
            "portraits of stars like Ann Lee, Ben Cole and Cara Day. He was the father of the "
            "actress Dana Bell.",
        ),
        Doc(
            "photo",
            "Film photography",
            "A film photographer takes portraits of stars on the set. Irish film photographers "
            "are known for portraits of stars. Portraits of film stars are known as stills.",
        ),
    ]
    question = (
        "Irish film photographer Jon Bell, known for portraits of stars including Ann Lee, "
        "is father to which actress?"
    )
    ex = extractive_answer(question, evidence, embedder, ner=ner, max_sentences=1)
    assert ex.parts[0].sentence == "He was the father of the actress Dana Bell."
    assert ex.parts[0].phrase == "Dana Bell"
    # Without the asked clause's weight, the sentence sharing more words wins.
    unfocused = ReaderSettings(max_sentences=1, focus_weight=0.0)
    ex = extractive_answer(question, evidence, embedder, ner=ner, options=unfocused)
    assert ex.parts[0].phrase == "Ben Cole and Cara Day"  # the list the name begins


def test_a_candidate_that_only_repeats_the_questions_names_does_not_answer() -> None:
    # "Norland" is the question's "Norlandish" in another form, "St. Hollin" its "Hollin":
    # the question already holds them, so the other place of the sentence answers.
    question = "Marsh Hall is a residence of a Norlandish college in what city?"
    sentence = "Marsh Hall, a residence of a college of Norland, stands in Eastwick."
    entities = [("Marsh Hall", "FAC"), ("Norland", "GPE"), ("Eastwick", "GPE")]
    assert short_answer("PLACE", sentence, entities, question) == "Eastwick"
    question = "The Fall of Hollin is an album by a singer from what state?"
    sentence = "The singer St. Hollin was raised in Dorrow and lives in Ulmer."
    entities = [("St. Hollin", "PERSON"), ("Dorrow", "GPE"), ("Ulmer", "GPE")]
    assert short_answer("PLACE", sentence, entities, question) in ("Dorrow", "Dorrow and Ulmer")
    # With nothing else of the asked type, the repeated name is still the answer.
    only = [("Norland", "GPE")]
    assert short_answer("PLACE", "It is in Norland.", only, "What Norlandish place?") == "Norland"


@pytest.mark.parametrize(
    ("question", "entities", "want"),
    [
        # "What language": a language before the work the sentence also names.
        (
            "What language were the tales of Ann Lee translated into?",
            [("The Harbour Tales", "WORK_OF_ART"), ("Portish", "LANGUAGE")],
            "Portish",
        ),
        # "the name of the band" asks for an organisation, not the person beside it.
        (
            "What is the name of the band founded by the star of Blue Fen?",
            [("Tom Hale", "PERSON"), ("The Quillers", "ORG")],
            "The Quillers",
        ),
        # "In what film": a work, not the people named with it.
        (
            "In what film did Ann Lee play a cat?",
            [("Bo Tan", "PERSON"), ("The Alley Cats", "WORK_OF_ART")],
            "The Alley Cats",
        ),
    ],
)
def test_the_asked_noun_picks_the_label_of_a_thing(
    ner: Ner, question: str, entities: list[tuple[str, str]], want: str
) -> None:
    assert candidates("THING", entities, question) == [want]


def test_a_thing_question_without_a_telling_noun_keeps_every_named_thing(ner: Ner) -> None:
    entities = [("Bo Tan", "PERSON"), ("The Alley Cats", "WORK_OF_ART")]
    assert candidates("THING", entities, "Ann Lee is known for what?") == [
        "Bo Tan",
        "The Alley Cats",
    ]


def test_a_place_asked_for_its_state_or_country_answers_with_that_part() -> None:
    sentence = "The team played in Dale, Ostland, Norland until 1950."
    entities = [("Dale", "GPE"), ("Ostland", "GPE"), ("Norland", "GPE")]
    assert short_answer("PLACE", sentence, entities, "The team was based in what state?") == (
        "Ostland"
    )
    assert short_answer("PLACE", sentence, entities, "In which country did it play?") == "Norland"
    assert short_answer("PLACE", sentence, entities, "Where did the team play?") == (
        "Dale, Ostland, Norland"
    )
    two = [("Dale", "GPE"), ("Ostland", "GPE")]
    assert short_answer("PLACE", "It played in Dale, Ostland.", two, "In what state?") == "Ostland"


def test_a_name_that_carries_the_asked_noun_answers() -> None:
    """Asked for a district, of the places the sentence names the one called a district
    answers, though the river stands nearer the question's words."""
    question = "What district is Walden located in?"
    sentence = (
        "Walden is a village located in the Kelton Municipal District on the shore of the "
        "Ostry River."
    )
    entities = [("Walden", "GPE"), ("the Kelton Municipal District", "LOC"), ("Ostry River", "LOC")]
    assert short_answer(analyse(question)[0].kind, sentence, entities, question) == (
        "the Kelton Municipal District"
    )


def test_a_sentence_that_calls_a_name_the_asked_noun_answers(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    """The city's sentence about its airport ranks first for the question's words and names
    an airline; the sentence that says which name is an airport answers."""
    evidence = [
        Doc(
            "city",
            "Fernhollow",
            "Fernhollow is a harbour city in Ostland. The airport that serves Fernhollow "
            "opened in 1961 and serves Norland Air.",
        ),
        Doc(
            "airport",
            "Fernhollow Regional Airport",
            "Fernhollow Regional Airport is a public airport three miles north of Fernhollow.",
        ),
    ]
    question = "What is the name of the airport that serves Fernhollow?"
    ex = extractive_answer(question, evidence, embedder, ner=ner, max_sentences=2)
    assert ex.parts[0].phrase == "Fernhollow Regional Airport"
    off = ReaderSettings(called_sentences=0)
    plain = extractive_answer(question, evidence, embedder, ner=ner, options=off)
    assert plain.parts[0].phrase == "Norland Air"
