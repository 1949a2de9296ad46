// Compare: pick series (a system in a study), see their shared values, and the configuration
// fields that differ between them. The picked series live in the URL (?series=a:x,b:y).
import {dot, plot, ruleY} from "@observablehq/plot";
import {BASE_STYLE, PALETTE} from "./palette.js";
import {plotByX} from "./plot-by-x.js";
import {citeView} from "./view-cite.js";

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

// The picked series a value's spread meets (listed by the exporter): those pairs are not ranked.
function overlapsOf(row, ids) {
  const names = [];
  for (const span of row.querySelectorAll("[data-overlap]")) {
    span.hidden = ids.length > 0 && !ids.includes(span.dataset.overlap);
    if (!span.hidden) names.push(span.textContent);
  }
  return names;
}

function showValues(ids) {
  const rows = [...values.tBodies[0].rows];
  for (const row of rows) row.hidden = ids.length > 0 && !ids.includes(row.dataset.series);
  const shown = rows.filter((r) => !r.hidden);
  const unranked = new Map(shown.map((r) => [r, overlapsOf(r, ids)]));
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
  const {metric, unit, state} = shown.find((row) => row.dataset.key === key).dataset;
  // repeated runs of a series at one coordinate are drawn once: their mean, with a min-max bar
  const seen = new Set();
  const points = [];
  for (const r of shown.filter((row) => row.dataset.key === key)) {
    const d = r.dataset;
    if (d.group) {
      if (seen.has(`${d.series}|${d.group}`)) continue;
      seen.add(`${d.series}|${d.group}`);
    }
    const value = r.querySelector("data");
    const meets = unranked.get(r);
    points.push({
      series: labels[d.series], x: d.threads ? Number(d.threads) : null, state, kind: value.dataset.kind,
      y: Number(d.mean ?? d.value), low: d.group ? Number(d.low) : null, high: d.group ? Number(d.high) : null,
      text: d.group ? d.meanText : value.getAttribute("value"), unranked: meets.length > 0,
      provenance: (d.group ? `mean of ${d.runs} runs` : value.dataset.provenance) +
        (meets.length ? `\nnot ranked: its spread meets ${meets.join(", ")}` : ""),
    });
  }
  figure.hidden = false;  // measure the width once visible
  const width = Math.max(320, canvas.clientWidth || 640);
  const series = [...new Set(points.map((p) => p.series))];
  const chart = points.every((p) => p.x !== null)
    ? plotByX({points, series, unit, x_label: "Threads", y_label: `${metric} (${unit})`, switch: null}, null, {width})
    : plot({width, height: 320, marginLeft: 64, marginBottom: 80, style: BASE_STYLE, x: {type: "band", label: null},
      y: {grid: true, zero: true, label: `${metric} (${unit})`}, color: {domain: series, range: PALETTE, legend: true},
      marks: [ruleY([0]), dot(points, {x: "series", y: "y", fill: "series", r: 5, title: (p) => `${p.series}: ${p.text} ${unit}\n${p.provenance}`})]});
  canvas.replaceChildren(chart);
  const meeting = points.filter((p) => p.unranked).length;
  figure.querySelector("figcaption").textContent =
    `${metric} (${unit})${state ? `, ${state}` : ""}: the first metric all picked series share (${shared.length} shared in all).` +
    (meeting ? ` At ${meeting} of ${points.length} points the spread of repeated runs meets another series': ` +
      "those values are not ranked (see the last column of the table)." : "");
  figure.dataset.unranked = `${meeting}`;
  figure.hidden = false;
  figure.dataset.drawn = `${points.length}`;
}

const toQuery = (ids) => (ids.length ? `?series=${ids.join(",")}` : "");

function update(ids) {
  showColumns(ids);
  showValues(ids);
  citeView(toQuery(ids));
}

// On the embed page (form[data-embed]) the series come from the URL alone.
if (!form.hasAttribute("data-embed")) {
  form.addEventListener("change", () => {
    const ids = picked();
    history.pushState(ids, "", toQuery(ids) || location.pathname);
    update(ids);
  });
}
window.addEventListener("popstate", () => {
  const ids = fromQuery();
  restore(ids);
  update(ids);
});

const initial = fromQuery();
restore(initial);
update(initial);
