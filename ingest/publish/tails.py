"""Tail latency by array state for study pages: p95, p99 and p99.9 of each system, workload, thread
count and state, from sysbench's --histogram output (the views run_latency, latency_by_state and
state_histograms of ingest/database/sql/publish.sql), and the distributions a chart sets side by side where one
system ran in more than one state."""

from __future__ import annotations

from . import alt_text
from .db import Snapshot

BY_STATE = ("SELECT study, system, workload, threads, state, runs, events, p95_ms, p99_ms, p999_ms "
            "FROM latency_by_state ORDER BY study, system, workload, threads, state")
BY_RUN = ("SELECT study, artifact, system, threads, state, events, p95_ms, p99_ms, p999_ms "
          "FROM run_latency ORDER BY study, artifact")
CURVES = ("SELECT study, system, workload, threads, state, value_ms, round(share, 6) AS share "
          "FROM state_histograms ORDER BY study, system, workload, threads, state, value_ms")
# The order states are listed and drawn in: optimal first, as the reference.
STATE_ORDER = {"optimal": 0, "degraded": 1, "rebuilding": 2}


def _order(row: dict) -> tuple:
    return (row["system"], row["workload"], row["threads"] or 0, STATE_ORDER.get(row["state"], 9), row["state"])


def tail_latency(db: Snapshot, study: str, labels: dict[str, str]) -> dict:
    """The study's tails by state and by run, and one chart per system, workload and thread count that
    ran in two states or more (its cumulative distributions: the share of events at or below a value)."""
    states = sorted(db.of(study, BY_STATE), key=_order)
    for row in states:
        row["system_label"] = labels[row["system"]]
    groups: dict[tuple, list] = {}
    for row in states:
        groups.setdefault((row["system"], row["workload"], row["threads"]), []).append(row["state"])
    curves: dict[tuple, list] = {}
    for point in db.of(study, CURVES):
        key = (point["system"], point["workload"], point["threads"])
        if len(groups.get(key, [])) > 1:
            curves.setdefault(key, []).append({k: point[k] for k in ("state", "value_ms", "share")})
    charts = [{"id": f"latency-{system}-{workload}-t{threads}", "system_label": labels[system], "threads": threads,
               "states": groups[(system, workload, threads)],
               "alt": alt_text.tails([r for r in states if (r["system"], r["workload"], r["threads"]) ==
                                      (system, workload, threads)]),
               "points": sorted(points, key=lambda p: (STATE_ORDER.get(p["state"], 9), p["state"], p["value_ms"]))}
              for (system, workload, threads), points in curves.items()]
    return {"by_state": states, "by_run": db.of(study, BY_RUN), "charts": charts}
