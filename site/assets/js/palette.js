// Okabe–Ito: distinguishable with the common forms of colour blindness.
export const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"];

// The colours of a chart's series: each system keeps the colour of its position in its study
// (spec.colours, from the exporter), on every page and embed.
export const coloursOf = (spec) => (spec.colours ?? spec.series.map((_, i) => i)).map((i) => PALETTE[i % PALETTE.length]);

export const BASE_STYLE = {fontSize: "13px", background: "transparent", color: "currentColor"};

// A standalone SVG (embed file, PNG) has no page around it: fixed colours on white.
export const styleFor = (standalone) => (standalone ? {...BASE_STYLE, color: "#1b1f24", background: "#ffffff"} : BASE_STYLE);

// Redraw when the width changes noticeably (rotation, window resize).
export function onResize(element, redraw) {
  let width = element.clientWidth;
  new ResizeObserver(() => {
    if (Math.abs(element.clientWidth - width) > 24) {
      width = element.clientWidth;
      redraw();
    }
  }).observe(element);
}
