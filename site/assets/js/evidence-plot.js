// A facet's evidence plots, drawn by plot-evidence.js at the width of their place and again when that
// changes: each contrast's forest (figure[data-forest]: layouts/_partials/evidence/forest.html, its key
// in words under it), or the plot of a facet's pairs where there is no synthesis (figure[data-evidence]:
// evidence/view.html). A forest folded in a closed <details> is drawn when it is opened. Once a plot is
// drawn, its own table (the same rows) and the facet's table of every row fold.
import {keyboardTips} from "./chart-keys.js";
import {evidencePlot, forestKey, forestLayout, forestPlot, layout} from "./plot-evidence.js";
import {onResize} from "./palette.js";

function drawn(figure, table) {
  if (figure.dataset.drawn) return; // the first time only: a table opened since stays open
  figure.dataset.drawn = "evidence";
  if (table) table.open = false;
  const every = document.querySelector("details.evidence-table:not(.forest-table)");
  if (every) every.open = false;
}

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
  drawn(figure, null);
  onResize(figure, draw);
}

for (const figure of document.querySelectorAll("figure[data-forest]")) {
  const data = JSON.parse(figure.dataset.forest);
  const without = figure.dataset.without !== "false";
  const canvas = figure.querySelector(".chart-canvas");
  const key = figure.querySelector(".forest-key");
  key.replaceChildren(...forestKey(data, {without}).map((words) => Object.assign(document.createElement("li"), {textContent: words})));
  key.hidden = false;
  const draw = () => {
    if (!canvas.clientWidth) return; // folded: drawn when opened
    const width = Math.max(300, canvas.clientWidth);
    const chart = forestPlot(data, {width, tips: true, without});
    canvas.replaceChildren(chart);
    keyboardTips(canvas, [{chart, points: () => forestLayout(data, width, {without}).rows.filter((r) => r.tip),
      x: (r) => r.ratio, y: (r) => r.y, text: (r) => r.tip}], {label: figure.getAttribute("aria-label")});
    drawn(figure, figure.parentElement.querySelector("details.forest-table"));
  };
  draw();
  figure.closest("details")?.addEventListener("toggle", draw);
  onResize(figure, draw);
}
