"""Entity resolution over a run: alias definitions, weak words, compounds, string and
name-embedding similarity (the real MiniLM embedder), and order independence."""

from __future__ import annotations

from collections.abc import Sequence

from core.names import entity_id, normalize_name
from extraction.config import ResolutionSettings
from extraction.facts import DocFacts
from extraction.resolution import ResolvedDocument, Resolver
from extraction.spacy_rules import SpacyRuleExtractor
from retrieval.embedder import SentenceTransformerEmbedder

RULES = SpacyRuleExtractor()


def _run(
    docs: Sequence[tuple[str, str]],
    embedder: SentenceTransformerEmbedder | None = None,
    settings: ResolutionSettings | None = None,
) -> tuple[Resolver, list[ResolvedDocument]]:
    facts: list[DocFacts] = RULES.extract_many([(title, [text]) for title, text in docs])
    resolver = Resolver(settings, embed=embedder.embed if embedder else None)
    for f in facts:
        resolver.register(f)
    resolver.finalize()
    out = [resolver.resolve(f, f"d{i}", [f"d{i}-c0"], "t") for i, f in enumerate(facts)]
    return resolver, out


def _names(resolved: Sequence[ResolvedDocument]) -> dict[str, str]:
    return {e.id: e.name for doc in resolved for e in doc.entities}


def _mentioned(doc: ResolvedDocument) -> set[str]:
    names = {e.id: e.name for e in doc.entities}
    return {names[m.entity_id] for m in doc.mentions}


def test_acronym_defined_in_one_document_resolves_in_another() -> None:
    _, docs = _run(
        [
            ("A", "Ravensford University Hospitals Trust (RUHT) runs hospitals."),
            ("B", "Patients praised RUHT for short waits."),
        ]
    )
    assert "Ravensford University Hospitals Trust" in _mentioned(docs[1])
    aliases = {(a.normalized, a.method) for a in docs[0].aliases}
    assert ("ruht", "acronym") in aliases


def test_a_document_own_definition_wins_over_the_run_majority() -> None:
    _, docs = _run(
        [
            ("A", "The Kelby Health Board (KHB) met."),
            ("B", "The Kelby Housing Bureau (KHB) met. KHB builds homes."),
            ("C", "The Kelby Health Board (KHB) met again."),
            ("D", "KHB approved the budget."),
        ]
    )
    assert "Kelby Housing Bureau" in _mentioned(docs[1])
    assert "Kelby Health Board" in _mentioned(docs[3])  # the majority, where none is local


def test_weak_words_need_evidence_and_compounds_split_only_on_evidence() -> None:
    resolver, docs = _run(
        [
            ("A", "Causes vary. Kelby grows. Cafés open in Ravensford, Kelby and Easterby."),
            ("B", "Clinics in Kelby and Easterby close. Easterby is quiet. The cause is known."),
            ("C", "The Department for Health and Social Wellbeing pays. Andorra is small."),
        ]
    )
    names = set(_names(docs).values())
    # "Causes" is written "cause" elsewhere; nothing writes "andorra" in lower case
    assert {"Kelby", "Easterby", "Ravensford", "Andorra"} <= names
    assert "Causes" not in names and "Kelby and Easterby" not in names
    assert "Department for Health and Social Wellbeing" in names
    assert {"Kelby", "Easterby"} <= _mentioned(docs[1])
    assert resolver.stats.compounds_split == 1 and resolver.stats.weak_dropped >= 1


def test_spelling_variants_merge_and_keep_the_other_name_as_alias(
    embedder: SentenceTransformerEmbedder,
) -> None:
    resolver, docs = _run(
        [
            ("A", "Ravensford University Hospitals Trust opened a ward."),
            ("B", "Ravensford University Hospitals Trust hired nurses."),
            ("C", "The Ravensford University Hospital Trust closed a ward."),
        ],
        embedder,
    )
    ids = {(e.id, e.name) for d in docs for e in d.entities if "Hospital" in e.name}
    assert ids == {
        (
            entity_id("ravensford university hospitals trust"),
            "Ravensford University Hospitals Trust",
        )
    }
    ((eid, _),) = ids  # the most mentioned name represents the merged entity
    merged = [a for a in docs[2].aliases if a.method == "similarity"]
    assert merged and merged[0].normalized == "ravensford university hospital trust"
    assert 0.9 <= merged[0].confidence <= 1.0
    assert resolver.stats.merged == 1
    assert resolver.embedding(eid) is not None and len(resolver.embedding(eid) or ()) == 384


def test_different_numbers_or_different_words_never_merge(
    embedder: SentenceTransformerEmbedder,
) -> None:
    _, docs = _run(
        [
            ("A", "The 2018 Kelby Marathon Final was held. NMHT Priorities Report appeared."),
            ("B", "The 2019 Kelby Marathon Final was held. RUHT Priorities Report appeared."),
        ],
        embedder,
    )
    names = set(_names(docs).values())
    assert {"2018 Kelby Marathon Final", "2019 Kelby Marathon Final"} <= names
    assert {"NMHT Priorities Report", "RUHT Priorities Report"} <= names
    assert not [e for d in docs for e in d.same_as]


def test_doubtful_pairs_get_same_as_with_a_score(embedder: SentenceTransformerEmbedder) -> None:
    _, docs = _run(
        [
            ("A", "Dr Priya Raghunathan chairs the board. The NHS pays."),
            ("B", "Dr Raghunathan confirmed it. The National Health Service agreed."),
        ],
        embedder,
    )
    names = _names(docs)
    edges = {
        (frozenset({names[e.source_id], names[e.target_id]}), e.method): e.score
        for d in docs
        for e in d.same_as
    }
    assert (frozenset({"Dr Priya Raghunathan", "Dr Raghunathan"}), "short_form") in edges
    assert (frozenset({"NHS", "National Health Service"}), "acronym") in edges
    assert all(0.0 < s <= 1.0 for s in edges.values())
    # each edge is emitted once, by the first document that holds one of its ends
    assert len([e for d in docs for e in d.same_as]) == len(edges)


def test_thresholds_are_settings(embedder: SentenceTransformerEmbedder) -> None:
    docs = [
        ("A", "Ravensford University Hospitals Trust opened a ward."),
        ("B", "The Ravensford University Hospital Trust closed a ward."),
    ]
    strict = ResolutionSettings(merge_name_similarity=1.0, same_as_name_similarity=1.0)
    resolver, _ = _run(docs, embedder, strict)
    assert resolver.stats.merged == 0 and resolver.stats.same_as == 0


def test_result_does_not_depend_on_document_order(embedder: SentenceTransformerEmbedder) -> None:
    docs = [
        ("A", "Ravensford University Hospitals Trust (RUHT) runs Kelby Clinic."),
        ("B", "RUHT is also known as Ravensford Teaching Hospitals. Kelby grows."),
        ("C", "The Ravensford University Hospital Trust leads the Kelby Recovery Programme."),
        ("D", "Dr Priya Raghunathan met Dr Raghunathan at Kelby and Easterby."),
    ]

    def summary(order: Sequence[tuple[str, str]]) -> tuple[object, ...]:
        _, out = _run(order, embedder)
        entities = sorted({(e.id, e.name, e.type) for d in out for e in d.entities})
        aliases = sorted({(a.normalized, a.entity_id) for d in out for a in d.aliases})
        same = sorted({(e.source_id, e.target_id, e.method) for d in out for e in d.same_as})
        return entities, aliases, same

    assert summary(docs) == summary(list(reversed(docs)))


def test_resolution_without_finalize_still_derives_ids() -> None:
    facts = RULES.extract("T", ["Kelby Clinic (KC) opened."])
    resolver = Resolver()
    resolver.register(facts)
    assert resolver.entity_ids("kc") == (entity_id(normalize_name("Kelby Clinic")),)
