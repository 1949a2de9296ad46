// Explore: filter, sort and chart the server-rendered results table. The facets and rows come
// from the page (rendered by Hugo from the exported data); the filter state lives in the URL
// as short parameters (?raid_level=6,10&state=rebuilding), and back/forward restore it.
import {dot, line, plot, ruleY} from "@observablehq/plot";
import {BASE_STYLE, PALETTE} from "./palette.js";

const form = document.getElementById("filters");
const table = document.getElementById("explore-table");
const rows = [...table.tBodies[0].rows];
const status = document.getElementById("explore-status");
const figure = document.getElementById("explore-chart");
const params = [...form.querySelectorAll("fieldset[data-param]")].map((f) => f.dataset.param);

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
  return parts.length ? `?${parts.join("&")}` : location.pathname;
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
const LIMIT = 200;
const more = document.createElement("button");
more.type = "button";
more.hidden = true;
status.after(more);
let showAll = false;

function apply(state) {
  const matching = rows.filter((row) => Object.entries(state).every(([p, values]) => values.includes(row.dataset[p])));
  const visible = new Set(showAll ? matching : matching.slice(0, LIMIT));
  for (const row of rows) {
    const hide = !visible.has(row);
    if (row.hidden !== hide) row.hidden = hide;  // untouched rows keep their computed style
  }
  const cut = matching.length - visible.size;
  status.textContent = `${matching.length} of ${rows.length} values${cut ? ` (showing the first ${visible.size})` : ""}.`;
  more.hidden = cut === 0;
  more.textContent = `Show all ${matching.length} values`;
  chart(matching);
}

more.addEventListener("click", () => {
  showAll = true;
  apply(fromQuery());
});

function chart(visible) {
  const studies = new Set(visible.map((r) => r.dataset.study));
  const metrics = new Set(visible.map((r) => `${r.dataset.metric} (${r.dataset.unit})`));
  const caption = figure.querySelector("figcaption");
  if (visible.length === 0 || studies.size !== 1 || metrics.size !== 1) {
    figure.hidden = false;
    figure.querySelector(".chart-canvas").replaceChildren();
    caption.textContent = visible.length
      ? "Select one study and one metric to draw a chart: values of different studies or units are never drawn on one axis."
      : "No values match these filters.";
    figure.dataset.drawn = "none";
    return;
  }
  const points = visible.map((r) => ({
    system: r.dataset.system, value: Number(r.dataset.value), state: r.dataset.state,
    threads: r.dataset.threads ? Number(r.dataset.threads) : null,
  }));
  const byThreads = points.every((p) => p.threads !== null);
  const systems = [...new Set(points.map((p) => p.system))];
  const canvas = figure.querySelector(".chart-canvas");
  const threads = [...new Set(points.map((p) => p.threads))].sort((a, b) => a - b);
  const step = Math.ceil(threads.length / 12);  // at most about a dozen tick labels
  const x = byThreads
    ? {type: "log", base: 2, label: "Threads", ticks: threads.filter((_, i) => i % step === 0), tickFormat: String}
    : {type: "band", label: null};
  const marks = [ruleY([0])];
  if (byThreads) marks.push(line(points, {x: "threads", y: "value", stroke: "system", z: (p) => `${p.system} ${p.state}`}));
  // Above 1,000 points, lines alone (the table beside the chart holds every value): one dot and
  // tooltip per point would cost more than the 50 ms redraw budget.
  if (!byThreads || points.length <= 1000) {
    marks.push(dot(points, {x: byThreads ? "threads" : "system", y: "value", fill: "system", r: 4,
      title: (p) => `${p.system}${p.state ? ` (${p.state})` : ""}: ${p.value}`}));
  }
  canvas.replaceChildren(plot({
    width: Math.max(320, canvas.clientWidth || 640), height: 340, marginLeft: 64, marginBottom: byThreads ? 40 : 80,
    style: BASE_STYLE, x, y: {grid: true, zero: true, label: [...metrics][0]},
    color: {domain: systems, range: PALETTE, legend: true}, marks,
  }));
  caption.textContent = `${[...metrics][0]} in ${visible[0].cells[0].querySelector("a").title}`;
  figure.hidden = false;
  figure.dataset.drawn = `${visible.length}`;
}

function sortBy(th) {
  const key = th.dataset.key;
  const ascending = th.getAttribute("aria-sort") !== "ascending";
  for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const index = [...th.parentNode.cells].indexOf(th);
  const numeric = key === "value" || key === "threads";
  const value = (row) => (numeric ? Number(row.dataset[key === "value" ? "value" : "threads"] || NaN) : row.cells[index].textContent);
  const sorted = [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const order = numeric ? (Number.isNaN(x) ? 1 : Number.isNaN(y) ? -1 : x - y) : String(x).localeCompare(String(y));
    return ascending ? order : -order;
  });
  table.tBodies[0].append(...sorted);
}

for (const th of table.tHead.rows[0].cells) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "sort";
  button.textContent = th.textContent;
  button.addEventListener("click", () => sortBy(th));
  th.replaceChildren(button);
}

form.addEventListener("change", () => {
  showAll = false;
  const state = selected();
  history.pushState(state, "", toQuery(state));
  apply(state);
});
form.addEventListener("reset", () => {
  setTimeout(() => {
    history.pushState({}, "", location.pathname);
    apply({});
  });
});
window.addEventListener("popstate", () => {
  const state = fromQuery();
  restore(state);
  apply(state);
});

form.hidden = false;
const initial = fromQuery();
restore(initial);
apply(initial);
