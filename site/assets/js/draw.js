// The modules that draw, and Explore's, Compare's and the PNG buttons': js/site.js imports this bundle
// (draw.<SHA-256>.js) once the page has something to draw. Plot is not in it but in js/plot.js, which it
// imports and /sql/'s script shares (bundle.html). Each page runs the modules for what it holds (esbuild
// keeps a module that is imported this way inside the bundle and evaluates it only when imported).
if (document.querySelector("figure[data-chart], figure[data-timeseries], figure[data-rebuild], figure[data-latency]")) {
  import("./charts.js");
}
if (document.querySelector("figure[data-evidence], figure[data-forest]")) import("./evidence-plot.js");
if (document.querySelector("details[data-detail]")) import("./facet-detail.js");
if (document.getElementById("explore-table")) import("./explore.js");
if (document.getElementById("compare-form")) import("./compare.js");
if (document.querySelector("button[data-png]")) import("./png.js");
