// Explore's values, on demand. The page lists the studies (#explore-studies: each with its value count
// and its values of each filter) but holds none of their values: each study's are on its row page
// (/explore/rows/<study>/, rendered by Hugo with the same partials as every table of values), fetched
// for the studies a view can match and kept once fetched. A fetched page is parsed by DOMParser (its
// documents run no script) and its rows adopted with importNode: no markup is ever assigned.

// With no filter, or filters many studies can match, the first studies up to this many values are
// loaded (at least one study, however many values it has), and the status line says how many were:
// the table shows 50 rows at a time and a chart needs one study, so loading more would only cost the
// reader's transfer. A row page is about 1.7 KB a value, 65 to 80 bytes gzip-compressed; the page with
// its scripts and Plot is 127 KB, so 250 values (about 20 KB) keep a first visit within the site's
// 150 KB (tests/test_page_budget.py). 2,000 loaded all the catalogue's 1,780 values: 295 KB.
export const ROW_BUDGET = 250;

// The studies of the list, with their values of each filter (data-facets, in the filters' order).
export function studiesOf(table, params) {
  return [...table.tBodies[0].rows].map((row) => {
    const values = JSON.parse(row.getAttribute("data-facets"));
    return {study: row.dataset.study, href: row.dataset.href, count: Number(row.dataset.count),
      facets: Object.fromEntries(params.map((p, i) => [p, new Set(values[i])]))};
  });
}

// A view can match a study's values only if, for each filter it sets, the study has one of the values
// picked (a row matches if it has one of them for every filter: so its study has them all).
const canMatch = (study, entries) => entries.every(([p, values]) => values.some((v) => study.facets[p]?.has(v)));

// The studies a view needs: those that can match it (candidates) and of them, in the list's order,
// those loaded for it (chosen): up to ROW_BUDGET values.
export function studiesFor(studies, state) {
  const entries = Object.entries(state);
  const candidates = studies.filter((s) => canMatch(s, entries));
  const chosen = [];
  let rows = 0;
  for (const s of candidates) {
    if (chosen.length && rows + s.count > ROW_BUDGET) break;
    chosen.push(s);
    rows += s.count;
  }
  return {candidates, chosen};
}

// A row's data, read once: reading the DOM on every filter change costs more than filtering.
// (getAttribute, not dataset: a DOMStringMap wrapper per row is 10,000 more objects for the GC.)
export function recordOf(row, params) {
  // the filters' values (data-facets, in the order of the filters), then the row's other attributes
  const values = JSON.parse(row.getAttribute("data-facets"));
  const facets = Object.fromEntries(params.map((p, i) => [p, values[i]]));
  const d = (name) => (name in facets ? facets[name] : row.getAttribute(`data-${name}`));
  const mean = d("mean");
  const name = d("system") + (d("state") ? ` (${d("state")})` : "");
  return {
    // metric: what the view groups by (a metric in one unit: never two units on one axis)
    // its name as pages write it (fields.metric_text, by the export)
    row, facets, metric: `${d("metric")} (${d("unit")})`, metricText: d("metric-text"),
    study: d("study"), group: d("group") && `${d("system")}|${d("group")}|${d("table")}`,
    // A series is one system in one state from one table (the result a value comes from) and one
    // benchmark: a per-user table and a summary table of the same system are never joined into one
    // line, nor a system's read-only and read-write runs (both of the table "runs").
    point: {row, system: d("system"), state: d("state"), threads: d("threads") ? Number(d("threads")) : null,
      line: `${d("system")}|${d("state")}|${d("table")}|${d("benchmark")}`, name, label: name, table: d("table"),
      benchmark: d("benchmark"), unit: d("unit"),
      tableTitle: d("table-title"), column: d("column"),
      value: Number(mean ?? d("value")), meanText: d("mean-text"), low: mean ? Number(d("low")) : null,
      high: mean ? Number(d("high")) : null, runs: mean ? Number(d("runs")) : 1,
      // a value its source's own figures contradict: the reason in words and the cell's note (inconsistent.js)
      inconsistent: d("inconsistent"), note: d("note")},
  };
}

const loaded = new Map();  // study -> promise of {colours, records}

// A study's rows as records (and its systems' colours), fetched once.
export function load(study, params) {
  if (!loaded.has(study.study)) {
    const promise = fetch(study.href)
      .then((response) => {
        if (!response.ok) throw new Error(`${study.href}: ${response.status}`);
        return response.text();
      })
      .then((html) => {
        const doc = new DOMParser().parseFromString(html, "text/html");
        const table = doc.querySelector("table[data-explore-rows]");
        if (!table || table.dataset.exploreRows !== study.study) throw new Error(`${study.href}: no rows of ${study.study}`);
        return {colours: JSON.parse(table.dataset.colours),
          records: [...table.tBodies[0].rows].map((row) => recordOf(document.importNode(row, true), params))};
      });
    promise.catch(() => loaded.delete(study.study));  // tried again by the next view
    loaded.set(study.study, promise);
  }
  return loaded.get(study.study);
}
