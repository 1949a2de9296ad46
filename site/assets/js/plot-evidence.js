// A facet's evidence as a forest plot, a pure function of its rows: one row a like-for-like pair of one
// study, a point at its median ratio over the loads, a bar from its lowest to highest, a rule at 1x, rows
// in the order the export sorted them (ingest/publish/evidence.py). Each row is labelled with its study,
// year, publisher's kind (as the catalogue says it), workload and grade mark (evidence_grades.json, from
// schema/evidence-grades.yaml), never a colour alone. Ratios only: two studies' values never share an
// axis. The facet page draws it in the browser (evidence-plot.js), and site/render/embeds.mjs the same
// plot in Node (jsdom) for the evidence embed's static SVG.
import {areaX, dot, plot, rect, ruleX, ruleY, text} from "@observablehq/plot";

const LINE = 13; // px a line of a row's label (11 px text)
const BAR = 18; // px under a label for its bar and point

function ratio(x) {
  return `${x.toFixed(2)}×`;
}

// Words into lines of at most ``chars`` characters (a word longer than that is a line of its own).
function wrap(text, chars) {
  const lines = [];
  for (const part of text.split("\n")) {
    let line = "";
    for (const word of part.split(" ")) {
      if (line && line.length + 1 + word.length > chars) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}

// Ticks for a log axis: 1, and ratios of 1-2-5 steps that fall in the domain, at most ``count`` of them
// (evenly thinned), so each tick has its label at any width.
function logTicks([low, high], count) {
  const all = [];
  for (let power = Math.floor(Math.log10(low)); power <= Math.ceil(Math.log10(high)); power++) {
    for (const step of [1, 2, 5]) {
      const tick = +(step * 10 ** power).toPrecision(2);
      if (tick >= low && tick <= high) all.push(tick);
    }
  }
  if (all.length < 3) { // a narrow range (0.8 to 1.2): steps of a tenth
    for (let tick = Math.ceil(low * 10) / 10; tick <= high; tick = +(tick + 0.1).toFixed(1)) all.push(tick);
  }
  const ticks = [...new Set(all)].sort((a, b) => a - b);
  const every = Math.ceil(ticks.length / count);
  return ticks.filter((t, i) => t === 1 || i % every === 0);
}

// The rows as drawn `width` px wide: each with its label's lines, the y of its label and its bar, its
// tip's words; and the height they take (the page's keyboard tips read the same places).
export function layout(data, width) {
  const marks = Object.fromEntries(data.grades.map((g) => [g.rank, g]));
  const chars = Math.max(24, Math.floor((width - 28) / 6.4)); // about 6.4 px a character at 11 px
  let top = 6;
  const rows = data.rows.map((r) => {
    const label = `${r.study_label} ${marks[r.rank].mark}`;  // (evidence.py: study_meta)
    const pair = `${r.systems}` +  // (evidence.py: systems)
      `${r.workload ? `, ${r.workload}` : ""}${r.state ? `, ${r.state}` : ""}${r.by_loads ? "" : " (single figure)"}` +
      `: ${r.low === r.high ? ratio(r.median) : `${ratio(r.median)} (${ratio(r.low)} to ${ratio(r.high)})`}`;
    const lines = wrap(`${label}\n${pair}`, chars);
    const at = top + lines.length * LINE;
    top = at + BAR + 8;
    return {...r, text: lines.join("\n"), at, bar: at + BAR / 2 + 2, tip: `${label}\n${pair}\n(derived: a ratio)`};
  });
  return {rows, top};
}

// ``tips``: Plot's tip on hover (the page's); an embed's SVG keeps each point's <title> alone.
export function evidencePlot(data, {width = 640, document, tips = false} = {}) {
  const {rows, top} = layout(data, width);
  const lows = rows.map((r) => r.low), highs = rows.map((r) => r.high);
  const domain = [Math.min(1, ...lows) / 1.15, Math.max(1, ...highs) * 1.15];
  return plot({
    document,
    width, height: top + 36, marginLeft: 12, marginRight: 16, marginTop: 0, marginBottom: 36,
    x: {type: "log", domain, label: "Ratio to the reference (log scale)", grid: true,
        ticks: logTicks(domain, width < 500 ? 4 : 8), tickFormat: (x) => `${+x.toPrecision(2)}×`},
    y: {type: "identity", axis: null},
    marks: [
      ruleX([1], {stroke: "currentColor", strokeDasharray: "4 3"}),
      ruleY(rows, {y: "bar", x1: "low", x2: "high", strokeWidth: 3, stroke: "currentColor"}),
      dot(rows, {y: "bar", x: "median", r: 5, fill: "currentColor", title: "tip", tip: tips}),
      // a halo under each label (white; the page background in site.css): the 1x rule and the grid pass
      // behind the words
      text(rows, {y: "at", x: domain[0], text: "text", textAnchor: "start", lineAnchor: "bottom", lineHeight: LINE / 11,
                  fontSize: 11, dx: 2, fill: "currentColor", stroke: "white", strokeWidth: 3, paintOrder: "stroke",
                  className: "evidence-labels"}),
    ],
  });
}

// ---- The forest of one contrast of a facet's synthesis (issue #59; its shape: answers.json's
// `synthesis`, made by ingest/synthesis/): a table whose rows are drawn. Each study a row: its label
// column (study, year, source kind, grade mark), its figures column (ratio, 95% interval, loads, weight),
// its interval as a line and a square at its ratio whose area is its share of the pooled weight (a
// hollow square of one size when it is not pooled); under a group's studies, the pooled diamond (as wide
// as its 95% interval) with the prediction interval through it, and the pooled estimate without each
// study the synthesis left out. The band of no practical difference is shaded, 1x dashed, the x axis a
// log scale. At a narrow width the figures column goes under the label. `data`: {band, contrast, grades}
// (grades: evidence_grades.json's, from schema/evidence-grades.yaml: a study's mark is its rank's).

const NARROW = 560; // px: under this, the figures go under the label
const R_ALL = 11; // the r of a square holding all the weight: its area, r² π, is the weight's share
const R_ALONE = 4.5; // a study not pooled: a hollow square of this r whatever it holds
const CHAR = 6.4; // px a character of 11 px text (an estimate on the wide side)

const two = (x) => x.toFixed(2);
const range = (low, high) => `${two(low)} to ${two(high)}`;
const ratioWith = (r) => (r.low == null ? `${ratio(r.ratio)} (no interval)` : `${ratio(r.ratio)} (${range(r.low, r.high)})`);
const tau = (t) => t.toFixed(4); // four places (the table's %.4f)
const share = (w) => `${Math.round(w * 100)}%`;
const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

// A study's label column: its label, then its year (where the label lacks it), source kind and grade mark.
function studyLabel(s, marks) {
  const year = s.year != null && !s.label.includes(String(s.year)) ? `${s.year}, ` : "";
  return [s.label, `${year}${s.source_kind} ${marks[s.rank]}`];
}

// A study's figures column: ratio and interval; loads and weight; what is unusual about it.
function studyFigures(s) {
  const lines = [ratioWith(s), `${plural(s.loads, "load")}${s.weight == null ? ", not pooled" : `, weight ${share(s.weight)}`}`];
  if (s.imputed) lines.push("interval borrowed");
  if (s.flipped) lines.push("pair read the other way");
  return lines;
}

function studyTip(s, pair) {
  const words = [`${s.label}: ${s.title}`, `${pair}: ${ratioWith(s)}, lowest ${ratio(s.min)}, highest ${ratio(s.max)}`,
    `${plural(s.pairs, "pair")}, ${plural(s.loads, "load")}; ${s.weight == null ? "not pooled" : `weight ${share(s.weight)}`}`];
  if (s.imputed) words.push("its variance borrowed from the group's other studies (a single figure)");
  if (s.flipped) words.push("the study's pair was the other way round: 1 / its ratio");
  return words.join("\n");
}

// The forest's rows as drawn `width` px wide (the page's keyboard tips read the same places): each with
// its kind, the y of its middle, its columns' lines, and its tip's words where it has a point; the
// columns' places; the height they take. `without: false` leaves the leave-one-out lines out (the
// home page).
export function forestLayout(data, width, {without = true} = {}) {
  const {contrast} = data;
  const marks = Object.fromEntries(data.grades.map((g) => [g.rank, g.mark])); // (evidence_grades.json)
  const narrow = width < NARROW;
  const labelWidth = narrow ? Math.max(120, Math.round(width * 0.42)) : Math.min(240, Math.round(width * 0.3));
  const figuresWidth = narrow ? 0 : 160;
  const left = labelWidth + figuresWidth;
  const labelChars = Math.floor((labelWidth - 10) / CHAR), figureChars = narrow ? labelChars : Math.floor((figuresWidth - 8) / CHAR);
  const pair = `${contrast.other} over ${contrast.reference}`;
  const rows = [];
  let top = 4;
  const add = (kind, label, figures, extra = {}) => {
    const labelLines = label.flatMap((line) => wrap(line, labelChars));
    const figureLines = figures.flatMap((line) => wrap(line, figureChars));
    const lines = narrow ? [...labelLines, ...figureLines] : labelLines;
    const tall = Math.max(lines.length, narrow ? 0 : figureLines.length, extra.plot?.length ?? 0, 1) * LINE;
    const height = tall + (kind === "heading" || kind === "note" ? 4 : 10);
    rows.push({...extra, kind, label: lines.join("\n"), figures: narrow ? "" : figureLines.join("\n"), y: top + height / 2,
      plot: extra.plot?.join("\n")});
    top += height;
  };
  // the pair in words over the plot's column (at a narrow width the page's heading says it)
  const plotChars = Math.floor((width - left - 18) / CHAR);
  add("header", [narrow ? "Study; ratio (95% interval)" : "Study, source, grade"], narrow ? [] : ["Ratio (95% interval)"],
    narrow ? {} : {plot: wrap(pair, plotChars)});
  const body = top;
  for (const group of contrast.groups) {
    if (group.label) add("heading", [group.label], []);
    for (const s of group.studies) {
      add("study", studyLabel(s, marks), studyFigures(s), {ratio: s.ratio, low: s.low, high: s.high, imputed: s.imputed,
        r: s.weight == null ? null : Math.max(1.5, R_ALL * Math.sqrt(s.weight)), tip: studyTip(s, pair)});
    }
    const p = group.pooled;
    if (p) {
      const figures = [ratioWith(p), `prediction ${range(p.pi_low, p.pi_high)}`, `I² ${share(p.i2)}, tau² ${tau(p.tau2)}`];
      add("pooled", [`Pooled, ${plural(p.k, "study", "studies")}`, p.method], figures, {ratio: p.ratio, low: p.low, high: p.high,
        pi_low: p.pi_low, pi_high: p.pi_high, group: group.id,
        tip: `Pooled${group.label ? ` (${group.label})` : ""}, ${plural(p.k, "study", "studies")} (${p.method}): ${ratioWith(p)}\n` +
          `prediction interval ${range(p.pi_low, p.pi_high)}; I² ${share(p.i2)}, tau² ${tau(p.tau2)}`});
      for (const w of without ? group.without : []) {
        add("without", [`Without ${w.label}`], [ratioWith(w)], {ratio: w.ratio, low: w.low, high: w.high,
          tip: `Without ${w.label}: ${ratioWith(w)}`});
      }
    } else {
      add("note", [`Not pooled: ${plural(group.studies.length, "study", "studies")}`], []);
    }
  }
  return {rows, top, body, left, labelWidth, narrow, pair};
}

// What the forest's marks mean, in words (the page's key under it, the embed's notes): only what it draws.
export function forestKey(data, {without = true} = {}) {
  const studies = data.contrast.groups.flatMap((g) => g.studies);
  const pooled = data.contrast.groups.map((g) => g.pooled).filter(Boolean);
  const key = [];
  if (studies.some((s) => s.weight != null)) {
    key.push("■ A study: the square at its ratio (the median of its ratios), the line its 95% interval; the square's area is the study's share of the pooled weight.");
  }
  if (studies.some((s) => s.weight == null)) key.push("□ A hollow square, all of one size: a study not pooled (its size says nothing).");
  if (studies.some((s) => s.imputed)) key.push("A dashed interval: its variance borrowed from the other studies of its group (the study has a single figure).");
  if (pooled.length) {
    key.push(`◆ The pooled estimate (${[...new Set(pooled.map((p) => p.method))].join(", ")}): the diamond is as wide as its 95% interval; the thin line through it, with ends, is the prediction interval, where a new setting's ratio may fall.`);
  }
  if (without && data.contrast.groups.some((g) => g.pooled && g.without.length)) {
    key.push("◇ Without a study: the pooled estimate with that study left out.");
  }
  key.push(`The shaded band: ${ratio(1 - data.band)} to ${ratio(1 + data.band)}, no practical difference; the dashed line is 1× (no difference).`);
  return key;
}

// Of log ``ticks`` over ``domain`` drawn ``span`` px wide, 1 and those at least TICK_GAP px from every
// one kept, so that no two labels overlap.
const TICK_GAP = 34;
function spaced(ticks, [low, high], span) {
  const at = (t) => (Math.log(t / low) / Math.log(high / low)) * span;
  const kept = ticks.includes(1) ? [1] : [];
  for (const t of ticks) if (kept.every((k) => Math.abs(at(t) - at(k)) >= TICK_GAP)) kept.push(t);
  return kept.sort((a, b) => a - b);
}

// ``tips``: Plot's tip on hover (the page's); an embed's SVG keeps each point's <title> alone.
export function forestPlot(data, {width = 640, document, tips = false, without = true} = {}) {
  const {rows, top, body, left, labelWidth} = forestLayout(data, width, {without});
  const drawn = rows.filter((r) => r.ratio != null);
  const ends = drawn.flatMap((r) => [r.ratio, r.low, r.high, r.pi_low, r.pi_high]).filter((x) => x != null);
  const domain = [Math.min(1 - data.band, ...ends) / 1.08, Math.max(1 + data.band, ...ends) * 1.08];
  const ticks = spaced(logTicks(domain, width - left < 260 ? 3 : 6), domain, width - left - 14);
  const of = (kind) => drawn.filter((r) => r.kind === kind);
  const studies = of("study"), pooled = of("pooled"), left_out = of("without");
  const spans = (list) => list.filter((r) => r.low != null);
  const diamonds = pooled.flatMap((r) => [{z: r.group, y: r.y - 7, x1: r.ratio, x2: r.ratio},
    {z: r.group, y: r.y, x1: r.low, x2: r.high}, {z: r.group, y: r.y + 7, x1: r.ratio, x2: r.ratio}]);
  const column = (x) => x - left; // a text column's place, from the frame's left edge
  const indent = rows.some((r) => r.kind === "heading") ? 12 : 4; // rows set in under their group's heading
  const words = {frameAnchor: "left", textAnchor: "start", lineAnchor: "middle", lineHeight: LINE / 11, fontSize: 11,
    fill: "currentColor"};
  return plot({
    document,
    width, height: top + 36, marginLeft: left, marginRight: 14, marginTop: 0, marginBottom: 36,
    // its axis drawn here: Plot labels only some ticks of a log scale (d3's log tickFormat), and each has one
    x: {type: "log", domain, axis: null},
    y: {type: "identity", axis: null},
    r: {type: "identity"},
    marks: [
      ruleX(ticks, {y1: body, y2: top, stroke: "currentColor", strokeOpacity: 0.1}),
      ruleX(ticks, {y1: top, y2: top + 5, stroke: "currentColor"}),
      text(ticks, {x: (t) => t, y: top + 8, text: (t) => `${+t.toPrecision(2)}×`, lineAnchor: "top", fontSize: 10,
                   fill: "currentColor", fontVariant: "tabular-nums"}),
      text(["Ratio (log scale)"], {frameAnchor: "bottom", dy: 32, lineAnchor: "bottom", fontSize: 10, fill: "currentColor"}),
      rect([0], {x1: 1 - data.band, x2: 1 + data.band, y1: body, y2: top, fill: "currentColor", fillOpacity: 0.12}),
      ruleX([1], {y1: body, y2: top, stroke: "currentColor", strokeDasharray: "4 3"}),
      ruleY(spans(studies).filter((r) => !r.imputed), {y: "y", x1: "low", x2: "high", strokeWidth: 1.5}),
      ruleY(spans(studies).filter((r) => r.imputed), {y: "y", x1: "low", x2: "high", strokeWidth: 1.5, strokeDasharray: "3 2"}),
      dot(studies.filter((r) => r.r != null), {x: "ratio", y: "y", r: "r", symbol: "square", fill: "currentColor"}),
      dot(studies.filter((r) => r.r == null), {x: "ratio", y: "y", r: R_ALONE, symbol: "square", fill: "white", stroke: "currentColor", strokeWidth: 1.5,
        className: "forest-hollow"}),
      ruleY(pooled, {y: "y", x1: "pi_low", x2: "pi_high", strokeWidth: 1}),
      ruleX(pooled.flatMap((r) => [{x: r.pi_low, y: r.y}, {x: r.pi_high, y: r.y}]), {x: "x", y1: (d) => d.y - 5, y2: (d) => d.y + 5}),
      areaX(diamonds, {x1: "x1", x2: "x2", y: "y", z: "z", fill: "currentColor"}),
      ruleY(spans(left_out), {y: "y", x1: "low", x2: "high", strokeWidth: 1}),
      dot(left_out, {x: "ratio", y: "y", r: 3.5, symbol: "diamond", fill: "white", stroke: "currentColor", strokeWidth: 1.2,
        className: "forest-hollow"}),
      // each drawn row's point, unseen, which holds its tip (or, in an embed, its <title>)
      dot(drawn, {x: "ratio", y: "y", r: 9, fill: "currentColor", fillOpacity: 0, title: "tip", tip: tips}),
      text(rows.filter((r) => r.kind === "header" || r.kind === "heading"), {...words, y: "y", text: "label", dx: column(4),
        fontWeight: "bold"}),
      text(rows.filter((r) => r.plot), {...words, y: "y", text: "plot", dx: 4, fontWeight: "bold"}),
      text(rows.filter((r) => r.kind === "study" || r.kind === "pooled" || r.kind === "without"), {...words, y: "y",
        text: "label", dx: column(indent)}),
      text(rows.filter((r) => r.kind === "note"), {...words, y: "y", text: "label", dx: column(indent), fontStyle: "italic"}),
      text(rows.filter((r) => r.figures), {...words, y: "y", text: "figures", dx: column(labelWidth + 4)}),
    ],
  });
}
