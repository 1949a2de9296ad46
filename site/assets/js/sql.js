// The /sql/ page: the database in the reader's browser (sql-db.js). The query lives in the address
// (?q=...), so a result can be shared; the example links carry theirs. What runs a query is
// js/sql-engine.js's bundle, with Plot's (js/plot.js): both named on this script's tag with their
// integrity (scripts.html: data-engine, data-plot), preloaded and imported for the first query.
import {importNamed} from "./preload.js";

const script = document.querySelector("script[data-engine]");
let engine = null;  // the module's promise, from the first query on
let csvOf = null;  // the module's CSV writer, once a query has run (the CSV link is set as it is clicked)
function loadEngine() {
  engine ??= importNamed(script, {entry: "engine", names: ["plot", "engine"]});
  return engine;
}

const root = document.getElementById("sql");
const form = document.getElementById("sql-form");
const input = document.getElementById("sql-query");
const status = document.getElementById("sql-status");
const error = document.getElementById("sql-error");
const resultBox = document.getElementById("sql-result");
const figure = document.getElementById("sql-chart");
const csvLink = document.getElementById("sql-csv");
const runButton = form.querySelector("button[type=submit]");
const stopButton = document.getElementById("sql-stop");
const limitMs = Number(root.dataset.limitSeconds) * 1000;  // site/hugo.toml: params.sql_limit_seconds

const published = {
  file: root.dataset.file,
  tables: [...document.querySelectorAll(".sql-table[data-size]")].map((el) => ({name: el.dataset.table, size: el.dataset.size})),
};
// DuckDB-WASM (its JavaScript, module, worker and the database file's catalogue) is fetched for the first
// query, not on the page's first visit: a visit that runs nothing loads the page alone
// (tests/test_page_budget.py).
status.textContent = "DuckDB starts in this browser when you run a query: a query fetches the parts of the tables it reads.";
runButton.hidden = false;
function open() {
  const started = performance.now();
  runButton.disabled = true;
  status.textContent = "Loading DuckDB…";
  return loadEngine().then(({openDatabase}) => openDatabase(root.dataset.duckdb, published)).then((db) => {
    if (!performance.getEntriesByName("sql-ready").length) performance.mark("sql-ready");  // benchmarks/bench_sql.py
    status.textContent = `DuckDB ready in ${Math.round(performance.now() - started)} ms; a query fetches the parts of the tables it reads.`;
    runButton.disabled = false;
    return db;
  }, (err) => {
    status.textContent = "";
    showError(`DuckDB could not start in this browser: ${err.message}`);
    return null;  // the error stays on the page; a query waits for nothing
  });
}
let ready = null;  // open()'s promise, from the first query on

function showError(message) {
  error.textContent = message;
  error.hidden = false;
}

let current = null;
async function execute(sql) {
  ready ??= open();
  const db = await ready;
  if (!db) return;
  const loaded = await engine;
  const {QueryStopped, chartOf, mostRead, run, showTable} = loaded;
  csvOf = loaded.csvOf;
  error.hidden = true;
  const t0 = performance.now();
  root.setAttribute("aria-busy", "true");
  const stop = new AbortController();
  const onStop = () => stop.abort();
  stopButton.addEventListener("click", onStop, {once: true});
  stopButton.hidden = false;
  status.textContent = `Running the query, ${reads(mostRead(db, sql))} (stopped after ${limitMs / 1000} s at the most)…`;
  try {
    current = await run(db, sql, {limitMs, signal: stop.signal});
  } catch (err) {
    resultBox.hidden = true;
    status.textContent = "";
    showError(err.message);
    if (err instanceof QueryStopped) {
      runButton.disabled = true;
      ready = open();  // its worker was ended: DuckDB starts again for the next query
    }
    return;
  } finally {
    stopButton.removeEventListener("click", onStop);
    stopButton.hidden = true;
    root.setAttribute("aria-busy", "false");
  }
  if (!performance.getEntriesByName("sql-first-result").length) performance.mark("sql-first-result");
  const ms = Math.round(performance.now() - t0);
  const count = current.rows.length;
  document.getElementById("sql-count").textContent =
    `${count} ${count === 1 ? "row" : "rows"} in ${ms} ms${count > 1000 ? " (the first 1,000 shown; the CSV has all)" : ""}`;
  resultBox.hidden = false;  // before drawing: the chart takes the width it is given
  showTable(document.getElementById("sql-table"), current);
  drawChart(chartOf(current));
  status.textContent = `${count} ${count === 1 ? "row" : "rows"}.`;
}

// What a query will fetch, before it runs: the tables it names and the most it reads of them.
function reads(tables) {
  if (!tables.length) return "which names no table of the database";
  const each = tables.map((t) => `${t.name} (up to ${t.size})`);
  const listed = each.length > 1 ? `${each.slice(0, -1).join(", ")} and ${each.at(-1)}` : each[0];
  return `which reads ${listed}, less where it keeps to some studies`;
}

function drawChart(chart) {
  figure.querySelector("svg, figure")?.remove();
  const caption = figure.querySelector("figcaption");
  if (!chart.draw) {
    figure.hidden = true;
    return;
  }
  figure.hidden = false;
  caption.textContent = chart.caption;
  const drawn = chart.draw(Math.max(320, figure.parentElement.clientWidth));
  // one image to assistive technology (its numbers are the table below), not Plot's groups of marks
  drawn.setAttribute("role", "img");
  drawn.setAttribute("aria-label", chart.caption);
  figure.insertBefore(drawn, caption);
}

csvLink.addEventListener("click", () => {
  if (!current) return;
  if (csvLink.dataset.url) URL.revokeObjectURL(csvLink.dataset.url);
  csvLink.dataset.url = URL.createObjectURL(new Blob([csvOf(current)], {type: "text/csv"}));
  csvLink.href = csvLink.dataset.url;
  csvLink.download = "query.csv";
});

function fromAddress() {
  const q = new URLSearchParams(location.search).get("q");
  if (q) {
    input.value = q;
    execute(q);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const sql = input.value.trim();
  if (!sql) return;
  const url = new URL(location.href);
  url.search = new URLSearchParams({q: sql}).toString();
  url.hash = "";
  history.pushState(null, "", url);
  execute(sql);
});
for (const link of document.querySelectorAll("a[data-example]")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    history.pushState(null, "", link.href);
    fromAddress();
    input.focus();
  });
}
window.addEventListener("popstate", fromAddress);
fromAddress();
