// DuckDB-WASM for the /sql/ page: the module and worker the site serves itself (under the page's
// data-duckdb address, linked from the npm package at build time: ingest/build/wasm_files.py), and the
// database's tables and views in one DuckDB file of the site's (data-file: ingest/publish/sql_page.py),
// attached over HTTP: DuckDB reads the blocks a query needs by range requests, and no more.
import {AsyncDuckDB, DuckDBDataProtocol, VoidLogger, getPlatformFeatures} from "@duckdb/duckdb-wasm";

// The build of DuckDB-WASM the site serves: the one for WebAssembly with exception handling ("eh"),
// which every current browser has. Its fallback for browsers without ("mvp", 38 MB more in every
// deploy) is not served: such a browser is told so.
async function bundle(base) {
  if (!(await getPlatformFeatures()).wasmExceptions) {
    throw new Error("this browser lacks WebAssembly exception handling, which the site's DuckDB needs");
  }
  const at = (name) => new URL(name, new URL(base, location.href)).href;
  return {mainModule: at("duckdb-eh.wasm"), mainWorker: at("duckdb-browser-eh.worker.js")};
}

// file: the database file's address; tables: [{name, size}], the most a query reads of each, in words
// (the site's size partial). Resolves
// to {conn, worker, tables} once DuckDB runs with the file attached (its header and catalogue read, not
// a table's rows). Rejects when the worker fails (DuckDB-WASM's own promises would wait for ever: a
// refused WebAssembly compile, say).
export async function openDatabase(base, {file, tables}) {
  compilesWebAssembly();
  const served = await bundle(base);
  const worker = new Worker(served.mainWorker);  // same origin: the page's CSP allows it as 'self'
  const failed = new Promise((_, reject) => worker.addEventListener("error", (event) => {
    event.preventDefault();
    reject(new Error(event.message || "its worker stopped"));
  }, {once: true}));
  const url = new URL(file, location.href).href;
  const conn = await Promise.race([start(new AsyncDuckDB(new VoidLogger(), worker), served, url), failed]);
  return {conn, worker, tables: new Map(tables.map((t) => [t.name, t.size]))};
}

// The smallest module (its header alone), compiled here first: where the page's Content-Security-Policy
// refuses WebAssembly, the worker's refusal would never reach the page, which would wait for ever.
function compilesWebAssembly() {
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  } catch (err) {
    throw new Error(`this page may not run WebAssembly (${err.message})`);
  }
}

// Set before any query of the reader's (a query comes from the address, so from any link): the database
// reaches nothing outside itself (no other file, URL, COPY ... TO or ATTACH; no extension installed or
// loaded), and the configuration is locked, so no query can SET it back. The page's CSP would refuse
// most of it too; this holds without it (issue #49). The site's database file is attached (read only)
// before: what is open stays readable, and its tables are found by their names alone (the search path:
// a table the reader creates goes into the in-memory database, which comes first).
const CATALOG = "benchdb";
const LOCKED = [
  "SET autoinstall_known_extensions = false",
  "SET autoload_known_extensions = false",
  "SET allow_community_extensions = false",
  "SET enable_external_access = false",
  "SET lock_configuration = true",
];

async function start(db, served, url) {
  await db.instantiate(served.mainModule);
  // numbers arrive as JavaScript numbers
  // the database file by ranges alone, never fetched whole: a server that answers no range fails the query
  await db.open({
    query: {castBigIntToDouble: true, castDecimalToDouble: true, castTimestampToDate: true},
    filesystem: {reliableHeadRequests: true, allowFullHTTPReads: false, forceFullHTTPReads: false},
  });
  await db.registerFileURL(`${CATALOG}.duckdb`, url, DuckDBDataProtocol.HTTP, true);
  const conn = await db.connect();
  await conn.query(`ATTACH '${CATALOG}.duckdb' AS ${CATALOG} (READ_ONLY)`);
  await conn.query(`SET search_path = 'memory.main,${CATALOG}.main'`);
  for (const setting of LOCKED) await conn.query(setting);
  return conn;
}

// The tables a query names (as a word: "results", "claims").
export const named = (sql, names) => names.filter((name) => new RegExp(`\\b${name}\\b`, "i").test(sql));

// The most bytes a query reads of the database file: the blocks of every table it names (sql.json's
// bytes); a query on one study reads that study's row groups of them alone.
export function mostRead(db, sql) {
  return named(sql, [...db.tables.keys()]).map((name) => ({name, size: db.tables.get(name)}));
}

// A query stopped before its end (by the time limit or the reader): its worker is ended, which is the
// one way to stop DuckDB-WASM mid-query, so the database must be opened again for the next one.
export class QueryStopped extends Error {}

// A query's result as {columns: [{name, numeric}], rows: [[value...]]}: numbers stay numbers, a
// list is its items, a date its ISO text, NULL null. A query that runs past limitMs, or whose signal
// is aborted, is stopped (QueryStopped).
export async function run(db, sql, {limitMs, signal} = {}) {
  let timer;
  const stopped = new Promise((_, reject) => {
    const halt = (why) => {
      db.worker.terminate();
      reject(new QueryStopped(why));
    };
    timer = setTimeout(() => halt(`The query ran past the page's limit of ${limitMs / 1000} s and was stopped.`), limitMs);
    signal?.addEventListener("abort", () => halt("The query was stopped."), {once: true});
  });
  try {
    return await Promise.race([answer(db, sql), stopped]);
  } finally {
    clearTimeout(timer);
  }
}

async function answer(db, sql) {
  const table = await db.conn.query(sql);
  const names = table.schema.fields.map((f) => f.name);
  const rows = table.toArray().map((row) => names.map((name) => plain(row[name])));
  const columns = names.map((name, i) => ({
    name,
    numeric: rows.some((r) => r[i] !== null) && rows.every((r) => r[i] === null || typeof r[i] === "number"),
  }));
  return {columns, rows};
}

function plain(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && typeof value.toArray === "function") return JSON.stringify([...value.toArray()].map(plain));
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}
