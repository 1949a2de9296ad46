// Two rules of ingest/database/sql/publish.sql, applied by Compare in the browser to the series picked (listing
// every pair across all studies in the exporter grows with the square of their number): same_point
// (two coordinates at the same metric, unit, state and load; NULL matches NULL) and spreads_overlap
// (two coordinates cannot be ranked when at least one is the mean of repeated runs and their
// lowest-to-highest ranges meet). SQL's three-valued logic is kept: a NULL runs, low or high makes a
// comparison unknown, and only a true result counts. tests/test_compare_overlap.py checks both
// against the SQL macros on a table of cases: one rule, two implementations, one test.

// A coordinate: {metric, unit, state, threads} and {runs, low, high}; null where SQL has NULL.
export const samePoint = (a, b) => a.metric === b.metric && a.unit === b.unit && a.state === b.state &&
  a.threads === b.threads;

const greater = (x, y) => (x === null || y === null ? null : x > y);
const or = (x, y) => (x === true || y === true ? true : x === null || y === null ? null : false);
const and = (x, y) => (x === false || y === false ? false : x === null || y === null ? null : true);
const not = (x) => (x === null ? null : !x);

export const spreadsOverlap = (a, b) =>
  and(or(greater(a.runs, 1), greater(b.runs, 1)), not(or(greater(a.low, b.high), greater(b.low, a.high)))) === true;
