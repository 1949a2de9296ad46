// A facet page's evidence plot (layouts/_partials/evidence/view.html), drawn by plot-evidence.js at the
// width of its place and again when that changes. The table beside it is closed once the plot is drawn.
import {evidencePlot} from "./plot-evidence.js";
import {onResize} from "./palette.js";

for (const figure of document.querySelectorAll("figure[data-evidence]")) {
  const data = JSON.parse(figure.dataset.evidence);
  const canvas = figure.querySelector(".chart-canvas");
  const draw = () => canvas.replaceChildren(evidencePlot(data, {width: Math.max(300, canvas.clientWidth || 640)}));
  draw();
  figure.dataset.drawn = "evidence";
  const table = figure.parentElement.querySelector("details.evidence-table");
  if (table) table.open = false;
  onResize(figure, draw);
}
