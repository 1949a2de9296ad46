// Charts drawn as stacked panels, one per metric (a .chart-canvas with data-metric): runs over
// time and traced rebuilds. `plotPanel(spec, metric, options)` is the pure renderer, `keysOf(spec, metric)`
// what the keys walk on its panel (chart-keys.js).
import {keyboardTips} from "./chart-keys.js";
import {onResize} from "./palette.js";

export function drawPanels(figure, spec, {plotPanel, keysOf}, name) {
  const render = () => {
    for (const canvas of figure.querySelectorAll(".chart-canvas")) {
      const width = Math.max(320, canvas.clientWidth || 640);
      const metric = canvas.dataset.metric;
      const chart = plotPanel(spec, metric, {width});
      canvas.replaceChildren(chart);
      const panel = spec.panels.find((p) => p.key === metric);
      keyboardTips(canvas, [{chart, ...keysOf(spec, metric)}],
        {label: `${spec.title ?? figure.querySelector("figcaption")?.textContent ?? ""}: ${panel.label}`});
    }
    figure.dataset.drawn = name;
  };
  render();
  onResize(figure, render);
}
