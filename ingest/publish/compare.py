"""Compare: every (study, system) series with its configuration (the registry's compare fields) and
its values; for each value, the other series whose spread meets it at the same point (not ranked)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ..fields import fields
from .db import RESULT_ORDER, group_of, rows
from .like import config_sql


def export_compare(con: duckdb.DuckDBPyConnection, *, out_dir: Path) -> None:
    compared = fields("compare")
    label = "study || ':' || system AS id, any_value(system_label) || ' (' || study || ')' AS label"
    series = [{k: v for k, v in s.items() if k not in ("study", "system")}
              for s in rows(con, config_sql(extra=label) + " ORDER BY study, system")]
    values = rows(con, f"""
        SELECT study || ':' || system AS series, metric, unit, state, threads, value, value_text, value_kind,
               provenance, source_href, runs, mean, mean_text, low, high,
               coalesce((SELECT list(o.study || ':' || o.system ORDER BY o.study, o.system) FROM coordinates AS o
                         WHERE NOT (o.study = v.study AND o.system = v.system)
                           AND same_point(o.metric, o.unit, o.state, o.threads, v.metric, v.unit, v.state, v.threads)
                           AND spreads_overlap(v.runs, v.low, v.high, o.runs, o.low, o.high)), []) AS overlaps
        FROM values_at AS v ORDER BY {RESULT_ORDER}""")
    by_series: dict[str, list[dict]] = {}
    for v in values:
        v["group"] = group_of(v)
        by_series.setdefault(v.pop("series"), []).append(v)
    doc_series = []
    for s in series:
        sid, label = s.pop("id"), s.pop("label")
        doc_series.append({"id": sid, "label": label, "config": s, "values": by_series[sid]})
    doc = {"fields": [{"key": f.key, "label": f.label} for f in compared], "series": doc_series}
    (out_dir / "compare.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
