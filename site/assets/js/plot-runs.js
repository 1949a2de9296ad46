// Interval samples of sysbench runs over time, one line per run (dashed: unfinished), as a pure
// function of the exported spec: the study page draws it in the browser and
// site/render/embeds.mjs draws the same panel in Node for the SVG embed. Each run names
// what its colour stands for (r.colour): the run itself, or (spec.colour "threads") its thread count.
import {line, plot, pointer, ruleY, tip} from "@observablehq/plot";
import {extent} from "d3-array";
import {PALETTE, styleFor} from "./palette.js";

// The samples of `metric`, run by run, each in time order.
const samplesOf = (spec, metric) => spec.runs.flatMap((r) => r.intervals.filter((s) => s[metric] != null)
  .map((s) => ({t_s: s.t_s, y: s[metric], run: r.label, colour: r.colour, complete: r.complete})));

// The y axis's words: the panel's label, and the percentile of a latency where every run gives the same.
function labelOf(spec, metric) {
  const pcts = [...new Set(spec.runs.map((r) => r.latency_pct).filter((p) => p != null))];
  const suffix = metric === "latency_ms" && pcts.length === 1 ? `, ${pcts[0]}th percentile` : "";
  return spec.panels.find((p) => p.key === metric).label + suffix;
}

// A sample's words, in its tip and for the keys (chart-keys.js).
const sampleText = (label, p) => `${p.run}${p.complete ? "" : " (unfinished)"}\n${label}: ${p.y}\n` +
  `at ${p.t_s} s (measured: an interval sample)`;

// What the keys walk on a panel plotRuns drew.
export function keysOf(spec, metric) {
  const label = labelOf(spec, metric);
  return {points: () => samplesOf(spec, metric), x: (p) => p.t_s, y: (p) => p.y, text: (p) => sampleText(label, p)};
}

export function plotRuns(spec, metric, {width = 640, document, standalone = false} = {}) {
  const colours = [...new Set(spec.runs.map((r) => r.colour))];  // runs come ordered by thread count
  const points = samplesOf(spec, metric);
  const label = labelOf(spec, metric);
  // samples come every whole second or more: on a short run, tick each second rather than 0.2 s steps
  const [first, last] = extent(points, (p) => p.t_s);  // not Math.min(...): a spread of many samples overflows the stack
  const seconds = last - first <= 12
    ? {ticks: Array.from({length: last - first + 1}, (_, i) => first + i), tickFormat: String} : {};
  const marks = [
    ruleY([0]),
    line(points.filter((p) => p.complete), {x: "t_s", y: "y", z: "run", stroke: "colour", strokeWidth: 1.5,
      title: "run"}),
    line(points.filter((p) => !p.complete), {x: "t_s", y: "y", z: "run", stroke: "colour", strokeWidth: 1.5,
      strokeDasharray: "4,3", title: "run"}),
    // in the browser, one tip over both kinds of line (on hover, and from the keys)
    standalone ? null : tip(points, pointer({x: "t_s", y: "y", title: (p) => sampleText(label, p)})),
  ];
  return plot({
    document,
    width,
    height: 260,
    marginLeft: 64,
    marginRight: 20,
    marginBottom: 44,
    style: styleFor(standalone),
    x: {label: "Time (s)", labelAnchor: "center", labelArrow: "none", labelOffset: 38, ...seconds},
    y: {grid: true, zero: true, label},
    color: {domain: colours, range: PALETTE, legend: !standalone && metric === spec.panels[0].key},  // over the first panel
    marks,
  });
}
