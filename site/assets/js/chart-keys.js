// A chart read from the keyboard. Its canvas takes focus (tabindex 0, named by aria-label); the arrow keys
// move Plot's tip from point to point (a pointermove at the point's place on screen, which Plot's pointer
// interaction reads as the mouse's), Home and End go to the first and last point, Escape (or leaving the
// chart) hides the tip, and a live region after the canvas says the point's words for screen readers.
// The points' places are worked out on a key press, never when the chart is drawn: a redraw costs nothing.

const states = new WeakMap(); // canvas -> {targets, flat, at, live}

// The charts of `canvas` as the keys walk them, after each draw: targets holds, for each chart plot() drew
// with a tip, `chart` (what plot() returned), `points` (the tipped mark's data, in the order the keys walk
// them; or a function giving them, called on the first key press), `x` and `y` (a point's values on the chart's x and y scales) and `text` (a point's words, as its
// tip says them). `label` names the chart. No targets (a drawing without tips): the canvas is no longer
// focusable, and hidden from screen readers again (the figure's caption and table say what it shows).
export function keyboardTips(canvas, targets, {label = ""} = {}) {
  let state = states.get(canvas);
  if (!state) {
    if (!targets.length) return;
    state = {canvas, live: document.createElement("p")};
    states.set(canvas, state);
    state.live.className = "visually-hidden";
    state.live.setAttribute("aria-live", "polite");
    canvas.after(state.live);
    canvas.addEventListener("keydown", (event) => keydown(event, state));
    canvas.addEventListener("blur", () => hide(state));
  }
  if (targets.length) {
    canvas.tabIndex = 0;
    canvas.removeAttribute("aria-hidden"); // an image with a name, its drawing not read
    for (const child of canvas.children) child.setAttribute("aria-hidden", "true");
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", `${label}: the arrow keys move between its points, Escape hides the note`);
  } else {
    for (const name of ["tabindex", "role", "aria-label"]) canvas.removeAttribute(name);
    canvas.setAttribute("aria-hidden", "true");
  }
  state.targets = targets;
  state.flat = null;
  state.at = -1;
  delete canvas.dataset.point;
  state.live.textContent = "";
}

const STEPS = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1};

function keydown(event, state) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  state.flat ??= state.targets.flatMap((target) =>
    (typeof target.points === "function" ? target.points() : target.points).map((point) => [target, point]));
  const last = state.flat.length - 1;
  let to = null;
  if (event.key in STEPS) to = state.at < 0 ? (STEPS[event.key] > 0 ? 0 : last) : state.at + STEPS[event.key];
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = last;
  else if (event.key === "Escape" && state.at >= 0) to = -1;
  else return;
  event.preventDefault(); // the arrows move the tip, not the page
  if (to === -1) return hide(state);
  if (last < 0) return;
  show(state, Math.max(0, Math.min(last, to)));
}

const svgOf = (chart) => (chart.tagName.toLowerCase() === "svg" ? chart : chart.querySelector(":scope > svg"));

// A value's place on a scale Plot exposes (the middle of a band), or the value itself (no such scale).
const place = (scale, value) => (scale ? scale.apply(value) + (scale.bandwidth ?? 0) / 2 : value);

function show(state, at) {
  const [target, point] = state.flat[at];
  const previous = state.at >= 0 ? state.flat[state.at][0] : null;
  if (previous && previous !== target) leave(previous);
  state.at = at;
  state.canvas.dataset.point = `${at}`; // the point the tip is on, counted from 0 (for tests)
  const svg = svgOf(target.chart);
  const {x, y} = new DOMPoint(place(target.chart.scale("x"), target.x(point)), place(target.chart.scale("y"), target.y(point)))
    .matrixTransform(svg.getScreenCTM());
  svg.dispatchEvent(new PointerEvent("pointermove", {clientX: x, clientY: y, pointerType: "mouse"}));
  state.live.textContent = target.text(point);
}

const leave = (target) => svgOf(target.chart).dispatchEvent(new PointerEvent("pointerleave", {pointerType: "mouse"}));

function hide(state) {
  if (state.at < 0) return;
  leave(state.flat[state.at][0]);
  state.at = -1;
  delete state.canvas.dataset.point;
  state.live.textContent = "";
}
