// A facet page's evidence plot (layouts/_partials/evidence/view.html), drawn by plot-evidence.js at the
// width of its place and again when that changes. The table beside it is closed once the plot is drawn.
import {keyboardTips} from "./chart-keys.js";
import {evidencePlot, layout} from "./plot-evidence.js";
import {onResize} from "./palette.js";

for (const figure of document.querySelectorAll("figure[data-evidence]")) {
  const data = JSON.parse(figure.dataset.evidence);
  const canvas = figure.querySelector(".chart-canvas");
  const draw = () => {
    const width = Math.max(300, canvas.clientWidth || 640);
    const chart = evidencePlot(data, {width, tips: true});
    canvas.replaceChildren(chart);
    keyboardTips(canvas, [{chart, points: () => layout(data, width).rows, x: (r) => r.median, y: (r) => r.bar,
      text: (r) => r.tip}], {label: figure.getAttribute("aria-label")});
  };
  draw();
  figure.dataset.drawn = "evidence";
  const table = figure.parentElement.querySelector("details.evidence-table");
  if (table) table.open = false;
  onResize(figure, draw);
}
