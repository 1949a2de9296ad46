// Snapshot of the pure chart renderers (and of the frame of a standalone embed, for a chart with a
// "context"): draw each chart of a specs file in jsdom (dom.mjs, as the build draws its embeds) and
// print its SVG with every number rounded to one decimal (so a snapshot does not change with float
// noise), one chart per line of JSON: {"name": ..., "svg": ...}, each 480 px wide unless it says its
// "width". Usage: node snapshot.mjs SPECS.json
import {readFileSync} from "node:fs";
import {newDocument} from "./dom.mjs";
import {drawChart, embedContext} from "./draw.mjs";
import {frame} from "./frame.mjs";

const {charts} = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const document = newDocument();
const round = (text) => text.replace(/\d+\.\d+/g, (n) => String(Math.round(Number(n) * 10) / 10));

for (const chart of charts) {
  const width = chart.width ?? 480;
  const {svg, legend} = drawChart(chart, {width, document});
  // with a context, the chart as its standalone embed frames it (frame.mjs, and draw.mjs's notes)
  const markup = chart.context ? frame(svg, {title: chart.title, context: embedContext(chart), legend, width})
    : (svg.tagName === "svg" ? svg : svg.querySelector("svg")).outerHTML;
  console.log(JSON.stringify({name: chart.name, svg: round(markup).replace(/></g, ">\n<")}));
}
