// One line per series against x (e.g. TPS by concurrent users), with an optional switch
// (e.g. array state) that picks which points are drawn and which data table is shown.
import {keyboardTips} from "./chart-keys.js";
import {onResize} from "./palette.js";
import {keysOf, plotByX} from "./plot-by-x.js";

function render(figure, spec, selected) {
  const canvas = figure.querySelector(".chart-canvas");
  const chart = plotByX(spec, selected, {width: Math.max(320, canvas.clientWidth || 640)});
  canvas.replaceChildren(chart);
  keyboardTips(canvas, [{chart, ...keysOf(spec, selected)}],
    {label: `${spec.title ?? spec.y_label}${selected ? ` (${selected})` : ""}`});
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
