// Entry point of the chart bundle: draws every chart placeholder on the page. The specs are
// exported from DuckDB by the publish step; these modules only draw them. Without JavaScript
// the data tables beside each chart remain.
import {drawByX} from "./chart-by-x.js";
import {drawPanels} from "./chart-panels.js";
import {keysOf as rebuildKeys, plotRebuild} from "./plot-rebuild.js";
import {keysOf as runKeys, plotRuns} from "./plot-runs.js";
import {drawLatency} from "./plot-latency.js";

// The first EAGER charts of a page are drawn at once; the others when they come within NEAR of the
// viewport. A facet page of twenty studies of 55 cloud volumes each holds hundreds of charts, and
// drawing them all took Chromium more than 30 s (benchmarks/HISTORY.md).
const EAGER = 40;
const NEAR = "800px 0px";

const DRAW = [
  ["figure[data-chart]", (figure) => drawByX(figure)],
  ["figure[data-timeseries]", (figure) => drawPanels(figure, JSON.parse(figure.dataset.timeseries), {plotPanel: plotRuns, keysOf: runKeys}, "runs")],
  ["figure[data-rebuild]", (figure) => drawPanels(figure, JSON.parse(figure.dataset.rebuild),
    {plotPanel: plotRebuild, keysOf: rebuildKeys}, "rebuild")],
  ["figure[data-latency]", (figure) => drawLatency(figure)],
];

const figures = [...document.querySelectorAll(DRAW.map(([selector]) => selector).join(", "))];
const drawOf = (figure) => DRAW.find(([selector]) => figure.matches(selector))[1];
for (const figure of figures.slice(0, EAGER)) drawOf(figure)(figure);
if (figures.length > EAGER) {
  const near = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      near.unobserve(entry.target);
      drawOf(entry.target)(entry.target);
    }
  }, {rootMargin: NEAR});
  for (const figure of figures.slice(EAGER)) near.observe(figure);
}
