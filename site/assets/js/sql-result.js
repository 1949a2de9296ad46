// A /sql/ result: the table (sortable by any column), the CSV download (the site's CSV cell rule,
// csv-cells.js) and a chart when the result is one numeric column against a numeric or categorical one.
import {barX, dot, plot, ruleX} from "@observablehq/plot";
import {csvFormatRows} from "d3-dsv";
import {defused} from "./csv-cells.js";
import {BASE_STYLE, PALETTE} from "./palette.js";
import {sortableHeadings} from "./sort-headings.js";

const MAX_ROWS_SHOWN = 1000;  // rows laid out in the table; the CSV holds them all
const MAX_BARS = 60;  // categories drawn as bars
const MAX_DOTS = 5000;

export const text = (value) => (value === null ? "NULL" : String(value));

export function showTable(table, result) {
  const head = table.tHead;
  head.replaceChildren();
  const tr = head.insertRow();
  result.columns.forEach((column, i) => {
    const th = document.createElement("th");
    th.scope = "col";
    if (column.numeric) th.className = "num";
    th.textContent = column.name;
    tr.append(th);
  });
  sortableHeadings(tr.cells, (th, ascending) => sortBy(table, result, th.cellIndex, ascending));
  fill(table, result);
}

function fill(table, result) {
  const body = table.tBodies[0];
  const rows = result.rows.slice(0, MAX_ROWS_SHOWN).map((row) => {
    const tr = document.createElement("tr");
    row.forEach((value, i) => {
      const td = document.createElement("td");
      if (result.columns[i].numeric) td.className = "num";
      if (value === null) td.classList.add("null");
      td.textContent = text(value);
      tr.append(td);
    });
    return tr;
  });
  body.replaceChildren(...rows);
}

function sortBy(table, result, i, ascending) {
  const sign = ascending ? 1 : -1;
  const numeric = result.columns[i].numeric;
  result.rows.sort((a, b) => {
    if (a[i] === b[i]) return 0;
    if (a[i] === null) return 1;  // NULLs last either way
    if (b[i] === null) return -1;
    return sign * (numeric ? a[i] - b[i] : String(a[i]).localeCompare(String(b[i]), undefined, {numeric: true}));
  });
  fill(table, result);
}

export function csvOf(result) {
  return csvFormatRows([result.columns.map((c) => defused(c.name)),
    ...result.rows.map((row) => row.map((v) => (v === null ? "" : typeof v === "number" ? String(v) : defused(v))))]);
}

// The chart a result gets, or why none: {draw(width)} or {reason}. Its marks are hidden from assistive
// technology (the svg is one labelled image, sql.js; its numbers are the table's): Plot labels each
// group of marks, which axe counts as a label on an element without a role.
export function chartOf(result) {
  const {columns, rows} = result;
  if (columns.length !== 2) return {reason: "a chart is drawn for results of two columns, one of them numeric"};
  const [a, b] = columns;
  if (!a.numeric && !b.numeric) return {reason: "no numeric column to draw"};
  const valueIndex = b.numeric ? 1 : 0;
  const other = 1 - valueIndex;
  const points = rows.filter((r) => r[valueIndex] !== null && r[other] !== null);
  const style = BASE_STYLE;
  if (columns[other].numeric) {
    if (points.length > MAX_DOTS) return {reason: `more than ${MAX_DOTS} points`};
    return {caption: `${columns[valueIndex].name} by ${columns[other].name}, ${points.length} points`,
      draw: (width) => plot({width, height: 320, style, grid: true, marginLeft: 60, marginRight: 30,
        x: {label: columns[other].name}, y: {label: columns[valueIndex].name},
        marks: [dot(points, {x: (r) => r[other], y: (r) => r[valueIndex], fill: PALETTE[0], r: 3.5, ariaHidden: true})]})};
  }
  const categories = new Set(points.map((r) => String(r[other])));
  if (categories.size > MAX_BARS) return {reason: `more than ${MAX_BARS} categories`};
  if (categories.size !== points.length) return {reason: `a category appears more than once in ${columns[other].name}`};
  return {caption: `${columns[valueIndex].name} by ${columns[other].name}, ${points.length} bars`,
    draw: (width) => plot({width, height: 40 + 28 * points.length, style, marginLeft: Math.min(width / 2, 16 + 8 * Math.max(...points.map((r) => String(r[other]).length))),
      x: {label: columns[valueIndex].name, grid: true}, y: {label: null, domain: points.map((r) => String(r[other]))}, marginRight: 30,
      marks: [barX(points, {x: (r) => r[valueIndex], y: (r) => String(r[other]), fill: PALETTE[0], ariaHidden: true}), ruleX([0], {ariaHidden: true})]})};
}
