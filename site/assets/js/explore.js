// Explore: filter, sort and chart the results. The facets come from the page, the rows from the row
// pages of the studies a view can match (fetched on demand, explore-load.js); the filter state lives in the URL
// as short parameters (?raid_level=6,10&state=rebuilding), and back/forward restore it. On the
// embed page (form[data-embed]) the view comes from the URL alone.
import {csvFormat} from "d3-dsv";
import {LEGEND_MAX, describe, drawChart} from "./explore-chart.js";
import {keyboardTips} from "./chart-keys.js";
import {legendOf} from "./explore-legend.js";
import {MARK, MARK_WORDS, isInconsistent} from "./inconsistent.js";
import {load, studiesFor, studiesOf} from "./explore-load.js";
import {latestOnly} from "./latest.js";
import {citeView} from "./view-cite.js";
import {defusedRows} from "./csv-cells.js";
import {sortableHeadings} from "./sort-headings.js";

const form = document.getElementById("filters");
const embedded = form.hasAttribute("data-embed");
const table = document.getElementById("explore-table");
const status = document.getElementById("explore-status");
const figure = document.getElementById("explore-chart");
const canvas = figure.querySelector(".chart-canvas");
const params = [...form.querySelectorAll("fieldset[data-param]")].map((f) => f.dataset.param);
const COLOURS = {};  // study -> system -> position in its bundle, from each study's row page

// The studies (the page's list, hidden once the script runs) and the values of all of them; the
// records are those of the studies the current view loaded (explore-load.js), in the list's order.
const list = document.getElementById("explore-studies");
const studies = studiesOf(list.querySelector("table"), params);
const total = studies.reduce((sum, s) => sum + s.count, 0);
list.hidden = true;
let records = [];

function selected() {
  const state = {};
  for (const param of params) {
    const values = [...form.querySelectorAll(`input[name="${param}"]:checked`)].map((i) => i.value);
    if (values.length) state[param] = values;
  }
  return state;
}

function toQuery(state) {
  const parts = Object.entries(state).map(([k, v]) => `${k}=${v.map(encodeURIComponent).join(",")}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

function fromQuery() {
  const state = {};
  for (const [key, value] of new URLSearchParams(location.search)) {
    if (params.includes(key) && value) state[key] = value.split(",");
  }
  return state;
}

function restore(state) {
  for (const input of form.querySelectorAll("input[type=checkbox]")) {
    input.checked = (state[input.name] ?? []).includes(input.value);
  }
}

// Laying out thousands of table rows costs far more than filtering them: show the first
// LIMIT matches, and the rest on request.
const LIMIT = 50;
const more = document.createElement("button");
more.type = "button";
more.hidden = true;
status.after(more);
let showAll = false;

// The chart's width, measured once and on resize: reading it after the table changed would
// force a layout of the whole table in the middle of a redraw.
let width = 640;
const measure = () => {
  width = Math.max(320, figure.parentElement.clientWidth || 640);
};

let current = {};

const whenIdle = window.requestIdleCallback ?? ((task) => setTimeout(task, 1));

// The table body holds only the rows shown. Rows merely hidden would still be walked by every
// style recalculation of a 10,000-row table; detached rows cost nothing until shown again.
// After a change (gradual), the first FIRST rows are laid out with the chart, in the frame after
// the change, and the rest when the browser is next idle: they are below the chart, out of view.
const body = table.tBodies[0];
const FIRST = 20;
let target = [];
function show(rows, {gradual}) {
  if (rows.length === target.length && rows.every((row, i) => target[i] === row)) return;
  target = rows;
  const now = gradual ? rows.slice(0, FIRST) : rows;
  body.replaceChildren(fragmentOf(now));
  if (now.length < rows.length) {
    whenIdle(() => {
      if (target === rows) body.append(fragmentOf(rows.slice(FIRST)));
    }, {timeout: 100});
  }
}

function fragmentOf(rows) {
  const fragment = document.createDocumentFragment();
  for (const row of rows) fragment.append(row);  // not append(...rows): "Show all" may be 100,000 rows
  return fragment;
}

const loading = latestOnly(status, "values");

async function apply(state, {gradual = true} = {}) {
  current = state;
  const {candidates, chosen} = studiesFor(studies, state);
  const parts = await loading(chosen.map((s) => load(s, params)));
  if (!parts) return;
  chosen.forEach((s, i) => (COLOURS[s.study] = parts[i].colours));
  records = parts.flatMap((part) => part.records);
  if (sorting) records.sort(sorting);
  const entries = Object.entries(state);
  const matching = records.filter((r) => entries.every(([p, values]) => values.includes(r.facets[p])));
  chart(matching, state);
  const shown = showAll ? matching : matching.slice(0, LIMIT);
  show(shown.map((r) => r.row), {gradual});
  const cut = matching.length - shown.length;
  const partial = chosen.length < candidates.length
    ? ` Values of ${chosen.length} of ${candidates.length} studies${entries.length ? " that may match" : ""} shown: pick filters to narrow.`
    : "";
  status.textContent = `${matching.length} of ${total} values${cut ? ` (showing the first ${shown.length})` : ""}.${partial}`;
  status.dataset.studies = `${chosen.length}`;
  status.setAttribute("aria-busy", "false");
  more.hidden = cut === 0;
  more.textContent = `Show all ${matching.length} values`;
  citeView(toQuery(state), {csv: () => toCsv(matching)});
}

more.addEventListener("click", () => {
  showAll = true;
  apply(current, {gradual: false});
});

// The active filters other than study and metric (the caption names those), as the form labels them.
const legends = Object.fromEntries([...form.querySelectorAll("fieldset[data-param]")]
  .map((f) => [f.dataset.param, f.querySelector("legend").textContent.trim()]));
const lowerFirst = (text) => (/^.[a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text);
function filtersText(state) {
  const parts = Object.entries(state).filter(([p]) => p !== "study" && p !== "metric")
    .map(([p, values]) => `${lowerFirst(legends[p] ?? p)} = ${values.join(" or ")}`);
  return parts.length ? `; filters: ${parts.join(", ")}` : "";
}

// Values of several studies or metrics: one small chart per study and metric (in the list's order),
// each on its own axis, never one axis across studies or units; at most MULTIPLES of them.
const MULTIPLES = 9;
const GAP = 16;

function chart(matching, state) {
  const caption = figure.querySelector("figcaption");
  figure.hidden = false;
  delete figure.dataset.multiples;
  if (matching.length === 0) {
    canvas.replaceChildren();
    keyboardTips(canvas, []);
    caption.textContent = "No values match these filters.";
    figure.dataset.drawn = "none";
    return;
  }
  const groups = new Map();  // study|metric -> records, in the records' order
  for (const r of matching) {
    const key = `${r.study}\u0000${r.metric}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  if (groups.size === 1) single(matching, state, caption);
  else multiples([...groups.values()], state, caption);
}

const studyTitle = (records) => records[0].row.cells[0].querySelector("a").title;

function single(matching, state, caption) {
  const drawn = drawChart(matching, {width, positions: COLOURS[matching[0].study], label: matching[0].metricText});
  const {threaded, single, series, spread, names} = drawn;
  canvas.replaceChildren(...drawn.parts);
  keyboardTips(canvas, drawn.tips, {label: `${matching[0].metricText} in ${studyTitle(matching)}`});
  const singleTables = new Set(single.map((p) => p.tableTitle));
  caption.textContent = `${matching[0].metricText} in ${studyTitle(matching)}${filtersText(state)}` +
    (threaded.length ? `; one line per system, state, table and benchmark, by thread count` : "; one panel per table") +
    (series.some((s) => s.dash) ? "; dashed: not in optimal state" : "") +
    (threaded.length && single.length
      ? `; ${single.length} value${single.length > 1 ? "s" : ""} without a thread count (${[...singleTables].map((t) => `“${t}”`).join(", ")}) drawn apart below, not joined to the lines`
      : "") +
    (spread.length ? "; repeated runs drawn as their mean, with a bar from the lowest to the highest" : "") +
    (names.length > LEGEND_MAX ? `; ${names.length} series: hover a line for its name` : "") +
    `. ${describe(drawn)}`;
  figure.dataset.drawn = `${drawn.drawn.length}`;
}

function multiples(groups, state, caption) {
  const columns = width >= 960 ? 3 : width >= 620 ? 2 : 1;
  const panelWidth = Math.floor((width - GAP * (columns - 1)) / columns);
  const shown = groups.slice(0, MULTIPLES);
  let points = 0;
  const keys = [];  // each multiple's study and series keys, for the one legend above them
  const cells = shown.map((records) => {
    const drawn = drawChart(records, {width: panelWidth, positions: COLOURS[records[0].study], small: true,
                                      label: records[0].metricText});
    points += drawn.drawn.length;
    keys.push({study: records[0].study, title: studyTitle(records), keys: drawn.keys});
    const cell = document.createElement("section");
    cell.className = "explore-multiple";
    const title = document.createElement("h3");
    title.textContent = `${records[0].metricText} in ${studyTitle(records)}`;
    const words = document.createElement("p");
    words.className = "multiple-words";
    words.textContent = describe(drawn);
    cell.append(title, ...drawn.parts, words);
    return cell;
  });
  const grid = document.createElement("div");
  grid.className = "explore-multiples";
  grid.style.setProperty("--columns", columns);
  grid.append(...cells);
  const legend = legendOf(keys);
  if (shown.some((records) => records.some((r) => isInconsistent(r.point)))) {
    const key = document.createElement("p");
    key.className = "legend-inconsistent";
    key.textContent = `${MARK} ${MARK_WORDS}: a value the source's own figures contradict; why is said under its chart.`;
    legend.append(key);
  }
  canvas.replaceChildren(legend, grid);
  keyboardTips(canvas, []);
  const left = groups.length - shown.length;
  const words = document.createElement("ul");  // each chart in words, for screen readers
  words.className = "visually-hidden";
  for (const cell of cells) {
    const item = document.createElement("li");
    item.textContent = `${cell.firstChild.textContent}: ${cell.lastChild.textContent}`;
    words.append(item);
  }
  caption.textContent = `${groups.length} charts, one per study and metric${filtersText(state)}: values of different ` +
    `studies or units are never drawn on one axis, and each chart has its own scale` +
    (left ? `; the first ${shown.length} shown, ${left} more: pick filters to narrow` : "") +
    `. The legend above them names each study's series by colour` +
    (keys.some((k) => k.keys.some((key) => key.dash)) ? " (dashed: not in optimal state)" : "") +
    `; pick one study and one metric for a larger chart.`;
  caption.append(words);
  figure.dataset.drawn = `${points}`;
  figure.dataset.multiples = `${shown.length}`;
}

// The CSV of the view: the filter fields (the registry's, as the form lists them) and the value as
// recorded, its kind and where it comes from, and why its source's own figures contradict it where they do.
const CSV_COLUMNS = ["study", "system", ...params.filter((p) => p !== "study"), "threads", "unit", "value_text",
  "value_kind", "provenance", "quote", "inconsistency", "note"];

function toCsv(matching) {
  return csvFormat(defusedRows(matching.map(({row, facets}) => {
    const value = row.querySelector("data");
    return {...facets, system: row.getAttribute("data-system"), threads: row.getAttribute("data-threads"),
      unit: row.getAttribute("data-unit"), value_text: value.getAttribute("value"), value_kind: value.dataset.kind,
      provenance: value.dataset.provenance, quote: value.dataset.quote ?? "",
      // the reason in words of a value its source's own figures contradict (results.csv's column), its note
      inconsistency: row.getAttribute("data-inconsistent") ?? "", note: row.getAttribute("data-note") ?? ""};
  })), CSV_COLUMNS) + "\n";
}

// The order of the records (a comparison function), kept for the rows of studies loaded later.
let sorting = null;
function sortBy(th, ascending) {
  const key = th.dataset.key;
  const index = [...th.parentNode.cells].indexOf(th);
  const numeric = key === "value" || key === "threads";
  const value = (row) => (numeric ? Number(row.dataset[key === "value" ? "value" : "threads"] || NaN) : row.cells[index].textContent);
  sorting = (a, b) => {
    const [x, y] = [value(a.row), value(b.row)];
    const order = numeric ? (Number.isNaN(x) ? 1 : Number.isNaN(y) ? -1 : x - y) : String(x).localeCompare(String(y));
    return ascending ? order : -order;
  };
  apply(current);  // the first LIMIT rows in the new order
}

sortableHeadings(table.tHead.rows[0].cells, sortBy);

// Each view is recorded in the address when the browser is idle after its redraw: the address
// bar is not part of the redraw, and under automation pushState takes ~10 ms on this page.
const unrecorded = [];
function record(state) {
  if (unrecorded.length === 0) {
    whenIdle(() => {
      for (const s of unrecorded.splice(0)) history.pushState(s, "", toQuery(s) || location.pathname);
    }, {timeout: 200});
  }
  unrecorded.push(state);
}

if (!embedded) {
  form.addEventListener("change", () => {
    showAll = false;
    const state = selected();
    apply(state).then(() => record(state));  // recorded once drawn
  });
  form.addEventListener("reset", () => {
    setTimeout(() => {  // the boxes are cleared after this event
      apply({}).then(() => record({}));
    });
  });
  form.hidden = false;
}
window.addEventListener("popstate", () => {
  unrecorded.length = 0;  // views not yet in the history when Back is pressed are dropped
  const state = fromQuery();
  restore(state);
  apply(state);
});

new ResizeObserver(() => {
  const before = width;
  measure();
  if (Math.abs(width - before) > 24) apply(current);
}).observe(figure.parentElement);
measure();
const initial = fromQuery();
restore(initial);
apply(initial, {gradual: false});
