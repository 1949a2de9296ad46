// "Where does your run land?" (/compare/yours/): your run's figures from the address's fragment
// (#test=...&engine=...&threads=...&tps=..., as benchdb compare prints them) or from the form, and the
// published series of the same test and engine at the thread count nearest yours, by the rule of
// data/landing.json (ingest/database/sql/comparable.sql, which benchdb compare runs too), in DuckDB-WASM
// over /sql/'s database file (js/sql-engine.js, imported for the first comparison). Nothing leaves the page.
import {onResize} from "./palette.js";
import {importNamed} from "./preload.js";

const script = document.querySelector("script[data-engine]");
const root = document.getElementById("landing");
const rule = JSON.parse(root.dataset.rule);
const form = document.getElementById("landing-form");
const status = document.getElementById("landing-status");
const error = document.getElementById("landing-error");
const result = document.getElementById("landing-result");
const ENGINES = new Map(rule.engines.map((e) => [e.key, e.label]));  // database/comparable.py's
const number = new Intl.NumberFormat("en", {maximumFractionDigits: 2});
const GRADES = new Map(JSON.parse(root.dataset.grades).map((g) => [g.key, g]));  // schema/run-quality.yaml's

// The fragment's figures, each checked: one that is not of its kind is named, and never reaches the SQL
// (the values the rule's $names stand for are written into it as literals of their checked kind).
function checked(params) {
  const test = params.get("test") ?? "";
  const engine = params.get("engine") ?? "";
  const threads = Number(params.get("threads"));
  const tps = Number(params.get("tps"));
  const wrong = [];
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(test)) wrong.push("test (a sysbench test's name, such as oltp_read_write)");
  if (!ENGINES.has(engine)) wrong.push(`engine (${[...ENGINES.keys()].join(", ")})`);
  if (!Number.isInteger(threads) || threads < 1 || threads > 100000) wrong.push("threads (a whole number from 1 to 100,000)");
  if (params.get("tps") === null || !Number.isFinite(tps) || tps < 0 || tps > 1e9) wrong.push("tps (transactions a second, a number)");
  const grade = params.get("grade");  // as benchdb compare graded the log; none when typed in the form
  if (grade !== null && !GRADES.has(grade)) wrong.push(`grade (${[...GRADES.keys()].join(", ")})`);
  return wrong.length ? {wrong} : {run: {test, engine, threads, tps, grade}};
}

function literal(name, run) {
  return typeof run[name] === "number" ? String(run[name]) : `'${run[name]}'`;
}

function statements(run) {
  const names = new RegExp(`\\$(${rule.parameters.join("|")})\\b`, "g");
  return rule.statements.map((sql) => sql.replace(names, (_, name) => literal(name, run)));
}

let engine = null;
let database = null;
async function open() {
  engine ??= importNamed(script, {entry: "engine", names: ["plot", "engine"]});
  const {openDatabase} = await engine;
  database ??= openDatabase(root.dataset.duckdb, {file: root.dataset.file, tables: []});
  return database;
}

function cell(row, text, {numeric = false, href = null} = {}) {
  const td = document.createElement("td");
  if (numeric) td.className = "num";
  if (href) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    td.append(a);
  } else {
    td.textContent = text;
  }
  row.append(td);
}

function show(run, rows) {
  const tbody = document.querySelector("#landing-table tbody");
  tbody.replaceChildren();
  const yours = document.createElement("tr");
  yours.className = "landing-yours";
  yours.dataset.yours = "";
  cell(yours, number.format(run.tps), {numeric: true});
  cell(yours, "your run");
  cell(yours, "");
  cell(yours, String(run.threads), {numeric: true});
  cell(yours, "");
  cell(yours, "");
  let placed = false;
  for (const r of rows) {
    if (!placed && r.tps < run.tps) {
      tbody.append(yours);
      placed = true;
    }
    const tr = document.createElement("tr");
    Object.assign(tr.dataset, {study: r.study, system: r.system, workload: r.workload, tps: String(r.tps)});
    cell(tr, number.format(r.tps), {numeric: true});
    cell(tr, r.system_label);
    cell(tr, r.study_title, {href: new URL(`../../studies/${encodeURIComponent(r.study)}/`, location.href).pathname});
    cell(tr, String(r.threads), {numeric: true});
    cell(tr, r.ratio === null ? "" : `${r.ratio >= 0.1 ? r.ratio.toFixed(2) : r.ratio.toFixed(3)}×`, {numeric: true});
    cell(tr, r.value_kind);
    tbody.append(tr);
  }
  if (!placed) tbody.append(yours);
  const summary = document.getElementById("landing-summary");
  summary.dataset.percentile = rows.length ? String(rows[0].percentile) : "";
  summary.textContent = rows.length
    ? `${rows.length} published series of ${run.test} on ${ENGINES.get(run.engine)} at the thread count nearest ` +
      `${run.threads}; your ${number.format(run.tps)} transactions a second is at percentile ${rows[0].percentile} of them.`
    : `No published series of ${run.test} on ${ENGINES.get(run.engine)}: benchdb compare says which tests the ` +
      "catalogue has for the engine.";
  const graded = document.getElementById("landing-grade");
  graded.hidden = !run.grade;
  if (run.grade) {
    const link = Object.assign(document.createElement("a"), {href: root.dataset.gradesPage, textContent: "the run-quality rules"});
    graded.replaceChildren(`Its quality by `, link, `, as the link says benchdb compare graded the log: ` +
      `${GRADES.get(run.grade).label}.`);  // (the address's word: a link can be forged, as its figures can)
    graded.dataset.grade = run.grade;
  }
  result.hidden = false;
}

// The comparison drawn (landing-chart.js, in the engine's bundle), again when the width changes.
const figure = document.getElementById("landing-chart");
let drawn = null;
async function draw(run, rows) {
  const {landingChart} = await engine;
  figure.hidden = !rows.length;
  drawn = () => figure.querySelector(".landing-plot").replaceChildren(
    landingChart(run, rows, {width: figure.clientWidth || 640}));
  if (rows.length) drawn();
  figure.dataset.drawn = String(rows.length);
}
onResize(figure, () => drawn?.());

async function compare(run) {
  error.hidden = true;
  status.textContent = "Loading DuckDB and the parts of the database the comparison reads…";
  root.setAttribute("aria-busy", "true");
  try {
    const db = await open();
    const [first, second, series] = statements(run);
    await db.conn.query(first);
    await db.conn.query(second);
    const table = await db.conn.query(series);
    const rows = table.toArray().map((row) => Object.fromEntries(table.schema.fields.map((f) => {
      const value = row[f.name];
      return [f.name, typeof value === "bigint" ? Number(value) : value];
    })));
    show(run, rows);
    await draw(run, rows);
    status.textContent = "";
    root.dataset.compared = String(rows.length);
  } catch (err) {
    status.textContent = "";
    error.textContent = `The comparison could not run: ${err.message}`;
    error.hidden = false;
  } finally {
    root.setAttribute("aria-busy", "false");
  }
}

function fromAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (![...params.keys()].length) return;
  for (const name of ["test", "engine", "threads", "tps"]) {
    const input = form.elements.namedItem(name);
    if (params.has(name) && input) input.value = params.get(name);
  }
  const {wrong, run} = checked(params);
  if (wrong) {
    result.hidden = true;
    error.textContent = `The address gives no run to compare: ${wrong.join("; ")}.`;
    error.hidden = false;
    return;
  }
  compare(run);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const params = new URLSearchParams([...new FormData(form)].map(([k, v]) => [k, String(v)]));
  location.hash = params.toString();  // hashchange runs it
});
window.addEventListener("hashchange", fromAddress);
fromAddress();
