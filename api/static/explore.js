// The kg-first graph explorer: alias-aware search, neighbourhoods drawn with cytoscape.js
// (styling and placement in explore-graph.js), expansion that keeps every drawn node where it
// is, type and hop filters, relation evidence with its supporting sentence, paths between two
// entities and documents opened from the panel. Every data call goes through /v1.
"use strict";

(() => {
  const G = window.kgGraph;
  const $ = (id) => document.getElementById(id);
  const status = $("status");
  const banner = $("banner");
  const details = $("details");
  const keyInput = $("key");
  const tooltip = $("tooltip");
  keyInput.value = sessionStorage.getItem("kg-api-key") || "";

  const cy = cytoscape({ container: $("cy"), wheelSensitivity: 0.3, style: G.style });
  const hidden = { entity: new Set(), relation: new Set() };
  let centre = null;

  function say(text) { status.textContent = text; }

  // Errors go to one banner, which the next successful call takes away (a key that now
  // works, a name that is found).
  function fail(error) {
    banner.textContent = error.message;
    banner.hidden = false;
  }

  async function api(path) {
    const headers = keyInput.value ? { "X-API-Key": keyInput.value } : {};
    const response = await fetch(path, { headers });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const hint = response.status === 401 ? " Enter an API key above." : "";
      throw new Error(`${body.detail || response.statusText} (HTTP ${response.status}).${hint}`);
    }
    banner.hidden = true;
    return body;
  }

  function el(tag, text, attrs = {}) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    return node;
  }

  function link(text, onClick, attrs = {}) {
    const a = el("a", text, { href: "#", ...attrs });
    a.addEventListener("click", (ev) => { ev.preventDefault(); onClick().catch(fail); });
    return a;
  }

  // --- drawing ---------------------------------------------------------------------------
  function addGraph(graph) {
    const added = cy.collection();
    for (const n of graph.nodes) {
      const known = cy.getElementById(n.id);
      if (known.empty()) added.merge(cy.add({ group: "nodes", data: G.nodeData(n) }));
      else if (n.pagerank !== undefined) known.data("pagerank", Number(n.pagerank));
    }
    for (const e of graph.edges) {
      const id = `${e.source}|${e.type}|${e.target}`;
      if (cy.getElementById(id).empty()) {
        added.merge(cy.add({ group: "edges",
          data: { id, source: e.source, target: e.target, type: e.type, weight: e.weight } }));
      }
    }
    G.resize(cy);
    applyFilters();
    return added;
  }

  function summary() {
    const shown = cy.nodes(":visible").length;
    const all = cy.nodes().length;
    const hiddenNote = shown < all ? ` (${all - shown} hidden by the filters)` : "";
    return `${all} entities, ${cy.edges().length} relations${hiddenNote}`;
  }

  const MAX_FIT_ZOOM = 1.4;

  // Fit ``eles`` into the part of the canvas the legend leaves free (it floats on the left).
  function fitView(eles, padding = 30) {
    cy.fit(eles, padding);
    // A short path or a small neighbourhood is not blown up past a readable size.
    if (cy.zoom() > MAX_FIT_ZOOM) { cy.zoom(MAX_FIT_ZOOM); cy.center(eles); }
    const legend = $("legend");
    if (legend.hidden) return;
    const w = cy.width();
    const free = (w - legend.offsetWidth - 16) / w;
    if (free > 0.3) cy.zoom({ level: cy.zoom() * free, renderedPosition: { x: w, y: cy.height() / 2 } });
  }

  function hops() { return Number($("hops").value); }

  async function neighbourhood(entityId, limit) {
    return api(`/v1/entities/${encodeURIComponent(entityId)}/neighborhood?hops=${hops()}&limit=${limit}`);
  }

  async function load(entityId) {
    const graph = await neighbourhood(entityId, 60);
    clearPath();
    cy.elements().remove();
    addGraph(graph);
    centre = entityId;
    cy.getElementById(entityId).addClass("center expanded");
    G.layoutAll(cy);
    fitView(cy.nodes(":visible"));
    say(`${summary()}. Click a node to expand it, an edge for its evidence.`);
    await showEntity(entityId);
  }

  async function expand(entityId) {
    const graph = await neighbourhood(entityId, 40);
    const node = cy.getElementById(entityId);
    const added = addGraph(graph);
    node.addClass("expanded");
    if (added.nodes().nonempty()) {
      G.placeAround(cy, node, added.nodes());
      const ext = cy.extent();
      const outside = added.nodes().some((n) => {
        const p = n.position();
        return p.x < ext.x1 || p.x > ext.x2 || p.y < ext.y1 || p.y > ext.y2;
      });
      if (outside) fitView(cy.nodes(":visible")); // the view moves; the nodes do not
    }
    say(`${added.nodes().length} new entities; ${summary()}.`);
    await showEntity(entityId);
  }

  // --- legend and filters ------------------------------------------------------------------
  function applyFilters() {
    cy.batch(() => {
      cy.elements().removeClass("filtered");
      cy.nodes().filter((n) => hidden.entity.has(n.data("type"))).addClass("filtered");
      cy.edges().filter((e) => hidden.relation.has(e.data("type"))).addClass("filtered");
    });
    renderLegend();
  }

  function toggle(set, value, on) {
    if (on) set.delete(value); else set.add(value);
    applyFilters();
    say(summary());
  }

  function counted(values) {
    const counts = new Map();
    for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }

  function legendRow(set, value, count, swatch) {
    const id = `f-${set === hidden.entity ? "e" : "r"}-${value || "none"}`;
    const box = el("input", undefined, { type: "checkbox", id });
    box.checked = !set.has(value);
    box.addEventListener("change", () => toggle(set, value, box.checked));
    const label = el("label", undefined, { for: id });
    label.append(swatch, el("span", `${value || "untyped"} (${count})`));
    const row = el("li", undefined, { "data-type": value });
    row.append(box, label);
    return row;
  }

  function renderLegend() {
    const types = $("legend-types");
    const rels = $("legend-relations");
    types.replaceChildren(...counted(cy.nodes().map((n) => n.data("type"))).map(([t, n]) => {
      const st = G.typeStyle(t);
      const swatch = el("i", undefined, { class: `swatch shape-${st.shape}` });
      swatch.style.background = st.color;
      return legendRow(hidden.entity, t, n, swatch);
    }));
    rels.replaceChildren(...counted(cy.edges().map((e) => e.data("type"))).map(([t, n]) =>
      legendRow(hidden.relation, t, n, el("i", undefined,
        { class: t === "CO_OCCURS" ? "line dashed" : "line" }))));
    $("legend").hidden = cy.nodes().empty();
  }

  // --- side panel --------------------------------------------------------------------------
  function section(title, items, render) {
    const frag = document.createDocumentFragment();
    frag.append(el("h3", `${title} (${items.length})`));
    const list = el("ul");
    for (const item of items) list.append(render(item));
    frag.append(list);
    return frag;
  }

  async function showEntity(entityId) {
    const d = await api(`/v1/entities/${encodeURIComponent(entityId)}`);
    $("path-from").value = d.name;
    $("path-from").dataset.id = d.id;
    details.replaceChildren(
      el("h2", d.name, { id: "entity-name" }),
      el("p", `${d.type || "entity"} · PageRank ${Number(d.pagerank).toFixed(4)} · ${d.mentions} mentions`,
        { class: "meta", id: "entity-meta" }),
      d.description ? el("p", d.description) : "",
      section("Aliases", d.aliases, (a) => el("li", a)),
      section("Documents", d.documents, (doc) => {
        const li = el("li");
        li.append(link(doc.title, () => openDocument(doc.id), { class: "doc-link" }),
          el("small", ` (${doc.mentions})`));
        return li;
      }),
    );
  }

  function evidenceQuote(c) {
    const quote = el("blockquote", undefined, { class: "evidence" });
    const { start, end } = c.support || { start: -1, end: -1 };
    if (start >= 0) {
      quote.append(c.text.slice(0, start), el("mark", c.text.slice(start, end), { class: "support" }),
        c.text.slice(end));
    } else {
      quote.append(c.text);
    }
    const cite = el("cite");
    cite.append(link(c.doc_title, () => openDocument(c.doc_id), { class: "doc-link" }),
      ` [${c.chunk_id}]`);
    quote.append(cite);
    return quote;
  }

  async function showRelation(edge) {
    const { source, target } = edge.data();
    const found = await api(`/v1/relations?source=${encodeURIComponent(source)}&target=${encodeURIComponent(target)}`);
    const name = (id) => cy.getElementById(id).data("name") || id;
    const parts = [el("h2", `${name(source)} — ${name(target)}`)];
    for (const r of found.relations) {
      parts.push(el("h3", `${name(r.source)} ${r.type} ${name(r.target)}`, { class: "relation-type" }));
      parts.push(el("p", `weight ${Number(r.weight).toFixed(2)}`, { class: "meta" }));
      parts.push(el("p", `extractor: ${r.extractor || "unknown"}`, { class: "meta extractor" }));
      for (const c of r.evidence) parts.push(evidenceQuote(c));
      if (!r.evidence.length) parts.push(el("p", "No evidence chunks are stored for this relation."));
    }
    details.replaceChildren(...parts);
    say(`${found.relations.length} relation(s) between the two entities.`);
  }

  // --- documents ---------------------------------------------------------------------------
  async function openDocument(docId) {
    const d = await api(`/v1/documents/${encodeURIComponent(docId)}`);
    const dialog = $("document");
    const meta = [d.doc_type, d.date, d.source].filter(Boolean).join(" · ");
    $("document-title").textContent = d.title;
    $("document-meta").textContent = `${meta}${meta ? " · " : ""}${d.uri}`;
    $("document-text").replaceChildren(...d.text.split("\n\n").map((p) => el("p", p)));
    if (!dialog.open) dialog.showModal();
  }

  // --- paths -------------------------------------------------------------------------------
  function clearPath() {
    cy.elements().removeClass("path faded");
    $("path-clear").hidden = true;
  }

  async function showPath(fromId, toId) {
    const found = await api(`/v1/paths?from=${encodeURIComponent(fromId)}&to=${encodeURIComponent(toId)}&max_hops=3`);
    clearPath();
    if (!found.paths.length) {
      say("No path of at most 3 relations joins the two entities.");
      return;
    }
    const path = found.paths[0];
    const wasEmpty = cy.nodes().empty();
    const added = addGraph({ nodes: path.nodes, edges: path.edges });
    const drawn = path.nodes.find((n) => !added.getElementById(n.id).nonempty());
    if (wasEmpty || !drawn) {
      // Nothing to keep in place: the path in a row, left to right.
      path.nodes.forEach((n, i) => cy.getElementById(n.id).position({ x: i * 180, y: 0 }));
      G.separate(cy, added.nodes().toArray());
    } else if (added.nodes().nonempty()) {
      G.placeAround(cy, cy.getElementById(drawn.id), added.nodes());
    }
    const onPath = cy.collection();
    for (const n of path.nodes) onPath.merge(cy.getElementById(n.id));
    for (const e of path.edges) onPath.merge(cy.getElementById(`${e.source}|${e.type}|${e.target}`));
    for (const n of path.nodes) hidden.entity.delete(n.type || "");
    for (const e of path.edges) hidden.relation.delete(e.type);
    applyFilters();
    cy.elements().not(onPath).addClass("faded");
    onPath.addClass("path");
    fitView(onPath, 60);
    $("path-clear").hidden = false;
    renderPaths(found.paths);
    say(`${found.paths.length} shortest path(s) of ${path.edges.length} relation(s); the first is drawn.`);
  }

  function renderPaths(paths) {
    const parts = [el("h2", "Paths")];
    const list = el("ol", undefined, { id: "paths" });
    for (const p of paths) {
      const li = el("li");
      p.nodes.forEach((n, i) => {
        if (i > 0) {
          const e = p.edges[i - 1];
          const arrow = e.source === n.id ? `←${e.type}—` : `—${e.type}→`;
          li.append(link(` ${arrow} `, () => showRelation(cy.getElementById(`${e.source}|${e.type}|${e.target}`)),
            { class: "hop" }));
        }
        li.append(el("strong", n.name));
      });
      list.append(li);
    }
    parts.push(list);
    details.replaceChildren(...parts);
  }

  // --- search boxes (the entity search and the path ends; explore-search.js) ------------
  const attachSuggest = (input, list, onPick) =>
    window.kgSearch.attach(input, list, onPick, { api, el, say, fail });

  attachSuggest($("q"), $("suggestions"), (hit) => load(hit.entity_id).catch(fail));
  attachSuggest($("path-from"), $("from-suggestions"), () => {});
  attachSuggest($("path-to"), $("to-suggestions"), () => {});
  $("search").addEventListener("submit", (ev) => ev.preventDefault());
  $("path-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const from = $("path-from").dataset.id, to = $("path-to").dataset.id;
    if (!from || !to) { say("Pick both ends of the path from the suggestions."); return; }
    showPath(from, to).catch(fail);
  });
  $("path-clear").addEventListener("click", () => { clearPath(); say(summary()); });
  $("hops").addEventListener("change", () => { if (centre) load(centre).catch(fail); });
  $("fit").addEventListener("click", () => fitView(cy.nodes(":visible")));
  $("document-close").addEventListener("click", () => $("document").close());
  keyInput.addEventListener("change", () => {
    sessionStorage.setItem("kg-api-key", keyInput.value);
    // A new key is tried at once on what the user already asked for.
    if ($("q").value.trim()) $("q").dispatchEvent(new Event("input"));
  });

  // --- graph events ------------------------------------------------------------------------
  cy.on("tap", "node", (ev) => expand(ev.target.id()).catch(fail));
  cy.on("tap", "edge", (ev) => showRelation(ev.target).catch(fail));
  cy.on("mouseover", "node", (ev) => {
    const n = ev.target;
    n.addClass("hover");
    const p = n.renderedPosition();
    tooltip.textContent = `${n.data("name")} · ${n.data("type") || "entity"} · PageRank ${n.data("pagerank").toFixed(4)}`;
    tooltip.style.left = `${p.x + 12}px`;
    tooltip.style.top = `${p.y + 12}px`;
    tooltip.hidden = false;
  });
  cy.on("mouseout", "node", (ev) => { ev.target.removeClass("hover"); tooltip.hidden = true; });
  cy.on("pan zoom", () => { tooltip.hidden = true; });
  // Leaving the canvas sends cytoscape no mouseout: the hover ends here too.
  $("cy").addEventListener("mouseleave", () => {
    cy.nodes(".hover").removeClass("hover");
    tooltip.hidden = true;
  });

  // Exposed for scripting and for the browser test.
  window.kgExplorer = { cy, load, expand, showEntity, showRelation, showPath, openDocument,
    labelOverlaps: () => G.labelOverlaps(cy) };
})();
