// A facet's evidence as a forest plot, a pure function of its rows: one row a like-for-like pair of one
// study, a point at its median ratio over the loads, a bar from its lowest to highest, a rule at 1x, rows
// in the order the export sorted them (ingest/publish/evidence.py). Each row is labelled with its study,
// year, publisher's kind (as the catalogue says it), workload and grade mark (evidence_grades.json, from
// schema/evidence-grades.yaml), never a colour alone. Ratios only: two studies' values never share an
// axis. The facet page draws it in the browser (evidence-plot.js), and site/render/embeds.mjs the same
// plot in Node (jsdom) for the evidence embed's static SVG.
import {dot, plot, ruleX, ruleY, text} from "@observablehq/plot";

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
