// Interval samples over time: one line per run, TPS and latency in two stacked charts.
import {line, plot, ruleY} from "@observablehq/plot";
import {BASE_STYLE, PALETTE, onResize} from "./palette.js";

const LABELS = {tps: "Transactions per second", latency_ms: "Latency (ms)"};

function render(figure, runs) {
  const labels = runs.map((r) => r.label);
  const points = runs.flatMap((r) => r.intervals.map((s) => ({...s, run: r.label, complete: r.complete})));
  const pcts = [...new Set(runs.map((r) => r.latency_pct).filter((p) => p != null))];
  for (const canvas of figure.querySelectorAll(".chart-canvas")) {
    const metric = canvas.dataset.metric;
    const suffix = metric === "latency_ms" && pcts.length === 1 ? `, ${pcts[0]}th percentile` : "";
    const drawn = points.filter((p) => p[metric] != null);
    const chart = plot({
      width: Math.max(320, canvas.clientWidth || 640),
      height: 260,
      marginLeft: 64,
      style: BASE_STYLE,
      x: {label: "Time (s)", labelAnchor: "center", labelArrow: "none"},
      y: {grid: true, zero: true, label: LABELS[metric] + suffix},
      color: {domain: labels, range: PALETTE, legend: metric === "tps"},
      marks: [
        ruleY([0]),
        line(drawn.filter((p) => p.complete), {x: "t_s", y: metric, stroke: "run", strokeWidth: 1.5}),
        line(drawn.filter((p) => !p.complete), {x: "t_s", y: metric, stroke: "run", strokeWidth: 1.5,
          strokeDasharray: "4,3"}),
      ],
    });
    canvas.replaceChildren(chart);
  }
  figure.dataset.drawn = "runs";
}

export function drawTimeseries(figure) {
  const runs = JSON.parse(figure.dataset.timeseries);
  render(figure, runs);
  onResize(figure, () => render(figure, runs));
}
