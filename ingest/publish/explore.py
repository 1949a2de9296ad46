"""Explore: every value with its filter fields (as pages write them) and, for repeated runs, the
coordinate they share, so the chart draws them once.

Written in two parts, so that neither Hugo nor a reader's browser holds every value at once: a small
index (data/explore.json: the filters, and each study's value count and the values it has of each
filter, from which the page lists the studies and the script works out which studies can match a
view), and one file per study (assets/explore/<study>.json: its rows and its systems' colours), from
which Hugo renders that study's row page (/explore/rows/<study>/) that the script fetches on demand."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ..bundles.fields import fields, metric_label, metric_text
from .db import INCONSISTENT, RESULT_ORDER, group_of, rows

# Besides the filter and table fields, each row carries these (the study's title for its link).
ROW_COLUMNS = ["study_title", "system", "system_label", "threads", "unit", "value", "value_text", "value_kind",
               "provenance", "quote", "source_href", "result", "column_label"]

# The table a value comes from, which the chart never joins to another: a printed table (its title),
# the study's runs from logs (every log of a study, one table), or a derived value (its own).
TABLE = """CASE WHEN rt.title IS NOT NULL THEN r.result
     WHEN EXISTS (SELECT 1 FROM runs AS a WHERE a.study = r.study AND a.artifact = r.result) THEN 'runs'
     ELSE r.result END AS "table",
CASE WHEN rt.title IS NOT NULL THEN rt.title
     WHEN EXISTS (SELECT 1 FROM runs AS a WHERE a.study = r.study AND a.artifact = r.result) THEN 'runs from logs'
     ELSE r.value_kind || ': ' || coalesce(r.row_label, r.result) END AS table_title"""



def export_explore(con: duckdb.DuckDBPyConnection, *, assets_dir: Path, where: str = "TRUE") -> dict[str, dict | None]:
    """Write ``assets_dir/explore/<study>.json`` (the rows) of the studies ``where`` holds for (a
    condition on ``study``); returns their entries in the index (None: a study with no values)."""
    shown = [f for f in fields() if ("filter" in f.roles or "column" in f.roles) and f.key not in ROW_COLUMNS]
    select = ", ".join([f"r.{c}" for c in ROW_COLUMNS] + [f"{f.shown('r.' + f.key)} AS {f.key}" for f in shown])
    table = rows(con, f"SELECT {select}, {TABLE}, {INCONSISTENT}, runs, mean, mean_text, low, high "
                 f"FROM (SELECT * FROM values_at WHERE {where}) AS r "
                 f"LEFT JOIN result_tables AS rt ON rt.study = r.study AND rt.result = r.result "
                 f"ORDER BY {', '.join('r.' + c.strip() for c in RESULT_ORDER.split(','))}")
    by_study: dict[str, list[dict]] = {study: [] for (study,) in con.execute(
        f"SELECT study FROM studies WHERE {where} ORDER BY study").fetchall()}
    for r in table:
        r["group"] = group_of(r)
        r["metric_text"] = metric_text(r["metric"], r["unit"])
        by_study[r["study"]].append(r)
    filters = fields("filter")
    # each study's values of each filter (in the filters' order): a view can match a study's rows only
    # if, for every filter it sets, the study has one of the values it picks
    lists = ", ".join(f"list(DISTINCT {f.shown(f.key)} ORDER BY {f.shown(f.key)}) "
                      f"FILTER (WHERE {f.shown(f.key)} IS NOT NULL)" for f in filters)
    has = {study: values for study, *values in con.execute(
        f"SELECT study, {lists} FROM results WHERE {where} GROUP BY study").fetchall()}
    # each system's colour: its position in its bundle, as on every other page (colours.py)
    colours: dict[str, dict[str, int]] = {}
    for study, label, position in con.execute(f"SELECT study, label, position FROM systems WHERE {where} "
                                              "ORDER BY study, position").fetchall():
        colours.setdefault(study, {})[label] = position
    folder = assets_dir / "explore"
    folder.mkdir(parents=True, exist_ok=True)
    entries: dict[str, dict | None] = {}
    for study, study_rows in by_study.items():
        if not study_rows:
            entries[study] = None
            continue
        entries[study] = {"study": study, "title": study_rows[0]["study_title"], "count": len(study_rows),
                          "facets": [values or [] for values in has[study]]}
        (folder / f"{study}.json").write_text(
            json.dumps({"study": study, "rows": study_rows, "colours": colours.get(study, {})}, ensure_ascii=False),
            encoding="utf-8")
    return entries


def write_explore_index(con: duckdb.DuckDBPyConnection, *, out_dir: Path, entries: dict[str, dict | None]) -> None:
    """Write ``out_dir/explore.json``: the filters with every value the database has of each, and the
    studies' entries (``entries``: every study's, None for a study with no values)."""
    filters = fields("filter")
    lists = con.execute("SELECT " + ", ".join(  # one pass over the view, which is computed for each query
        f"list(DISTINCT {v} ORDER BY {v}) FILTER (WHERE {v} IS NOT NULL)" for v in (f.shown(f.key) for f in filters))
        + " FROM results").fetchone()
    facets = [{"param": f.key, "label": f.label, "values": values or [],
               **({"names": {v: metric_label(v) for v in values or []}} if f.key == "metric" else {})}
              for f, values in zip(filters, lists)]
    studies = [entries[study] for study in sorted(entries) if entries[study] is not None]
    (out_dir / "explore.json").write_text(json.dumps({"facets": facets, "studies": studies}, ensure_ascii=False),
                                          encoding="utf-8")
