// The "one line per series against x" chart as a pure function of its spec: the study page
// draws it in the browser, and site/render/embeds.mjs draws the same chart in Node (jsdom)
// for the static SVG and PNG embeds.
import {dot, line, plot, ruleX, ruleY} from "@observablehq/plot";
import {coloursOf, styleFor} from "./palette.js";
import {inconsistentMarks, isInconsistent, tipLines} from "./inconsistent.js";

// The points drawn (those of the switch's value picked), in the order the keys walk them (chart-keys.js):
// series by series, each by x.
export function pointsOf(spec, selected) {
  const points = spec.switch ? spec.points.filter((p) => p[spec.switch.field] === selected) : spec.points;
  const order = new Map(spec.series.map((s, i) => [s, i]));
  return [...points].sort((a, b) => order.get(a.series) - order.get(b.series) || a.x - b.x);
}

// A point's words, in its tip (its <title> in an embed): its series, value with unit and kind, load and
// provenance, and why the source's own figures contradict it where they do (inconsistent.js).
export const pointText = (spec, p) =>
  `${p.series}\n${p.text} ${unitAfter(p.text, spec.unit)} (${p.kind})\n${spec.x_label}: ${p.x}\n${p.provenance}` +
  tipLines(p);

// A unit as written after a value's text: a ratio's "× reference" after "1.00×" is "reference" (not
// "1.00× × reference").
const unitAfter = (text, unit) => (text.endsWith("×") && unit.startsWith("×") ? unit.slice(1).trim() : unit);

// What the keys walk (chart-keys.js) on a chart plotByX drew.
export const keysOf = (spec, selected) =>
  ({points: () => pointsOf(spec, selected), x: (p) => p.x, y: (p) => p.y, text: (p) => pointText(spec, p)});

export function plotByX(spec, selected, {width = 640, document, standalone = false} = {}) {
  const points = pointsOf(spec, selected);
  // series drawn dashed: on Compare, a series whose colour an earlier one has (compare.js)
  const dashed = new Set(spec.dashed ?? []);
  const xs = [...new Set(spec.points.map((p) => p.x))].sort((a, b) => a - b);
  const last = xs[xs.length - 1];
  // a study of one load is dots at that load: a line would join nothing, and a log scale of one value
  // has no extent
  const single = xs.length === 1;
  const marks = [
    ruleY([0]),
    // the spread over repeated runs, where there is one (min to max)
    ruleX(points.filter((p) => p.low != null), {x: "x", y1: "low", y2: "high", stroke: "series", strokeWidth: 3,
      strokeOpacity: 0.45}),
    // z named: a series of one load is one point, which Plot would otherwise warn of as a high-cardinality z
    single ? null : line(points.filter((p) => !dashed.has(p.series)), {x: "x", y: "y", stroke: "series", z: "series",
      strokeWidth: 2}),
    single || !dashed.size ? null : line(points.filter((p) => dashed.has(p.series)), {x: "x", y: "y", stroke: "series",
      z: "series", strokeWidth: 2, strokeDasharray: "6,4"}),
    // in the browser, a tip on hover (and from the keys); in an embed, each dot's <title>; a value its
    // source's own figures contradict hollow and crossed
    dot(points.filter((p) => !isInconsistent(p)), {x: "x", y: "y", fill: "series", r: 4,
      title: (p) => pointText(spec, p), tip: !standalone}),
    ...inconsistentMarks(points.filter(isInconsistent), {x: "x", y: "y", stroke: "series", r: 4,
      title: (p) => pointText(spec, p), tip: !standalone}),
  ];
  return plot({
    document,
    width,
    height: 380,
    marginLeft: 64,
    marginRight: 24,
    marginBottom: 48,
    style: styleFor(standalone),
    x: single
      ? {type: "point", domain: xs, tickFormat: String, label: spec.x_label, labelAnchor: "center",
        labelArrow: "none", labelOffset: 40}
      : {type: "log", base: 2, domain: [xs[0], last], ticks: xs, tickFormat: String,
        label: spec.x_label, labelAnchor: "center", labelArrow: "none", labelOffset: 40},
    y: {grid: true, zero: true, nice: true, label: `${spec.y_label}${spec.switch ? ` (${selected})` : ""}`},
    color: {domain: spec.series, range: coloursOf(spec), legend: !standalone},
    marks,
  });
}
