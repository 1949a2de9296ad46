// Snapshot of the pure chart renderers (and of the frame of a standalone embed, for a chart with a
// "context"): draw each chart of a specs file in jsdom and print its SVG
// with every number rounded to one decimal (so a snapshot does not change with float noise), one
// chart per line of JSON: {"name": ..., "svg": ...}. Usage: node snapshot.mjs SPECS.json
import {readFileSync} from "node:fs";
import {JSDOM} from "jsdom";
import {plotByX} from "../assets/js/plot-by-x.js";
import {plotRebuild} from "../assets/js/plot-rebuild.js";
import {plotRuns} from "../assets/js/plot-runs.js";
import {frame} from "./frame.mjs";

const RENDERERS = {"by-x": plotByX, runs: plotRuns, rebuild: plotRebuild};
const {charts} = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const {document} = new JSDOM("<!doctype html><html><body></body></html>").window;
const round = (text) => text.replace(/\d+\.\d+/g, (n) => String(Math.round(Number(n) * 10) / 10));

for (const chart of charts) {
  const svg = RENDERERS[chart.renderer](chart.spec, chart.option, {width: 480, document, standalone: true});
  const colour = svg.scale("color");
  const legend = colour ? colour.domain.map((label, i) => ({label, colour: colour.range[i]})) : [];
  // with a context, the chart as its standalone embed frames it (frame.mjs)
  const markup = chart.context ? frame(svg, {title: chart.title, context: chart.context, legend, width: 480})
    : (svg.tagName === "svg" ? svg : svg.querySelector("svg")).outerHTML;
  console.log(JSON.stringify({name: chart.name, svg: round(markup).replace(/></g, ">\n<")}));
}
