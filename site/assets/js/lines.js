// Lines by series as a Plot function mark: one <path> per series, drawn straight from the chart's
// scales. Plot's line mark passes every point through its channels (checks, grouping, scaling),
// which at 10,000 points takes three quarters of the drawing time. A function mark has no
// channels, so the chart declares its x and y domains.

// The points grouped into series, in the order each series first appears, each sorted by x (Plot
// joins points in data order, so a table sorted by value would zigzag).
export function seriesOf(points, {x, y, z, stroke, title}) {
  const byKey = new Map();
  for (const p of points) {
    let s = byKey.get(p[z]);
    if (s === undefined) byKey.set(p[z], (s = {stroke: p[stroke], title: p[title], first: p, xy: []}));
    s.xy.push([p[x], p[y]]);
  }
  const series = [...byKey.values()];
  for (const s of series) s.xy.sort((a, b) => a[0] - b[0]);
  return series;
}

// A series with a dash pattern (s.dash) is drawn dashed.
export function lines(series, {strokeWidth = 1.5} = {}) {
  return (index, scales, values, dimensions, {document}) => {
    const svg = (name, attributes = {}) => {
      const element = document.createElementNS("http://www.w3.org/2000/svg", name);
      for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
      return element;
    };
    const g = svg("g", {"aria-label": "line", fill: "none", "stroke-width": strokeWidth,
      "stroke-linejoin": "round", "stroke-linecap": "round"});
    for (const s of series) {
      let d = "";
      let gap = true;  // a point that cannot be placed breaks the line, as in Plot
      for (const [x, y] of s.xy) {
        const px = scales.x(x);
        const py = scales.y(y);
        if (!Number.isFinite(px) || !Number.isFinite(py)) {
          gap = true;
          continue;
        }
        d += `${gap ? "M" : "L"}${px.toFixed(1)},${py.toFixed(1)}`;
        gap = false;
      }
      const title = svg("title");
      title.textContent = s.title;
      const path = svg("path", {d, stroke: scales.color(s.stroke)});
      if (s.dash) path.setAttribute("stroke-dasharray", s.dash);
      path.append(title);
      g.append(path);
    }
    return g;
  };
}
