"""The explorer as an analyst uses it, in Debian chromium at a desktop and a narrow width:
types told apart by colour, shape and a legend, sizes by PageRank, labels that do not
overlap with full names on hover, expansion that keeps every node in place, type filters,
the supporting sentence highlighted in a relation's evidence, a path between two entities,
documents opened from the panel, and the error banner cleared once a key works.
Screenshots go to test-output/e2e/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import API_KEY, CHROMIUM

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it with apt)"
)

CY = "window.kgExplorer.cy"
POSITIONS = f"Object.fromEntries({CY}.nodes().map((n) => [n.id(), n.position()]))"
WIDTHS = (1400, 900)


@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def page(request: pytest.FixtureRequest) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            page = browser.new_page(viewport={"width": request.param, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            yield page
            # A 401 the test provokes on purpose is the only console error allowed.
            assert [e for e in errors if "401" not in e] == []
        finally:
            browser.close()


def _shot(page: Any, output_dir: Path, name: str) -> None:
    path = output_dir / f"explorer-{page.viewport_size['width']}-{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


def _search(page: Any, box: str, listbox: str, text: str) -> None:
    page.fill(box, text)
    page.locator(f"{listbox} li").first.wait_for(state="visible")
    page.press(box, "Enter")


def _api(url: str, path: str, **params: Any) -> Any:
    response = httpx.get(f"{url}{path}", params=params, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def _entity(url: str, name: str) -> dict[str, Any]:
    return dict(_api(url, "/v1/entities", q=name, k=1)["items"][0])


def _supported_edge(url: str, edges: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """A typed relation drawn whose first evidence sentence names both of its ends (by name or
    alias), with that sentence."""
    for edge in edges:
        if edge["type"] == "CO_OCCURS":
            continue
        served = _api(url, "/v1/relations", source=edge["source"], target=edge["target"])
        supported = [
            c["support"]["sentence"]
            for r in served["relations"]
            for c in r["evidence"]
            if c["support"]["start"] >= 0
        ]
        if not supported:
            continue
        said = supported[0].casefold()
        ends = [_api(url, f"/v1/entities/{end}") for end in (edge["source"], edge["target"])]
        if all(any(n.casefold() in said for n in (d["name"], *d["aliases"])) for d in ends):
            return edge, supported[0]
    raise AssertionError("no drawn relation has a sentence naming both its ends")


def test_types_sizes_labels_and_expansion(demo_url: str, page: Any, output_dir: Path) -> None:
    page.goto(f"{demo_url}/explore")
    _search(page, "#q", "#suggestions", "NMHT")
    page.locator("#entity-name").wait_for()
    page.wait_for_function(f"() => {CY}.nodes().length > 1")
    nodes = page.evaluate(f"{CY}.nodes().map((n) => n.data())")
    styled = page.evaluate(
        f"{CY}.nodes().map((n) => [n.data('type'), n.style('background-color'), n.style('shape'),"
        " n.data('pagerank'), n.width()])"
    )

    # The legend lists exactly the types drawn; each type has one colour and one shape.
    legend = page.locator("#legend-types li").evaluate_all(
        "(els) => els.map((e) => e.dataset.type)"
    )
    assert sorted(legend) == sorted({n["type"] for n in nodes})
    assert page.locator("#legend").is_visible()
    looks: dict[str, tuple[str, str]] = {}
    for etype, colour, shape, _, _ in styled:
        assert looks.setdefault(etype, (colour, shape)) == (colour, shape)
    assert len(set(looks.values())) == len(looks)  # different types look different

    # Node size follows PageRank.
    by_rank = sorted(styled, key=lambda s: s[3])
    assert by_rank[-1][4] > by_rank[0][4]
    assert [s[4] for s in by_rank] == sorted(s[4] for s in by_rank)

    # No two nodes' boxes (labels included) overlap; a long name is cut, in full on hover.
    assert page.evaluate("window.kgExplorer.labelOverlaps()") == 0
    long = max(nodes, key=lambda n: len(n["name"]))
    assert long["label"] != long["name"] and long["label"].endswith("…")
    box = page.locator("#cy").bounding_box()
    at = page.evaluate(f"{CY}.getElementById({long['id']!r}).renderedPosition()")
    page.mouse.move(box["x"] + at["x"], box["y"] + at["y"])
    tooltip = page.locator("#tooltip")
    tooltip.wait_for(state="visible")
    assert long["name"] in tooltip.inner_text()
    _shot(page, output_dir, "1-neighbourhood")
    page.mouse.move(0, 0)  # the hovered label is the full name: back to the short one
    tooltip.wait_for(state="hidden")

    # Expanding a node adds its neighbours around it; no node already drawn moves.
    before = page.evaluate(POSITIONS)
    target = max((n for n in nodes if n["id"] != nodes[0]["id"]), key=lambda n: n["pagerank"])
    page.evaluate(f"window.kgExplorer.expand({target['id']!r})")
    page.locator("#entity-name", has_text=target["name"]).wait_for()
    after = page.evaluate(POSITIONS)
    assert len(after) > len(before)
    for node_id, p in before.items():
        q = after[node_id]
        assert abs(q["x"] - p["x"]) < 2 and abs(q["y"] - p["y"]) < 2, node_id
    assert page.evaluate("window.kgExplorer.labelOverlaps()") == 0
    _shot(page, output_dir, "2-expanded")

    # Unticking a relation type (co-occurrence) and an entity type hides them.
    page.locator('#legend-relations li[data-type="CO_OCCURS"] input').uncheck()
    assert (
        page.evaluate(f"{CY}.edges('[type = \"CO_OCCURS\"]').filter((e) => e.visible()).length")
        == 0
    )
    assert (
        page.evaluate(f"{CY}.edges('[type != \"CO_OCCURS\"]').filter((e) => e.visible()).length")
        > 0
    )
    hidden_type = legend[-1]
    page.locator(f'#legend-types li[data-type="{hidden_type}"] input').uncheck()
    visible_types = page.evaluate(f"{CY}.nodes(':visible').map((n) => n.data('type'))")
    assert visible_types and hidden_type not in visible_types
    _shot(page, output_dir, "3-filtered")


def test_evidence_path_and_documents(demo_url: str, page: Any, output_dir: Path) -> None:
    page.goto(f"{demo_url}/explore")
    _search(page, "#q", "#suggestions", "NMHT")
    page.locator("#entity-name").wait_for()

    # A typed relation's evidence: the sentence naming both ends is highlighted in its chunk.
    edge, sentence = _supported_edge(demo_url, page.evaluate(f"{CY}.edges().map((e) => e.data())"))
    page.evaluate(f"window.kgExplorer.showRelation({CY}.getElementById({edge['id']!r}))")
    mark = page.locator("#details mark.support").first
    mark.wait_for()
    assert " ".join(mark.inner_text().split()) == sentence
    quote = page.locator("#details blockquote.evidence", has=page.locator("mark.support")).first
    assert len(quote.inner_text()) > len(mark.inner_text())  # the chunk around the sentence
    # The extractor string wraps inside the panel.
    assert page.locator("#details .extractor").first.evaluate(
        "(e) => e.scrollWidth <= e.clientWidth"
    )
    _shot(page, output_dir, "4-evidence")

    # A path between two entities: drawn, highlighted, listed hop by hop.
    start = _entity(demo_url, "NMHT")
    far = next(
        n
        for n in _api(demo_url, f"/v1/entities/{start['entity_id']}/neighborhood", hops=2)["nodes"]
        if n["hops"] == 2 and _entity(demo_url, n["name"])["entity_id"] == n["id"]
    )
    _search(page, "#path-to", "#to-suggestions", far["name"])
    assert page.evaluate("document.getElementById('path-to').dataset.id") == far["id"]
    page.click("#path-go")
    page.locator("#paths li").first.wait_for()
    served_path = _api(demo_url, "/v1/paths", **{"from": start["entity_id"], "to": far["id"]})
    drawn = page.evaluate(f"{CY}.elements('.path').map((e) => e.id())")
    shown = served_path["paths"][0]
    assert {n["id"] for n in shown["nodes"]} <= set(drawn)
    assert len([e for e in drawn if "|" in e]) == len(shown["edges"]) == 2
    assert page.evaluate(f"{CY}.nodes('.faded').length") > 0
    assert far["name"] in page.locator("#paths li").first.inner_text()
    _shot(page, output_dir, "5-path")

    # A document opens from the panel with its text.
    page.evaluate(f"window.kgExplorer.showEntity({start['entity_id']!r})")
    link = page.locator("#details a.doc-link").first
    title = link.inner_text()
    link.click()
    dialog = page.locator("dialog#document")
    dialog.wait_for(state="visible")
    assert page.locator("#document-title").inner_text() == title
    assert len(page.locator("#document-text").inner_text()) > 200
    _shot(page, output_dir, "6-document")


def test_unknown_names_and_the_key_banner(keyed_url: str, page: Any, output_dir: Path) -> None:
    page.goto(f"{keyed_url}/explore")
    banner = page.locator("#banner")
    # Without a key: one red banner saying what to do.
    page.fill("#q", "Northdale Minds")
    banner.wait_for(state="visible")
    assert "HTTP 401" in banner.inner_text() and "API key" in banner.inner_text()
    _shot(page, output_dir, "7-no-key")

    # The key works: suggestions come, and the banner goes.
    page.fill("#key", API_KEY)
    page.press("#key", "Tab")  # a change event
    page.locator("#suggestions li").first.wait_for(state="visible")
    banner.wait_for(state="hidden")

    # A name nothing is known as says so, even with look-alike suggestions listed.
    page.fill("#q", "Zzyzx Trust")
    page.locator("#status", has_text="No entity is known as “Zzyzx Trust”").wait_for()
    assert page.locator("#suggestions li").count() > 0  # the look-alikes stay listed
    page.press("#q", "Enter")
    page.press("#q", "Escape")  # closes the list, keeps the text
    assert page.input_value("#q") == "Zzyzx Trust"
    assert page.locator("#suggestions").is_hidden()
    assert page.evaluate(f"{CY}.nodes().length") == 0  # nothing opened for an unknown name
    _shot(page, output_dir, "8-unknown-name")
