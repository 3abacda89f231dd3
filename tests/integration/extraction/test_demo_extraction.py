"""The demo corpus, ingested by the real pipeline into Kùzu: every alias the documents define is
attached to the right entity, the plan and partnership relations exist as typed edges, and the
usual rule-extraction noise (dates, "A and B" lists, sentence-initial words) stays out.

Expected pairs come from tests/fixtures/demo_expected.json, written for the tests."""

from __future__ import annotations

import calendar
import json
from pathlib import Path

import pytest

from core.names import normalize_name
from graph_store.types import GraphExport
from kg.container import Container

EXPECTED = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "demo_expected.json").read_text()
)


def _entity(container: Container, name: str) -> str:
    key = normalize_name(name)
    found = container.store.alias_targets([key])
    assert key in found, f"no entity is known as {name!r}"
    return found[key]


@pytest.fixture(scope="module")
def graph(demo_container: Container) -> GraphExport:
    return demo_container.store.export_graph()


@pytest.mark.parametrize(("alias", "canonical"), EXPECTED["aliases"])
def test_defined_alias_names_the_canonical_entity(
    demo_container: Container, graph: GraphExport, alias: str, canonical: str
) -> None:
    eid = _entity(demo_container, canonical)
    assert _entity(demo_container, alias) == eid
    names = dict(zip(graph.entity_ids, graph.entity_names, strict=True))
    assert normalize_name(names[eid]) == normalize_name(canonical)


@pytest.mark.parametrize(("source", "rel", "target"), EXPECTED["relations"])
def test_typed_relation_exists(
    demo_container: Container, graph: GraphExport, source: str, rel: str, target: str
) -> None:
    a, b = _entity(demo_container, source), _entity(demo_container, target)
    typed = {(s, t, r) for s, t, r, _ in graph.relations}
    assert (a, b, rel) in typed


@pytest.mark.parametrize(("source", "rel", "target"), EXPECTED["relations_surface"])
def test_relation_reachable_from_surface_names(
    demo_container: Container, source: str, rel: str, target: str
) -> None:
    a, b = _entity(demo_container, source), _entity(demo_container, target)
    sub = demo_container.store.neighbourhood(a, hops=1)
    assert any(e.source == a and e.target == b and e.type == rel for e in sub.edges)


def test_no_dates_lists_or_sentence_words_as_entities(graph: GraphExport) -> None:
    keys = {normalize_name(n) for n in graph.entity_names}
    temporal = {m.lower() for m in [*calendar.month_name, *calendar.day_name] if m}
    dated = [k for k in keys if k.split()[0] in temporal or k in temporal]
    assert not dated
    # "NCCT and NMHT", "Kelby and Easterby": both sides are entities, so the span is a list
    lists = [k for k in keys if " and " in k and all(p in keys for p in k.split(" and ", 1))]
    assert not lists
    from spacy.lang.en.stop_words import STOP_WORDS

    assert not [k for k in keys if k in STOP_WORDS]
    assert not [k for k in keys if len(k.split()) == 1 and k.split()[0] in STOP_WORDS]


def test_acronyms_are_aliases_not_entities(demo_container: Container, graph: GraphExport) -> None:
    names = {normalize_name(n) for n in graph.entity_names}
    for alias, _canonical in EXPECTED["aliases"]:
        if alias.isupper():
            assert normalize_name(alias) not in names


def test_the_money_advice_limits_are_read_from_the_manual(demo_container: Container) -> None:
    """The threshold catalogue is what the manual states, with the direction its words give."""
    money = EXPECTED["money_advice"]
    limits = [
        h
        for h in demo_container.store.numeric_facts(("max", "min"))
        if h.doc_title == money["manual_title"]
    ]
    got = {(h.fact.value, h.fact.unit, h.fact.kind) for h in limits}
    want = {(float(x["value"]), x["unit"], x["kind"]) for x in money["limits"]}
    assert want <= got
    debts = next(h for h in limits if h.fact.value == 35000)
    assert debts.fact.measure == "total debt" and "must not exceed" in debts.fact.text
    assert debts.fact.entity_name == "Fresh Start Order"


def test_a_case_files_figures_are_read_with_their_client(demo_container: Container) -> None:
    money = EXPECTED["money_advice"]
    for client, figures in money["clients"].items():
        facts = [
            h.fact for h in demo_container.store.numeric_facts(("amount",)) if client in h.doc_title
        ]
        values = {f.value for f in facts}
        assert {figures["total debts"], figures["monthly surplus income"]} <= values
        assert all(f.unit == "GBP" for f in facts if f.value == figures["total debts"])
