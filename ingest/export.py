"""Publish step: write the downloads and the JSON the Hugo site reads, from the database only.

Everything the site shows about results comes out of DuckDB here, so the pages, the
downloads and the database cannot disagree.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import duckdb

from schema.models import Provenance

from .embeds import export_embeds
from .load import provenance_text

# The published columns of results.csv / results.parquet, in order.
RESULT_COLUMNS = [
    "study", "source", "system", "system_label", "storage_product", "raid_level", "drives", "chunk_kib",
    "protocol", "doublewrite", "compression", "device", "filesystem", "db_version", "usable_capacity",
    "buffer_pool_to_data", "benchmark", "threads", "state", "metric", "unit",
    "value", "value_text", "value_kind", "provenance", "printed_as", "correction", "spread_cv", "result",
]
RESULT_ORDER = "study, result_index, row_index, col_index"

AXIS_LABELS = {"threads": "Concurrent users (threads)"}
METRIC_LABELS = {
    "tps": "Transactions per second", "qps": "Queries per second", "oet": "Order-entry transactions per minute",
    "latency_avg_ms": "Average latency (ms)", "latency_p95_ms": "95th percentile latency (ms)",
    "latency_p99_ms": "99th percentile latency (ms)", "rebuild_mb_s": "Rebuild speed (MB/s)",
}


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def export_downloads(con: duckdb.DuckDBPyConnection, *, db_path: Path, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    # claims.csv: "claim" holds the wording; the claim's id is in "id"
    claims = ("SELECT study, text AS claim, source, stated, round(computed, 4) AS computed, verdict, formula, unit, "
              "kind, reason, claim AS id FROM claims ORDER BY study, position")
    con.execute(f"COPY ({claims}) TO '{(out_dir / 'claims.csv').as_posix()}' (HEADER, DELIMITER ',')")
    select = f"SELECT {', '.join(RESULT_COLUMNS)} FROM results ORDER BY {RESULT_ORDER}"
    con.execute(f"COPY ({select}) TO '{(out_dir / 'results.csv').as_posix()}' (HEADER, DELIMITER ',')")
    con.execute(f"COPY ({select}) TO '{(out_dir / 'results.parquet').as_posix()}' (FORMAT PARQUET)")
    shutil.copyfile(db_path, out_dir / "benchmarks.duckdb")


def _tables(bundle: dict, cells: list[dict]) -> list[dict]:
    by_result: dict[str, list[dict]] = {}
    for cell in cells:
        by_result.setdefault(cell["result"], []).append(cell)
    tables = []
    for result in bundle["results"]:
        if result["type"] != "table":
            continue
        rows: dict[int, dict] = {}
        for cell in by_result.get(result["id"], []):
            row = rows.setdefault(cell["row_index"], {"label": cell["row_label"], "system": cell["system"], "cells": []})
            row["cells"].append({k: cell[k] for k in (
                "value_text", "value", "value_kind", "provenance", "printed_as", "correction",
                "metric", "unit", "state", "threads")})
        tables.append({
            "id": result["id"], "title": result["title"], "notes": result.get("notes"),
            "value_kind": result["value_kind"],
            "provenance": provenance_text(Provenance.model_validate(result["provenance"])),
            "columns": [c["label"] for c in result["columns"]],
            "rows": [rows[i] for i in sorted(rows)],
        })
    return tables


def _one_value(group: list[dict]) -> dict | None:
    """The value a group of cells stands for: a printed value when it is the only one, or the mean of
    repeated measured runs with their lowest, highest and count. Anything else is ambiguous: None."""
    if len(group) == 1:
        c = group[0]
        return {**c, "low": c["value"], "high": c["value"], "runs": 1}
    if all(c["value_kind"] == "measured" for c in group):
        values = [c["value"] for c in group]
        mean = sum(values) / len(values)
        return {**group[0], "value": mean, "value_text": f"{mean:.2f}", "low": min(values), "high": max(values),
                "runs": len(values), "printed_as": None,
                "provenance": f"mean of {len(values)} runs: " + "; ".join(c["provenance"] for c in group)}
    return None


def _value_text(v: dict) -> str:
    """How a chart labels the value a group stands for (see _one_value)."""
    if v["runs"] > 1:
        return f"{v['value_text']} (mean of {v['runs']} runs, {v['low']:g} to {v['high']:g})"
    return v["value_text"]


def _chart_points(chart: dict, cells: list[dict], labels: dict[str, str]) -> list[dict]:
    """One point per series, x and state (see _one_value), with the spread of repeated runs."""
    groups: dict[tuple, list[dict]] = {}
    for c in cells:
        if c["metric"] == chart["metric"] and c[chart["x"]] is not None:
            groups.setdefault((c["system"], c[chart["x"]], c["state"]), []).append(c)
    points = []
    for (system, x, state), group in groups.items():
        v = _one_value(group)
        if v is None:
            continue
        spread = v["runs"] > 1
        points.append({"series": labels[system], "system": system, "x": x, "state": state, "kind": v["value_kind"],
                       "y": v["value"], "low": v["low"] if spread else None, "high": v["high"] if spread else None,
                       "text": _value_text(v),
                       "provenance": v["provenance"], "printed_as": v["printed_as"]})
    return points


def _charts(bundle: dict, cells: list[dict], labels: dict[str, str]) -> list[dict]:
    charts = []
    for chart in bundle["charts"]:
        points = _chart_points(chart, cells, labels)
        units = sorted({c["unit"] for c in cells if c["metric"] == chart["metric"]})
        switch = None
        if chart.get("switch"):
            values = list(dict.fromkeys(p[chart["switch"]] for p in points))
            switch = {"field": chart["switch"], "values": values, "default": values[0]}
        charts.append({
            "embed_prefix": f"{bundle['id']}--{chart['id']}",
            "id": chart["id"], "title": chart["title"], "metric": chart["metric"], "unit": ", ".join(units),
            "x_label": AXIS_LABELS[chart["x"]], "y_label": METRIC_LABELS.get(chart["metric"], chart["metric"]),
            "series": list(dict.fromkeys(p["series"] for p in points)),
            "switch": switch, "points": points,
        })
    return charts


def _threads_text(threads: int | None) -> str:
    return f"{threads} thread{'' if threads == 1 else 's'}"


def _runs(con: duckdb.DuckDBPyConnection, study: str, labels: dict[str, str]) -> list[dict]:
    runs = _rows(con, "SELECT * FROM runs WHERE study = ? ORDER BY system, threads, artifact", [study])
    values = _rows(con, "SELECT result, metric, value_text, provenance FROM measurements "
                        "WHERE study = ? AND value_kind = 'measured'", [study])
    samples = _rows(con, "SELECT artifact, t_s, tps, latency_ms, latency_pct FROM intervals "
                         "WHERE study = ? ORDER BY artifact, t_s", [study])
    for run in runs:
        run["system_label"] = labels[run["system"]]
        run["values"] = {v["metric"]: {"text": v["value_text"], "provenance": v["provenance"]}
                         for v in values if v["result"] == run["artifact"]}
        run["intervals"] = [{k: s[k] for k in ("t_s", "tps", "latency_ms", "latency_pct")}
                            for s in samples if s["artifact"] == run["artifact"]]
        pcts = {s["latency_pct"] for s in run["intervals"] if s["latency_pct"] is not None}
        run["latency_pct"] = pcts.pop() if len(pcts) == 1 else None
        run["label"] = (f"{run['artifact']}: {run['system_label']}, {_threads_text(run['threads'])}"
                        + ("" if run["complete"] else " (unfinished)"))
    return runs


# Panels of the charts drawn over time (one .chart-canvas each); the y-axis labels are the renderers'.
RUN_PANELS = ("tps", "latency_ms")
REBUILD_PANELS = ("percent", "speed_kib_s")
MAX_RUNS_DRAWN = 8  # more lines than this on one time axis cannot be told apart


def _runs_charts(study: str, runs: list[dict]) -> list[dict]:
    """The runs-over-time charts: one chart of every run with interval samples, one line each; or,
    with more runs than can be told apart, one chart per system, its runs coloured by thread count
    (repeated runs of one configuration share a colour). A chart with still too many colours is
    listed but not drawn."""
    drawn = [r for r in runs if r["intervals"]]
    if not drawn:
        return []
    if len(drawn) <= MAX_RUNS_DRAWN:
        parts = [("runs-over-time", "Interval samples over time", "run", drawn)]
    else:
        systems = list(dict.fromkeys(r["system"] for r in drawn))
        parts = [(f"runs-over-time-{system}", f"Interval samples over time: {mine[0]['system_label']}", "threads", mine)
                 for system in systems for mine in [[r for r in drawn if r["system"] == system]]]
    charts = []
    for chart_id, title, colour, mine in parts:
        colours = len(mine) if colour == "run" else len({r["threads"] for r in mine})
        charts.append({
            "id": chart_id, "embed_prefix": f"{study}--{chart_id}", "title": title, "colour": colour,
            "drawn": colours <= MAX_RUNS_DRAWN, "panels": list(RUN_PANELS),
            "runs": [{**{k: r[k] for k in ("artifact", "path", "label", "complete", "latency_pct", "intervals")},
                      "colour": r["label"] if colour == "run" else _threads_text(r["threads"])} for r in mine]})
    return charts


def _traces(con: duckdb.DuckDBPyConnection, study: str, runs: list[dict]) -> list[dict]:
    """Rebuild stories: each trace's samples, with the runs that overlap it placed on its clock."""
    traces = []
    for (artifact,) in con.execute("SELECT DISTINCT artifact FROM trace_samples WHERE study = ? ORDER BY 1",
                                   [study]).fetchall():
        samples = _rows(con, "SELECT t_s, time, state, operation, percent, speed_kib_s, array_name FROM trace_samples "
                             "WHERE study = ? AND artifact = ? ORDER BY t_s", [study, artifact])
        start = datetime.fromisoformat(samples[0]["time"]) - timedelta(seconds=samples[0]["t_s"])
        windows = []
        for run in runs:
            if run["trace"] != artifact or not run["started"] or run["elapsed_s"] is None:
                continue
            begin = (datetime.fromisoformat(run["started"].replace("Z", "+00:00")) - start).total_seconds()
            tps = run["values"].get("tps", {}).get("text")
            windows.append({"label": run["label"], "start_s": begin, "end_s": begin + run["elapsed_s"],
                            "tps": tps, "flag": run["state_flag"], "path": run["path"], "started": run["started"]})
        values = _rows(con, "SELECT metric, value_text, unit, provenance FROM measurements "
                            "WHERE study = ? AND result = ? ORDER BY col_index", [study, artifact])
        path = con.execute("SELECT path FROM artifacts WHERE study = ? AND artifact = ?", [study, artifact]).fetchone()[0]
        traces.append({"artifact": artifact, "path": path, "array": samples[0]["array_name"], "start": start.isoformat(),
                       "samples": samples, "runs": windows, "values": values, "panels": list(REBUILD_PANELS),
                       "title": f"Rebuild of {samples[0]['array_name']} traced in {artifact}",
                       "embed_prefix": f"{study}--rebuild-{artifact}"})
    return traces


def _ratio(systems: list[dict], workload: dict) -> float | None:
    """Buffer pool over data size when every system shares one buffer pool size (derived, approximate)."""
    pools = {s["database"]["buffer_pool_mib"] for s in systems}
    if len(pools) != 1 or None in pools or not workload.get("data_gb"):
        return None
    return round(pools.pop() / 1024 / workload["data_gb"], 3)


def export_site_data(con: duckdb.DuckDBPyConnection, *, out_dir: Path) -> list[dict]:
    """Write ``studies/<id>.json`` for Hugo; return the study documents."""
    (out_dir / "studies").mkdir(parents=True, exist_ok=True)
    docs = []
    for study in _rows(con, "SELECT study, bundle FROM studies ORDER BY study"):
        bundle = json.loads(study["bundle"])
        cells = _rows(con, f"SELECT * FROM results WHERE study = ? ORDER BY {RESULT_ORDER}", [study["study"]])
        labels = {s["id"]: s["label"] for s in bundle["systems"]}
        facets = {r["system"]: r for r in _rows(con, "SELECT system, usable_capacity FROM systems WHERE study = ?",
                                                 [study["study"]])}
        for s in bundle["systems"]:
            s["usable_capacity"] = facets[s["id"]]["usable_capacity"]
        doc = {
            "id": bundle["id"], "title": bundle["title"], "summary": bundle["summary"], "baseline": bundle["baseline"],
            "sources": bundle["sources"], "systems": bundle["systems"],
            "workloads": [{**w, "buffer_pool_to_data": _ratio(bundle["systems"], w)} for w in bundle["workloads"]],
            "transcriptions": bundle["transcriptions"], "notes": bundle["notes"],
            "graph_only": [{**g, "where_text": provenance_text(Provenance.model_validate(g["where"]))}
                           for g in bundle["graph_only"]],
            "value_count": len(cells),
            "tables": _tables(bundle, cells),
            "charts": _charts(bundle, cells, labels),
            "runs": _runs(con, study["study"], labels),
            "derived": [{**c, "system_label": labels[c["system"]]} for c in cells if c["value_kind"] == "derived"],
        }
        doc["runs_charts"] = _runs_charts(bundle["id"], doc["runs"])
        doc["traces"] = _traces(con, study["study"], doc["runs"])
        doc["claims"] = _rows(con, "SELECT * EXCLUDE (study, position) REPLACE (round(computed, 2) AS computed) "
                                   "FROM claims WHERE study = ? ORDER BY position", [study["study"]])
        path = out_dir / "studies" / f"{study['study']}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        docs.append(doc)
    return docs


# The Explore page's filters: query parameter -> results column. One list, read by the exporter
# (facet values) and rendered by Hugo into the form; the JS reads the form, not its own copy.
FACETS = [
    ("study", "study"), ("raid_level", "raid_level"), ("protocol", "protocol"), ("doublewrite", "doublewrite"),
    ("compression", "compression"), ("state", "state"), ("device", "device"), ("benchmark", "benchmark"),
    ("metric", "metric"),
]


def export_explore(con: duckdb.DuckDBPyConnection, *, out_dir: Path) -> None:
    """``explore.json``: every result with its facets, and each facet's values, for the Explore page."""
    rows = _rows(con, f"""
        SELECT r.study, st.title AS study_title, r.system, r.system_label, r.raid_level, r.protocol,
               CASE WHEN r.doublewrite IS NULL THEN NULL WHEN r.doublewrite THEN 'on' ELSE 'off' END AS doublewrite,
               r.compression, r.state, r.device, r.benchmark, r.threads, r.metric, r.unit, r.value, r.value_text,
               r.value_kind, r.provenance, r.result
        FROM results AS r JOIN studies AS st USING (study) ORDER BY {RESULT_ORDER}""")
    facets = []
    for param, column in FACETS:
        values = sorted({r[column] for r in rows if r[column] is not None}, key=str)
        facets.append({"param": param, "column": column, "values": [str(v) for v in values]})
    # The chart draws repeated runs once (see _group_of); no filter splits a coordinate.
    by_study: dict[str, list[dict]] = {}
    for r in rows:
        by_study.setdefault(r["study"], []).append(r)
    for mine in by_study.values():
        groups = _values(mine)
        for r in mine:
            r["group"] = _group_of(r, groups)
    (out_dir / "explore.json").write_text(json.dumps({"facets": facets, "rows": rows}, ensure_ascii=False),
                                          encoding="utf-8")


# Facet pages: the comparison each facet exists for, within one study, against its baseline.
FACET_PAGES = [
    ("raid-level", "raid_level", "RAID level", "each system against the study's baseline system, at the same metric, state and load"),
    ("protocol", "protocol", "Storage protocol", "each protocol against the study's baseline protocol"),
    ("doublewrite", "doublewrite", "InnoDB doublewrite", "doublewrite off against on, with everything else equal"),
    ("compression", "compression", "Compression", "each compression setting against the study's baseline"),
]


def _key(cell: dict) -> tuple:
    return (cell["metric"], cell["unit"], cell["state"], cell["threads"])


def _values(cells: list[dict]) -> dict[tuple, dict]:
    """(system, key) -> the value that coordinate stands for (see _one_value); ambiguous ones left out."""
    seen: dict[tuple, list] = {}
    for c in cells:
        seen.setdefault((c["system"], _key(c)), []).append(c)
    return {k: v for k, group in seen.items() if (v := _one_value(group)) is not None}


def _spreads_overlap(a: dict, b: dict) -> bool:
    """Whether two values (see _one_value) cannot be ranked: at least one is the mean of repeated
    runs, and their lowest-to-highest ranges meet (a single value's range is the value itself)."""
    return (a["runs"] > 1 or b["runs"] > 1) and not (a["low"] > b["high"] or a["high"] < b["low"])


def _compare_cell(cell: dict, base: dict) -> dict:
    overlap = cell is not base and _spreads_overlap(cell, base)
    return {"key": _key(cell), "ratio": round(cell["value"] / base["value"], 4),
            "low": round(cell["low"] / base["value"], 4), "high": round(cell["high"] / base["value"], 4),
            "runs": cell["runs"], "overlap": overlap, "value_text": cell["value_text"],
            "baseline_text": base["value_text"], "provenance": cell["provenance"]}


def _ratio_groups(rows_by_system: dict[str, list[dict]], labels: dict, facet_of: dict) -> list[dict]:
    """Tables and chart specs of ratios, one group per (metric, unit, state)."""
    groups: dict[tuple, dict] = {}
    for system, cells in rows_by_system.items():
        for cell in cells:
            metric, unit, state, threads = cell["key"]
            by_threads = threads is not None  # a per-load series and a single figure are separate comparisons
            g = groups.setdefault((metric, unit, state, by_threads),
                                  {"metric": metric, "unit": unit, "state": state, "rows": {}})
            g["rows"].setdefault(system, []).append({"threads": threads, **{k: cell[k] for k in (
                "ratio", "low", "high", "runs", "overlap", "value_text", "baseline_text", "provenance")}})
    out = []
    for (metric, unit, state, by_threads), g in groups.items():
        threads = sorted({c["threads"] for cells in g["rows"].values() for c in cells if c["threads"] is not None})
        gid = f"{metric}-{state or 'any'}" + ("-by-threads" if by_threads else "")
        chart = None
        if threads and all(c["threads"] is not None for cells in g["rows"].values() for c in cells):
            points = [{"series": labels[s], "system": s, "x": c["threads"], "y": c["ratio"],
                       "text": f"{c['ratio']:.2f}×" + (" (spreads overlap)" if c["overlap"] else ""),
                       "low": c["low"] if c["runs"] > 1 else None, "high": c["high"] if c["runs"] > 1 else None,
                       "state": state, "kind": "derived", "provenance": c["provenance"], "printed_as": None}
                      for s, cells in g["rows"].items() for c in cells]
            chart = {"id": gid, "title": f"{METRIC_LABELS.get(metric, metric)}{f' ({state})' if state else ''}, "
                                         "relative to the baseline", "metric": metric, "unit": "× baseline",
                     "embed_prefix": None,
                     "x_label": AXIS_LABELS["threads"], "y_label": f"{METRIC_LABELS.get(metric, metric)} / baseline",
                     "series": [labels[s] for s in g["rows"]], "switch": None, "points": points}
        out.append({"id": gid, "metric": metric, "unit": unit, "state": state, "columns": threads or [None],
                    "chart": chart,
                    "rows": [{"system": s, "label": labels[s], "facet": facet_of.get(s), "cells": cells}
                             for s, cells in g["rows"].items()]})
    return out


FACET_FIELDS = {"raid_level": ("raid", "level"), "protocol": ("protocol",), "doublewrite": ("database", "doublewrite"),
                "compression": ("database", "compression")}


def _field(system: dict, path: tuple):
    for key in path:
        system = system.get(key) if isinstance(system, dict) else None
    return system


def _differs_only_in(doc: dict, system: str, baseline: str, column: str) -> bool:
    """Whether a system differs from the baseline in this facet and equals it in every other one:
    the like-for-like pairs a facet page compares (e.g. doublewrite off vs on, both uncompressed)."""
    systems = {s["id"]: s for s in doc["systems"]}
    a, b = systems[system], systems[baseline]
    others = [path for col, path in FACET_FIELDS.items() if col != column]
    return (_field(a, FACET_FIELDS[column]) != _field(b, FACET_FIELDS[column])
            and all(_field(a, path) == _field(b, path) for path in others))


def _name_embeds(groups: list[dict], prefix: str) -> None:
    for group in groups:
        if group["chart"]:
            group["chart"]["embed_prefix"] = f"{prefix}--{group['chart']['id']}"


def export_facets(con: duckdb.DuckDBPyConnection, docs: list[dict], *, out_dir: Path) -> dict:
    cells = _rows(con, "SELECT * FROM results")
    pages = {}
    for slug, column, title, about in FACET_PAGES:
        studies = []
        for doc in docs:
            baseline = doc.get("baseline")
            mine = [c for c in cells if c["study"] == doc["id"]]
            values = {c["system"]: c[column] for c in mine}
            if baseline is None or len({str(v) for v in values.values()}) < 2:
                continue
            single = _values(mine)
            rows: dict[str, list] = {}
            for (system, key), cell in single.items():
                base = single.get((baseline, key))
                if base is None or not base["value"] or (system != baseline and not _differs_only_in(
                        doc, system, baseline, column)):
                    continue
                rows.setdefault(system, []).append(_compare_cell(cell, base))
            labels = {s["id"]: s["label"] for s in doc["systems"]}
            groups = _ratio_groups({s: rows[s] for s in labels if s in rows}, labels, values)
            if len(rows) > 1:
                _name_embeds(groups, f"facet-{slug}--{doc['id']}")
                studies.append({"study": doc["id"], "title": doc["title"], "baseline": labels[baseline],
                                "groups": groups})
        pages[slug] = {"title": title, "column": column, "about": about, "studies": studies}
    # Array state: each system against its own optimal values.
    studies = []
    for doc in docs:
        mine = [c for c in cells if c["study"] == doc["id"]]
        single = _values(mine)
        rows = {}
        for (system, (metric, unit, state, threads)), cell in single.items():
            if state in (None, "optimal"):
                continue
            base = single.get((system, (metric, unit, "optimal", threads)))
            if base and base["value"]:
                rows.setdefault(system, []).append(_compare_cell(cell, base))
        if rows:
            labels = {s["id"]: s["label"] for s in doc["systems"]}
            groups = _ratio_groups({s: rows[s] for s in labels if s in rows}, labels, {})
            _name_embeds(groups, f"facet-array-state--{doc['id']}")
            studies.append({"study": doc["id"], "title": doc["title"], "baseline": "the same system in optimal state",
                            "groups": groups})
    pages["array-state"] = {"title": "Array state", "column": "state",
                            "about": "each system while degraded or rebuilding against the same system in optimal state",
                            "studies": studies}
    (out_dir / "facets.json").write_text(json.dumps(pages, ensure_ascii=False), encoding="utf-8")
    return pages


# The configuration fields the Compare page checks for like-for-like comparisons.
COMPARE_FIELDS = [
    ("study", "Study"), ("benchmark", "Benchmark"), ("data_size", "Data size"), ("storage", "Storage"),
    ("raid_level", "RAID level"), ("drives", "Drives"), ("device", "Drive model"), ("chunk_kib", "Chunk (KiB)"),
    ("protocol", "Protocol"), ("filesystem", "Filesystem"), ("db", "Database"), ("buffer_pool_mib", "Buffer pool (MiB)"),
    ("doublewrite", "Doublewrite"), ("compression", "Compression"), ("host_cpu", "Host CPU"),
    ("host_memory_gib", "Host memory (GiB)"),
]


def _group_of(cell: dict, groups: dict[tuple, dict]) -> dict | None:
    """The repeated runs a value belongs to (mean, lowest, highest, count), for charts to draw once."""
    g = groups.get((cell["system"], _key(cell)))
    if g is None or g["runs"] < 2:
        return None
    return {"key": "|".join(str(k) for k in _key(cell)), "mean": g["value"], "text": _value_text(g),
            "low": g["low"], "high": g["high"], "runs": g["runs"]}


def export_compare(con: duckdb.DuckDBPyConnection, *, out_dir: Path) -> None:
    """``compare.json``: every (study, system) series with its configuration and its values."""
    systems = _rows(con, """
        SELECT s.*, st.title AS study_title FROM systems AS s JOIN studies AS st USING (study) ORDER BY study, system""")
    values = _rows(con, f"SELECT * FROM results ORDER BY {RESULT_ORDER}")
    workloads = {(w["study"], w["workload"]): w for w in _rows(con, "SELECT * FROM workloads")}
    series = []
    singles: dict[str, dict] = {}  # series id -> its values (see _values)
    cells_of: dict[str, list[dict]] = {}  # series id -> its rows of results, in the order of "values"
    for s in systems:
        mine = [v for v in values if v["study"] == s["study"] and v["system"] == s["system"]]
        if not mine:
            continue
        groups = _values(mine)
        singles[f"{s['study']}:{s['system']}"] = groups
        cells_of[f"{s['study']}:{s['system']}"] = mine
        used = {(s["study"], m["workload"]) for m in _rows(con, "SELECT DISTINCT workload FROM measurements "
                                                                  "WHERE study = ? AND system = ?",
                                                             [s["study"], s["system"]])}
        config = {
            "study": s["study_title"], "benchmark": ", ".join(sorted({v["benchmark"] for v in mine})),
            "data_size": ", ".join(sorted({workloads[k]["data_size"] or "not stated" for k in used})),
            "storage": f"{s['storage_product']} ({s['storage_vendor']})", "raid_level": s["raid_level"],
            "drives": s["drives"], "device": s["device"], "chunk_kib": s["chunk_kib"], "protocol": s["protocol"],
            "filesystem": s["filesystem"], "db": f"{s['db_engine']} {s['db_version'] or '(version not stated)'}",
            "buffer_pool_mib": s["buffer_pool_mib"],
            "doublewrite": None if s["doublewrite"] is None else ("on" if s["doublewrite"] else "off"),
            "compression": s["compression"], "host_cpu": s["host_cpu"], "host_memory_gib": s["host_memory_gib"],
        }
        series.append({
            "id": f"{s['study']}:{s['system']}", "label": f"{s['label']} ({s['study']})",
            "config": {k: ("not stated" if v is None else str(v)) for k, v in config.items()},
            "values": [{"metric": v["metric"], "unit": v["unit"], "state": v["state"], "threads": v["threads"],
                        "value": v["value"], "value_text": v["value_text"], "value_kind": v["value_kind"],
                        "provenance": v["provenance"], "group": _group_of(v, groups)} for v in mine],
        })
    # For each value, the other series whose spread meets it at the same metric, unit, state and
    # load: Compare does not rank those pairs.
    by_key: dict[tuple, list[tuple[str, dict]]] = {}
    for sid, groups in singles.items():
        for (_, key), v in groups.items():
            by_key.setdefault(key, []).append((sid, v))
    for one in series:
        for v, cell in zip(one["values"], cells_of[one["id"]]):
            mine = singles[one["id"]].get((cell["system"], _key(cell)))
            v["overlaps"] = [] if mine is None else [
                sid for sid, other in by_key[_key(cell)] if sid != one["id"] and _spreads_overlap(mine, other)]
    doc = {"fields": [{"key": k, "label": label} for k, label in COMPARE_FIELDS], "series": series}
    (out_dir / "compare.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")


def export_all(*, db_path: Path, out_dir: Path) -> None:
    """Write ``out_dir/static/data/*`` (downloads) and ``out_dir/data/studies/*.json`` (site data)."""
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        export_downloads(con, db_path=db_path, out_dir=out_dir / "static" / "data")
        docs = export_site_data(con, out_dir=out_dir / "data")
        export_explore(con, out_dir=out_dir / "data")
        facets = export_facets(con, docs, out_dir=out_dir / "data")
        export_compare(con, out_dir=out_dir / "data")
        export_embeds(docs, facets, static_dir=out_dir / "static", data_dir=out_dir / "data",
                      specs_path=out_dir / "embed-specs.json")
    finally:
        con.close()
