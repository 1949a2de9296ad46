// A traced rebuild: progress (%) or kernel speed over time, with the runs that overlap it drawn
// as bands labelled with their TPS (red: a run declared optimal that overlaps the rebuild). A
// pure function of the exported spec, drawn in the browser and in Node for the embeds.
import {line, plot, rectX, ruleY, text} from "@observablehq/plot";
import {PALETTE, styleFor} from "./palette.js";

const labelOf = (spec, metric) => spec.panels.find((p) => p.key === metric).label;

// A sample's words, in its tip and for the keys (chart-keys.js).
const sampleText = (label, metric, s) => `${label}: ${s[metric]}\nat ${s.t_s} s (measured: a /proc/mdstat sample)`;

// What the keys walk on a panel plotRebuild drew: its samples in time order.
export function keysOf(spec, metric) {
  const label = labelOf(spec, metric);
  return {points: () => spec.samples.filter((s) => s[metric] != null), x: (s) => s.t_s, y: (s) => s[metric],
    text: (s) => sampleText(label, metric, s)};
}

export function plotRebuild(spec, metric, {width = 640, document, standalone = false} = {}) {
  const samples = spec.samples.filter((s) => s[metric] != null);
  const label = labelOf(spec, metric);
  const bands = spec.runs.map((r) => ({...r, fill: r.flag ? "#D55E00" : PALETTE[5]}));
  return plot({
    document,
    width,
    height: 220,
    marginLeft: 64,
    marginBottom: 44,
    style: styleFor(standalone),
    x: {label: "Time since the first sample (s)", labelAnchor: "center", labelArrow: "none",
      labelOffset: 38},
    y: {grid: true, zero: true, label, domain: metric === "percent" ? [0, 100] : undefined},
    marks: [
      rectX(bands, {x1: "start_s", x2: "end_s", fill: "fill", fillOpacity: 0.2, title: (r) => r.flag ?? r.label}),
      metric === "percent"
        ? text(bands, {x: (r) => (r.start_s + r.end_s) / 2, frameAnchor: "top", dy: 4,
          text: (r) => (r.tps ? `${r.tps} tps` : r.label)})
        : null,
      ruleY([0]),
      // in the browser, a tip on hover (and from the keys)
      line(samples, {x: "t_s", y: metric, stroke: PALETTE[0], strokeWidth: 2, marker: "dot",
        ...(standalone ? {} : {tip: true, title: (s) => sampleText(label, metric, s)})}),
    ],
  });
}
