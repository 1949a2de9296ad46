// CSV injection: the CSV downloads the browser writes defuse text cells a spreadsheet would run as
// formulas, by the rule every published CSV follows (schema/csv-cells.json, which the export copies to
// the site's assets; the Python exporters read the same file): a text cell that begins with one of the
// rule's characters gets its prefix; a cell that is a plain number (-12.5) is never altered.
import RULE from "../csv-cells.json" with {type: "json"};

const NUMBER = new RegExp(RULE.number);

export function defused(value) {
  if (typeof value !== "string" || !RULE.formula_leading.includes(value.charAt(0)) || NUMBER.test(value)) {
    return value;
  }
  return RULE.prefix + value;
}

// Rows (objects) with every cell defused, for d3-dsv's csvFormat.
export function defusedRows(rows) {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, defused(value)])));
}
