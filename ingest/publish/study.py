"""Study pages: ``studies/<id>.json`` with the setup, the transcribed tables, the charts by load,
the runs and rebuild traces (runs.py), the derived values and the claims ledger."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ..fields import metric_label
from .colours import colour_chart, positions
from .db import RESULT_ORDER, coordinates, rows
from .runs import runs_charts, study_runs, traces

AXIS_LABELS = {"threads": "Concurrent users (threads)"}
CELL_FIELDS = ("value_text", "value", "value_kind", "provenance", "source_href", "printed_as", "correction", "flag",
               "note", "metric", "unit", "state", "threads")


def _tables(con: duckdb.DuckDBPyConnection, study: str, cells: list[dict]) -> list[dict]:
    """The transcribed tables as printed: their rows, each row's cells in column order."""
    by_result: dict[str, list[dict]] = {}
    for cell in cells:
        by_result.setdefault(cell["result"], []).append(cell)
    tables = []
    for table in rows(con, "SELECT * EXCLUDE (study, position) FROM result_tables WHERE study = ? ORDER BY position",
                      [study]):
        table_rows: dict[int, dict] = {}
        for cell in by_result.get(table["result"], []):
            row = table_rows.setdefault(cell["row_index"], {"label": cell["row_label"], "system": cell["system"],
                                                            "cells": []})
            row["cells"].append({k: cell[k] for k in CELL_FIELDS})
        tables.append({"id": table.pop("result"), **table, "rows": [table_rows[i] for i in sorted(table_rows)]})
    return tables


def chart_points(points: list[dict], labels: dict[str, str], *, x: str) -> list[dict]:
    """Chart points from coordinates: one per series, x and state, with the spread of repeated runs."""
    return [{"series": labels[p["system"]], "system": p["system"], "x": p[x], "state": p["state"],
             "kind": p["value_kind"], "y": p["value"], "low": p["low"] if p["runs"] > 1 else None,
             "high": p["high"] if p["runs"] > 1 else None, "text": p["text"], "provenance": p["provenance"],
             "source_href": p["source_href"], "printed_as": p["printed_as"]} for p in points]


def _charts(con: duckdb.DuckDBPyConnection, study: str, labels: dict[str, str]) -> list[dict]:
    charts = []
    placed = positions(con)
    for chart in rows(con, "SELECT * FROM charts WHERE study = ? ORDER BY position", [study]):
        where = f"study = ? AND metric = ? AND {chart['x']} IS NOT NULL"
        points = chart_points(coordinates(con, where, [study, chart["metric"]]), labels, x=chart["x"])
        units = [u for (u,) in con.execute("SELECT DISTINCT unit FROM results WHERE study = ? AND metric = ? "
                                           "ORDER BY unit", [study, chart["metric"]]).fetchall()]
        switch = None
        if chart["switch"]:
            values = list(dict.fromkeys(p[chart["switch"]] for p in points))
            switch = {"field": chart["switch"], "values": values, "default": values[0]}
        charts.append({
            "embed_prefix": f"{study}--{chart['chart']}",
            "id": chart["chart"], "title": chart["title"], "metric": chart["metric"], "unit": ", ".join(units),
            "x_label": AXIS_LABELS[chart["x"]], "y_label": metric_label(chart["metric"]),
            "series": list(dict.fromkeys(p["series"] for p in points)),
            "switch": switch, "points": points,
        })
        colour_chart(charts[-1], study, placed)
    return charts


def _workloads(con: duckdb.DuckDBPyConnection, study: str, described: list[dict]) -> list[dict]:
    """The workloads as described, each with buffer pool over data size when every system shares one pool."""
    ratios = dict(con.execute("""
        SELECT w.workload, CASE WHEN count(DISTINCT s.buffer_pool_mib) = 1 AND count(s.buffer_pool_mib) = count(*)
                                THEN buffer_pool_to_data(min(s.buffer_pool_mib), any_value(w.data_gb)) END
        FROM workloads AS w JOIN systems AS s USING (study) WHERE study = ? GROUP BY w.workload""",
                              [study]).fetchall())
    return [{**w, "buffer_pool_to_data": ratios.get(w["id"])} for w in described]


def study_doc(con: duckdb.DuckDBPyConnection, study: str) -> dict:
    head = rows(con, "SELECT title, summary, baseline, setup FROM studies WHERE study = ?", [study])[0]
    setup = json.loads(head.pop("setup"))  # the setup as described; every figure comes from a table
    cells = rows(con, f"SELECT * FROM results WHERE study = ? ORDER BY {RESULT_ORDER}", [study])
    labels = dict(con.execute("SELECT system, label FROM systems WHERE study = ? ORDER BY position", [study]).fetchall())
    usable = dict(con.execute("SELECT system, usable_capacity FROM systems WHERE study = ?", [study]).fetchall())
    runs = study_runs(con, study, labels)
    return {
        "id": study, **head,
        "sources": setup["sources"],
        "systems": [{**s, "usable_capacity": usable[s["id"]]} for s in setup["systems"]],
        "workloads": _workloads(con, study, setup["workloads"]),
        "transcriptions": setup["transcriptions"], "notes": setup["notes"],
        "graph_only": rows(con, "SELECT * EXCLUDE (study, position) FROM graph_only WHERE study = ? ORDER BY position",
                           [study]),
        "value_count": len(cells),
        "tables": _tables(con, study, cells),
        "charts": _charts(con, study, labels),
        "runs": runs,
        "derived": [{**c, "system_label": labels[c["system"]]} for c in cells if c["value_kind"] == "derived"],
        "runs_charts": runs_charts(study, runs),
        "traces": traces(con, study, runs),
        "claims": rows(con, "SELECT * EXCLUDE (study, position) REPLACE (round(computed, 2) AS computed) "
                            "FROM claims WHERE study = ? ORDER BY position", [study]),
    }


def export_studies(con: duckdb.DuckDBPyConnection, *, out_dir: Path) -> list[dict]:
    """Write ``studies/<id>.json`` for Hugo; return the study documents."""
    (out_dir / "studies").mkdir(parents=True, exist_ok=True)
    docs = []
    for (study,) in con.execute("SELECT study FROM studies ORDER BY study").fetchall():
        doc = study_doc(con, study)
        path = out_dir / "studies" / f"{study}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        docs.append(doc)
    return docs
