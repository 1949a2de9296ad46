// Explore: filter, sort and chart the server-rendered results table. The facets and rows come
// from the page (rendered by Hugo from the exported data); the filter state lives in the URL
// as short parameters (?raid_level=6,10&state=rebuilding), and back/forward restore it. On the
// embed page (form[data-embed]) the view comes from the URL alone.
import {dot, plot, ruleX, ruleY} from "@observablehq/plot";
import {max, min} from "d3-array";
import {csvFormat} from "d3-dsv";
import {lines, seriesOf} from "./lines.js";
import {BASE_STYLE, PALETTE} from "./palette.js";
import {citeView} from "./view-cite.js";

const form = document.getElementById("filters");
const embedded = form.hasAttribute("data-embed");
const table = document.getElementById("explore-table");
const status = document.getElementById("explore-status");
const figure = document.getElementById("explore-chart");
const canvas = figure.querySelector(".chart-canvas");
const params = [...form.querySelectorAll("fieldset[data-param]")].map((f) => f.dataset.param);

// Read each row's data once: reading the DOM on every filter change costs more than filtering.
// (getAttribute, not dataset: a DOMStringMap wrapper per row is 10,000 more objects for the GC.)
const records = [...table.tBodies[0].rows].map((row) => {
  const d = (name) => row.getAttribute(`data-${name}`);
  const mean = d("mean");
  return {
    row, facets: Object.fromEntries(params.map((p) => [p, d(p)])), metric: `${d("metric")} (${d("unit")})`,
    study: d("study"), group: d("group") && `${d("system")}|${d("group")}`,
    point: {row, system: d("system"), state: d("state"), threads: d("threads") ? Number(d("threads")) : null,
      line: `${d("system")} ${d("state")}`, name: d("system") + (d("state") ? ` (${d("state")})` : ""),
      value: Number(mean ?? d("value")), meanText: d("mean-text"), low: mean ? Number(d("low")) : null,
      high: mean ? Number(d("high")) : null, runs: mean ? Number(d("runs")) : 1},
  };
});
// Every row leaves the document until shown (see show): measuring the chart's width with 10,000
// rows still in the table forced a layout of all of them, 2 s at load.
table.tBodies[0].replaceChildren();
// The text of a point: the mean's as the exporter wrote it, or the value as recorded.
const textOf = (p) => p.meanText ?? p.row.querySelector("data").getAttribute("value");

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

function apply(state, {gradual = true} = {}) {
  current = state;
  const entries = Object.entries(state);
  const matching = records.filter((r) => entries.every(([p, values]) => values.includes(r.facets[p])));
  chart(matching);
  const shown = showAll ? matching : matching.slice(0, LIMIT);
  show(shown.map((r) => r.row), {gradual});
  const cut = matching.length - shown.length;
  status.textContent = `${matching.length} of ${records.length} values${cut ? ` (showing the first ${shown.length})` : ""}.`;
  more.hidden = cut === 0;
  more.textContent = `Show all ${matching.length} values`;
  citeView(toQuery(state), {csv: () => toCsv(matching)});
}

more.addEventListener("click", () => {
  showAll = true;
  apply(current, {gradual: false});
});

// One point per coordinate: repeated runs are drawn once, as their mean with a min-max rule.
function points(matching) {
  const seen = new Set();
  const out = [];
  for (const r of matching) {
    if (r.group !== null) {
      if (seen.has(r.group)) continue;
      seen.add(r.group);
    }
    out.push(r.point);
  }
  return out;
}

// More series than this: no legend (it would be a wall of swatches, and costs ~10 ms to lay
// out); each line and dot names its system on hover, and the table lists every value.
const LEGEND_MAX = 12;

function chart(matching) {
  const studies = new Set(matching.map((r) => r.study));
  const metrics = new Set(matching.map((r) => r.metric));
  const caption = figure.querySelector("figcaption");
  figure.hidden = false;
  if (matching.length === 0 || studies.size !== 1 || metrics.size !== 1) {
    canvas.replaceChildren();
    caption.textContent = matching.length
      ? "Select one study and one metric to draw a chart: values of different studies or units are never drawn on one axis."
      : "No values match these filters.";
    figure.dataset.drawn = "none";
    return;
  }
  const drawn = points(matching);
  const byThreads = drawn.every((p) => p.threads !== null);
  const systems = [...new Set(drawn.map((p) => p.system))];
  const threads = [...new Set(drawn.map((p) => p.threads))].sort((a, b) => a - b);
  const step = Math.ceil(threads.length / 12);  // at most about a dozen tick labels
  const x = byThreads
    ? {type: "log", base: 2, label: "Threads", ticks: threads.filter((_, i) => i % step === 0), tickFormat: String}
    : {type: "band", label: null};
  const xField = byThreads ? "threads" : "system";
  const spread = drawn.filter((p) => p.runs > 1);
  const marks = [ruleY([0])];
  if (spread.length) {
    marks.push(ruleX(spread, {x: xField, y1: "low", y2: "high", stroke: "system", strokeWidth: 3, strokeOpacity: 0.45}));
  }
  // Above 1,000 points, thin lines alone (the table below the chart holds every value): one dot
  // and tooltip per point would cost more than the 50 ms redraw budget, and so would lines of
  // Plot's default width (1.5 px lines take three times as long to rasterise in software as 1 px).
  const dense = byThreads && drawn.length > 1000;
  let yDomain;  // left to Plot, unless lines are drawn (a function mark gives Plot nothing to infer it from)
  if (byThreads) {
    const low = min([min(drawn, (p) => p.value), min(spread, (p) => p.low)]);
    const high = max([max(drawn, (p) => p.value), max(spread, (p) => p.high)]);
    x.domain = [threads[0], threads.at(-1)];
    yDomain = [Math.min(0, low), Math.max(0, high)];
    const series = seriesOf(drawn, {x: "threads", y: "value", z: "line", stroke: "system", title: "name"});
    marks.push(lines(series, {strokeWidth: dense ? 1 : 1.5}));
  }
  if (!dense) {
    marks.push(dot(drawn, {x: xField, y: "value", fill: "system", r: 4,
      title: (p) => `${p.name}: ${textOf(p)}`}));
  }
  canvas.replaceChildren(plot({
    width, height: 340, marginLeft: 64, marginBottom: byThreads ? 40 : 80,
    style: BASE_STYLE, x, y: {grid: true, zero: true, label: [...metrics][0], domain: yDomain},
    color: {domain: systems, range: PALETTE, legend: systems.length <= LEGEND_MAX}, marks,
  }));
  caption.textContent = `${[...metrics][0]} in ${matching[0].row.cells[0].querySelector("a").title}` +
    (spread.length ? "; repeated runs drawn as their mean, with a bar from the lowest to the highest" : "") +
    (systems.length > LEGEND_MAX ? `; ${systems.length} systems: hover a line for its name` : "");
  figure.dataset.drawn = `${drawn.length}`;
}

// The CSV of the view: the filter fields (the registry's, as the form lists them) and the value as
// recorded, its kind and where it comes from.
const CSV_COLUMNS = ["study", "system", ...params.filter((p) => p !== "study"), "threads", "unit", "value_text",
  "value_kind", "provenance"];

function toCsv(matching) {
  return csvFormat(matching.map(({row, facets}) => {
    const value = row.querySelector("data");
    return {...facets, system: row.getAttribute("data-system"), threads: row.getAttribute("data-threads"),
      unit: row.getAttribute("data-unit"), value_text: value.getAttribute("value"), value_kind: value.dataset.kind,
      provenance: value.dataset.provenance};
  }), CSV_COLUMNS) + "\n";
}

function sortBy(th) {
  const key = th.dataset.key;
  const ascending = th.getAttribute("aria-sort") !== "ascending";
  for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const index = [...th.parentNode.cells].indexOf(th);
  const numeric = key === "value" || key === "threads";
  const value = (row) => (numeric ? Number(row.dataset[key === "value" ? "value" : "threads"] || NaN) : row.cells[index].textContent);
  records.sort((a, b) => {
    const [x, y] = [value(a.row), value(b.row)];
    const order = numeric ? (Number.isNaN(x) ? 1 : Number.isNaN(y) ? -1 : x - y) : String(x).localeCompare(String(y));
    return ascending ? order : -order;
  });
  apply(current);  // the first LIMIT rows in the new order
}

for (const th of table.tHead.rows[0].cells) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "sort";
  button.textContent = th.textContent;
  button.addEventListener("click", () => sortBy(th));
  th.replaceChildren(button);
}

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
    apply(state);
    record(state);
  });
  form.addEventListener("reset", () => {
    setTimeout(() => {  // the boxes are cleared after this event
      apply({});
      record({});
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
