// Compare: pick series (a system in a study), see their shared values, and every recorded fact
// (configuration field, setting, option) that differs between them. The picked series live in the URL (?series=a:x,b:y); their
// configuration and values come from their studies' series pages (compare-load.js).
import {dot, plot, ruleY} from "@observablehq/plot";
import {fill, load, studyOf} from "./compare-load.js";
import {samePoint, spreadsOverlap} from "./overlap.js";
import {keyboardTips} from "./chart-keys.js";
import {BASE_STYLE, PALETTE, coloursOf} from "./palette.js";
import {keysOf, plotByX} from "./plot-by-x.js";
import {latestOnly} from "./latest.js";
import {citeView} from "./view-cite.js";
import {findSeries} from "./compare-find.js";
import {inWords} from "./chart-words.js";
import {warnGrades} from "./compare-grades.js";
import {inconsistentKey, inconsistentMarks, inconsistentWords, isInconsistent, tipLines} from "./inconsistent.js";

const form = document.getElementById("compare-form");
const config = document.getElementById("compare-config");
const values = document.getElementById("compare-values");
const summary = document.getElementById("fairness-summary");
const figure = document.getElementById("compare-chart");
const labels = Object.fromEntries([...form.querySelectorAll("input[name=series]")].map((i) => [i.value, i.parentNode.textContent.trim()]));
// each series' colour: its system's place in its study (data-colour), as on the study page and in Explore
const colours = Object.fromEntries([...form.querySelectorAll("input[name=series]")].map((i) => [i.value, Number(i.dataset.colour)]));
// each study's series page, as the picker links it
const hrefs = Object.fromEntries([...form.querySelectorAll("details[data-study]")]
  .map((d) => [d.dataset.study, d.querySelector("a[data-series-page]").getAttribute("href")]));

const picked = () => [...form.querySelectorAll("input[name=series]:checked")].map((i) => i.value);

function fromQuery() {
  const raw = new URLSearchParams(location.search).get("series");
  return raw ? raw.split(",").filter((id) => id in labels) : [];
}

function restore(ids) {
  for (const input of form.querySelectorAll("input[name=series]")) {
    input.checked = ids.includes(input.value);
    if (input.checked) input.closest("details").open = true;
  }
}

function showColumns(ids) {
  const differing = [];
  for (const row of config.tBodies[0].rows) {
    const texts = new Set([...row.querySelectorAll("td")].filter((td) => !td.hidden).map((td) => td.textContent));
    const differs = ids.length > 1 && texts.size > 1;
    row.classList.toggle("differs", differs);
    if (differs) differing.push(row.cells[0].textContent);
  }
  if (ids.length < 2) summary.textContent = "Pick two or more series.";
  else if (differing.length === 0) summary.textContent = "Like for like: no recorded fact differs.";
  else summary.textContent = `${differing.length} recorded fact${differing.length > 1 ? "s differ" : " differs"}: ${differing.join(", ")}.`;
  summary.dataset.differs = differing.join("|");
}

// Each row's coordinate (ingest/database/sql/publish.sql's same_point and spreads_overlap, in overlap.js).
function coordinateOf(row) {
  const d = row.dataset;
  return {metric: d.metric, unit: d.unit, state: d.state || null, threads: d.threads ? Number(d.threads) : null,
    ...(d.coordinate ? JSON.parse(d.coordinate) : {runs: null, low: null, high: null})};
}

// Mark in each row the other picked series whose spread meets its value's at the same point: those
// pairs are not ranked. Only the picked series are compared, each row with each other series' rows.
function markOverlaps(rows, ids) {
  const coordinates = new Map(rows.map((r) => [r, coordinateOf(r)]));
  const unranked = new Map();
  for (const row of rows) {
    const a = coordinates.get(row);
    const names = [];
    for (const id of ids) {
      if (id === row.dataset.series) continue;
      const other = rows.find((r) => r.dataset.series === id && samePoint(a, coordinates.get(r)));
      if (other && spreadsOverlap(a, coordinates.get(other))) names.push(id);
    }
    const cell = row.querySelector("td.overlaps");
    cell.replaceChildren(...names.map((id) => {
      const span = document.createElement("span");
      span.dataset.overlap = id;
      span.textContent = labels[id];
      return span;
    }));
    unranked.set(row, names.map((id) => labels[id]));
  }
  return unranked;
}

function showValues(ids) {
  const shown = [...values.tBodies[0].rows];
  const unranked = markOverlaps(shown, ids);
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
  const {metricText, unit, state} = shown.find((row) => row.dataset.key === key).dataset;
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
      id: d.series, series: labels[d.series], x: d.threads ? Number(d.threads) : null, state, kind: value.dataset.kind,
      y: Number(d.mean ?? d.value), low: d.group ? Number(d.low) : null, high: d.group ? Number(d.high) : null,
      text: d.group ? d.meanText : value.getAttribute("value"), unranked: meets.length > 0,
      // a value its source's own figures contradict: its reason in words and note (inconsistent.js)
      inconsistent: d.inconsistent ?? null, note: d.note ?? null,
      provenance: (d.group ? `mean of ${d.runs} runs` : value.dataset.provenance) +
        (meets.length ? `\nnot ranked: its spread meets ${meets.join(", ")}` : ""),
    });
  }
  figure.hidden = false;  // measure the width once visible
  const width = Math.max(320, canvas.clientWidth || 640);
  const drawn = [...new Set(points.map((p) => p.id))];  // the picked series, in the order drawn
  const series = drawn.map((id) => labels[id]);
  const byX = points.every((p) => p.x !== null);
  // Two series of different studies may hold the same place in theirs, so have the same colour: where
  // lines join their points, a series whose colour an earlier one has is dashed.
  const dashed = [];
  if (byX && new Set(points.map((p) => p.x)).size > 1) {
    const taken = new Set();
    for (const id of drawn) {
      const colour = colours[id] % PALETTE.length;
      if (taken.has(colour)) dashed.push(labels[id]);
      taken.add(colour);
    }
  }
  const spec = {points, series, colours: drawn.map((id) => colours[id]), dashed, unit, x_label: "Threads",
    y_label: metricText, switch: null};
  const chart = byX
    ? plotByX(spec, null, {width})
    : plot({width, height: 320, marginLeft: 64, marginBottom: 80, style: BASE_STYLE, x: {type: "band", label: null},
      y: {grid: true, zero: true, label: metricText}, color: {domain: series, range: coloursOf(spec), legend: true},
      marks: [ruleY([0]), dot(points.filter((p) => !isInconsistent(p)), {x: "series", y: "y", fill: "series", r: 5, tip: true,
        title: (p) => textOf(p, unit)}),
      ...inconsistentMarks(points.filter(isInconsistent), {x: "series", y: "y", stroke: "series", r: 5, tip: true,
        title: (p) => textOf(p, unit)})]});
  const contradicted = inconsistentKey(points, {name: (p) => p.series, text: (p) => `${p.text} ${unit}`});
  canvas.replaceChildren(chart, ...(contradicted ? [contradicted] : []));
  keyboardTips(canvas, [byX ? {chart, ...keysOf(spec, null)}
    : {chart, points, x: (p) => p.series, y: (p) => p.y, text: (p) => textOf(p, unit)}], {label: `${metricText}${state ? `, ${state}` : ""}`});
  const meeting = points.filter((p) => p.unranked).length;
  figure.querySelector("figcaption").textContent =
    `${metricText}${state ? `, ${state}` : ""}: the first metric all picked series share (${shared.length} shared in all).` +
    (dashed.length ? ` Dashed: ${dashed.join(", ")}, whose colour (its place in its study) an earlier series has.` : "") +
    (meeting ? ` At ${meeting} of ${points.length} points the spread of repeated runs meets another series': ` +
      "those values are not ranked (see the last column of the table)." : "") +
    ` ${inWords(points.map((p) => ({...p, value: p.y, threads: p.x})), {name: (p) => p.series, text: (p) => `${p.text} ${unit}`})}` +
    inconsistentWords(points, {name: (p) => p.series, text: (p) => `${p.text} ${unit}`});
  figure.dataset.unranked = `${meeting}`;
  figure.hidden = false;
  figure.dataset.drawn = `${points.length}`;
}

// A value's words without a thread count, in its tip and for the keys.
const textOf = (p, unit) => `${p.series}\n${p.text} ${unit} (${p.kind})\n${p.provenance}${tipLines(p)}`;

const toQuery = (ids) => (ids.length ? `?series=${ids.join(",")}` : "");

const loading = latestOnly(summary, "series");

async function update(ids) {
  const studies = [...new Set(ids.map(studyOf))];
  const loaded = await loading(studies.map((study) => load(study, hrefs[study])));
  if (!loaded) return;
  const pages = new Map(studies.map((study, i) => [study, loaded[i]]));
  fill(ids, pages, {config, values});
  showColumns(ids);
  showValues(ids);
  warnGrades(ids, values, document.getElementById("compare-grades"), (id) => labels[id]);
  citeView(toQuery(ids));
  summary.setAttribute("aria-busy", "false");
}

// On the embed page (form[data-embed]) the series come from the URL alone.
if (!form.hasAttribute("data-embed")) {
  form.addEventListener("change", (event) => {
    if (event.target.name !== "series") return;  // the text filter
    const ids = picked();
    history.pushState(ids, "", toQuery(ids) || location.pathname);
    update(ids);
  });
  findSeries(form);
}
window.addEventListener("popstate", () => {
  const ids = fromQuery();
  restore(ids);
  update(ids);
});

const initial = fromQuery();
restore(initial);
update(initial);
