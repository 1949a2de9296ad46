// One line per series against x (e.g. TPS by concurrent users), with an optional switch
// (e.g. array state) that picks which points are drawn and which data table is shown.
import {dot, line, plot, ruleY} from "@observablehq/plot";
import {BASE_STYLE, PALETTE, onResize} from "./palette.js";

function render(figure, spec, selected) {
  const points = spec.switch ? spec.points.filter((p) => p[spec.switch.field] === selected) : spec.points;
  const xs = [...new Set(spec.points.map((p) => p.x))].sort((a, b) => a - b);
  const canvas = figure.querySelector(".chart-canvas");
  const chart = plot({
    width: Math.max(320, canvas.clientWidth || 640),
    height: 380,
    marginLeft: 64,
    marginRight: 24,
    marginBottom: 48,
    style: BASE_STYLE,
    x: {type: "log", base: 2, domain: [xs[0], xs[xs.length - 1]], ticks: xs, tickFormat: String,
      label: spec.x_label, labelAnchor: "center", labelArrow: "none", labelOffset: 40},
    y: {grid: true, zero: true, label: `${spec.y_label}${spec.switch ? ` (${selected})` : ""}`},
    color: {domain: spec.series, range: PALETTE, legend: true},
    marks: [
      ruleY([0]),
      line(points, {x: "x", y: "y", stroke: "series", strokeWidth: 2}),
      dot(points, {
        x: "x", y: "y", fill: "series", r: 4,
        title: (p) => `${p.series}: ${p.text} ${spec.unit} at ${p.x} (${p.kind})\n${p.provenance}`,
      }),
    ],
  });
  canvas.replaceChildren(chart);
  figure.dataset.drawn = selected ?? "all";
}

function showTables(id, selected) {
  for (const table of document.querySelectorAll(`[data-chart-table="${id}"]`)) {
    const match = !table.dataset.switchValue || table.dataset.switchValue === selected;
    table.closest(".table-wrap").hidden = !match;
  }
}

export function drawByX(figure) {
  const spec = JSON.parse(figure.dataset.chart);
  const control = document.querySelector(`[data-switch-for="${figure.id}"]`);
  let selected = spec.switch ? spec.switch.default : null;
  const update = () => {
    render(figure, spec, selected);
    showTables(figure.id, selected);
  };
  if (control) {
    control.hidden = false;
    control.addEventListener("change", (event) => {
      selected = event.target.value;
      update();
    });
  }
  update();
  onResize(figure, () => render(figure, spec, selected));
}
