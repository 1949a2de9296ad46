// The frame of a standalone embed (SVG and PNG): the chart with the context it needs away from the
// site, in the image itself: its title and study (or what it answers) above it; its legend (every series
// named in full, wrapped, never cut, or what its marks mean) below; then its sources, the kinds of its
// values, its address on the site and the SHA-256 of its data. Text is wrapped by an estimate of its
// width that errs on the wide side.

const PAD = 16;
const INK = "#1b1f24";
const MUTED = "#4b5563";
const FONT = "system-ui, 'DejaVu Sans', sans-serif";

const escape = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
  .replace(/"/g, "&quot;");

// Wider than the average glyph of common sans-serif faces (about 0.55 em), and a full em for wide
// (CJK) characters, so that a wrapped line always fits. In hundredths of an em, whole numbers: a line
// is as wide as its words and spaces, each measured once.
function hundredths(text) {
  let em = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    const capital = (code >= 65 && code <= 90) || code === 64 || code === 37 || code === 0x2014;  // A-Z @ % —
    em += code > 0x2e80 ? 100 : capital ? 75 : 62;
  }
  return em;
}

const SPACE = hundredths(" ");

export function wrap(text, size, width) {
  const over = (em) => em * size > width * 100;
  const lines = [];
  let line = "";
  let em = 0;  // the line's width
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    const wide = hundredths(word);
    if (line && over(em + SPACE + wide)) {
      lines.push(line);
      [line, em] = [word, wide];
    } else {
      [line, em] = line ? [`${line} ${word}`, em + SPACE + wide] : [word, wide];
    }
    while (over(em) && line.length > 1) {  // a word longer than the line: split it
      let cut = line.length - 1;
      while (cut > 1 && over(hundredths(line.slice(0, cut)))) cut -= 1;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
      em = hundredths(line);
    }
  }
  if (line) lines.push(line);
  return lines;
}

// Lines of text as SVG, from y down; returns the markup and the y below the last line.
function block(lines, {x = PAD, y, size, fill = INK, weight = "normal", lead = 1.35}) {
  const out = lines.map((line, i) => `<text x="${x}" y="${y + size + i * size * lead}" font-size="${size}" ` +
    `font-weight="${weight}" fill="${fill}">${escape(line)}</text>`).join("");
  return [out, y + lines.length * size * lead];
}

const KIND_WORDS = {exact: "exact (as printed)", derived: "derived (computed from printed values)",
  approximate: "approximate", measured: "measured (from logs)",
  ratio: "ratios of two values of one study (its median, lowest and highest over the loads)",
  pooled: "pooled estimates of the studies' effects (their method in the key)"};

// The outer SVG around a drawn chart (an <svg> element of width `width`) and its legend entries
// ([{label, colour}], may be empty).
export function frame(chart, {title, context, legend, width}) {
  const inner = width - 2 * PAD;
  let y = PAD / 2;
  const parts = [];
  let text;
  [text, y] = block(wrap(title, 15, inner), {y, size: 15, weight: "bold"});
  parts.push(text);
  if (context.study && !title.endsWith(context.study)) {  // embed titles end with their study's: say it only once
    [text, y] = block(wrap(`Study: ${context.study}`, 12, inner), {y, size: 12, fill: MUTED});
    parts.push(text);
  }
  for (const paragraph of context.lead ?? []) {  // what the chart answers, above it (a facet's evidence)
    [text, y] = block(wrap(paragraph, 12, inner), {y: y + 4, size: 12});
    parts.push(text);
  }
  y += 6;
  const height = Number(chart.getAttribute("height"));
  chart.setAttribute("x", "0");
  chart.setAttribute("y", String(y));
  parts.push(chart.outerHTML);
  y += height + 4;
  for (const {label, colour} of legend) {
    const lines = wrap(label, 12, inner - 22);
    parts.push(`<rect x="${PAD}" y="${y + 2}" width="12" height="12" fill="${colour}"/>`);
    [text, y] = block(lines, {x: PAD + 20, y, size: 12});
    parts.push(text);
    y += 2;
  }
  for (const paragraph of context.notes ?? []) {  // what its marks mean, in words (a facet's evidence grades)
    [text, y] = block(wrap(paragraph, 12, inner), {y, size: 12});
    parts.push(text);
    y += 2;
  }
  y += 6;
  const kinds = context.kinds.map((k) => KIND_WORDS[k] ?? k).join("; ");
  // one source line (a study's), or a list of them (a facet's studies)
  const sources = Array.isArray(context.sources) ? `Sources: ${context.sources.join("; ")}` : `Source: ${context.sources}`;
  for (const line of [sources, `Values: ${kinds}`,
    `${context.address} · data SHA-256 ${context.sha256.slice(0, 16)}…`]) {
    [text, y] = block(wrap(line, 11, inner), {y, size: 11, fill: MUTED});
    parts.push(text);
  }
  const total = Math.ceil(y + PAD / 2);
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${total}" ` +
    `viewBox="0 0 ${width} ${total}" font-family="${FONT}"><title>${escape(title)}</title>` +
    (context.alt ? `<desc>${escape(context.alt)}</desc>` : "") +
    `<rect width="100%" height="100%" fill="#ffffff"/>${parts.join("")}</svg>`;
}
