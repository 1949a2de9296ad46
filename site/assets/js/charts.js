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
  ["figure[data-timeseries]", (figure) => fetched(figure).then((spec) => spec && drawPanels(figure, spec, {plotPanel: plotRuns, keysOf: runKeys}, "runs"))],
  ["figure[data-rebuild]", (figure) => drawPanels(figure, JSON.parse(figure.dataset.rebuild),
    {plotPanel: plotRebuild, keysOf: rebuildKeys}, "rebuild")],
  ["figure[data-latency]", (figure) => drawLatency(figure)],
];

// A runs chart's spec with its samples is a file of its own (study/runs.html: data-timeseries, its path),
// fetched when its fold is opened; a failure is said in the figure, whose embed's image stays.
async function fetched(figure) {
  try {
    const response = await fetch(figure.dataset.timeseries);
    if (!response.ok) throw new Error(`${figure.dataset.timeseries}: HTTP ${response.status}`);
    return await response.json();
  } catch (error) {
    const note = document.createElement("p");
    note.className = "callout";
    note.textContent = `These samples could not be fetched (${error.message}): the chart's embed has them.`;
    figure.prepend(note);
    return null;
  }
}

const SELECTOR = DRAW.map(([selector]) => selector).join(", ");
const drawOf = (figure) => DRAW.find(([selector]) => figure.matches(selector))[1];
const seen = new WeakSet();  // each figure is drawn once, however many folds around it open
let eager = EAGER;

// Draws the charts under ``root`` (the page, or a fold just opened or filled): those inside a closed
// <details> (a facet page's folded studies) when it opens, as until then they take no room to draw in.
export function drawFigures(root) {
  const figures = [...root.querySelectorAll(SELECTOR)].filter((figure) => !seen.has(figure));
  const folds = new Set();
  const near = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      near.unobserve(entry.target);
      drawOf(entry.target)(entry.target);
    }
  }, {rootMargin: NEAR});
  for (const figure of figures) {
    const fold = figure.parentElement.closest("details:not([open])");
    if (fold && fold !== root) {
      folds.add(fold);
      continue;
    }
    seen.add(figure);
    if (eager > 0) {
      eager -= 1;
      drawOf(figure)(figure);
    } else {
      near.observe(figure);
    }
  }
  for (const fold of folds) {
    fold.addEventListener("toggle", function opened() {
      if (!fold.open) return;
      fold.removeEventListener("toggle", opened);
      drawFigures(fold);
    });
  }
}

drawFigures(document);
