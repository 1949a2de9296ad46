// A value its source's own other figures contradict (a cell_notes flag that schema/evidence-grades.yaml
// lists under `inconsistent`): every chart draws it as a hollow, crossed dot (⊗), never by colour alone,
// and says why in words: its reason (as that file words it, which a point carries from its page:
// data-inconsistent, or from its spec) and the cell's note, in its tip and in a sentence under the chart.
// The study page's tables, Explore's and Compare's write the same mark before the same reason
// (site/layouts/_partials/value.html).
import {dot} from "@observablehq/plot";

export const MARK = "⊗";
export const MARK_WORDS = "hollow, crossed dot";

export const isInconsistent = (p) => Boolean(p.inconsistent);

// The marks of the points `options` places (x, y, stroke as a Plot dot's): a ring and a cross over it, in
// the series' colour (none for no points). `options` may carry a tip and title: both go on the ring.
export function inconsistentMarks(points, {r = 4, ...options}) {
  const {tip, title, ...place} = options;
  if (!points.length) return [];  // no empty marks: a chart without such a point is drawn as before
  return [
    dot(points, {...place, fill: "none", strokeWidth: 2, r: r + 1.5, ...(tip || title ? {tip, title} : {})}),
    dot(points, {...place, symbol: "times", strokeWidth: 2, r: r + 0.5}),
  ];
}

// What a tip adds for such a point: the mark, the reason and the note.
export const tipLines = (p) => (isInconsistent(p) ? `\n${MARK} ${p.inconsistent}${p.note ? `\n${p.note}` : ""}` : "");

// The sentence under a chart naming each such point it draws (name(p), text(p): its series and value with
// unit), or "" when it draws none.
export function inconsistentWords(points, {name, text}) {
  const flagged = points.filter(isInconsistent);
  if (!flagged.length) return "";
  return ` Drawn as a ${MARK_WORDS} (${MARK}), ${flagged.length === 1 ? "a value" : `${flagged.length} values`} ` +
    `the source's own figures contradict: ` +
    flagged.map((p) => `${name(p)}, ${text(p)}: ${p.inconsistent}${p.note ? ` (${p.note.replace(/\.$/, "")})` : ""}`)
      .join("; ") + ".";
}

// The key under a panel or chart that draws such points: the mark, what it means and, for each point, its
// series, value and reason (the note is in its tip and the caption). null when it draws none.
export function inconsistentKey(points, {name, text}) {
  const flagged = points.filter(isInconsistent);
  if (!flagged.length) return null;
  const key = document.createElement("p");
  key.className = "chart-inconsistent";
  const mark = document.createElement("span");
  mark.className = "chart-inconsistent-mark";
  mark.textContent = MARK;
  key.append(mark, ` ${MARK_WORDS}: the source's own figures contradict it. ` +
    flagged.map((p) => `${name(p)}, ${text(p)}: ${p.inconsistent}.`).join(" "));
  return key;
}
