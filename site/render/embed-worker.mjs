// A worker thread of embeds.mjs: draws the charts of each batch it is sent (lines of JSON) into the
// job's folder as <id>.svg and <id>.png, then answers {done: n}, or {error} naming the chart.
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {setImmediate as turn} from "node:timers/promises";
import {parentPort, workerData} from "node:worker_threads";
import {Resvg} from "@resvg/resvg-js";
import {JSDOM} from "jsdom";
import {drawEmbed} from "./draw.mjs";

const {out, width, scale, fonts} = workerData;
const {document} = new JSDOM("<!doctype html><html><body></body></html>").window;
// Text in the subset (ingest/raster_font.py) is laid out from its small files; a chart with any other
// character is rasterised with the system's fonts, as the subset is only a faster copy of part of them.
const covered = new Set(`${fonts.chars}\t\n\r`);  // and the white space between elements
const SUBSET = {loadSystemFonts: false, fontFiles: fonts.files, defaultFontFamily: fonts.family,
  sansSerifFamily: fonts.family};
const SYSTEM = {loadSystemFonts: true, defaultFontFamily: fonts.family};
const inSubset = (text) => {
  for (const ch of text) if (!covered.has(ch)) return false;
  return true;
};

// resvg's pixel buffers live outside the JavaScript heap and are freed only by finalizers after a
// collection: without one every 10 charts, and a turn of the event loop for the finalizers to run,
// memory grew by ~8 MB a PNG (2.7 GB at 50 bundles). node runs with --expose-gc (ingest/embed_render.py).
let drawn = 0;
async function draw(lines) {
  for (const line of lines) {
    if (++drawn % 10 === 0) {
      globalThis.gc?.();
      await turn();
    }
    const chart = JSON.parse(line);
    try {
      const text = drawEmbed(chart, {width, document});
      writeFileSync(join(out, `${chart.id}.svg`), text);
      const png = new Resvg(text, {background: "#ffffff", fitTo: {mode: "width", value: scale * width},
        font: inSubset(text) ? SUBSET : SYSTEM}).render().asPng();
      writeFileSync(join(out, `${chart.id}.png`), png);
    } catch (error) {
      return {error: `embed ${chart.id}: ${error.message}`};
    }
  }
  return {done: lines.length};
}

parentPort.on("message", async (lines) => parentPort.postMessage(await draw(lines)));
