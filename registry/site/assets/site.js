// Facets, search and sorting on the results index, kept in the page's URL. Without scripts every result
// stays listed, in the build's order.
"use strict";
(function () {
  const form = document.getElementById("finder");
  const table = document.getElementById("results");
  if (!form || !table) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const search = document.getElementById("search");
  const shown = document.getElementById("shown");
  const clear = document.getElementById("clear");
  const sortedBy = document.getElementById("sorted-by");
  const boxes = Array.from(form.querySelectorAll("input[type=checkbox]"));
  const sorters = Array.from(table.querySelectorAll("button.sort"));
  const facetKeys = Array.from(form.querySelectorAll("fieldset[data-facet]"), (f) => f.dataset.facet);
  for (const input of [search, clear, ...boxes, ...sorters]) input.disabled = false;
  // On a narrow screen the facets fold behind their summary, so that the first result is on the first screen;
  // a view whose link chose facets keeps them open. Without scripts they stay open.
  const panel = document.getElementById("facet-panel");
  const chosenInUrl = Array.from(new URLSearchParams(location.search).keys()).some((k) => facetKeys.includes(k));
  if (panel && window.matchMedia("(max-width: 40rem)").matches && !chosenInUrl) panel.open = false;
  let sort = { key: null, descending: false };

  // The same rule as registry.site.index.searchable: lower case, hyphens, slashes and brackets as spaces.
  function words(text) {
    return text.toLowerCase().split(/[\s\-_/,;:()[\]'"“”‘’]+/).filter(Boolean);
  }

  function chosen() {
    const byFacet = new Map();
    for (const box of boxes) {
      if (!box.checked) continue;
      if (!byFacet.has(box.name)) byFacet.set(box.name, new Set());
      byFacet.get(box.name).add(box.value);
    }
    return byFacet;
  }

  function passes(row, facets, query, except) {
    for (const [facet, values] of facets) {
      if (facet !== except && !values.has(row.dataset[facet])) return false;
    }
    const text = row.dataset.search;
    return query.every((word) => text.includes(word));
  }

  function update() {
    const facets = chosen();
    const query = words(search.value);
    let count = 0;
    for (const row of rows) {
      const keep = passes(row, facets, query, null);
      row.hidden = !keep;
      if (keep) count += 1;
    }
    // Each value's count: the results it would show, with the other facets and the search as they are.
    for (const key of facetKeys) {
      const counts = new Map();
      for (const row of rows) {
        if (passes(row, facets, query, key)) counts.set(row.dataset[key], (counts.get(row.dataset[key]) || 0) + 1);
      }
      for (const box of boxes) {
        if (box.name === key) box.parentElement.querySelector(".count").textContent = "(" + (counts.get(box.value) || 0) + ")";
      }
    }
    shown.textContent = count + " of " + rows.length + " results shown";
    remember(facets);
  }

  function remember(facets) {
    const params = new URLSearchParams();
    if (search.value) params.set("q", search.value);
    for (const [facet, values] of facets) for (const value of values) params.append(facet, value);
    if (sort.key) { params.set("sort", sort.key); if (sort.descending) params.set("order", "descending"); }
    const query = params.toString();
    try {
      history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
    } catch (error) { /* a browser that keeps file:// URLs fixed: the filters still work */ }
  }

  function sortBy(key, descending) {
    const column = sorters.findIndex((button) => button.dataset.key === key);
    if (column < 0) return;
    sort = { key: key, descending: descending };
    const numeric = key === "value";
    const keyOf = (row) => row.cells[column].dataset.sort;
    // A value sorts within its comparability key only ('key\u2063number'): the keys stay in one order, the
    // numbers in each key go up or down; values of two keys are never interleaved.
    const ordered = rows.slice().sort((a, b) => {
      const x = keyOf(a), y = keyOf(b);
      if (!numeric) {
        const order = x.localeCompare(y, undefined, { numeric: true });
        return descending ? -order : order;
      }
      const [gx, nx] = x.split("\u2063"), [gy, ny] = y.split("\u2063");
      if (gx !== gy) return gx < gy ? -1 : 1;
      return descending ? Number(ny) - Number(nx) : Number(nx) - Number(ny);
    });
    for (const row of ordered) body.appendChild(row);
    for (const button of sorters) {
      const th = button.parentElement;
      if (button.dataset.key === key) th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    }
    sortedBy.textContent = "(sorted by " + sorters[column].textContent + ", " + (descending ? "descending" : "ascending") + ")";
  }

  for (const button of sorters) {
    button.addEventListener("click", () => {
      sortBy(button.dataset.key, sort.key === button.dataset.key && !sort.descending);
      update();
    });
  }
  clear.addEventListener("click", () => {
    search.value = "";
    for (const box of boxes) box.checked = false;
    update();
    search.focus();
  });
  form.addEventListener("input", update);
  form.addEventListener("submit", (event) => { event.preventDefault(); update(); });

  const params = new URLSearchParams(window.location.search);
  if (params.get("q")) search.value = params.get("q");
  for (const box of boxes) if (params.getAll(box.name).includes(box.value)) box.checked = true;
  if (params.get("sort")) sortBy(params.get("sort"), params.get("order") === "descending");
  update();
})();

// The boxes that narrow a record page's tables (evidence rows, evaluations): each narrows the table after
// it, says which filter is applied, and keeps its table's count ('3 evidence rows matching ...') current.
(function () {
  for (const form of document.querySelectorAll("form.table-filter")) {
    const input = form.querySelector("input");
    const applied = form.querySelector(".applied");
    const table = form.nextElementSibling && form.nextElementSibling.querySelector("table");
    if (!input || !table) continue;
    const noun = input.closest("label").textContent.replace("Filter", "").trim();
    const caption = table.querySelector("caption");
    const captionText = caption ? caption.textContent : "";
    const rows = Array.from(table.tBodies[0].rows);
    const texts = rows.map((row) => row.textContent.toLowerCase());
    input.disabled = false;
    form.addEventListener("submit", (event) => event.preventDefault());
    input.addEventListener("input", () => {
      const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      let count = 0;
      rows.forEach((row, index) => {
        row.hidden = !words.every((word) => texts[index].includes(word));
        if (!row.hidden) count += 1;
      });
      applied.textContent = "Applied filters: " + (words.length ? "search '" + input.value.trim() + "'" : "All linked " + noun);
      const rest = captionText.indexOf(" matching");
      if (caption && /^\d+ /.test(captionText) && rest > 0) {
        caption.textContent = count + " " + (count === 1 ? noun.replace(/s$/, "") : noun) + captionText.slice(rest);
      }
      const details = table.closest("details");
      if (details && words.length) details.open = true;
    });
  }
})();
