// Facets and search on the results index. Without scripts every result stays listed.
"use strict";
(function () {
  const form = document.getElementById("finder");
  const table = document.getElementById("results");
  if (!form || !table) return;
  const rows = Array.from(table.tBodies[0].rows);
  const search = document.getElementById("search");
  const shown = document.getElementById("shown");
  const boxes = Array.from(form.querySelectorAll("input[type=checkbox]"));
  for (const input of [search, ...boxes]) input.disabled = false;

  function chosen() {
    const byFacet = new Map();
    for (const box of boxes) {
      if (!box.checked) continue;
      if (!byFacet.has(box.name)) byFacet.set(box.name, new Set());
      byFacet.get(box.name).add(box.value);
    }
    return byFacet;
  }

  function update() {
    const facets = chosen();
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    let count = 0;
    for (const row of rows) {
      let keep = true;
      for (const [facet, values] of facets) {
        if (!values.has(row.dataset[facet])) { keep = false; break; }
      }
      if (keep && words.length) {
        const text = row.dataset.search;
        keep = words.every((word) => text.includes(word));
      }
      row.hidden = !keep;
      if (keep) count += 1;
    }
    shown.textContent = count + " of " + rows.length + " results shown";
  }

  form.addEventListener("input", update);
  form.addEventListener("submit", (event) => { event.preventDefault(); update(); });
  const query = new URLSearchParams(window.location.search).get("q");
  if (query) search.value = query;
  update();
})();
