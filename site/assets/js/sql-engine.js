// What /sql/ runs a query with: DuckDB-WASM's JavaScript (sql-db.js) and the result's table, chart and CSV
// (sql-result.js, with Plot from js/plot.js). Its own bundle (sql-engine.<SHA-256>.js), which sql.js
// imports for the first query: a visit that runs nothing loads neither (tests/test_page_budget.py).
export {QueryStopped, mostRead, openDatabase, run} from "./sql-db.js";
export {chartOf, csvOf, showTable} from "./sql-result.js";
export {landingChart} from "./landing-chart.js";  // (/compare/yours/, which imports this bundle too)
