"""Study pages: ``studies/<id>.json`` with the setup, the transcribed tables, the charts by load,
the runs and rebuild traces (runs.py), the derived values and the claims ledger."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from schema.models import Provenance

from ..fields import metric_label
from ..load import provenance_text
from .db import RESULT_ORDER, coordinates, rows
from .runs import runs_charts, study_runs, traces

AXIS_LABELS = {"threads": "Concurrent users (threads)"}
CELL_FIELDS = ("value_text", "value", "value_kind", "provenance", "printed_as", "correction", "metric", "unit",
               "state", "threads")


def _tables(bundle: dict, cells: list[dict]) -> list[dict]:
    by_result: dict[str, list[dict]] = {}
    for cell in cells:
        by_result.setdefault(cell["result"], []).append(cell)
    tables = []
    for result in bundle["results"]:
        if result["type"] != "table":
            continue
        table_rows: dict[int, dict] = {}
        for cell in by_result.get(result["id"], []):
            row = table_rows.setdefault(cell["row_index"], {"label": cell["row_label"], "system": cell["system"],
                                                            "cells": []})
            row["cells"].append({k: cell[k] for k in CELL_FIELDS})
        tables.append({
            "id": result["id"], "title": result["title"], "notes": result.get("notes"),
            "value_kind": result["value_kind"],
            "provenance": provenance_text(Provenance.model_validate(result["provenance"])),
            "columns": [c["label"] for c in result["columns"]],
            "rows": [table_rows[i] for i in sorted(table_rows)],
        })
    return tables


def chart_points(points: list[dict], labels: dict[str, str], *, x: str) -> list[dict]:
    """Chart points from coordinates: one per series, x and state, with the spread of repeated runs."""
    return [{"series": labels[p["system"]], "system": p["system"], "x": p[x], "state": p["state"],
             "kind": p["value_kind"], "y": p["value"], "low": p["low"] if p["runs"] > 1 else None,
             "high": p["high"] if p["runs"] > 1 else None, "text": p["text"], "provenance": p["provenance"],
             "printed_as": p["printed_as"]} for p in points]


def _charts(con: duckdb.DuckDBPyConnection, bundle: dict, labels: dict[str, str]) -> list[dict]:
    charts = []
    for chart in bundle["charts"]:
        where = f"study = ? AND metric = ? AND {chart['x']} IS NOT NULL"
        points = chart_points(coordinates(con, where, [bundle["id"], chart["metric"]]), labels, x=chart["x"])
        units = [u for (u,) in con.execute("SELECT DISTINCT unit FROM results WHERE study = ? AND metric = ? "
                                           "ORDER BY unit", [bundle["id"], chart["metric"]]).fetchall()]
        switch = None
        if chart.get("switch"):
            values = list(dict.fromkeys(p[chart["switch"]] for p in points))
            switch = {"field": chart["switch"], "values": values, "default": values[0]}
        charts.append({
            "embed_prefix": f"{bundle['id']}--{chart['id']}",
            "id": chart["id"], "title": chart["title"], "metric": chart["metric"], "unit": ", ".join(units),
            "x_label": AXIS_LABELS[chart["x"]], "y_label": metric_label(chart["metric"]),
            "series": list(dict.fromkeys(p["series"] for p in points)),
            "switch": switch, "points": points,
        })
    return charts


def _workloads(con: duckdb.DuckDBPyConnection, bundle: dict) -> list[dict]:
    """The workloads, each with buffer pool over data size when every system shares one buffer pool."""
    ratios = dict(con.execute("""
        SELECT w.workload, CASE WHEN count(DISTINCT s.buffer_pool_mib) = 1 AND count(s.buffer_pool_mib) = count(*)
                                THEN buffer_pool_to_data(min(s.buffer_pool_mib), any_value(w.data_gb)) END
        FROM workloads AS w JOIN systems AS s USING (study) WHERE study = ? GROUP BY w.workload""",
                              [bundle["id"]]).fetchall())
    return [{**w, "buffer_pool_to_data": ratios.get(w["id"])} for w in bundle["workloads"]]


def study_doc(con: duckdb.DuckDBPyConnection, study: str) -> dict:
    (text,) = con.execute("SELECT bundle FROM studies WHERE study = ?", [study]).fetchone()
    bundle = json.loads(text)
    cells = rows(con, f"SELECT * FROM results WHERE study = ? ORDER BY {RESULT_ORDER}", [study])
    labels = {s["id"]: s["label"] for s in bundle["systems"]}
    usable = dict(con.execute("SELECT system, usable_capacity FROM systems WHERE study = ?", [study]).fetchall())
    runs = study_runs(con, study, labels)
    return {
        "id": bundle["id"], "title": bundle["title"], "summary": bundle["summary"], "baseline": bundle["baseline"],
        "sources": bundle["sources"],
        "systems": [{**s, "usable_capacity": usable[s["id"]]} for s in bundle["systems"]],
        "workloads": _workloads(con, bundle),
        "transcriptions": bundle["transcriptions"], "notes": bundle["notes"],
        "graph_only": [{**g, "where_text": provenance_text(Provenance.model_validate(g["where"]))}
                       for g in bundle["graph_only"]],
        "value_count": len(cells),
        "tables": _tables(bundle, cells),
        "charts": _charts(con, bundle, labels),
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
