"""Compare: every (study, system) series with its configuration (its facts by the like-for-like rule,
like.py: the registry's compare fields, then each fact its bundle and runs record) and its values, each with the coordinate it belongs to (runs, lowest, highest).

Written in two parts, so that neither Hugo nor a reader's browser holds every series at once: a small
index (data/compare.json: the compare fields, and each study's series with their labels, from which
the page renders the picker) and one file per study (assets/compare/<study>.json: its series'
configuration and values), from which Hugo renders that study's series page (/compare/series/<study>/)
that the script fetches for the series picked.

Which values cannot be ranked (another picked series' spread meets theirs at the same point) is worked
out in the browser, for the picked series only (site/assets/js/overlap.js): listing it here for every
pair of series across all studies grows with the square of their number (at 1,000 bundles every point
is shared by a thousand series). The rule stays the SQL macro ``spreads_overlap``
(ingest/database/sql/publish.sql); tests/test_compare_overlap.py checks the script against it on a table of
cases."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ..bundles.fields import fields, keys, metric_text
from .colours import positions
from .db import INCONSISTENT, RESULT_ORDER, group_of, rows
from .like import NOT_STATED, config_sql, every_configuration, fact_label


def export_compare(con: duckdb.DuckDBPyConnection, *, assets_dir: Path, where: str = "TRUE") -> dict[str, dict | None]:
    """Write ``assets_dir/compare/<study>.json`` (the series) of the studies ``where`` holds for (a
    condition on ``study``); returns their entries in the index (None: a study with no series). Each
    series carries its colour (its system's position in its bundle, colours.py), as on its study page,
    and each value its metric's words (fields.metric_text)."""
    label = ("study || ':' || system AS id, any_value(system_label) || ' (' || study || ')' AS label, "
             "any_value(study_title) AS study_heading")
    series = rows(con, f"SELECT study, system, id, label, study_heading FROM ({config_sql(where, extra=label)}) "
                       "ORDER BY study, system")
    configs = every_configuration(con, where=where)
    values = rows(con, f"""
        SELECT study || ':' || system AS series, metric, unit, state, threads, value, value_text, value_kind,
               provenance, quote, source_href, runs, mean, mean_text, low, high, grade, {INCONSISTENT}
        FROM values_at WHERE {where} ORDER BY {RESULT_ORDER}""")
    by_series: dict[str, list[dict]] = {}
    for v in values:
        v["metric_text"] = metric_text(v["metric"], v["unit"])
        # the coordinate's runs and range, for the overlap check (single values too: their range is the value)
        v["coordinate"] = {"runs": v["runs"], "low": v["low"], "high": v["high"]} if v["runs"] else None
        v["group"] = group_of(v)
        by_series.setdefault(v.pop("series"), []).append(v)
    studies: dict[str, dict | None] = {study: None for (study,) in con.execute(
        f"SELECT study FROM studies WHERE {where} ORDER BY study").fetchall()}
    colour = positions(con, where=where)
    shown = keys("compare")
    for s in series:
        study, system = s["study"], s["system"]
        entry = studies[study] = studies[study] or {"study": study, "title": s["study_heading"], "series": [], "facts": {}}
        config = configs[(study, system)]
        for key in config:
            if key not in shown:  # a fact beyond the registry's fields: a row of the study's own
                entry["facts"].setdefault(key, fact_label(key))
        entry["series"].append({"id": s["id"], "label": s["label"], "colour": colour[(study, system)], "config": config,
                                "values": by_series[s["id"]]})
    for entry in studies.values():
        if entry:  # every series states every row: "not stated" where its bundle does not
            entry["facts"] = [{"key": k, "label": label} for k, label in entry["facts"].items()]
            for s in entry["series"]:
                s["config"] = {**{f["key"]: NOT_STATED for f in entry["facts"]}, **s["config"]}
    folder = assets_dir / "compare"
    folder.mkdir(parents=True, exist_ok=True)
    entries: dict[str, dict | None] = {}
    for study, entry in studies.items():
        if entry is None:
            entries[study] = None
            continue
        (folder / f"{study}.json").write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")
        entries[study] = {"study": entry["study"], "title": entry["title"],
                          "series": [{k: s[k] for k in ("id", "label", "colour")} for s in entry["series"]]}
    return entries


def write_compare_index(*, out_dir: Path, entries: dict[str, dict | None]) -> None:
    """Write ``out_dir/compare.json``: the fields a series is described by, and the studies' entries
    (``entries``: every study's, None for a study with no series)."""
    index = [entries[study] for study in sorted(entries) if entries[study] is not None]
    doc = {"fields": [{"key": f.key, "label": f.label} for f in fields("compare")], "not_stated": NOT_STATED,
           "studies": index}
    (out_dir / "compare.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
