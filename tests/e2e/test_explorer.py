"""The explorer page in a real browser (Debian chromium driven by Playwright) on the demo
graph, on the embedded store and on Neo4j: an alias finds the canonical entity, its
neighbourhood is drawn, a click expands it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app
from kg.container import Container
from tests.e2e.conftest import CHROMIUM
from tests.integration.api.live import live_server

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it with apt)"
)

ALIAS = "Northdale Minds"
CANONICAL = "Northdale Mental Health Trust"
NODES = "window.kgExplorer.cy.nodes().length"
# A typed relation (else any) whose midpoint no node or label covers, so a click there hits it.
FREE_EDGE = """() => {
  const cy = window.kgExplorer.cy;
  const clear = cy.edges().filter((e) => {
    const m = e.renderedMidpoint();
    return cy.nodes().every((n) => {
      const b = n.renderedBoundingBox({ includeLabels: true });
      return m.x < b.x1 || m.x > b.x2 || m.y < b.y1 || m.y > b.y2;
    });
  });
  const typed = clear.filter((e) => e.data("type") !== "CO_OCCURS");
  return (typed.nonempty() ? typed : clear)[0].id();
}"""


@pytest.fixture(scope="module")
def demo_url(demo_any: Container) -> Iterator[str]:
    """The page on each store in turn: the embedded demo graph, then Neo4j's (``demo_any``)."""
    with live_server(create_app(demo_any.settings, container=demo_any)) as url:
        yield url


def _expandable(url: str, shown: set[str], candidates: list[str]) -> str:
    """A drawn node whose own neighbourhood holds entities not drawn yet."""
    for entity_id in candidates:
        graph = httpx.get(
            f"{url}/v1/entities/{entity_id}/neighborhood", params={"hops": 1, "limit": 40}
        ).json()
        if {n["id"] for n in graph["nodes"]} - shown:
            return entity_id
    raise AssertionError("no drawn node has undrawn neighbours")


def _click_element(page: Any, selector_js: str) -> None:
    """Click, with the mouse, where cytoscape renders an element."""
    box = page.locator("#cy").bounding_box()
    point = page.evaluate(
        f"""(() => {{ const el = {selector_js};
             return el.isNode() ? el.renderedPosition() : el.renderedMidpoint(); }})()"""
    )
    page.mouse.click(box["x"] + point["x"], box["y"] + point["y"])


def test_alias_search_draws_and_expands_the_neighbourhood(demo_url: str, output_dir: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            # Console errors include Content-Security-Policy violations (so predicates below
            # are functions: a bare expression would need eval, which the policy forbids).
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{demo_url}/explore")

            # Typing an alias suggests the canonical entity, naming the alias it matched.
            page.fill("#q", ALIAS)
            first = page.locator("#suggestions li").first
            first.wait_for(state="visible")
            assert CANONICAL in first.inner_text()
            assert f"alias: {ALIAS}" in first.inner_text()
            page.press("#q", "Enter")

            page.wait_for_function(f"() => window.kgExplorer && {NODES} > 1")
            page.locator("#entity-name", has_text=CANONICAL).wait_for()
            center = page.evaluate("window.kgExplorer.cy.nodes('.center').data()")
            assert center["name"] == CANONICAL
            drawn = page.evaluate("window.kgExplorer.cy.nodes().map(n => n.id())")
            api = httpx.get(
                f"{demo_url}/v1/entities/{center['id']}/neighborhood",
                params={"hops": 1, "limit": 60},
            ).json()
            assert set(drawn) == {n["id"] for n in api["nodes"]}
            assert page.evaluate("window.kgExplorer.cy.edges().length") == len(api["edges"])
            aliases = page.locator("#details li").all_inner_texts()
            assert ALIAS in aliases and "NMHT" in aliases
            page.screenshot(path=str(output_dir / "explorer-neighbourhood.png"))

            # Clicking a neighbour draws its neighbours too.
            target = _expandable(demo_url, set(drawn), [i for i in drawn if i != center["id"]])
            _click_element(page, f"window.kgExplorer.cy.getElementById({target!r})")
            page.wait_for_function(f"() => {NODES} > {len(drawn)}")
            assert page.evaluate(
                f"window.kgExplorer.cy.getElementById({target!r}).hasClass('expanded')"
            )
            name = page.evaluate(f"window.kgExplorer.cy.getElementById({target!r}).data('name')")
            page.locator("#entity-name", has_text=name).wait_for()
            expanded = page.evaluate(NODES)
            page.screenshot(path=str(output_dir / "explorer-expanded.png"))

            # Clicking a relation shows its type and evidence chunks.
            edge = page.evaluate(FREE_EDGE)
            _click_element(page, f"window.kgExplorer.cy.getElementById({edge!r})")
            page.locator("#details .relation-type").first.wait_for()
            assert page.locator("#details blockquote.evidence").count() >= 1
            page.screenshot(path=str(output_dir / "explorer-evidence.png"))

            assert errors == []
            assert expanded > len(drawn)
        finally:
            browser.close()
    for name in ("neighbourhood", "expanded", "evidence"):
        assert (output_dir / f"explorer-{name}.png").stat().st_size > 10_000
