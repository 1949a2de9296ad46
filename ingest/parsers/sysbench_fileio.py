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

import re
from decimal import Decimal, InvalidOperation

from .sysbench_shapes import num

# 1.0 figure -> the line's key in the run's other_statistics (sysbench._Parser._store)
_RATES = {"reads_s": "reads/s", "writes_s": "writes/s", "fsyncs_s": "fsyncs/s", "read_mib_s": "read, MiB/s",
          "written_mib_s": "written, MiB/s"}
_COUNTS = ("reads", "writes", "other", "total")
_SIZES = {"read_mib": "read", "written_mib": "written", "transferred_mib": "transferred",
          "transferred_mib_s": "per second"}
_POWERS = {"": -2, "K": -1, "M": 0, "G": 1, "T": 2}  # sb_print_value_size's sizemods, as powers of 1024 in MiB


# Each figure -> the key of the line it is read from in the run's source_lines
_LINES = {**_RATES, "requests_s": "fileio requests/s", "transferred_mib_s": "fileio per second",
          **{name: f"fileio {name}" for name in _COUNTS}, **{name: f"fileio {key}" for name, key in _SIZES.items()}}


def figure_line(run: dict, figure: str) -> int | None:
    """The log line a fileio figure of ``run`` is printed on."""
    return run["source_lines"].get(_LINES.get(figure, figure))


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


# --- the file-test options (sb_fileio.c file_print_mode) ------------------------------------------
# 1.0+ prints sizes as "%.5g" and "Ki"/"Mi"/"Gi"/"Ti" then "B" (sb_options.c sb_print_value_size); 0.4
# as "%.5g", "K"/"M"/"G"/"T" then "b" ("16Kb": KiB as well). The mode's words (get_test_mode_str) ->
# the --file-test-mode that prints them; "mixed" has no such mode and is not one.
MODES = {"sequential write (creation)": "seqwr", "sequential rewrite": "seqrewr", "sequential read": "seqrd",
         "random read": "rndrd", "random write": "rndwr", "random r/w": "rndrw"}
_SIZE = r"(\d+(?:\.\d+)?(?:[KMGT]i?)?[Bb])"
_OPTION_LINES = (
    # 1.0+ print_file_extra_flags: "(none)" or the words "sync ", "dsync ", "directio"; 0.4: "%x" of the
    # platform's open(2) flags (O_DIRECT's value differs between platforms: only 0 is read as none)
    ("extra_flags", re.compile(r"^Extra file open flags: (.+)$")),
    ("files", re.compile(rf"^(\d+) files, {_SIZE} each$")),
    ("total_size", re.compile(rf"^{_SIZE} total file size$")),
    ("block_size", re.compile(rf"^Block size {_SIZE}$")),
    ("fsync_every", re.compile(r"^Periodic FSYNC enabled, calling fsync\(\) each (\d+) requests\.$")),
    ("fsync_end", re.compile(r"^Calling fsync\(\) at the end of test, Enabled\.$")),
    ("fsync_all", re.compile(r"^Calling fsync\(\) after each write operation\.$")),
    ("io_mode", re.compile(r"^Using (synchronous|asynchronous|slow mmaped|fast mmaped) I/O mode$")),
    ("mode", re.compile(r"^Doing (.+) test$")),
)
# What file_print_mode prints only when a setting is on: its absence from a log that prints the mode's
# line (printed last) means off, as sysbench's own code reads.
_ONLY_WHEN_ON = {"fsync_every": 0, "fsync_end": False, "fsync_all": False}


def size_in(text: str, power: int) -> float | int | None:
    """A size as sysbench prints it ('16KiB', '2Gb', '512B') in units of 1024 ** power bytes (1: KiB, 2:
    MiB); None when it is not one. Exact decimal arithmetic: the printed digits, times a power of 1024."""
    if text[-1:] not in ("B", "b"):
        return None
    body = text[:-1].removesuffix("i")
    suffix = body[-1:] if body[-1:] and body[-1:] in _POWERS else ""
    try:
        value = Decimal(body[: len(body) - len(suffix)]) * Decimal(1024) ** (_POWERS[suffix] + 2 - power)
    except (InvalidOperation, ValueError):
        return None
    return num(format(value.normalize(), "f"))


def file_option(line: str) -> tuple[str, dict] | None:
    """A line of the file-test options: (its name, the values it gives), or None for any other line."""
    for name, pattern in _OPTION_LINES:
        if not (m := pattern.match(line)):
            continue
        if name == "extra_flags":
            return name, {"extra_flags": m.group(1), "o_direct": _o_direct(m.group(1))}
        if name == "files":
            return name, {"files": int(m.group(1)), "file_size_mib": size_in(m.group(2), 2)}
        if name == "total_size":
            return name, {"total_size": m.group(1), "total_size_mib": size_in(m.group(1), 2)}
        if name == "block_size":
            return name, {"block_size": m.group(1), "block_size_kib": size_in(m.group(1), 1)}
        if name == "fsync_every":
            return name, {"fsync_every": int(m.group(1))}
        if name in ("fsync_end", "fsync_all"):
            return name, {name: True}
        if name == "io_mode":
            return name, {"io_mode": m.group(1)}
        if m.group(1) in MODES:
            return name, {"mode": MODES[m.group(1)]}
        return None  # "Doing mixed test" and other modes: no --file-test-mode of the six
    return None


def _o_direct(flags: str) -> bool | None:
    """Whether the extra open flags hold O_DIRECT: 1.0+ names it ("directio"); 0.4 prints the flags'
    number, 0 for none and otherwise the platform's bits, which the log does not name (None)."""
    if re.fullmatch(r"[0-9a-f]+", flags):
        return False if flags.strip("0") == "" else None
    return "directio" in flags.split()


def close_options(options: dict) -> dict:
    """The options a log printed, with the settings file_print_mode prints only when on set to off when
    the log printed the mode's line (its last)."""
    if "mode" not in options:
        return options
    return {**_ONLY_WHEN_ON, **options}
