// The drawing side of the explorer: entity-type styling (colour, shape, legend), node sizes
// by PageRank, short labels, and placement that never moves a node already on screen.
// Loaded before explore.js, which wires it to the API and the page.
"use strict";

window.kgGraph = (() => {
  // Colour-blind-safe colours (Okabe-Ito, then Tol's muted) and a shape per entity type, so
  // that type reads even in a greyscale print; unknown types take the next free pair.
  const PALETTE = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
    "#882255", "#44aa99", "#999933", "#aa4499", "#332288", "#888888", "#117733", "#ddcc77",
    "#661100", "#6699cc"];
  const SHAPES = ["ellipse", "round-rectangle", "diamond", "hexagon", "triangle", "star",
    "round-tag", "vee", "pentagon", "barrel", "rhomboid", "octagon"];
  // The extractor's default types (extraction/config.py) and the resolver's kinds keep one
  // colour and shape each, whatever order they appear in; any other type takes a free pair.
  const KNOWN = ["PERSON", "ORGANIZATION", "LOCATION", "PLAN", "PROGRAMME", "SERVICE",
    "POLICY", "EVENT", "WORK", "CONCEPT", "NAME", "SUBJECT"];
  const styles = new Map();
  const LABEL_CHARS = 34; // at most two short lines; the full name is on hover and in the panel
  const SIZE = { min: 16, max: 52 };
  const GAP = 10; // px kept free between two nodes' boxes (labels included)

  let unknown = 0;

  function typeStyle(type) {
    const key = type || "";
    if (!styles.has(key)) {
      const known = KNOWN.indexOf(key);
      const i = known >= 0 ? known : KNOWN.length + unknown++;
      // Colour and shape cycle at different lengths: a pair repeats only after 48 types.
      styles.set(key, { color: PALETTE[i % PALETTE.length], shape: SHAPES[i % SHAPES.length] });
    }
    return styles.get(key);
  }

  function shortLabel(name) {
    if (name.length <= LABEL_CHARS) return name;
    const cut = name.slice(0, LABEL_CHARS - 1);
    const space = cut.lastIndexOf(" ");
    return `${space > LABEL_CHARS / 2 ? cut.slice(0, space) : cut}…`;
  }

  function nodeData(n) {
    const st = typeStyle(n.type);
    return { id: n.id, name: n.name, label: shortLabel(n.name), type: n.type || "",
      pagerank: Number(n.pagerank || 0), mentions: Number(n.mentions || 0),
      color: st.color, shape: st.shape, size: SIZE.min };
  }

  // Area grows with PageRank relative to the most central node drawn.
  function resize(cy) {
    const top = Math.max(...cy.nodes().map((n) => n.data("pagerank")), 1e-12);
    cy.nodes().forEach((n) => {
      const share = Math.sqrt(Math.max(n.data("pagerank"), 0) / top);
      n.data("size", Math.round(SIZE.min + (SIZE.max - SIZE.min) * share));
    });
  }

  const style = [
    { selector: "node", style: {
      "label": "data(label)", "font-size": 11, "text-valign": "bottom", "text-margin-y": 3,
      "text-wrap": "wrap", "text-max-width": 120, "min-zoomed-font-size": 7,
      "text-background-color": "#fafbfd", "text-background-opacity": 0.85,
      "text-background-padding": 1, "color": "#1d2430",
      "background-color": "data(color)", "shape": "data(shape)",
      "width": "data(size)", "height": "data(size)", "border-width": 1, "border-color": "#fff" } },
    { selector: "node.center", style: { "border-width": 4, "border-color": "#1d2430" } },
    { selector: "node.expanded", style: { "border-width": 3, "border-color": "#1d2430" } },
    { selector: "node.hover", style: { "label": "data(name)", "z-index": 99,
      "text-max-width": 400, "font-weight": "bold" } },
    { selector: "edge", style: {
      "label": "data(type)", "font-size": 8, "color": "#334", "curve-style": "bezier",
      "text-rotation": "autorotate", "text-background-color": "#fafbfd",
      "text-background-opacity": 1, "target-arrow-shape": "triangle", "width": 2,
      "line-color": "#7d8db5", "target-arrow-color": "#7d8db5", "min-zoomed-font-size": 8 } },
    // Co-occurrence is the weakest kind of relation: drawn faintly and without a label.
    { selector: 'edge[type = "CO_OCCURS"]', style: {
      "label": "", "line-style": "dashed", "width": 1, "line-color": "#c9d0e0",
      "target-arrow-color": "#c9d0e0" } },
    { selector: ".filtered", style: { "display": "none" } },
    { selector: ".faded", style: { "opacity": 0.18 } },
    { selector: "node.path", style: { "border-width": 4, "border-color": "#e8743b" } },
    { selector: "edge.path", style: { "width": 5, "line-color": "#e8743b",
      "target-arrow-color": "#e8743b", "z-index": 98, "label": "data(type)", "opacity": 1 } },
    { selector: "edge:selected", style: { "line-color": "#e8743b", "target-arrow-color": "#e8743b",
      "width": 4 } },
    { selector: "node:selected", style: { "border-width": 4, "border-color": "#e8743b" } },
  ];

  // --- placement ------------------------------------------------------------------------
  function box(n) {
    const b = n.boundingBox({ includeLabels: true, includeOverlays: false });
    return { x1: b.x1 - GAP / 2, x2: b.x2 + GAP / 2, y1: b.y1 - GAP / 2, y2: b.y2 + GAP / 2 };
  }

  function overlaps(a, b) {
    return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  }

  // Push ``movable`` nodes off every node (and label) they overlap; the others stay put.
  function separate(cy, movable, rounds = 60) {
    const moving = new Set(movable.map((n) => n.id()));
    const all = cy.nodes(":visible");
    for (let round = 0; round < rounds; round++) {
      let moved = false;
      const boxes = new Map(all.map((n) => [n.id(), box(n)]));
      for (const n of movable) {
        const a = boxes.get(n.id());
        for (const m of all) {
          if (m.id() === n.id()) continue;
          const b = boxes.get(m.id());
          if (!overlaps(a, b)) continue;
          // Out along the shorter axis of the overlap, shared when both may move.
          const dx = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
          const dy = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
          const share = moving.has(m.id()) ? 0.5 : 1;
          const p = n.position(), q = m.position();
          if (dx < dy) n.position({ x: p.x + Math.sign(p.x - q.x || 1) * (dx * share + 1), y: p.y });
          else n.position({ x: p.x, y: p.y + Math.sign(p.y - q.y || 1) * (dy * share + 1) });
          boxes.set(n.id(), box(n));
          moved = true;
        }
      }
      if (!moved) return;
    }
  }

  // New nodes on rings around ``anchor``, each on a spot where its box (label included)
  // touches no other node's; nothing else moves.
  function placeAround(cy, anchor, added) {
    const c = anchor.position();
    const taken = cy.nodes().not(added).map((o) => box(o));
    const LAST = 20;
    let ring = 0, placed = 0;
    const nodes = added.toArray();
    while (placed < nodes.length && ring < LAST) {
      ring += 1;
      const radius = 110 * ring;
      const slots = Math.max(8, Math.floor((2 * Math.PI * radius) / 70));
      const start = ring * 0.37; // offset rings so spokes do not line up
      for (let s = 0; s < slots && placed < nodes.length; s++) {
        const angle = start + (2 * Math.PI * s) / slots;
        const n = nodes[placed];
        n.position({ x: c.x + radius * Math.cos(angle), y: c.y + radius * Math.sin(angle) });
        const b = box(n);
        if (ring === LAST || taken.every((o) => !overlaps(b, o))) {
          taken.push(b);
          placed += 1;
        }
      }
    }
    separate(cy, nodes);
  }

  // The first drawing of a neighbourhood: a force layout that counts labels as node size,
  // then overlaps (labels included) pushed apart.
  function layoutAll(cy) {
    // The container's own proportions, so that a wide screen gets a wide drawing.
    const bb = { x1: 0, y1: 0, w: Math.max(cy.width(), 300), h: Math.max(cy.height(), 300) };
    // Start from a circle in id order rather than at random: the same graph is drawn the
    // same way every time (and an analyst's screenshot can be made again).
    const nodes = cy.nodes().sort((a, b) => (a.id() < b.id() ? -1 : 1));
    const r = Math.min(bb.w, bb.h) / 2.5;
    nodes.forEach((n, i) => {
      const a = (2 * Math.PI * i) / nodes.length;
      n.position({ x: bb.w / 2 + r * Math.cos(a), y: bb.h / 2 + r * Math.sin(a) });
    });
    cy.layout({ name: "cose", animate: false, randomize: false, fit: false, boundingBox: bb,
      nodeDimensionsIncludeLabels: true, nodeRepulsion: () => 60000, idealEdgeLength: () => 90,
      nodeOverlap: 40, componentSpacing: 120, gravity: 0.6, numIter: 1500 }).run();
    separate(cy, cy.nodes().toArray());
  }

  function labelOverlaps(cy) {
    const nodes = cy.nodes(":visible").toArray();
    let count = 0;
    for (let i = 0; i < nodes.length; i++) {
      for (let j = i + 1; j < nodes.length; j++) {
        const a = nodes[i].boundingBox({ includeLabels: true });
        const b = nodes[j].boundingBox({ includeLabels: true });
        if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) count += 1;
      }
    }
    return count;
  }

  return { style, typeStyle, nodeData, resize, placeAround, layoutAll, separate, labelOverlaps };
})();
