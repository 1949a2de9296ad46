"""Runs meet traces: the array state each sysbench run really ran in, from an mdstat trace.

A run's window is its ``started`` time (from the bundle) plus its elapsed time (from the log).
The state in effect at any moment is that of the latest trace sample at or before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from schema.models import iso_time

TROUBLED = {"degraded", "recovering", "resyncing", "reshaping", "checking"}
REBUILDING = {"recovering", "resyncing", "reshaping"}


@dataclass(frozen=True)
class Alignment:
    states: list[str]          # distinct states during the run, in order
    computed: str              # one state, or "a then b"
    flag: str | None           # why the declared state does not hold, if it does not


def parse_started(text: str) -> datetime:
    return iso_time(text)  # the bundle format's rule (a time that does not parse is refused at validation)


def trace_array(trace: dict, wanted: str | None) -> str | None:
    """The array a trace follows: the one named, or the only one that ever leaves optimal."""
    if wanted:
        return wanted if wanted in trace["arrays"] else None
    busy = [name for name, a in trace["arrays"].items() if any(s["state"] != "optimal" for s in a["timeline"])]
    return busy[0] if len(busy) == 1 else (next(iter(trace["arrays"])) if len(trace["arrays"]) == 1 else None)


def run_seconds(run: dict) -> float | None:
    if run["totals"]["time_s"] is not None:
        return float(run["totals"]["time_s"])
    return float(run["intervals"].last_t_s) if run["intervals"] else None


def states_during(trace: dict, array: str, start: datetime, seconds: float) -> tuple[list[str], str | None]:
    """Distinct states of ``array`` between start and start + seconds; and a gap warning, if any."""
    t0 = datetime.fromisoformat(trace["start"])
    begin = (start - t0).total_seconds()
    end = begin + seconds
    samples = []
    for snap in trace["snapshots"]:
        a = next((x for x in snap["arrays"] if x["name"] == array), None)
        samples.append((snap["t_s"], _state(a)))
    gap = None
    if not samples or samples[0][0] > begin:
        gap = "the trace starts after the run began"
    if samples and samples[-1][0] < end:
        gap = (gap + "; " if gap else "") + "the trace ends before the run finished"
    at_start = [s for t, s in samples if t <= begin]
    inside = [s for t, s in samples if begin < t <= end]
    states = list(dict.fromkeys(([at_start[-1]] if at_start else []) + inside))
    return states, gap


def _state(array: dict | None) -> str:
    from ..parsers.mdstat import array_state

    return "absent" if array is None else array_state(array)


def align(*, declared: str | None, states: list[str], trace_name: str, array: str) -> Alignment:
    computed = " then ".join(states) if states else "unknown"
    flag = None
    if declared == "optimal" and TROUBLED & set(states):
        flag = f"declared optimal, but {trace_name} shows {array} {computed} during the run"
    elif declared == "rebuilding" and not REBUILDING & set(states):
        flag = f"declared rebuilding, but {trace_name} shows {array} {computed} during the run"
    elif declared == "degraded" and "degraded" not in states:
        flag = f"declared degraded, but {trace_name} shows {array} {computed} during the run"
    return Alignment(states=states, computed=computed, flag=flag)


def rebuild_figures(trace: dict, array: str) -> dict | None:
    """Measured rebuild speed (MB/s) over the recovery samples, and the duration when it finished."""
    samples = []
    for snap in trace["snapshots"]:
        a = next((x for x in snap["arrays"] if x["name"] == array), None)
        if a and a["operation"] and a["operation"]["kind"] == "recovery" and a["operation"]["done_blocks"] is not None:
            where = f"{snap['file']}:" if snap["file"] else ""
            samples.append((snap["t_s"], a["operation"]["done_blocks"], f"{where}{a['operation']['line']}"))
    if len(samples) < 2 or samples[-1][0] <= samples[0][0]:
        return None
    (t0, d0, l0), (t1, d1, l1) = samples[0], samples[-1]
    kib_s = (d1 - d0) / (t1 - t0)
    rebuild = trace["arrays"][array]["rebuild"]
    return {
        "mb_s": float(f"{kib_s * 1024 / 1e6:.4g}"),  # 4 significant digits: slow rebuilds stay visible
        "first_line": l0, "last_line": l1,
        "duration_s": rebuild["duration_s"] if rebuild and rebuild["finished"] else None,
        "started_at": (datetime.fromisoformat(trace["start"]) + timedelta(seconds=t0)).isoformat(),
    }
