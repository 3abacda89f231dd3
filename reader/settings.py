"""The reader's settings: every weight and threshold of the offline reader, in one model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ReaderSettings(BaseModel):
    """Every weight and threshold of the offline reader (``KG_AGENT__READER__*``): the sentence
    scores (``reader.sentence_rank``), the extractive answer's shape (``reader.extractive``) and
    the confidence it allows (``agents.confidence``). Each says the measurement that chose it;
    "dev" is questions 1-50 of the shared HotpotQA and MuSiQue sets (bench/results/HISTORY.md).
    """

    model_config = ConfigDict(frozen=True)

    # Quoted sentences in an extractive answer: the supporting facts of a two-hop question
    # and some context; not tuned (the answer's lead phrase is what EM/F1 score).
    max_sentences: int = Field(default=5, ge=1, le=20)
    # Shorter "sentences" are headings or fragments, not statements worth quoting.
    min_words: int = Field(default=5, ge=1)
    # Similarity given up per rank step of the evidence: a sentence from the 5th-ranked chunk
    # must be 0.08 closer to the question than one from the top chunk to be chosen first.
    # Set with the first offline ranking (f6195b3, dev recall HotpotQA 0.62 -> 0.68).
    rank_penalty: float = Field(default=0.02, ge=0.0, le=1.0)
    # Sentence-score bonuses, in units of cosine similarity (MiniLM), for: the (rarity
    # weighted) share of the part's relation words the sentence uses; stating a fact of the
    # asked kind; the share of the part's names in the sentence or its title. Chosen on dev
    # with the kinds of question (d4685c9) and the typed candidates (f6195b3: HotpotQA dev
    # 0.62 -> 0.68, MuSiQue dev 0.34 -> 0.48).
    relation_weight: float = Field(default=0.4, ge=0.0)
    fact_weight: float = Field(default=0.25, ge=0.0)
    name_weight: float = Field(default=0.1, ge=0.0)
    # On top of ``relation_weight`` for the relation words of the clause that asks (8949c60:
    # HotpotQA dev 0.68 -> 0.80 with the kind read from the sentence that asks).
    focus_weight: float = Field(default=0.2, ge=0.0)
    # For a candidate of the asked type by NER (a person for "who", a place for "where")
    # (f6195b3, as above).
    type_weight: float = Field(default=0.2, ge=0.0)
    # When a question about the future meets a sentence about the future (d4685c9; no dev
    # question asks about the future: it changes no shared-set answer; without it the demo's
    # two-part future question of tests/integration/agents/test_offline_answers.py fails).
    tense_weight: float = Field(default=0.1, ge=0.0)
    # The part's best answering sentences parsed for who fills the asked role ("who wrote":
    # the writer), the first where a candidate of the asked type fills it answering
    # (``reader.parse``); 0 turns the parse off. Chosen on dev (docs/benchmarks.md, "Roles
    # from the parse"): 0 -> 3 HotpotQA lead F1 0.393 -> 0.413, MuSiQue recall 0.46 -> 0.48;
    # 5 loses MuSiQue's recall again (0.46). Off by default: at 3 the held-out sets each lost a
    # lead answer (HotpotQA 51-100 lead EM 0.26 -> 0.24; unseen HotpotQA 0.525 -> 0.500,
    # MuSiQue 0.275 -> 0.250): +2 on dev against -3 held out is not a rule that generalises.
    role_sentences: int = Field(default=0, ge=0)
    # The same for a question asking who holds a role a noun names ("Who was the founding
    # chair of the guild?": "Hale, who was its founding chair, ..." answers Hale), a name NER
    # left unlabelled included. 0 -> 3 on dev: MuSiQue lead F1 0.262 -> 0.286 (2 leads right),
    # HotpotQA and 2Wiki unchanged; held out: HotpotQA 51-100 0.403 -> 0.423, MuSiQue 51-100
    # and the unseen sets unchanged (docs/benchmarks.md, "Session 37").
    holder_sentences: int = Field(default=3, ge=0)
    # The part's best sentences searched for one that calls a name the asked noun ("What is
    # the airport of X?" and "Y Airport is a public airport north of X"); the first such one
    # answers (``reader.answer_types.the_asked``); 0 turns it off. Replayed on the dev
    # halves' captured evidence, MuSiQue lead F1 0.229 -> 0.243 at 10 (none moved at 3 or 5;
    # 20 as 10), HotpotQA unchanged (0.498).
    called_sentences: int = Field(default=10, ge=0)
    # The part's best sentences searched, when none calls a name the asked noun, for one
    # about the question's subject that gives the asked noun a figure ("What is the museum's
    # budget?" and "The museum's budget of £4.2m ..."); the first such one answers
    # (``reader.nouns.valued``); 0 turns it off. As many as ``called_sentences``, not tuned:
    # on the analyst set it moved 3 of 33 leads (a wrong name to the asked fee, a whole
    # sentence to its figure, one asked figure to the other), on the shared dev halves none.
    figure_sentences: int = Field(default=10, ge=0)
    # The part's best sentences searched, when none names or figures the asked noun, for one
    # saying what the noun "of what" completes is of ("... depictions of what?" and "...
    # depictions of harbour towns"; ``reader.nouns.completes``), or, for "What is X an
    # instance of?", the class a sentence puts X in (``reader.nouns.class_of``); 0 turns both
    # off. As many as ``called_sentences``, not tuned. Replayed on the dev halves' captured
    # evidence: HotpotQA lead F1 0.518 -> 0.538, MuSiQue 0.243 -> 0.263 (one question each).
    of_what_sentences: int = Field(default=10, ge=0)
    # For sentences about what the anchor sentences name (the multi-hop bridge), with the
    # best sentences of ``anchor_documents`` documents as anchors (f6195b3; a bridge weight of
    # 0.4 and anchors of four or six sentences moved HotpotQA and MuSiQue by one question
    # either way, c2c2960).
    bridge_weight: float = Field(default=0.3, ge=0.0)
    anchor_documents: int = Field(default=2, ge=1)
    # The best sentences that may name the bridge of a chain (``reader.chain``; c2c2960:
    # HotpotQA recall 0.75 -> 0.77, lead EM 0.26 -> 0.32).
    hop_anchors: int = Field(default=3, ge=1)
    # A name an anchor sentence adds to the question links a sentence of another document to
    # it (the bridge is named, not the title of its page: "born in Fernhollow" -> "The Diocese
    # of Fernhollow is ..."), when at most this many evidence documents name it: "United
    # States" in a dozen documents links nothing. Chosen on MuSiQue dev's captured evidence
    # (lead F1 0.155 with titles only -> 0.189 at 2, 0.163 at 3, 0.177 at 4, 0.169 unlimited);
    # the whole runs are in docs/benchmarks.md (session 24).
    hop_bridge_documents: int = Field(default=2, ge=0)
    # A question that describes its subject ("the city where X was born", "the author of X")
    # read in steps (``reader.compose``), where a chain's second hop gave no lead:
    # descriptions unwound at most (0 turns it off), and names of a description's sentence
    # tried. Session 38, against session 37: MuSiQue dev lead F1 0.286 -> 0.310 (with
    # "birthplace" a place noun), HotpotQA and 2Wiki dev unchanged; 1 and 3 names gave the
    # same dev answers. Not tuned further.
    compose_steps: int = Field(default=2, ge=0)
    compose_names: int = Field(default=3, ge=1)
    # A list answer: items of one enumeration quoted at most, other sentences quoted beside
    # it, and how many of the part's best sentences may open the enumeration. Not tuned: no
    # shared-set question asks for a list of more than a few items.
    max_list_items: int = Field(default=10, ge=1)
    list_context: int = Field(default=2, ge=0)
    list_heads: int = Field(default=3, ge=1)
    # Share of the question's relation words the answering sentence must use for HIGH. Set on
    # dev: at 0.5, answering sentences using exactly half of the words were right 2 times in 4.
    high_support: float = Field(default=0.6, ge=0.0, le=1.0)
    # The LLM reader: sentences shown when the model names none that exist and its answer is
    # taken from the shown sentences holding it, best first; not tuned (the reply asks for
    # "at most three sentence numbers", agents/prompts/reader.v1.md).
    fallback_support: int = Field(default=3, ge=1)
