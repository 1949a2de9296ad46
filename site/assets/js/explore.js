// Explore: filter, sort and chart the results. The facets come from the page, the rows from the row
// pages of the studies a view can match (fetched on demand, explore-load.js); the filter state lives in the URL
// as short parameters (?raid_level=6,10&state=rebuilding), and back/forward restore it. On the
// embed page (form[data-embed]) the view comes from the URL alone.
import {axisX, dot, plot, ruleX, ruleY, text} from "@observablehq/plot";
import {max, min} from "d3-array";
import {csvFormat} from "d3-dsv";
import {lines, seriesOf} from "./lines.js";
import {BASE_STYLE, PALETTE} from "./palette.js";
import {load, studiesFor, studiesOf} from "./explore-load.js";
import {latestOnly} from "./latest.js";
import {citeView} from "./view-cite.js";
import {defusedRows} from "./csv-cells.js";

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

// The active filters other than study and metric (the caption names those), as the form labels them.
const legends = Object.fromEntries([...form.querySelectorAll("fieldset[data-param]")]
  .map((f) => [f.dataset.param, f.querySelector("legend").textContent.trim()]));
const lowerFirst = (text) => (/^.[a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text);
function filtersText(state) {
  const parts = Object.entries(state).filter(([p]) => p !== "study" && p !== "metric")
    .map(([p, values]) => `${lowerFirst(legends[p] ?? p)} = ${values.join(" or ")}`);
  return parts.length ? `; filters: ${parts.join(", ")}` : "";
}

// Thread-count ticks at least MIN_GAP px apart on the log scale (labels of a dozen close thread
// counts would overlap).
const MIN_GAP = 36;
function threadTicks(threads, span) {
  const [l0, l1] = [Math.log2(threads[0]), Math.log2(threads.at(-1))];
  const ticks = [];
  let last = -Infinity;
  for (const t of threads) {
    const px = l1 === l0 ? 0 : ((Math.log2(t) - l0) / (l1 - l0)) * span;
    if (px - last >= MIN_GAP) {
      ticks.push(t);
      last = px;
    }
  }
  return ticks;
}

// A label in lines of at most `chars` characters (a word longer than that is cut), so that the
// height of its row is known and no label runs into the next or off the chart.
function wrap(text, chars) {
  const lines = [];
  let line = "";
  for (let word of text.split(/\s+/)) {
    while (word.length > chars) {
      if (line) lines.push(line), (line = "");
      lines.push(word.slice(0, chars));
      word = word.slice(chars);
    }
    if (line && line.length + 1 + word.length > chars) lines.push(line), (line = "");
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

// Values without a thread count (a summary table, a single printed figure): one row each, in a
// panel per table, with its name on the left (wrapped, never overlapping) on the lines' value axis.
const LINE = 15;
function panel(points, {width, yDomain, metric, color, mixed}) {
  const systems = new Set(points.map((p) => p.label));
  const labelOf = points.length > systems.size
    ? (systems.size === 1 ? (p) => p.column : (p) => `${p.label}: ${p.column}`)
    : (p) => p.label;
  const marginLeft = Math.round(Math.min(width * 0.45, 280));
  const chars = Math.max(8, Math.floor((marginLeft - 12) / 7.5));  // about 7 px a character at 13 px
  // Each row as tall as its label (a band scale would give every row the height of the tallest).
  let y = 0;
  const rows = points.map((p) => {
    const lines = wrap(labelOf(p), chars);
    const row = {...p, text: lines.join("\n"), offset: y + (lines.length * LINE + 12) / 2};
    y += lines.length * LINE + 12;
    return row;
  });
  const height = 50 + y;
  const ranged = rows.filter((r) => r.runs > 1);
  const marks = [ruleX([0]), axisX({label: metric, labelAnchor: "right"}),
    text(rows, {y: "offset", text: "text", frameAnchor: "left", textAnchor: "end", lineAnchor: "middle", dx: -8,
      lineHeight: LINE / 13})];
  if (ranged.length) {
    marks.push(ruleY(ranged, {y: "offset", x1: "low", x2: "high", stroke: "label", strokeWidth: 3, strokeOpacity: 0.45}));
  }
  marks.push(dot(rows, {y: "offset", x: "value", fill: "label", r: 4, title: (p) => `${p.name}: ${textOf(p)}`}));
  const div = document.createElement("div");
  div.className = "explore-panel";
  const title = document.createElement("p");
  title.className = "panel-title";
  title.textContent = `${mixed ? "Without a thread count, from" : "From"} “${points[0].tableTitle}”`;
  div.append(title, plot({
    width, height, marginLeft, marginRight: 24, marginTop: 10, marginBottom: 40, style: BASE_STYLE,
    x: {grid: true, domain: yDomain, label: metric}, y: {axis: null, domain: [0, y], range: [10, height - 40]},
    color, marks,
  }));
  return div;
}

function chart(matching, state) {
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
  const metric = [...metrics][0];
  const drawn = points(matching);
  const threaded = [];
  const single = [];
  for (const p of drawn) (p.threads === null ? single : threaded).push(p);
  const spread = drawn.filter((p) => p.runs > 1);
  const low = min([0, min(drawn, (p) => p.value), min(spread, (p) => p.low)]);
  const high = max([0, max(drawn, (p) => p.value), max(spread, (p) => p.high)]);
  const yDomain = [low, high];
  const parts = [];
  let series = [];
  if (threaded.length) {
    series = seriesOf(threaded, {x: "threads", y: "value", z: "line", stroke: "name", title: "name"});
    // One system in one state from two tables by thread count: the table's title tells them apart.
    const count = new Map();
    for (const s of series) count.set(s.title, (count.get(s.title) ?? 0) + 1);
    if (series.some((s) => count.get(s.title) > 1)) {
      const labels = new Map();
      for (const s of series) {
        if (count.get(s.title) > 1) s.title = s.stroke = `${s.title}, ${s.first.tableTitle}`;
        labels.set(s.first.line, s.title);
      }
      for (const p of threaded) p.label = labels.get(p.line) ?? p.name;
    } else {
      for (const p of threaded) p.label = p.name;  // a label a previous view gave it
    }
  }
  // A system keeps its colour on every page (its position in its bundle); a state other than optimal
  // is dashed, so one system's lines in two states share a colour and differ in stroke.
  for (const s of series) s.dash = s.first.state && s.first.state !== "optimal" ? "5,3" : null;
  const systemOf = new Map([...series.map((s) => [s.title, s.first.system]), ...single.map((p) => [p.label, p.system])]);
  const names = [...systemOf.keys()];
  const positions = COLOURS[[...studies][0]] ?? {};
  const color = {domain: names, range: names.map((n, i) => PALETTE[(positions[systemOf.get(n)] ?? i) % PALETTE.length])};
  if (threaded.length) {
    const threads = [...new Set(threaded.map((p) => p.threads))].sort((a, b) => a - b);
    const x = {type: "log", base: 2, label: "Threads", ticks: threadTicks(threads, width - 84), tickFormat: String,
      domain: [threads[0], threads.at(-1)]};
    const ranged = threaded.filter((p) => p.runs > 1);
    const marks = [ruleY([0])];
    if (ranged.length) {
      marks.push(ruleX(ranged, {x: "threads", y1: "low", y2: "high", stroke: "label", strokeWidth: 3, strokeOpacity: 0.45}));
    }
    // Above 1,000 points, thin lines alone (the table below the chart holds every value): one dot
    // and tooltip per point would cost more than the 50 ms redraw budget, and so would lines of
    // Plot's default width (1.5 px lines take three times as long to rasterise in software as 1 px).
    const dense = threaded.length > 1000;
    marks.push(lines(series, {strokeWidth: dense ? 1 : 1.5}));
    if (!dense) {
      marks.push(dot(threaded, {x: "threads", y: "value", fill: "label", r: 4, title: (p) => `${p.label}: ${textOf(p)}`}));
    }
    parts.push(plot({
      width, height: 340, marginLeft: 64, marginRight: 20, marginBottom: 40, style: BASE_STYLE, x,
      y: {grid: true, label: metric, domain: yDomain},
      color: {...color, legend: names.length <= LEGEND_MAX}, marks,
    }));
  }
  if (single.length) {
    const tables = [...new Set(single.map((p) => p.table))];
    for (const t of tables) {
      parts.push(panel(single.filter((p) => p.table === t), {width, yDomain, metric, color, mixed: threaded.length > 0}));
    }
  }
  canvas.replaceChildren(...parts);
  const singleTables = new Set(single.map((p) => p.tableTitle));
  caption.textContent = `${metric} in ${matching[0].row.cells[0].querySelector("a").title}${filtersText(state)}` +
    (threaded.length ? `; one line per system, state and table, by thread count` : "; one panel per table") +
    (series.some((s) => s.dash) ? "; dashed: not in optimal state" : "") +
    (threaded.length && single.length
      ? `; ${single.length} value${single.length > 1 ? "s" : ""} without a thread count (${[...singleTables].map((t) => `“${t}”`).join(", ")}) drawn apart below, not joined to the lines`
      : "") +
    (spread.length ? "; repeated runs drawn as their mean, with a bar from the lowest to the highest" : "") +
    (names.length > LEGEND_MAX ? `; ${names.length} series: hover a line for its name` : "");
  figure.dataset.drawn = `${drawn.length}`;
}

// The CSV of the view: the filter fields (the registry's, as the form lists them) and the value as
// recorded, its kind and where it comes from.
const CSV_COLUMNS = ["study", "system", ...params.filter((p) => p !== "study"), "threads", "unit", "value_text",
  "value_kind", "provenance"];

function toCsv(matching) {
  return csvFormat(defusedRows(matching.map(({row, facets}) => {
    const value = row.querySelector("data");
    return {...facets, system: row.getAttribute("data-system"), threads: row.getAttribute("data-threads"),
      unit: row.getAttribute("data-unit"), value_text: value.getAttribute("value"), value_kind: value.dataset.kind,
      provenance: value.dataset.provenance};
  })), CSV_COLUMNS) + "\n";
}

// The order of the records (a comparison function), kept for the rows of studies loaded later.
let sorting = null;
function sortBy(th) {
  const key = th.dataset.key;
  const ascending = th.getAttribute("aria-sort") !== "ascending";
  for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
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
