"""Reading the database for the publish step: rows as dicts, in the order values are printed."""

from __future__ import annotations

import duckdb

RESULT_ORDER = "study, result_index, row_index, col_index"
# The views the publish step reads, in dependency order (ingest/database/sql/results.sql, publish.sql).
VIEWS = ("results", "coordinates", "values_at")
# The flag and note of a value flagged as disagreeing with its source's own other figures (evidence.sql's
# evidence_inconsistent, from schema/evidence-grades.yaml's inconsistent list), NULL for any other: Explore's
# and Compare's rows write that flag's reason in words (data/evidence_grades.json) and their charts draw the
# value apart (site/assets/js/inconsistent.js). Other flags' notes stay with the study page's tables.
INCONSISTENT = """CASE WHEN evidence_inconsistent(flag) THEN flag END AS flag,
       CASE WHEN evidence_inconsistent(flag) THEN note END AS note"""


def in_studies(studies: list[str]) -> str:
    """The condition on ``study`` of the per-study queries of an export (the studies whose own outputs
    it computes; the others come from the cache, study_cache.py), its strings written out: DuckDB pushes
    such a list down into views with window functions (publish.sql's tail latency), where it joins
    ``study IN (SELECT ...)`` to the whole view once computed (one study's tail latency at 1,000
    bundles: 0.74 s that way, 0.03 s this way)."""
    return "study IN (" + ", ".join("'" + s.replace("'", "''") + "'" for s in studies) + ")" if studies else "FALSE"


def materialise_views(con: duckdb.DuckDBPyConnection, *, where: str = "TRUE") -> None:
    """Compute each view once, as a temporary table of the same name that shadows it on this
    connection: the publish step queries them study by study, and a view is recomputed over every
    study for each query (3,100 queries took 30 s at 200 bundles; 3 s from the tables). With ``where``
    (in_studies), only the rows of the studies it holds for: after one change, the rest come from the
    export's cache (at 1,000 bundles, all of them took 0.5 to 0.7 s, one study's 0.08 s)."""
    for view in VIEWS:
        con.execute(f"CREATE TEMP TABLE {view} AS SELECT * FROM main.{view} WHERE {where}")


def release_views(con: duckdb.DuckDBPyConnection) -> None:
    """Drop materialise_views' tables once the studies' own outputs are written (the views are there
    still, for what reads every study): at 10,000 bundles they hold 0.9 GiB."""
    for view in VIEWS:
        con.execute(f"DROP TABLE temp.{view}")


class Snapshot:
    """The database as the publish step reads it. ``of`` runs a whole-database query once and hands out
    one study's rows (the query selects ``study`` and orders by it first): 15,600 queries of one study
    each took 270 s at 1,000 bundles, each scanning every study. ``con`` stays for the rest.

    With ``where`` (a condition on ``study``: in_studies), a query reads only the studies it holds
    for (a filter on its result, which DuckDB pushes down to the tables and which keeps the query's
    order): a study taken from the export's cache costs no rows. The facet pages, which aggregate,
    read every study."""

    def __init__(self, con: duckdb.DuckDBPyConnection, *, where: str = "TRUE") -> None:
        self.con = con
        self.where = where
        self._parts: dict[tuple, dict[str, list[dict]]] = {}
        self._memo: dict[tuple, object] = {}

    def of(self, study: str, sql: str, params: tuple = (), *, keep_study: bool = False) -> list[dict]:
        key = (sql, params)
        if key not in self._parts:
            parts: dict[str, list[dict]] = {}
            query = sql if self.where == "TRUE" else f"SELECT * FROM ({sql}) WHERE {self.where}"
            for row in rows(self.con, query, list(params)):
                parts.setdefault(row["study"] if keep_study else row.pop("study"), []).append(row)
            self._parts[key] = parts
        return self._parts[key].get(study, [])

    def memo(self, key: tuple, make):
        """``make()``, computed once for this snapshot under ``key`` (what several pages read of one study)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]


def rows(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def group_of(row: dict) -> dict | None:
    """Take a row of the values_at view's coordinate columns off it: for repeated runs, the group
    (key, mean, text, lowest, highest, count) that charts draw once; otherwise None."""
    mean = {k: row.pop(k) for k in ("runs", "mean", "mean_text", "low", "high")}
    if not mean["runs"] or mean["runs"] < 2:
        return None
    return {"key": "|".join(str(row[k]) for k in ("metric", "unit", "state", "threads")), "mean": mean["mean"],
            "text": mean["mean_text"], "low": mean["low"], "high": mean["high"], "runs": mean["runs"]}
