// A traced rebuild: progress (%) and kernel speed over time, with the runs that overlap it
// drawn as bands labelled with their TPS. A band is red when the run was declared optimal.
import {line, plot, rectX, ruleY, text} from "@observablehq/plot";
import {BASE_STYLE, PALETTE, onResize} from "./palette.js";

const LABELS = {percent: "Rebuild progress (%)", speed_kib_s: "Kernel speed (KiB/s)"};

function render(figure, spec) {
  for (const canvas of figure.querySelectorAll(".chart-canvas")) {
    const metric = canvas.dataset.metric;
    const samples = spec.samples.filter((s) => s[metric] != null);
    const bands = spec.runs.map((r) => ({...r, fill: r.flag ? "#D55E00" : PALETTE[5]}));
    const chart = plot({
      width: Math.max(320, canvas.clientWidth || 640),
      height: 220,
      marginLeft: 64,
      style: BASE_STYLE,
      x: {label: "Time since the first sample (s)", labelAnchor: "center", labelArrow: "none"},
      y: {grid: true, zero: true, label: LABELS[metric], domain: metric === "percent" ? [0, 100] : undefined},
      marks: [
        rectX(bands, {x1: "start_s", x2: "end_s", fill: "fill", fillOpacity: 0.2, title: (r) => r.flag ?? r.label}),
        metric === "percent"
          ? text(bands, {x: (r) => (r.start_s + r.end_s) / 2, frameAnchor: "top", dy: 4,
            text: (r) => (r.tps ? `${r.tps} tps` : r.label)})
          : null,
        ruleY([0]),
        line(samples, {x: "t_s", y: metric, stroke: PALETTE[0], strokeWidth: 2, marker: "dot"}),
      ],
    });
    canvas.replaceChildren(chart);
  }
  figure.dataset.drawn = "rebuild";
}

export function drawRebuild(figure) {
  const spec = JSON.parse(figure.dataset.rebuild);
  render(figure, spec);
  onResize(figure, () => render(figure, spec));
}
