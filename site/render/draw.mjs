// One chart of the specs drawn as its standalone embed: the page's pure renderer in jsdom
// (site/assets/js/plot-*.js), framed with its context (frame.mjs). Used by embeds.mjs (through
// embed-worker.mjs) and snapshot.mjs.
import {plotByX} from "../assets/js/plot-by-x.js";
import {evidencePlot} from "../assets/js/plot-evidence.js";
import {plotRebuild} from "../assets/js/plot-rebuild.js";
import {plotRuns} from "../assets/js/plot-runs.js";
import {frame} from "./frame.mjs";

const RENDERERS = {"by-x": plotByX, runs: plotRuns, rebuild: plotRebuild,
  evidence: (spec, option, options) => evidencePlot(spec, options)};  // a facet's (ingest/publish/evidence_embed.py)

// The chart's <svg> as its renderer draws it, and its legend: the series drawn and their colours.
export function drawChart(chart, {width, document}) {
  const render = RENDERERS[chart.renderer];
  if (!render) throw new Error(`no renderer ${JSON.stringify(chart.renderer)}`);
  const svg = render(chart.spec, chart.option, {width, document, standalone: true});
  const colour = svg.scale("color");
  const legend = colour ? colour.domain.map((label, i) => ({label, colour: colour.range[i % colour.range.length]})) : [];
  return {svg, legend};
}

// The text of the standalone SVG file.
export function drawEmbed(chart, {width, document}) {
  const {svg, legend} = drawChart(chart, {width, document});
  return `<?xml version="1.0" encoding="UTF-8"?>\n${frame(svg, {title: chart.title, context: chart.context,
    legend, width})}\n`;
}
