// "Where does your run land?" drawn: each comparable published series a dot at its transactions a
// second, one row a series (system and study), highest first, and your run the line across them; the
// table beside it is the same comparison in words (landing.js). Plot from js/plot.js.
import {dot, plot, ruleX, text} from "@observablehq/plot";
import {BASE_STYLE, PALETTE} from "./palette.js";

const ROW = 24;  // px a series
const LABEL = 30;  // characters of a row's label shown; the table gives the whole

const short = (s) => (s.length > LABEL ? `${s.slice(0, LABEL - 1)}…` : s);

export function landingChart(run, rows, {width}) {
  const label = (r) => `${short(r.system_label)} · ${r.threads} thr`;
  const keys = rows.map((r, i) => `${i + 1}. ${label(r)}`);
  const narrow = width < 520;
  const most = Math.max(run.tps, ...rows.map((r) => r.tps));
  return plot({
    width, height: 56 + ROW * rows.length, style: BASE_STYLE,
    marginLeft: narrow ? 12 : Math.min(width / 2, 12 + 7 * Math.max(...keys.map((k) => k.length))),
    marginRight: 24, marginTop: 28, marginBottom: 44,
    x: {label: "Transactions a second →", labelAnchor: "center", labelOffset: 36, grid: true, domain: [0, most * 1.05],
      nice: true},
    y: {domain: keys, label: null, axis: narrow ? null : "left"},
    marks: [
      dot(rows, {x: "tps", y: (r, i) => keys[i], fill: PALETTE[0], r: 4.5, ariaHidden: true}),
      narrow ? text(rows, {x: 0, y: (r, i) => keys[i], text: (r, i) => keys[i], textAnchor: "start", dy: -9,
        fontSize: 11, ariaHidden: true}) : null,
      ruleX([run.tps], {stroke: PALETTE[3], strokeWidth: 2, ariaHidden: true}),
      text([run.tps], {x: (d) => d, frameAnchor: "top", dy: -16, dx: 4, textAnchor: "start", text: () => "your run",
        fill: PALETTE[3], fontWeight: "bold", ariaHidden: true}),
    ],
  });
}
