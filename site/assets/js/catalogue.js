// The catalogue of studies (/studies/): sorting by a column and filtering by who published a study,
// what it varies and words of its title or publisher. The table is complete without this script;
// it only hides rows and reorders them, and says how many it shows.

import {sortableHeadings} from "./sort-headings.js";

function cellValue(row, column, kind) {
  const cell = row.cells[column];
  const text = cell.dataset.value ?? cell.textContent.trim();
  return kind === "number" ? Number(text) || 0 : text.toLowerCase();
}

function sortBy(table, header, ascending) {
  const column = [...header.parentNode.cells].indexOf(header);
  const kind = header.dataset.sort;
  const body = table.tBodies[0];
  const rows = [...body.rows].sort((a, b) => {
    const x = cellValue(a, column, kind), y = cellValue(b, column, kind);
    return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
  });
  body.append(...rows);
}

function options(select, values) {
  for (const [value, text] of values) select.append(new Option(text, value));
}

export function catalogue(root) {
  const table = root.querySelector("table");
  const form = root.querySelector("[data-catalogue-filters]");
  const rows = [...table.tBodies[0].rows];
  options(form.elements.kind, [...new Set(rows.map((r) => r.dataset.kind))].sort().map((k) => [k, k]));
  const facets = new Map();
  for (const link of table.querySelectorAll("a[data-facet]")) facets.set(link.dataset.facet, link.textContent);
  options(form.elements.facet, [...facets].sort((a, b) => a[1].localeCompare(b[1])));
  const filter = () => {
    const {kind, facet, q} = form.elements;
    const words = q.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const row of rows) {
      const keep = (!kind.value || row.dataset.kind === kind.value)
        && (!facet.value || row.dataset.facets.split(" ").includes(facet.value))
        && words.every((w) => row.dataset.words.includes(w));
      row.hidden = !keep;
      shown += keep;
    }
    form.elements.shown.value = `${shown} of ${rows.length} shown`;
  };
  form.addEventListener("input", filter);
  form.addEventListener("submit", (event) => event.preventDefault());
  sortableHeadings(table.tHead.querySelectorAll("th[data-sort]"), (th, ascending) => sortBy(table, th, ascending));
  form.hidden = false;
  filter();
}

for (const root of document.querySelectorAll("[data-catalogue]")) catalogue(root);
