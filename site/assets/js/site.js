// The one script of the site, on every page that draws: a reader's browser fetches and caches it once.
// It holds no drawing: the modules that draw are js/draw.js's bundle, which imports Plot (js/plot.js,
// 89 KB of gzip). Both are named on this script's tag with their integrity (scripts.html: data-draw,
// data-plot), preloaded with it and imported once the page has something to draw: at once where a
// chart, Explore, Compare or a PNG button is in view of the page, else (every chart in a closed
// <details>: a study page's runs, a facet's studies) when such a fold is first opened.
import {importNamed} from "./preload.js";

const script = document.querySelector("script[data-draw]");
// What draw.js's modules act on: Explore and Compare (drawn at once, even where their table is folded,
// as in their embeds), and charts, PNG buttons and folds that fetch a facet's study (at once unless in a
// closed <details>)
const AT_ONCE = "#explore-table, #compare-form";
const ACTED_ON = ["figure[data-chart]", "figure[data-timeseries]", "figure[data-rebuild]", "figure[data-latency]", "figure[data-evidence]",
  "figure[data-forest]", "button[data-png]", "details[data-detail]"].join(", ");
let loaded = null;

function draw() {
  loaded ??= importNamed(script, {entry: "draw", names: ["plot", "draw"]});
}

const folded = (element) => element.parentElement.closest("details:not([open])");
const acted = [...document.querySelectorAll(ACTED_ON)];
if (document.querySelector(AT_ONCE) || acted.some((element) => !folded(element))) {
  draw();
} else {
  for (const fold of new Set(acted.map(folded))) {
    fold.addEventListener("toggle", () => fold.open && draw());
  }
}
if (document.querySelector(".study-toc")) import("./toc.js");
