"""One interval report line as a sample: the shapes each sysbench version prints (sysbench_shapes.py
names where each comes from), read into the columns of sysbench_intervals.INTERVAL_COLUMNS.

Only unit changes are made: 0.5 builds that print the latency in microseconds are read as ms by a
decimal shift (10426.06 us -> 10.42606 ms), so no digit is made up or lost.
"""

from __future__ import annotations

from decimal import Decimal

from .sysbench_intervals import INTERVAL_COLUMNS
from .sysbench_shapes import (RE_IVL_04, RE_IVL_05, RE_IVL_10, RE_IVL_10_EPS, RE_IVL_CSV, RE_IVL_FILEIO,
                              RE_IVL_MEMORY, num)

NO_SAMPLE = dict.fromkeys(INTERVAL_COLUMNS)
# The columns a sample has beyond INTERVAL_COLUMNS where its line prints them (each made below): kept with
# the run (benchdb parse, a cited log's figures file), not loaded.
EXTRA_INTERVAL_COLUMNS = ("latency_min_ms", "latency_max_ms", "eps", "read_mib_s", "written_mib_s", "fsyncs_s",
                          "mib_s")
# sysbench 1.0+'s --percentile default (sb_logger.c, "95"): the percentile of a CSV report, which
# prints the latency without its rank, when the log shows no --percentile.
DEFAULT_PERCENTILE = 95


def ms_from_us(text: str) -> float | int:
    """A latency printed in microseconds, in milliseconds: the decimal point moved three places."""
    return num(format(Decimal(text).scaleb(-3), "f"))


def interval_row(line: str, *, percentile: int | None = None) -> dict | None:
    """The sample an interval line reports, or None when it is of no sample shape (a checkpoint or
    queue report is read by the caller). ValueError for a number that is not one."""
    if m := RE_IVL_10.match(line):
        return dict(zip(INTERVAL_COLUMNS, map(num, m.groups())))
    if m := RE_IVL_05.match(line):
        t, thr, tps, r, w, lat, lat_unit, p, err, rec = m.groups()
        return {**NO_SAMPLE, "t_s": int(t), "threads": int(thr), "tps": num(tps), "reads_s": num(r),
                "writes_s": num(w), "latency_pct": num(p),
                "latency_ms": ms_from_us(lat) if lat_unit == "us" else num(lat),
                "errors_s": num(err) if err else None, "reconnects_s": num(rec) if rec else None}
    if m := RE_IVL_04.match(line):
        t, thr, tps, r, w, lat, p, low, high = m.groups()
        row = {**NO_SAMPLE, "t_s": int(t), "threads": int(thr), "tps": num(tps), "reads_s": num(r),
               "writes_s": num(w), "latency_pct": num(p), "latency_ms": num(lat)}
        if low is not None:
            row.update(latency_min_ms=num(low), latency_max_ms=num(high))
        return row
    if m := RE_IVL_10_EPS.match(line):
        t, thr, eps, p, lat = m.groups()
        return {**NO_SAMPLE, "t_s": int(t), "threads": int(thr), "latency_pct": num(p), "latency_ms": num(lat),
                "eps": num(eps)}
    if m := RE_IVL_FILEIO.match(line):
        t, r, w, f, p, lat, lat_04, p_04 = m.groups()
        return {**NO_SAMPLE, "t_s": int(t), "latency_pct": num(p or p_04), "latency_ms": num(lat or lat_04),
                "read_mib_s": num(r), "written_mib_s": num(w), "fsyncs_s": num(f)}
    if m := RE_IVL_MEMORY.match(line):
        return {**NO_SAMPLE, "t_s": int(m.group(1)), "mib_s": num(m.group(2))}
    if m := RE_IVL_CSV.match(line):
        t, thr, tps, qps, r, w, o, lat, err, rec = m.groups()
        return {"t_s": int(t), "threads": int(thr), "tps": num(tps), "qps": num(qps), "reads_s": num(r),
                "writes_s": num(w), "other_s": num(o), "latency_pct": percentile or DEFAULT_PERCENTILE,
                "latency_ms": num(lat), "errors_s": num(err), "reconnects_s": num(rec)}
    return None
