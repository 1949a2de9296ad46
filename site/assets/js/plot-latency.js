// The latency distribution of one system in each array state it ran in, drawn for its tail: the share
// of events slower than each latency, both axes on a log scale (p99 is where a line crosses 1%, p99.9
// where it crosses 0.1%), one line per state, from the merged --histogram buckets
// (ingest/publish/tails.py). The slowest bucket, which no event exceeds, has no place on a log axis.
// A pure function of the exported spec.
import {line, plot, ruleY} from "@observablehq/plot";
import {keyboardTips} from "./chart-keys.js";
import {PALETTE, styleFor} from "./palette.js";

const pointsOf = (spec) => spec.points.map((p) => ({...p, slower: 1 - p.share})).filter((p) => p.slower > 1e-9);

// A bucket's words, in its tip and for the keys (chart-keys.js).
const bucketText = (spec, p) => `${spec.system_label}, ${p.state}, ${spec.threads} threads\n` +
  `${+(p.slower * 100).toPrecision(3)}% of events slower than ${p.value_ms} ms\n(measured: sysbench's --histogram)`;

export function plotLatency(spec, {width = 640, document, standalone = false} = {}) {
  const points = pointsOf(spec);
  return plot({
    document,
    width,
    height: 260,
    marginLeft: 56,
    marginBottom: 44,
    style: styleFor(standalone),
    x: {type: "log", label: "Latency (ms, log scale)", labelAnchor: "center", labelArrow: "none", labelOffset: 38},
    y: {type: "log", grid: true, ticks: [1, 0.1, 0.01, 0.001, 0.0001], label: "Share of events slower (log scale)", tickFormat: (d) => `${+(d * 100).toPrecision(3)}%`},
    color: {domain: spec.states, range: spec.states.map((_, i) => PALETTE[i % PALETTE.length]), legend: true},
    marks: [
      ruleY([0.01, 0.001], {stroke: "currentColor", strokeOpacity: 0.4, strokeDasharray: "3,3"}),
      line(points, {x: "value_ms", y: "slower", stroke: "state", curve: "step-after", strokeWidth: 2,
        ...(standalone ? {title: "state"} : {tip: true, title: (p) => bucketText(spec, p)})}),
    ],
  });
}

export function drawLatency(figure) {
  const spec = JSON.parse(figure.dataset.latency);
  const canvas = figure.querySelector(".chart-canvas");
  const chart = plotLatency(spec, {width: canvas.clientWidth || 640});
  canvas.replaceChildren(chart);
  keyboardTips(canvas, [{chart, points: () => pointsOf(spec), x: (p) => p.value_ms, y: (p) => p.slower,
    text: (p) => bucketText(spec, p)}], {label: `Latency tail of ${spec.system_label} at ${spec.threads} threads`});
  figure.dataset.drawn = "latency";
}
