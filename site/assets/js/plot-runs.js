// Interval samples of sysbench runs over time, one line per run (dashed: unfinished), as a pure
// function of the exported spec: the study page draws it in the browser and
// site/render/embeds.mjs draws the same panel in Node for the SVG embed. Each run names
// what its colour stands for (r.colour): the run itself, or (spec.colour "threads") its thread count.
import {line, plot, ruleY} from "@observablehq/plot";
import {extent} from "d3-array";
import {PALETTE, styleFor} from "./palette.js";

export function plotRuns(spec, metric, {width = 640, document, standalone = false} = {}) {
  const colours = [...new Set(spec.runs.map((r) => r.colour))];  // runs come ordered by thread count
  const points = spec.runs.flatMap((r) => r.intervals.filter((s) => s[metric] != null)
    .map((s) => ({t_s: s.t_s, y: s[metric], run: r.label, colour: r.colour, complete: r.complete})));
  const pcts = [...new Set(spec.runs.map((r) => r.latency_pct).filter((p) => p != null))];
  const suffix = metric === "latency_ms" && pcts.length === 1 ? `, ${pcts[0]}th percentile` : "";
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
    y: {grid: true, zero: true, label: spec.panels.find((p) => p.key === metric).label + suffix},
    color: {domain: colours, range: PALETTE, legend: !standalone && metric === spec.panels[0].key},  // over the first panel
    marks,
  });
}
