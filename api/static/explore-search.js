// Search boxes with suggestions (the entity search and both ends of a path): alias-aware
// lookup as the user types, arrow keys and Enter to pick, and a plain "No entity is known as"
// when the best hit only looks like the name typed. Loaded before explore.js.
"use strict";

window.kgSearch = (() => {
  // Lookup scores come in bands (graph_store/explore_core.py): 1 for a whole alias, above 0.5
  // for the start of one, at most 0.5 for words that only look alike. A query whose best hit
  // is in the last band names no known entity.
  const LIKENESS = 0.5;

  function attach(input, list, onPick, { api, el, say, fail }) {
    let hits = [];
    let active = -1; // the highlighted suggestion; none for names only looked like
    let shownFor = ""; // the text the listed suggestions answer
    let timer = 0;
    const mark = () => [...list.children].forEach((li, i) => li.setAttribute("aria-selected", i === active));
    const pick = (hit) => { list.hidden = true; input.value = hit.name; input.dataset.id = hit.entity_id; onPick(hit); };

    async function suggest(q) {
      if (!q.trim()) { list.hidden = true; hits = []; return; }
      const found = await api(`/v1/entities?q=${encodeURIComponent(q)}&k=8`);
      hits = found.items;
      shownFor = q;
      const known = hits.length > 0 && hits[0].score > LIKENESS;
      active = known ? 0 : -1;
      list.replaceChildren(...hits.map((h) => {
        const li = el("li", h.name, { role: "option", "data-id": h.entity_id });
        if (h.matched && h.matched !== h.name) li.append(el("small", `alias: ${h.matched}`));
        li.addEventListener("mousedown", (ev) => { ev.preventDefault(); pick(h); });
        return li;
      }));
      mark();
      list.hidden = hits.length === 0;
      if (!known) say(`No entity is known as “${q}”.${hits.length ? " Similar names are listed." : ""}`);
      return known;
    }

    input.addEventListener("input", () => {
      delete input.dataset.id;
      clearTimeout(timer);
      timer = setTimeout(() => suggest(input.value).catch(fail), 200);
    });
    input.addEventListener("blur", () => { list.hidden = true; });
    input.addEventListener("keydown", async (ev) => {
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        if (!hits.length) return;
        const step = ev.key === "ArrowDown" ? 1 : hits.length - 1;
        active = active < 0 ? 0 : (active + step) % hits.length;
        mark();
      } else if (ev.key === "Enter") {
        ev.preventDefault();
        clearTimeout(timer);
        try {
          // The highlighted suggestion of the text as typed; else the best whole or starting
          // alias. A name only looked like is never opened without the user choosing it.
          const current = !list.hidden && shownFor === input.value;
          if (current && hits[active]) { pick(hits[active]); return; }
          if (!current && await suggest(input.value)) pick(hits[0]);
        } catch (e) { fail(e); }
      } else if (ev.key === "Escape" && !list.hidden) {
        ev.preventDefault(); // a search field would clear itself too
        list.hidden = true;
      }
    });
  }

  return { attach };
})();
