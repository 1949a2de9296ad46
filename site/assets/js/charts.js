// Entry point of the chart bundle: draws every chart placeholder on the page. The specs are
// exported from DuckDB by the publish step; these modules only draw them. Without JavaScript
// the data tables beside each chart remain.
import {drawByX} from "./chart-by-x.js";
import {drawPanels} from "./chart-panels.js";
import {plotRebuild} from "./plot-rebuild.js";
import {plotRuns} from "./plot-runs.js";
import {drawLatency} from "./plot-latency.js";

for (const figure of document.querySelectorAll("figure[data-chart]")) drawByX(figure);
for (const figure of document.querySelectorAll("figure[data-timeseries]")) {
  drawPanels(figure, JSON.parse(figure.dataset.timeseries), plotRuns, "runs");
}
for (const figure of document.querySelectorAll("figure[data-rebuild]")) {
  drawPanels(figure, JSON.parse(figure.dataset.rebuild), plotRebuild, "rebuild");
}
for (const figure of document.querySelectorAll("figure[data-latency]")) drawLatency(figure);
