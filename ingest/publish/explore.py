"""Explore: every value with its filter fields (as pages write them) and, for repeated runs, the
coordinate they share, so the chart draws them once."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ..fields import fields
from .db import RESULT_ORDER, group_of, rows

# Besides the filter and table fields, each row carries these (the study's title for its link).
ROW_COLUMNS = ["study_title", "system", "system_label", "threads", "unit", "value", "value_text", "value_kind",
               "provenance", "source_href", "result", "column_label"]

# The table a value comes from, which the chart never joins to another: a printed table (its title),
# the study's runs from logs (every log of a study, one table), or a derived value (its own).
TABLE = """CASE WHEN rt.title IS NOT NULL THEN r.result
     WHEN EXISTS (SELECT 1 FROM runs AS a WHERE a.study = r.study AND a.artifact = r.result) THEN 'runs'
     ELSE r.result END AS "table",
CASE WHEN rt.title IS NOT NULL THEN rt.title
     WHEN EXISTS (SELECT 1 FROM runs AS a WHERE a.study = r.study AND a.artifact = r.result) THEN 'runs from logs'
     ELSE r.value_kind || ': ' || coalesce(r.row_label, r.result) END AS table_title"""


def export_explore(con: duckdb.DuckDBPyConnection, *, out_dir: Path) -> None:
    shown = [f for f in fields() if ("filter" in f.roles or "column" in f.roles) and f.key not in ROW_COLUMNS]
    select = ", ".join([f"r.{c}" for c in ROW_COLUMNS] + [f"{f.shown('r.' + f.key)} AS {f.key}" for f in shown])
    table = rows(con, f"SELECT {select}, {TABLE}, runs, mean, mean_text, low, high FROM values_at AS r "
                 f"LEFT JOIN result_tables AS rt ON rt.study = r.study AND rt.result = r.result "
                 f"ORDER BY {', '.join('r.' + c.strip() for c in RESULT_ORDER.split(','))}")
    for r in table:
        r["group"] = group_of(r)
    facets = []
    for f in fields("filter"):
        values = [v for (v,) in con.execute(f"SELECT DISTINCT {f.shown(f.key)} AS v FROM results "
                                            "WHERE v IS NOT NULL ORDER BY v").fetchall()]
        facets.append({"param": f.key, "label": f.label, "values": values})
    # each system's colour: its position in its bundle, as on every other page (colours.py)
    colours: dict[str, dict[str, int]] = {}
    for study, label, position in con.execute("SELECT study, label, position FROM systems ORDER BY study, position").fetchall():
        colours.setdefault(study, {})[label] = position
    (out_dir / "explore.json").write_text(json.dumps({"facets": facets, "rows": table, "colours": colours},
                                                     ensure_ascii=False),
                                          encoding="utf-8")
