"""The figures of a sysbench fileio run, under a key of their own ("fileio" in the run's JSON).

sysbench prints them in two shapes:

- 1.0+ (sb_fileio.c file_report_cumulative): "File operations:" reads/s, writes/s, fsyncs/s, and
  "Throughput:" read, MiB/s and written, MiB/s;
- 0.4 (sb_fileio.c file_print_stats, SB_STAT_CUMULATIVE): counts of operations ("Operations performed:
  6000 reads, 4000 writes, 12800 Other = 22800 Total"), sizes ("Read 93.75Mb  Written 62.5Mb  Total
  transferred 156.25Mb  (5.2083Mb/sec)", sb_options.c sb_print_value_size: "%.5g" and a K/M/G/T suffix of
  powers of 1024, so "Mb" is MiB) and "333.33 Requests/sec executed" (reads and writes a second).

Each figure is read as printed, sizes changed to MiB (the only arithmetic: a power of 1024); a figure
the log does not print is None, never computed from others. The latency is the run's (min, avg, max
and the percentile printed, in ms).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from .sysbench_shapes import num

# 1.0 figure -> the line's key in the run's other_statistics (sysbench._Parser._store)
_RATES = {"reads_s": "reads/s", "writes_s": "writes/s", "fsyncs_s": "fsyncs/s", "read_mib_s": "read, MiB/s",
          "written_mib_s": "written, MiB/s"}
_COUNTS = ("reads", "writes", "other", "total")
_SIZES = {"read_mib": "read", "written_mib": "written", "transferred_mib": "transferred",
          "transferred_mib_s": "per second"}
_POWERS = {"": -2, "K": -1, "M": 0, "G": 1, "T": 2}  # sb_print_value_size's sizemods, as powers of 1024 in MiB


def mib(text: str) -> float | int | None:
    """A 0.4 size ('93.75Mb', '512Kb', '2Gb', '100b') in MiB; None when it is not one."""
    if not isinstance(text, str) or not text.endswith("b"):
        return None
    body = text[:-1]
    suffix = body[-1:] if body[-1:] in _POWERS else ""
    try:
        value = Decimal(body[: len(body) - len(suffix)]) * Decimal(1024) ** _POWERS[suffix]
    except (InvalidOperation, ValueError):
        return None
    return num(format(value.normalize(), "f"))


def fileio_figures(out: dict) -> dict | None:
    """The fileio figures of a run (``out``: the run as the parser reads it), or None for a run that
    printed none."""
    stats = out.get("other_statistics") or {}
    figures = {name: stats.get(key) for name, key in _RATES.items()}
    figures.update({name: stats.get(name) if isinstance(stats.get(name), int) else None for name in _COUNTS})
    figures.update({name: mib(stats.get(key)) for name, key in _SIZES.items()})
    figures["requests_s"] = stats.get("requests/s")
    if all(value is None for value in figures.values()):
        return None
    latency = out["latency_ms"]
    figures["latency_ms"] = {"min": latency["min"], "avg": latency["avg"], "max": latency["max"],
                             "percentiles": dict(latency["percentiles"])}
    return figures
