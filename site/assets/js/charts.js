// Entry point of the chart bundle: draws every chart placeholder on the page. The specs are
// exported from DuckDB by the publish step; these modules only draw them. Without JavaScript
// the data tables beside each chart remain.
import {drawByX} from "./chart-by-x.js";
import {drawRebuild} from "./chart-rebuild.js";
import {drawTimeseries} from "./chart-timeseries.js";

for (const figure of document.querySelectorAll("figure[data-chart]")) drawByX(figure);
for (const figure of document.querySelectorAll("figure[data-timeseries]")) drawTimeseries(figure);
for (const figure of document.querySelectorAll("figure[data-rebuild]")) drawRebuild(figure);
