// A worker thread of embeds.mjs: draws the charts of each batch it is sent (lines of JSON) into the
// job's folder as <id>.svg, then answers {done: n}, or {error} naming the chart.
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {parentPort, workerData} from "node:worker_threads";
import {newDocument} from "./dom.mjs";
import {drawEmbed} from "./draw.mjs";

const {out, width} = workerData;
const document = newDocument();

function draw(lines) {
  for (const line of lines) {
    const chart = JSON.parse(line);
    try {
      writeFileSync(join(out, `${chart.id}.svg`), drawEmbed(chart, {width, document}));
    } catch (error) {
      return {error: `embed ${chart.id}: ${error.message}`};
    }
  }
  return {done: lines.length};
}

parentPort.on("message", (lines) => parentPort.postMessage(draw(lines)));
