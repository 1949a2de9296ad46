"""Facet pages: for each facet field of the registry, the comparison it exists for within one study,
as ratios to the study's baseline system (pairs that differ in that facet alone) or, for array
state, to the same system in optimal state."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ..fields import Field, facet_pages, metric_label
from .db import rows
from .study import AXIS_LABELS

RATIO_PLACES = 4  # ratios to a baseline, as published (pages print them to 2 places)

# Each value of a study paired with its baseline at the same point; {pair} says which baseline.
PAIRS = """
    SELECT c.system, c.metric, c.unit, c.state, c.threads, c.runs, c.value_text, c.value_kind, c.provenance,
           c.printed_as, c.flag, c.note, b.value_text AS baseline_text, b.flag AS baseline_flag,
           b.note AS baseline_note,
           round(c.value / b.value, {places}) AS ratio, round(c.low / b.value, {places}) AS low,
           round(c.high / b.value, {places}) AS high,
           c.system <> b.system AND spreads_overlap(c.runs, c.low, c.high, b.runs, b.low, b.high) AS overlap,
           {facet} AS facet
    FROM coordinates AS c JOIN coordinates AS b
      ON b.study = c.study AND b.value <> 0 AND {pair}
    WHERE c.study = ?
    ORDER BY c.position"""


def _pairs(con: duckdb.DuckDBPyConnection, study: str, *, pair: str, facet: str, params: list) -> list[dict]:
    sql = PAIRS.format(places=RATIO_PLACES, pair=pair, facet=facet)
    return rows(con, sql, [*params, study])


def _system_facets(con: duckdb.DuckDBPyConnection, study: str, system_fields: list[Field]) -> dict[str, dict]:
    """Each system's value of every system-level facet field, as pages write it."""
    cols = ", ".join(f"{f.shown(f.key)} AS {f.key}" for f in system_fields)
    return {r.pop("system"): r for r in rows(con, f"SELECT DISTINCT system, {cols} FROM results WHERE study = ?",
                                               [study])}


def _ratio_groups(pairs: list[dict], labels: dict[str, str]) -> list[dict]:
    """Tables and chart specs of ratios, one group per (metric, unit, state) and per-load or single figure."""
    groups: dict[tuple, dict] = {}
    for system in labels:  # systems in the bundle's order, each one's values as printed
        for p in (p for p in pairs if p["system"] == system):
            by_threads = p["threads"] is not None  # a per-load series and a single figure are separate comparisons
            g = groups.setdefault((p["metric"], p["unit"], p["state"], by_threads),
                                  {"metric": p["metric"], "unit": p["unit"], "state": p["state"], "rows": {}})
            g["rows"].setdefault(system, []).append(
                {k: p[k] for k in ("threads", "ratio", "low", "high", "runs", "overlap", "value_text", "value_kind",
                                   "printed_as", "flag", "note", "baseline_text", "baseline_flag", "baseline_note",
                                   "provenance", "facet")})
    out = []
    for (metric, unit, state, by_threads), g in groups.items():
        threads = sorted({c["threads"] for cells in g["rows"].values() for c in cells if c["threads"] is not None})
        gid = f"{metric}-{state or 'any'}" + ("-by-threads" if by_threads else "")
        chart = None
        if by_threads:
            points = [{"series": labels[s], "system": s, "x": c["threads"], "y": c["ratio"],
                       "text": f"{c['ratio']:.2f}×" + (" (spreads overlap)" if c["overlap"] else ""),
                       "low": c["low"] if c["runs"] > 1 else None, "high": c["high"] if c["runs"] > 1 else None,
                       "state": state, "kind": "derived", "provenance": c["provenance"], "printed_as": None}
                      for s, cells in g["rows"].items() for c in cells]
            chart = {"id": gid, "title": f"{metric_label(metric)}{f' ({state})' if state else ''}, "
                                         "relative to the baseline", "metric": metric, "unit": "× baseline",
                     "embed_prefix": None, "x_label": AXIS_LABELS["threads"],
                     "y_label": f"{metric_label(metric)} / baseline",
                     "series": [labels[s] for s in g["rows"]], "switch": None, "points": points}
        out.append({"id": gid, "metric": metric, "metric_label": metric_label(metric), "unit": unit, "state": state,
                    "columns": threads or [None], "chart": chart,
                    "rows": [{"system": s, "label": labels[s], "cells": cells} for s, cells in g["rows"].items()]})
    return out


def _name_embeds(groups: list[dict], prefix: str) -> None:
    for group in groups:
        if group["chart"]:
            group["chart"]["embed_prefix"] = f"{prefix}--{group['chart']['id']}"


def _against_baseline(con: duckdb.DuckDBPyConnection, doc: dict, facet: Field, system_fields: list[Field]) -> list:
    """Pairs of a study's systems that differ from its baseline in this facet alone, and the baseline itself."""
    baseline = doc.get("baseline")
    values = _system_facets(con, doc["id"], system_fields)
    if baseline is None or baseline not in values or len({v[facet.key] for v in values.values()}) < 2:
        return []
    base = values[baseline]
    like = [s for s, v in values.items() if s == baseline or (
        v[facet.key] != base[facet.key] and all(v[f.key] == base[f.key] for f in system_fields if f is not facet))]
    of_system = (f"(SELECT any_value({facet.shown('r.' + facet.key)}) FROM results AS r "
                 "WHERE r.study = c.study AND r.system = c.system)")
    pairs = _pairs(con, doc["id"], facet=of_system, params=[baseline],
                   pair="b.system = ? AND same_point(c.metric, c.unit, c.state, c.threads, "
                        "b.metric, b.unit, b.state, b.threads)")
    return [p for p in pairs if p["system"] in like]


def export_facets(con: duckdb.DuckDBPyConnection, docs: list[dict], *, out_dir: Path) -> dict:
    pages = {}
    system_fields = [f for f in facet_pages() if f.page.baseline == "baseline"]
    for facet in facet_pages():
        studies = []
        for doc in docs:
            labels = {s["id"]: s["label"] for s in doc["systems"]}
            if facet.page.baseline == "baseline":
                pairs = _against_baseline(con, doc, facet, system_fields)
                baseline = labels.get(doc.get("baseline"))
            else:  # each system while degraded or rebuilding against itself in optimal state
                pairs = _pairs(con, doc["id"], facet="c.state", params=[],
                               pair="b.system = c.system AND b.state = 'optimal' AND c.state <> 'optimal' "
                                    "AND b.metric = c.metric AND b.unit = c.unit "
                                    "AND b.threads IS NOT DISTINCT FROM c.threads")
                baseline = "the same system in optimal state"
            if len({p["system"] for p in pairs}) < (2 if facet.page.baseline == "baseline" else 1):
                continue
            groups = _ratio_groups(pairs, labels)
            _name_embeds(groups, f"facet-{facet.page.slug}--{doc['id']}")
            studies.append({"study": doc["id"], "title": doc["title"], "baseline": baseline, "groups": groups})
        pages[facet.page.slug] = {"title": facet.page.title, "column": facet.key, "label": facet.label,
                                  "about": facet.page.about, "studies": studies}
    (out_dir / "facets.json").write_text(json.dumps(pages, ensure_ascii=False), encoding="utf-8")
    return pages
