// Compare: pick series (a system in a study), see their shared values, and the configuration
// fields that differ between them. The picked series live in the URL (?series=a:x,b:y).
import {dot, plot, ruleY} from "@observablehq/plot";
import {BASE_STYLE, PALETTE} from "./palette.js";
import {plotByX} from "./plot-by-x.js";

const form = document.getElementById("compare-form");
const config = document.getElementById("compare-config");
const values = document.getElementById("compare-values");
const summary = document.getElementById("fairness-summary");
const figure = document.getElementById("compare-chart");
const labels = Object.fromEntries([...form.querySelectorAll("input")].map((i) => [i.value, i.parentNode.textContent.trim()]));

const picked = () => [...form.querySelectorAll("input:checked")].map((i) => i.value);

function fromQuery() {
  const raw = new URLSearchParams(location.search).get("series");
  return raw ? raw.split(",").filter((id) => id in labels) : [];
}

function restore(ids) {
  for (const input of form.querySelectorAll("input")) input.checked = ids.includes(input.value);
}

function showColumns(ids) {
  for (const cell of config.querySelectorAll("[data-series]")) cell.hidden = ids.length > 0 && !ids.includes(cell.dataset.series);
  const differing = [];
  for (const row of config.tBodies[0].rows) {
    const texts = new Set([...row.querySelectorAll("td")].filter((td) => !td.hidden).map((td) => td.textContent));
    const differs = ids.length > 1 && texts.size > 1;
    row.classList.toggle("differs", differs);
    if (differs) differing.push(row.cells[0].textContent);
  }
  if (ids.length < 2) summary.textContent = "Pick two or more series.";
  else if (differing.length === 0) summary.textContent = "Like for like: no configuration field differs.";
  else summary.textContent = `${differing.length} configuration field${differing.length > 1 ? "s differ" : " differs"}: ${differing.join(", ")}.`;
  summary.dataset.differs = differing.join("|");
}

function showValues(ids) {
  const rows = [...values.tBodies[0].rows];
  for (const row of rows) row.hidden = ids.length > 0 && !ids.includes(row.dataset.series);
  const shown = rows.filter((r) => !r.hidden);
  const keys = ids.map((id) => new Set(shown.filter((r) => r.dataset.series === id).map((r) => r.dataset.key)));
  const shared = ids.length > 1 ? [...keys[0]].filter((k) => keys.every((set) => set.has(k))) : [];
  const canvas = figure.querySelector(".chart-canvas");
  if (!shared.length) {
    figure.hidden = ids.length < 2;
    canvas.replaceChildren();
    figure.querySelector("figcaption").textContent = "These series share no metric in the same unit and state.";
    figure.dataset.drawn = "none";
    return;
  }
  const key = shared[0];
  const [metric, unit, state] = key.split("|");
  const points = shown.filter((r) => r.dataset.key === key).map((r) => ({
    series: labels[r.dataset.series], x: r.dataset.threads ? Number(r.dataset.threads) : null,
    y: Number(r.dataset.value), text: r.querySelector("data").getAttribute("value"), state,
    kind: r.querySelector("data").dataset.kind, provenance: r.querySelector("data").dataset.provenance,
  }));
  figure.hidden = false;  // measure the width once visible
  const width = Math.max(320, canvas.clientWidth || 640);
  const series = [...new Set(points.map((p) => p.series))];
  const chart = points.every((p) => p.x !== null)
    ? plotByX({points, series, unit, x_label: "Threads", y_label: `${metric} (${unit})`, switch: null}, null, {width})
    : plot({width, height: 320, marginLeft: 64, marginBottom: 80, style: BASE_STYLE, x: {type: "band", label: null},
      y: {grid: true, zero: true, label: `${metric} (${unit})`}, color: {domain: series, range: PALETTE, legend: true},
      marks: [ruleY([0]), dot(points, {x: "series", y: "y", fill: "series", r: 5, title: (p) => `${p.series}: ${p.text} ${unit}`})]});
  canvas.replaceChildren(chart);
  figure.querySelector("figcaption").textContent =
    `${metric} (${unit})${state ? `, ${state}` : ""}: the first metric all picked series share (${shared.length} shared in all).`;
  figure.hidden = false;
  figure.dataset.drawn = `${points.length}`;
}

function update(ids) {
  showColumns(ids);
  showValues(ids);
}

form.addEventListener("change", () => {
  const ids = picked();
  history.pushState(ids, "", ids.length ? `?series=${ids.join(",")}` : location.pathname);
  update(ids);
});
window.addEventListener("popstate", () => {
  const ids = fromQuery();
  restore(ids);
  update(ids);
});

const initial = fromQuery();
restore(initial);
update(initial);
