// Build-time embeds: draw each chart listed in the specs file with Observable Plot in jsdom,
// using the same pure renderers as the pages, frame it with its context (frame.mjs), and write a
// standalone SVG (for documents and readers without JavaScript) and a PNG (for slide decks) next
// to the CSV the exporter wrote.
// Usage: node embeds.mjs SPECS.json OUT_DIR
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {Resvg} from "@resvg/resvg-js";
import {JSDOM} from "jsdom";
import {plotByX} from "../assets/js/plot-by-x.js";
import {plotRebuild} from "../assets/js/plot-rebuild.js";
import {plotRuns} from "../assets/js/plot-runs.js";
import {frame} from "./frame.mjs";

const RENDERERS = {"by-x": plotByX, runs: plotRuns, rebuild: plotRebuild};

const [specsPath, outDir] = process.argv.slice(2);
const {charts} = JSON.parse(readFileSync(specsPath, "utf-8"));
const {document} = new JSDOM("<!doctype html><html><body></body></html>").window;
const WIDTH = 760;

// resvg's pixel buffers live outside the JavaScript heap and are freed only by finalizers after a
// collection: without one every 10 charts, and a turn of the event loop for the finalizers to run,
// memory grew by ~8 MB a PNG (2.7 GB at 50 bundles). node runs this with --expose-gc (ingest/build.py).
let drawn = 0;
for (const chart of charts) {
  if (++drawn % 10 === 0) {
    globalThis.gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const render = RENDERERS[chart.renderer];
  if (!render) throw new Error(`embed ${chart.id}: no renderer ${JSON.stringify(chart.renderer)}`);
  const svg = render(chart.spec, chart.option, {width: WIDTH, document, standalone: true});
  const colour = svg.scale("color");  // the series drawn and their colours, for the legend
  const legend = colour ? colour.domain.map((label, i) => ({label, colour: colour.range[i % colour.range.length]})) : [];
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${frame(svg, {title: chart.title, context: chart.context,
    legend, width: WIDTH})}\n`;
  writeFileSync(join(outDir, `${chart.id}.svg`), text);
  const png = new Resvg(text, {background: "#ffffff", fitTo: {mode: "width", value: 2 * WIDTH},
    font: {loadSystemFonts: true, defaultFontFamily: "DejaVu Sans"}}).render().asPng();
  writeFileSync(join(outDir, `${chart.id}.png`), png);
}
console.log(`rendered ${charts.length} embeds`);
