"""Study pages: ``studies/<id>.json`` with the setup, the transcribed tables, the charts by load,
the runs and rebuild traces (runs.py), the derived values and the claims ledger."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from ..bundles.fields import field, metric_label, metric_text, source_kind
from ..database.evidence import as_data as evidence_grades
from . import alt_text, catalogue
from .colours import colour_chart, positions
from .db import RESULT_ORDER, Snapshot
from .quality import run_quality
from .runs import fileio_columns, runs_charts, study_logs, study_runs, traces
from .redundancy import redundancy_price
from .tails import tail_latency

AXIS_LABELS = {"threads": "Concurrent users (threads)"}
CELL_FIELDS = ("value_text", "value", "value_kind", "provenance", "quote", "source_href", "printed_as", "correction",
               "flag", "note", "metric", "unit", "state", "threads")
# A claim of a ledger as the pages show it (its study page's, /claims/: claims.py), its computed figure
# to two decimals
CLAIM_ROWS = "SELECT * EXCLUDE (position) REPLACE (round(computed, 2) AS computed) FROM claims"


def _tables(db: Snapshot, study: str, cells: list[dict]) -> list[dict]:
    """The transcribed tables as printed: their rows, each row's cells in column order."""
    by_result: dict[str, list[dict]] = {}
    for cell in cells:
        by_result.setdefault(cell["result"], []).append(cell)
    tables = []
    for table in db.of(study, "SELECT * EXCLUDE (position) FROM result_tables ORDER BY study, position"):
        table_rows: dict[int, dict] = {}
        for cell in by_result.get(table["result"], []):
            row = table_rows.setdefault(cell["row_index"], {"label": cell["row_label"], "system": cell["system"],
                                                            "cells": []})
            row["cells"].append({k: cell[k] for k in CELL_FIELDS})
        tables.append({"id": table.pop("result"), **table, "rows": [table_rows[i] for i in sorted(table_rows)]})
    return tables


def chart_points(points: list[dict], labels: dict[str, str], *, x: str) -> list[dict]:
    """Chart points from coordinates: one per series, x and state, with the spread of repeated runs; a value
    its source's own figures contradict (a flag of schema/evidence-grades.yaml's inconsistent list) with
    that flag's reason in words and its note, which the chart's mark, tip, CSV and words say."""
    reasons = evidence_grades()["inconsistent"]
    return [{"series": labels[p["system"]], "system": p["system"], "x": p[x], "state": p["state"],
             "kind": p["value_kind"], "y": p["value"], "low": p["low"] if p["runs"] > 1 else None,
             "high": p["high"] if p["runs"] > 1 else None, "text": p["text"], "provenance": p["provenance"],
             "quote": p["quote"], "source_href": p["source_href"], "printed_as": p["printed_as"],
             **({"flag": p["flag"], "inconsistent": reasons[p["flag"]], "note": p["note"]} if p["flag"] in reasons else {})}
            for p in points]


# Each chart's points (coordinates of its metric with a value of its x) and units, for every study at once.
CHART_POINTS = """SELECT ch.chart, c.* EXCLUDE (position) FROM charts AS ch JOIN coordinates AS c
    ON c.study = ch.study AND c.metric = ch.metric AND c.{x} IS NOT NULL
   AND (ch.workload IS NULL OR c.workload = ch.workload) WHERE ch.x = ?
    ORDER BY c.study, ch.chart, c.position"""
CHART_UNITS = """SELECT DISTINCT ch.study, ch.chart, r.unit FROM charts AS ch JOIN results AS r
    ON r.study = ch.study AND r.metric = ch.metric AND (ch.workload IS NULL OR r.workload = ch.workload) ORDER BY ALL"""


def _charts(db: Snapshot, study: str, labels: dict[str, str], placed: dict) -> list[dict]:
    charts = []
    for chart in db.of(study, "SELECT * FROM charts ORDER BY study, position"):
        points = chart_points([p for p in db.of(study, CHART_POINTS.format(x=chart["x"]), (chart["x"],), keep_study=True)
                               if p["chart"] == chart["chart"]], labels, x=chart["x"])
        units = [u["unit"] for u in db.of(study, CHART_UNITS) if u["chart"] == chart["chart"]]
        switch = None
        if chart["switch"]:
            values = list(dict.fromkeys(p[chart["switch"]] for p in points))
            switch = {"field": chart["switch"], "values": values, "default": values[0]}
        charts.append({
            "embed_prefix": f"{study}--{chart['chart']}",
            "id": chart["chart"], "title": chart["title"], "metric": chart["metric"], "unit": ", ".join(units),
            "x_label": AXIS_LABELS[chart["x"]], "y_label": metric_label(chart["metric"]),
            "y_text": metric_text(chart["metric"], ", ".join(units)),  # the unit once, as a caption writes it
            "series": list(dict.fromkeys(p["series"] for p in points)),
            "switch": switch, "points": points, "alt": alt_text.by_x(points),
        })
        colour_chart(charts[-1], study, placed)
    return charts


def _workloads(db: Snapshot, study: str, described: list[dict]) -> list[dict]:
    """The workloads as described, each with buffer pool over data size when every system shares one pool."""
    ratios = {r["workload"]: r["ratio"] for r in db.of(study, """
        SELECT study, w.workload, CASE WHEN count(DISTINCT s.buffer_pool_mib) = 1 AND count(s.buffer_pool_mib) = count(*)
                                THEN buffer_pool_to_data(min(s.buffer_pool_mib), any_value(w.data_gb)) END AS ratio
        FROM workloads AS w JOIN systems AS s USING (study) GROUP BY study, w.workload ORDER BY study, w.workload""")}
    return [{**w, "buffer_pool_to_data": ratios.get(w["id"])} for w in described]


def study_doc(db: Snapshot, study: str, *, placed: dict) -> dict:
    head = dict(db.of(study, "SELECT study, title, summary, baseline, setup FROM studies ORDER BY study")[0])
    setup = json.loads(head.pop("setup"))  # the setup as described; every figure comes from a table
    cells = db.of(study, f"SELECT * FROM results ORDER BY {RESULT_ORDER}", keep_study=True)
    systems = db.of(study, "SELECT study, system, label, usable_capacity, device_class, device_class_from "
                           "FROM systems ORDER BY study, position")
    labels = {s["system"]: s["label"] for s in systems}
    # what the loader made of each system: usable capacity, and its device class as stated or derived
    figures = {s["system"]: {"usable_capacity": s["usable_capacity"],
                             "device_class": {"word": field("device_class").word(s["device_class"]),
                                              "from": s["device_class_from"]} if s["device_class"] else None}
               for s in systems}
    runs = study_runs(db, study, labels)
    quality = run_quality(db, study)
    for run in runs:
        run["quality"] = quality.get(run["artifact"])
    claims = db.of(study, f"{CLAIM_ROWS} ORDER BY study, position")
    doc = {
        "id": study, **head,
        "sources": [{**s, "published_by": source_kind(s["kind"]).name if s.get("kind") else None}
                    for s in setup["sources"]],  # who stands behind it, in the registry's words
        "systems": [{**s, **figures[s["id"]]} for s in setup["systems"]],
        "workloads": _workloads(db, study, setup["workloads"]),
        "transcriptions": setup["transcriptions"], "notes": setup["notes"],
        "graph_only": db.of(study, "SELECT * EXCLUDE (position) FROM graph_only ORDER BY study, position"),
        "value_count": len(cells),
        # the summary at the top of the page: how many values of each kind, claims of each verdict
        "value_kinds": _counts(c["value_kind"] for c in cells),
        "verdicts": _counts(c["verdict"] for c in claims),
        "tables": _tables(db, study, cells),
        "charts": _charts(db, study, labels, placed),
        "runs": runs,
        "logs": study_logs(db, study),
        "derived": [{**c, "system_label": labels[c["system"]]} for c in cells if c["value_kind"] == "derived"],
        "runs_charts": runs_charts(study, runs),
        "fileio_columns": fileio_columns(runs),
        "traces": traces(db, study, runs),
        "tails": tail_latency(db, study, labels),
        "redundancy": redundancy_price(db, study, labels),
        "claims": claims,
    }
    (best,) = db.of(study, "SELECT study, min(evidence_rank) AS rank FROM coordinates WHERE NOT inconsistent "
                           "GROUP BY study ORDER BY study") or [{"rank": None}]
    return {**doc, "catalogue": catalogue.entry(doc, best_rank=best["rank"])}


def _counts(items) -> list[dict]:
    """[{name, count}] by count, most first (then by name)."""
    return [{"name": k, "count": n} for k, n in sorted(Counter(items).items(), key=lambda kv: (-kv[1], kv[0]))]


def export_studies(db: Snapshot, *, out_dir: Path, static_dir: Path, cite) -> list[dict]:
    """Write ``studies/<id>.json`` for Hugo, each with its citation (``cite(doc)``), for the studies
    ``db`` reads (Snapshot's ``where``), and into ``static_dir`` each drawn runs chart's spec with its
    samples (runs.samples_path); return the documents."""
    (out_dir / "studies").mkdir(parents=True, exist_ok=True)
    docs = []
    placed = positions(db.con, where=db.where)
    for (study,) in db.con.execute(f"SELECT study FROM studies WHERE {db.where} ORDER BY study").fetchall():
        doc = study_doc(db, study, placed=placed)
        doc["citation"] = cite(doc)
        path = out_dir / "studies" / f"{study}.json"
        # no indent: json's C encoder serves only unindented output (indented, it was 5 s at 1,000 bundles)
        path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        for chart in doc["runs_charts"]:
            if chart["drawn"]:
                samples = static_dir / chart["samples"].lstrip("/")
                samples.parent.mkdir(parents=True, exist_ok=True)
                samples.write_text(json.dumps(chart, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        docs.append(doc)
    return docs
