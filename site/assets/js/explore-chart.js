// The chart of one study and one metric in Explore: values by thread count as lines (one per system,
// state and table), values without a thread count as rows of dots in a panel per table. Explore
// draws it once, large, when a view holds one study and one metric, and as small multiples (one
// per study and metric, each with its own axis) when it holds several.
import {axisX, dot, plot, ruleX, ruleY, text} from "@observablehq/plot";
import {max, min} from "d3-array";
import {inWords} from "./chart-words.js";
import {inconsistentKey, inconsistentMarks, inconsistentWords, isInconsistent, tipLines} from "./inconsistent.js";
import {lines, seriesOf} from "./lines.js";
import {BASE_STYLE, PALETTE} from "./palette.js";

// The text of a point: the mean's as the exporter wrote it, or the value as recorded.
export const textOf = (p) => p.meanText ?? p.row.querySelector("data").getAttribute("value");

// A point's words in the large chart's tip (and for the keys, chart-keys.js): its series, value with unit
// and kind, and thread count, and why the source's own figures contradict it where they do. Small
// multiples keep a title (no tip: it would cost each redraw).
function tipOf(p) {
  const data = p.row.querySelector("data");
  return `${p.label}\n${p.meanText ?? data.getAttribute("value")} ${p.unit} (${data.dataset.kind})` +
    (p.threads === null ? "" : `\n${p.threads} thread${p.threads === 1 ? "" : "s"}`) + tipLines(p);
}

// The dots of `points`: filled, and a value its source's own figures contradict hollow and crossed
// (inconsistent.js), each with its tip (large) or title (small).
function dots(points, {small, r, ...place}) {
  const words = small ? {title: (p) => `${p.label}: ${textOf(p)}${tipLines(p)}`} : {tip: true, title: tipOf};
  const flagged = points.filter(isInconsistent);
  const plain = flagged.length ? points.filter((p) => !isInconsistent(p)) : points;
  return [...(plain.length ? [dot(plain, {...place, fill: "label", r, ...words})] : []),
    ...inconsistentMarks(flagged, {...place, stroke: "label", r, ...words})];
}

// One point per coordinate: repeated runs are drawn once, as their mean with a min-max rule.
function points(matching) {
  const seen = new Set();
  const out = [];
  for (const r of matching) {
    if (r.group !== null) {
      if (seen.has(r.group)) continue;
      seen.add(r.group);
    }
    out.push(r.point);
  }
  return out;
}

// More series than this: no legend (it would be a wall of swatches, and costs ~10 ms to lay
// out); each line and dot names its system on hover, and the table lists every value.
export const LEGEND_MAX = 12;

// Thread-count ticks at least MIN_GAP px apart on the log scale (labels of a dozen close thread
// counts would overlap).
const MIN_GAP = 36;
function threadTicks(threads, span) {
  const [l0, l1] = [Math.log2(threads[0]), Math.log2(threads.at(-1))];
  const ticks = [];
  let last = -Infinity;
  for (const t of threads) {
    const px = l1 === l0 ? 0 : ((Math.log2(t) - l0) / (l1 - l0)) * span;
    if (px - last >= MIN_GAP) {
      ticks.push(t);
      last = px;
    }
  }
  return ticks;
}

// A label in lines of at most `chars` characters (a word longer than that is cut), so that the
// height of its row is known and no label runs into the next or off the chart.
function wrap(text, chars) {
  const lines = [];
  let line = "";
  for (let word of text.split(/\s+/)) {
    while (word.length > chars) {
      if (line) lines.push(line), (line = "");
      lines.push(word.slice(0, chars));
      word = word.slice(chars);
    }
    if (line && line.length + 1 + word.length > chars) lines.push(line), (line = "");
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

// Values without a thread count (a summary table, a single printed figure): one row each, in a
// panel per table, with its name on the left (wrapped, never overlapping) on the lines' value axis.
const LINE = 15;
function panel(points, {width, yDomain, metric, color, mixed, small, tips}) {
  const systems = new Set(points.map((p) => p.label));
  const labelOf = points.length > systems.size
    ? (systems.size === 1 ? (p) => p.column : (p) => `${p.label}: ${p.column}`)
    : (p) => p.label;
  const marginLeft = Math.round(Math.min(width * 0.45, 280));
  const chars = Math.max(8, Math.floor((marginLeft - 12) / 7.5));  // about 7 px a character at 13 px
  // Each row as tall as its label (a band scale would give every row the height of the tallest).
  let y = 0;
  const rows = points.map((p) => {
    const lines = wrap(labelOf(p), chars);
    const row = {...p, text: lines.join("\n"), offset: y + (lines.length * LINE + 12) / 2};
    y += lines.length * LINE + 12;
    return row;
  });
  const height = 50 + y;
  const ranged = rows.filter((r) => r.runs > 1);
  const marks = [ruleX([0]), axisX({label: metric, labelAnchor: "right"}),
    text(rows, {y: "offset", text: "text", frameAnchor: "left", textAnchor: "end", lineAnchor: "middle", dx: -8,
      lineHeight: LINE / 13})];
  if (ranged.length) {
    marks.push(ruleY(ranged, {y: "offset", x1: "low", x2: "high", stroke: "label", strokeWidth: 3, strokeOpacity: 0.45}));
  }
  marks.push(...dots(rows, {y: "offset", x: "value", r: 4, small}));
  const div = document.createElement("div");
  div.className = "explore-panel";
  const title = document.createElement("p");
  title.className = "panel-title";
  title.textContent = `${mixed ? "Without a thread count, from" : "From"} “${points[0].tableTitle}”`;
  const chart = plot({
    width, height, marginLeft, marginRight: 24, marginTop: 10, marginBottom: 40, style: BASE_STYLE,
    x: {grid: true, domain: yDomain, label: metric}, y: {axis: null, domain: [0, y], range: [10, height - 40]},
    color, marks,
  });
  div.append(title, chart);
  const key = inconsistentKey(rows, {name: (p) => p.label, text: (p) => `${textOf(p)} ${p.unit}`});
  if (key) div.append(key);
  if (!small) tips.push({chart, points: rows, x: (p) => p.value, y: (p) => p.offset, text: tipOf});
  return div;
}

// The chart of `matching` (the records of one study and one metric) `width` px wide: its parts
// (SVGs and panels), what a caption needs to describe it, and each series' key (name, colour, dash).
// `positions` gives each system its colour (its place in its bundle). Small (a multiple): shorter, no
// legend (Explore draws one for all the multiples, from their keys) and no tips (a title names a dot);
// large: tips, and what the keys walk (`tips`, chart-keys.js).
export function drawChart(matching, {width, positions = {}, small = false, label}) {
  const metric = label ?? matching[0].metric;  // the axis's words: the metric's name (explore.js)
  const drawn = points(matching);
  const threaded = [];
  const single = [];
  for (const p of drawn) (p.threads === null ? single : threaded).push(p);
  const spread = drawn.filter((p) => p.runs > 1);
  const low = min([0, min(drawn, (p) => p.value), min(spread, (p) => p.low)]);
  const high = max([0, max(drawn, (p) => p.value), max(spread, (p) => p.high)]);
  const yDomain = [low, high];
  const parts = [];
  let series = [];
  if (threaded.length) {
    series = seriesOf(threaded, {x: "threads", y: "value", z: "line", stroke: "name", title: "name"});
    // One system in one state from two tables by thread count: the table's title tells them apart;
    // from one table (a study's runs) in two benchmarks, the benchmark does.
    const count = new Map();
    const tables = new Map();
    for (const s of series) {
      count.set(s.title, (count.get(s.title) ?? 0) + 1);
      tables.set(s.title, (tables.get(s.title) ?? new Set()).add(s.first.table));
    }
    if (series.some((s) => count.get(s.title) > 1)) {
      const labels = new Map();
      for (const s of series) {
        if (count.get(s.title) > 1) {
          s.title = s.stroke = `${s.title}, ${tables.get(s.title).size > 1 ? s.first.tableTitle : s.first.benchmark}`;
        }
        labels.set(s.first.line, s.title);
      }
      for (const p of threaded) p.label = labels.get(p.line) ?? p.name;
    } else {
      for (const p of threaded) p.label = p.name;  // a label a previous view gave it
    }
  }
  // A system keeps its colour on every page (its position in its bundle); a state other than optimal
  // is dashed, so one system's lines in two states share a colour and differ in stroke.
  for (const s of series) s.dash = s.first.state && s.first.state !== "optimal" ? "5,3" : null;
  const systemOf = new Map([...series.map((s) => [s.title, s.first.system]), ...single.map((p) => [p.label, p.system])]);
  const names = [...systemOf.keys()];
  const color = {domain: names, range: names.map((n, i) => PALETTE[(positions[systemOf.get(n)] ?? i) % PALETTE.length])};
  const dashOf = new Map(series.map((s) => [s.title, s.dash]));
  const keys = names.map((name, i) => ({name, colour: color.range[i], line: dashOf.has(name), dash: dashOf.get(name) ?? null}));
  const tips = [];
  if (threaded.length) {
    const threads = [...new Set(threaded.map((p) => p.threads))].sort((a, b) => a - b);
    const x = {type: "log", base: 2, label: "Threads", ticks: threadTicks(threads, width - 84), tickFormat: String,
      domain: [threads[0], threads.at(-1)]};
    const ranged = threaded.filter((p) => p.runs > 1);
    const marks = [ruleY([0])];
    if (ranged.length) {
      marks.push(ruleX(ranged, {x: "threads", y1: "low", y2: "high", stroke: "label", strokeWidth: 3, strokeOpacity: 0.45}));
    }
    // Above 1,000 points, thin lines alone (the table below the chart holds every value): one dot
    // and tooltip per point would cost more than the 50 ms redraw budget, and so would lines of
    // Plot's default width (1.5 px lines take three times as long to rasterise in software as 1 px).
    const dense = threaded.length > 1000;
    marks.push(lines(series, {strokeWidth: dense ? 1 : 1.5}));
    // (a value its source's own figures contradict keeps its mark, however many points)
    const dotted = dense ? threaded.filter(isInconsistent) : threaded;
    if (dotted.length) marks.push(...dots(dotted, {x: "threads", y: "value", r: small ? 3 : 4, small}));
    const chart = plot({
      width, height: small ? 220 : 340, marginLeft: 64, marginRight: 20, marginBottom: 40, style: BASE_STYLE, x,
      y: {grid: true, label: metric, domain: yDomain},
      color: {...color, legend: !small && names.length <= LEGEND_MAX}, marks,
    });
    parts.push(chart);
    const key = inconsistentKey(threaded, {name: (p) => p.label, text: (p) => `${textOf(p)} ${p.unit}`});
    if (key) parts.push(key);
    if (!small && !dense) {
      // series by series (in the order their lines are drawn), each by thread count
      const order = new Map(series.map((s, i) => [s.first.line, i]));
      tips.push({chart, points: () => [...threaded].sort((a, b) => order.get(a.line) - order.get(b.line) || a.threads - b.threads),
        x: (p) => p.threads, y: (p) => p.value, text: tipOf});
    }
  }
  if (single.length) {
    const tables = [...new Set(single.map((p) => p.table))];
    for (const t of tables) {
      parts.push(panel(single.filter((p) => p.table === t), {width, yDomain, metric, color, mixed: threaded.length > 0,
        small, tips}));
    }
  }
  return {parts, drawn, threaded, single, series, spread, names, keys, tips};
}

// The chart's numbers in words (chart-words.js), and each value its source's own figures contradict with
// its mark and reason (inconsistent.js): the caption under the chart, and each multiple's words.
export const describe = ({drawn}) => inWords(drawn, {name: (p) => p.label, text: textOf}) +
  inconsistentWords(drawn, {name: (p) => p.label, text: (p) => `${textOf(p)} ${p.unit}`});
