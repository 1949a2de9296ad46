// Charts drawn as stacked panels, one per metric (a .chart-canvas with data-metric): runs over
// time and traced rebuilds. `plotPanel(spec, metric, options)` is the pure renderer.
import {onResize} from "./palette.js";

export function drawPanels(figure, spec, plotPanel, name) {
  const render = () => {
    for (const canvas of figure.querySelectorAll(".chart-canvas")) {
      const width = Math.max(320, canvas.clientWidth || 640);
      canvas.replaceChildren(plotPanel(spec, canvas.dataset.metric, {width}));
    }
    figure.dataset.drawn = name;
  };
  render();
  onResize(figure, render);
}
