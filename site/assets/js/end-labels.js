// Labels for the right-hand ends of lines in a standalone SVG (no HTML legend there), moved up
// where two would overlap (at least 5% of the y range apart). `ends` are points with x and y.
export function endLabels(ends, yMax) {
  const gap = Math.max(yMax, 0) * 0.05;
  let floor = -Infinity;
  return [...ends].sort((a, b) => a.y - b.y).map((p) => {
    const labelY = Math.max(p.y, floor + gap);
    floor = labelY;
    return {...p, labelY};
  });
}
