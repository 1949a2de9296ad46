// A chart drawn in the browser in words (its text alternative, beside the table that lists every
// value): how many points, and the lowest and highest with their series, thread count and value as
// recorded. (Charts drawn at build time get theirs from ingest/publish/alt_text.py.)
import {greatest, least} from "d3-array";

// points: [{value, threads (or null)}]; name(p) and text(p) give a point's series and recorded value.
export function inWords(points, {name, text}) {
  const at = (p) => `${name(p)}${p.threads == null ? "" : ` at ${p.threads} thread${p.threads === 1 ? "" : "s"}`}, ${text(p)}`;
  if (points.length === 1) return `One point: ${at(points[0])}.`;
  return `${points.length} points; lowest: ${at(least(points, (p) => p.value))}; ` +
    `highest: ${at(greatest(points, (p) => p.value))}.`;
}
