// The kg-first graph explorer: alias-aware search, neighbourhoods drawn with cytoscape.js,
// node expansion, relation evidence and entity details. Every data call goes through /v1.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const status = $("status");
  const details = $("details");
  const suggestions = $("suggestions");
  const keyInput = $("key");
  keyInput.value = sessionStorage.getItem("kg-api-key") || "";
  keyInput.addEventListener("change", () => sessionStorage.setItem("kg-api-key", keyInput.value));

  const cy = cytoscape({
    container: $("cy"),
    wheelSensitivity: 0.3,
    style: [
      { selector: "node", style: {
        "label": "data(name)", "font-size": 10, "text-wrap": "ellipsis", "text-max-width": 120,
        "background-color": "#8aa4e8", "width": 18, "height": 18 } },
      { selector: "node.center", style: { "background-color": "#e8743b", "width": 28, "height": 28 } },
      { selector: "node.expanded", style: { "border-width": 2, "border-color": "#1d2430" } },
      { selector: "edge", style: {
        "label": "data(type)", "font-size": 8, "color": "#334", "curve-style": "bezier",
        "text-rotation": "autorotate", "text-background-color": "#fafbfd",
        "text-background-opacity": 1, "target-arrow-shape": "triangle", "width": 2,
        "line-color": "#7d8db5", "target-arrow-color": "#7d8db5" } },
      // Co-occurrence is the weakest kind of relation: drawn faintly and without a label.
      { selector: 'edge[type = "CO_OCCURS"]', style: {
        "label": "", "line-style": "dashed", "width": 1, "line-color": "#c9d0e0",
        "target-arrow-color": "#c9d0e0" } },
      { selector: ":selected", style: { "line-color": "#e8743b", "target-arrow-color": "#e8743b",
        "background-color": "#e8743b" } },
    ],
  });

  function say(text, isError = false) {
    status.textContent = text;
    status.classList.toggle("error", isError);
  }

  async function api(path) {
    const headers = keyInput.value ? { "X-API-Key": keyInput.value } : {};
    const response = await fetch(path, { headers });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const hint = response.status === 401 ? " Enter an API key above." : "";
      throw new Error(`${body.detail || response.statusText} (HTTP ${response.status}).${hint}`);
    }
    return body;
  }

  function el(tag, text, attrs = {}) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    return node;
  }

  // --- drawing ---------------------------------------------------------------
  function addGraph(graph) {
    const added = cy.collection();
    for (const n of graph.nodes) {
      if (cy.getElementById(n.id).empty()) {
        added.merge(cy.add({ group: "nodes", data: { id: n.id, name: n.name, type: n.type } }));
      }
    }
    for (const e of graph.edges) {
      const id = `${e.source}|${e.type}|${e.target}`;
      if (cy.getElementById(id).empty()) {
        added.merge(cy.add({ group: "edges",
          data: { id, source: e.source, target: e.target, type: e.type, weight: e.weight } }));
      }
    }
    return added;
  }

  function relayout() {
    cy.layout({ name: "cose", animate: false, randomize: false, nodeDimensionsIncludeLabels: true })
      .run();
  }

  function summary() {
    return `${cy.nodes().length} entities, ${cy.edges().length} relations`;
  }

  async function load(entityId) {
    const graph = await api(`/v1/entities/${encodeURIComponent(entityId)}/neighborhood?hops=1&limit=60`);
    cy.elements().remove();
    addGraph(graph);
    cy.getElementById(entityId).addClass("center expanded");
    relayout();
    cy.fit(undefined, 30);
    say(`${summary()}. Click a node to expand it, an edge for its evidence.`);
    await showEntity(entityId);
  }

  async function expand(entityId) {
    const graph = await api(`/v1/entities/${encodeURIComponent(entityId)}/neighborhood?hops=1&limit=40`);
    const added = addGraph(graph);
    cy.getElementById(entityId).addClass("expanded");
    if (added.nonempty()) relayout();
    say(`${added.nodes().length} new entities; ${summary()}.`);
    await showEntity(entityId);
  }

  // --- side panel --------------------------------------------------------------
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
    details.replaceChildren(
      el("h2", d.name, { id: "entity-name" }),
      el("p", `${d.type || "entity"} · PageRank ${Number(d.pagerank).toFixed(4)} · ${d.mentions} mentions`,
        { class: "meta", id: "entity-meta" }),
      d.description ? el("p", d.description) : "",
      section("Aliases", d.aliases, (a) => el("li", a)),
      section("Documents", d.documents, (doc) => el("li", `${doc.title} (${doc.mentions})`)),
    );
  }

  async function showRelation(edge) {
    const { source, target } = edge.data();
    const found = await api(`/v1/relations?source=${encodeURIComponent(source)}&target=${encodeURIComponent(target)}`);
    const name = (id) => cy.getElementById(id).data("name") || id;
    const parts = [el("h2", `${name(source)} — ${name(target)}`)];
    for (const r of found.relations) {
      parts.push(el("h3", `${name(r.source)} ${r.type} ${name(r.target)}`, { class: "relation-type" }));
      parts.push(el("p", `weight ${Number(r.weight).toFixed(2)} · ${r.extractor || "extractor unknown"}`,
        { class: "meta" }));
      for (const c of r.evidence) {
        const quote = el("blockquote", c.text, { class: "evidence" });
        quote.append(el("cite", `${c.doc_title} [${c.chunk_id}]`));
        parts.push(quote);
      }
      if (!r.evidence.length) parts.push(el("p", "No evidence chunks are stored for this relation."));
    }
    details.replaceChildren(...parts);
    say(`${found.relations.length} relation(s) between the two entities.`);
  }

  // --- search ---------------------------------------------------------------------
  let hits = [];
  let timer = 0;

  async function suggest(q) {
    if (!q.trim()) { suggestions.hidden = true; return; }
    const found = await api(`/v1/entities?q=${encodeURIComponent(q)}&k=8`);
    hits = found.items;
    suggestions.replaceChildren(...hits.map((h, i) => {
      const li = el("li", h.name, { role: "option", "data-id": h.entity_id, "aria-selected": i === 0 });
      if (h.matched && h.matched !== h.name) li.append(el("small", `alias: ${h.matched}`));
      li.addEventListener("mousedown", (ev) => { ev.preventDefault(); pick(h); });
      return li;
    }));
    suggestions.hidden = hits.length === 0;
    if (!hits.length) say(`No entity is known as “${q}”.`);
  }

  function pick(hit) {
    suggestions.hidden = true;
    $("q").value = hit.name;
    load(hit.entity_id).catch((e) => say(e.message, true));
  }

  $("q").addEventListener("input", (ev) => {
    clearTimeout(timer);
    timer = setTimeout(() => suggest(ev.target.value).catch((e) => say(e.message, true)), 200);
  });
  $("q").addEventListener("blur", () => { suggestions.hidden = true; });
  $("search").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearTimeout(timer);
    try {
      await suggest($("q").value);
      if (hits.length) pick(hits[0]);
    } catch (e) { say(e.message, true); }
  });

  cy.on("tap", "node", (ev) => expand(ev.target.id()).catch((e) => say(e.message, true)));
  cy.on("tap", "edge", (ev) => showRelation(ev.target).catch((e) => say(e.message, true)));

  // Exposed for scripting and for the browser test.
  window.kgExplorer = { cy, load, expand, showEntity, showRelation };
})();
