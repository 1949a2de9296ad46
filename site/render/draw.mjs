// One chart of the specs drawn as its standalone embed: the page's pure renderer in jsdom
// (site/assets/js/plot-*.js), framed with its context (frame.mjs). Used by embeds.mjs (through
// embed-worker.mjs) and snapshot.mjs.
import {inconsistentWords} from "../assets/js/inconsistent.js";
import {plotByX, pointsOf} from "../assets/js/plot-by-x.js";
import {evidencePlot, forestKey, forestPlot} from "../assets/js/plot-evidence.js";
import {plotRebuild} from "../assets/js/plot-rebuild.js";
import {plotRuns} from "../assets/js/plot-runs.js";
import {frame} from "./frame.mjs";

const RENDERERS = {"by-x": plotByX, runs: plotRuns, rebuild: plotRebuild,
  evidence: (spec, option, options) => evidencePlot(spec, options),  // a facet's (ingest/publish/evidence_embed.py)
  forest: (spec, option, options) => forestPlot(spec, options)};  // a facet's synthesis (the same embed)

// The chart's <svg> as its renderer draws it, and its legend: the series drawn and their colours.
export function drawChart(chart, {width, document}) {
  const render = RENDERERS[chart.renderer];
  if (!render) throw new Error(`no renderer ${JSON.stringify(chart.renderer)}`);
  const svg = render(chart.spec, chart.option, {width, document, standalone: true});
  const colour = svg.scale("color");
  const legend = colour ? colour.domain.map((label, i) => ({label, colour: colour.range[i % colour.range.length]})) : [];
  return {svg, legend};
}

// What a chart by load's marks say beyond its legend: each value its source's own figures contradict,
// drawn as a hollow, crossed dot, with its reason and note (inconsistent.js), as on the page's caption.
function byXNotes(chart) {
  if (chart.renderer !== "by-x") return [];
  const {spec} = chart;
  const words = inconsistentWords(pointsOf(spec, chart.option),
    {name: (p) => `${p.series}${p.state ? ` (${p.state})` : ""}`, text: (p) => `${p.text} ${spec.unit} at ${p.x} thread${p.x === 1 ? "" : "s"}`});
  return words ? [words.trim()] : [];
}

// The chart's context as its frame prints it: its notes after what its marks say in words (a forest's
// key, as the page's: plot-evidence.js, forestKey), and before what a chart by load's marks say.
export function embedContext(chart) {
  const key = chart.renderer === "forest" ? forestKey(chart.spec) : [];
  return {...chart.context, notes: [...key, ...(chart.context.notes ?? []), ...byXNotes(chart)]};
}

// The text of the standalone SVG file.
export function drawEmbed(chart, {width, document}) {
  const {svg, legend} = drawChart(chart, {width, document});
  const context = embedContext(chart);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${frame(svg, {title: chart.title, context, legend, width})}\n`;
}
