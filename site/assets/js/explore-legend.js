// The one legend of Explore's small multiples, drawn above them: for each study they show (a system keeps
// its colour, its place in its study, on every chart, so colours repeat across studies but never within
// one), each series with a swatch of its colour and its dash (a dot for a series drawn only as dots).
// A few elements per series, whatever the number of points: nothing of it is per point.
import {LEGEND_MAX} from "./explore-chart.js";

const SVG = "http://www.w3.org/2000/svg";

function swatch({colour, line, dash}) {
  const svg = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({width: 24, height: 10, "aria-hidden": "true"})) svg.setAttribute(k, v);
  const mark = document.createElementNS(SVG, line ? "line" : "circle");
  const attributes = line
    ? {x1: 1, x2: 23, y1: 5, y2: 5, stroke: colour, "stroke-width": 2, ...(dash ? {"stroke-dasharray": dash} : {})}
    : {cx: 12, cy: 5, r: 4, fill: colour};
  for (const [k, v] of Object.entries(attributes)) mark.setAttribute(k, v);
  svg.append(mark);
  return svg;
}

// groups: [{study, title, keys: [{name, colour, line, dash}]}], a multiple each, in the order drawn.
export function legendOf(groups) {
  const studies = new Map(); // study -> {title, keys: name -> key}
  for (const {study, title, keys} of groups) {
    if (!studies.has(study)) studies.set(study, {title, keys: new Map()});
    const known = studies.get(study).keys;
    for (const key of keys) if (!known.has(key.name)) known.set(key.name, key);
  }
  const legend = document.createElement("div");
  legend.className = "explore-legend";
  for (const [study, {title, keys}] of studies) {
    const row = document.createElement("p");
    row.dataset.study = study;
    const heading = document.createElement("span");
    heading.className = "legend-study";
    heading.textContent = `${title}:`;
    row.append(heading);
    if (keys.size > LEGEND_MAX) {
      row.append(`${keys.size} series (hover a line or dot for its name)`);
    } else {
      for (const key of keys.values()) {
        const item = document.createElement("span");
        item.className = "legend-item";
        item.append(swatch(key), key.name);
        row.append(item);
      }
    }
    legend.append(row);
  }
  return legend;
}
