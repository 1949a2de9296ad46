// Compare's series, on demand. The picker lists every series (its label only); the configuration and
// values of a picked one are on its study's series page (/compare/series/<study>/, rendered by Hugo with
// the same partials as the page's tables), fetched once per study. A fetched page is parsed by DOMParser
// (its documents run no script) and its cells and rows adopted with importNode: no markup is assigned.

const loaded = new Map();  // study -> promise of its series page's tables

export const studyOf = (id) => id.slice(0, id.indexOf(":"));

// The series page of a study: its configuration table and values table, as parsed documents' elements.
export function load(study, href) {
  if (!loaded.has(study)) {
    const promise = fetch(href)
      .then((response) => {
        if (!response.ok) throw new Error(`${href}: ${response.status}`);
        return response.text();
      })
      .then((html) => {
        const doc = new DOMParser().parseFromString(html, "text/html");
        const holder = doc.querySelector("[data-compare-series]");
        if (!holder || holder.dataset.compareSeries !== study) throw new Error(`${href}: no series of ${study}`);
        return {config: holder.querySelector("table.compare-config"), values: holder.querySelector("table.compare-values")};
      });
    promise.catch(() => loaded.delete(study));  // tried again by the next view
    loaded.set(study, promise);
  }
  return loaded.get(study);
}

// Fill the page's (empty) configuration and values tables with the picked series' column and rows,
// in the order picked, from their studies' pages.
export function fill(ids, pages, {config, values}) {
  const of = (id) => pages.get(studyOf(id));
  const head = config.tHead.rows[0];
  head.replaceChildren(head.cells[0], ...ids.map((id) => document.importNode(of(id).config.querySelector(`thead th[data-series="${CSS.escape(id)}"]`), true)));
  const body = config.tBodies[0];
  for (const row of body.querySelectorAll("tr[data-fact]")) row.remove();
  for (const row of body.rows) {
    const field = CSS.escape(row.dataset.field);
    row.replaceChildren(row.cells[0], ...ids.map((id) => document.importNode(
      of(id).config.querySelector(`tr[data-field="${field}"] td[data-series="${CSS.escape(id)}"]`), true)));
  }
  // The facts beyond the registry's fields (settings, options, ...): each picked series' study has rows of
  // its own; a series whose study has no such row does not state that fact.
  const facts = new Map();
  for (const id of ids) {
    for (const row of of(id).config.querySelectorAll("tbody tr[data-fact]")) {
      if (!facts.has(row.dataset.field)) facts.set(row.dataset.field, row.cells[0]);
    }
  }
  for (const [field, heading] of facts) {
    const row = document.createElement("tr");
    row.dataset.field = field;
    row.dataset.fact = "";
    row.append(document.importNode(heading, true), ...ids.map((id) => {
      const cell = of(id).config.querySelector(`tr[data-field="${CSS.escape(field)}"] td[data-series="${CSS.escape(id)}"]`);
      if (cell) return document.importNode(cell, true);
      const none = document.createElement("td");
      none.dataset.series = id;
      none.textContent = config.dataset.notStated;
      return none;
    }));
    body.append(row);
  }
  const rows = [];
  for (const id of ids) {
    for (const row of of(id).values.querySelectorAll(`tbody tr[data-series="${CSS.escape(id)}"]`)) {
      const mine = document.importNode(row, true);
      const cell = document.createElement("td");
      cell.className = "overlaps";
      mine.append(cell);
      rows.push(mine);
    }
  }
  values.tBodies[0].replaceChildren(...rows);
  return rows;
}
