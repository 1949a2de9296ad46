"""Run-quality grades for the site: each run's grade, its rules' outcomes and stalls (from the
run_grades, run_checks and run_stalls tables that ingest/database/sql/quality.sql fills), the rules themselves
for the "About the grades" page (data/run_quality.json), and run-quality.csv among the downloads."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ..database.quality import as_data
from .csv_cells import defused_select
from .db import Snapshot

GRADES = ("SELECT g.study, g.artifact, r.system, r.threads, r.state, g.grade, g.reasons, g.samples, g.warmup_s, "
          "round(g.tps_mean_all, 2) AS tps_mean_all, round(g.tps_mean_steady, 2) AS tps_mean_steady, "
          "round(g.cv_all, 4) AS cv_all, round(g.cv_steady, 4) AS cv_steady, "
          "round(g.trend_pct_per_min, 2) AS trend_pct_per_min, g.stalls "
          "FROM run_grades AS g JOIN runs AS r USING (study, artifact) ORDER BY g.study, g.artifact")
CHECKS = ("SELECT c.study, c.artifact, c.rule, k.label, c.status, c.reason FROM run_checks AS c "
          "JOIN quality_rules AS k USING (rule) ORDER BY c.study, c.artifact, k.position")
STALLS = "SELECT study, artifact, t_s, tps, array_state FROM run_stalls ORDER BY study, artifact, t_s"


def run_quality(db: Snapshot, study: str) -> dict[str, dict]:
    """artifact -> its grade, figures with the warm-up included and excluded, checks and stalls."""
    checks: dict[str, list] = {}
    for c in db.of(study, CHECKS):
        checks.setdefault(c.pop("artifact"), []).append(c)
    stalls: dict[str, list] = {}
    for s in db.of(study, STALLS):
        stalls.setdefault(s.pop("artifact"), []).append(s)
    out = {}
    for g in db.of(study, GRADES):
        out[g["artifact"]] = {**{k: g[k] for k in ("grade", "reasons", "samples", "warmup_s", "tps_mean_all",
                                                   "tps_mean_steady", "cv_all", "cv_steady", "trend_pct_per_min",
                                                   "stalls")},
                              "checks": checks.get(g["artifact"], []), "stall_times": stalls.get(g["artifact"], [])}
    return out


def export_quality(con: duckdb.DuckDBPyConnection, *, data_dir: Path, downloads: Path) -> None:
    """data/run_quality.json (the rules, for the templates) and run-quality.csv (every run's grade)."""
    (data_dir / "run_quality.json").write_text(json.dumps(as_data(), ensure_ascii=False), encoding="utf-8")
    downloads.mkdir(parents=True, exist_ok=True)
    con.execute(f"COPY ({defused_select(con, GRADES)}) TO '{(downloads / 'run-quality.csv').as_posix()}' "
                "(HEADER, DELIMITER ',')")
