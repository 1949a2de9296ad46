// DuckDB-WASM for the /sql/ page: the module and worker the site serves itself (under the page's
// data-duckdb address, linked from the npm package at build time: ingest/build/wasm_files.py), and the
// database's tables and views loaded from the Arrow streams the schema list names (data-file).
import {AsyncDuckDB, VoidLogger, getPlatformFeatures} from "@duckdb/duckdb-wasm";

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

// tables: [{name, file}]. Resolves to {conn, tables} once DuckDB runs; a table is fetched and loaded
// the first time a query names it (run), so a first query downloads only what it reads. Rejects when
// the worker fails (DuckDB-WASM's own promises would wait for ever: a refused WebAssembly compile, say).
export async function openDatabase(base, tables) {
  compilesWebAssembly();
  const served = await bundle(base);
  const worker = new Worker(served.mainWorker);  // same origin: the page's CSP allows it as 'self'
  const failed = new Promise((_, reject) => worker.addEventListener("error", (event) => {
    event.preventDefault();
    reject(new Error(event.message || "its worker stopped"));
  }, {once: true}));
  const conn = await Promise.race([start(new AsyncDuckDB(new VoidLogger(), worker), served), failed]);
  return {conn, worker, tables: new Map(tables.map((t) => [t.name, {file: t.file, loaded: null}]))};
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
// reaches nothing outside itself (no file, URL, COPY ... TO or ATTACH; no extension installed or
// loaded), and the configuration is locked, so no query can SET it back. The page's CSP would refuse
// most of it too; this holds without it (issue #49). The tables come in through insertArrowFromIPCStream,
// from bytes the page fetched, which needs no access of the database's own.
const LOCKED = [
  "SET autoinstall_known_extensions = false",
  "SET autoload_known_extensions = false",
  "SET allow_community_extensions = false",
  "SET enable_external_access = false",
  "SET lock_configuration = true",
];

async function start(db, served) {
  await db.instantiate(served.mainModule);
  // numbers arrive as JavaScript numbers
  await db.open({query: {castBigIntToDouble: true, castDecimalToDouble: true, castTimestampToDate: true}});
  const conn = await db.connect();
  for (const setting of LOCKED) await conn.query(setting);
  return conn;
}

// The tables a query names (as a word: "results", "claims"); a query that names none (SELECT 1, the
// catalog's views) gets them all, so that what it lists is the whole database.
const named = (sql, names) => {
  const found = names.filter((name) => new RegExp(`\\b${name}\\b`, "i").test(sql));
  return found.length ? found : names;
};

async function ensure({conn, tables}, sql) {
  await Promise.all(named(sql, [...tables.keys()]).map((name) => {
    const table = tables.get(name);
    table.loaded ??= fetch(table.file).then(async (response) => {
      if (!response.ok) throw new Error(`${table.file}: HTTP ${response.status}`);
      await conn.insertArrowFromIPCStream(new Uint8Array(await response.arrayBuffer()), {name, create: true});
    });
    return table.loaded;
  }));
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
  await ensure(db, sql);
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
