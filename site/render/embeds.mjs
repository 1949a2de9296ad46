// Build-time embeds: draw each chart of a job (written by ingest/build/embed_render.py) as a standalone SVG
// (for documents and readers without JavaScript; a reader's browser makes a PNG of it on request,
// site/assets/js/png.js), with the same pure renderers as the pages, on a pool of worker threads
// (embed-worker.mjs), as many as the job says (one per core, fewer for few charts).
// The job: {charts: a file with one chart of the specs a line, count, out: the folder, width, workers}.
// Charts are read a batch at a time, so memory does not grow with them.
// Usage: node embeds.mjs JOB.json
import {createReadStream, readFileSync} from "node:fs";
import {createInterface} from "node:readline";
import {Worker} from "node:worker_threads";

const BATCH = 8;  // charts a message: small enough to share the last charts between the workers
const job = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const size = job.workers;  // ingest/build/embed_render.py chooses: one per core, fewer for few charts
const workerData = {out: job.out, width: job.width};

const idle = [];
const waiting = [];
let drawn = 0;
let pending = 0;  // batches sent and not answered yet
let allAnswered = null;
const release = (worker) => (waiting.length ? waiting.shift()(worker) : idle.push(worker));
const acquire = () => (idle.length ? Promise.resolve(idle.pop()) : new Promise((resolve) => waiting.push(resolve)));
const fail = (message) => {
  console.error(message);
  process.exit(1);
};

const workers = Array.from({length: size}, () => {
  const worker = new Worker(new URL("./embed-worker.mjs", import.meta.url), {workerData});
  worker.on("message", (answer) => {
    if (answer.error) fail(answer.error);
    drawn += answer.done;
    pending -= 1;
    release(worker);
    if (pending === 0) allAnswered?.();
  });
  worker.on("error", (error) => fail(`an embed worker failed: ${error.stack ?? error}`));
  idle.push(worker);
  return worker;
});

let batch = [];
const send = async () => {
  const worker = await acquire();
  pending += 1;
  worker.postMessage(batch);
  batch = [];
};
for await (const line of createInterface({input: createReadStream(job.charts, "utf-8"), crlfDelay: Infinity})) {
  if (!line) continue;
  batch.push(line);
  if (batch.length === BATCH) await send();
}
if (batch.length) await send();
if (pending) await new Promise((resolve) => (allAnswered = resolve));
await Promise.all(workers.map((w) => w.terminate()));
if (drawn !== job.count) fail(`drew ${drawn} embeds of ${job.count}`);
console.log(`rendered ${drawn} embeds on ${size} threads`);
