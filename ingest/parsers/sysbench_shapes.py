"""The line shapes sysbench prints, and how a printed figure is read.

Where a shape comes from in sysbench's source is named beside it (akopytov/sysbench branches 0.4,
0.5, 1.0 and master; logicalclocks/sysbench-0.4.12 for 0.4.12.10).
"""

from __future__ import annotations

import re
from math import exp, log
from decimal import Decimal, InvalidOperation

NUM = r"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
# print_header (0.4 sysbench.c): "sysbench 0.4.12.10:  multi-threaded ...", 1.0: "sysbench 1.0.20 (using ...)"
RE_VERSION = re.compile(r"^sysbench (\S+?):?(?:\s|$)")
RE_VERSION_TEXT = re.compile(r"^\d+\.\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.]+)?$")
RE_THREADS = re.compile(r"^Number of threads: (\d+)$")
RE_INTERVAL_SETTING = re.compile(r"^Report intermediate results every (\d+) second")
# 0.5 db_driver.c db_print_stats(SB_STAT_INTERMEDIATE), log_timestamp "[%4.0fs] "; some 0.5 builds print the
# latency in microseconds ("response time: 10426.06us (95%)", issue #51), read as ms
RE_IVL_05 = re.compile(
    rf"^\[\s*(\d+)s\] threads: (\d+), tps: {NUM}, reads(?:/s)?: {NUM}, writes(?:/s)?: {NUM},? "
    rf"response time: {NUM}(ms|us) \({NUM}%\)(?:, errors: {NUM}, reconnects:\s*{NUM})?$")
# 0.4.12.10 sb_oltp.c oltp_print_stats(SB_STAT_INTERMEDIATE): "%6f" figures, later with ", min: .., max: .."
RE_IVL_04 = re.compile(
    rf"^\[\s*(\d+)s\] Intermediate results: (\d+) threads, tps: {NUM}, reads/s: {NUM}, writes/s: {NUM},? "
    rf"response time: {NUM}ms \({NUM}%\)(?:, min: {NUM}ms, max: {NUM}ms)?$")
D = r"(\d[\d.]*)"  # digits, checked by the conversion (hot path: simpler than NUM)
# 1.0 db_driver.c db_report_intermediate / sysbench.lua report_default ("err/s " without a colon)
RE_IVL_10 = re.compile(
    rf"\[ *(\d+)s \] thds: (\d+) tps: {D} qps: {D} \(r/w/o: {D}/{D}/{D}\) "
    rf"lat \(ms,{D}%\): {D} err/s:? {D} reconn/s: {D}$")
# 1.0 sysbench.c sb_report_intermediate (tests without a database)
RE_IVL_10_EPS = re.compile(rf"^\[\s*(\d+)s \] thds: (\d+) eps: {NUM} lat \(ms,{NUM}%\): {NUM}$")
# 1.0 sb_fileio.c file_report_intermediate ("MiB/s", "latency (ms,95%): %4.3f"); 0.4 file_print_stats
# ("MB/s", "response time: %4.2fms (95%)"). The MB of 0.4 are MiB too (megabyte = 1024 * 1024).
RE_IVL_FILEIO = re.compile(
    rf"^\[\s*(\d+)s ?\] reads: {NUM} Mi?B/s writes: {NUM} Mi?B/s fsyncs: {NUM}/s "
    rf"(?:latency \(ms,{NUM}%\): {NUM}|response time: {NUM}ms \({NUM}%\))$")
# 1.0 sb_memory.c memory_report_intermediate "%4.2f MiB/sec"; 0.4 memory_print_stats "%4.2f MB/sec,"
RE_IVL_MEMORY = re.compile(rf"^\[\s*(\d+)s ?\] {NUM} Mi?B/sec,?$")
# 1.0 sysbench.c checkpoints_thread_proc; 0.4 checkpoints_thread_proc ("[%4.0fs] ")
RE_CHECKPOINT = re.compile(r"^\[\s*(\d+)s ?\] Checkpoint report:$")
# 1.0+ sysbench.lua sysbench.report_csv, the interval report of sysbench-tpcc --report_csv=yes (tpcc.lua
# report_intermediate): "%.0f,%u,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f" = time, threads, tps, qps,
# reads/s, writes/s, other/s, latency (ms) at --percentile, errors/s, reconnects/s
RE_IVL_CSV = re.compile(rf"^(\d+),(\d+),{NUM},{NUM},{NUM},{NUM},{NUM},{NUM},{NUM},{NUM}$")
# 1.0 --rate: the queue of a fixed-rate run ("queue length: N concurrency: M", db_driver with a comma)
RE_QUEUE = re.compile(r"^\[\s*(\d+)s \] queue length: (\d+),? concurrency: (\d+)$")
# A shell prompt of the RHEL/CentOS form, "[user@host dir]# " or "$ ": never an interval line.
RE_PROMPT = re.compile(r"^\[[^\]\s]+@[^\]]*\][#$](?:\s|$)")
# the key begins with no space: \s+ and the key never share a character, so a long line of spaces is one
# pass, not the square of its length (a 40 KB line took 20 s: issue #61)
RE_KEY_VALUE = re.compile(r"^\s+([^:\s][^:]*?):\s+(.*)$")
RE_PER_SEC = re.compile(rf"^{NUM}\s+\({NUM} per sec\.\)$")
RE_PERCENTILE = re.compile(r"^(?:approx\.\s+)?(\d+(?:\.\d+)?)(?:th)? percentile$")
RE_HIST_ROW = re.compile(rf"^\s*{NUM} \|[*\s]*?\s(\d+)$")
RE_FATAL = re.compile(r"FATAL:")
RE_COMMAND = re.compile(r"(?:^|\s)(?:\S*/)?sysbench\s.*\s(run|prepare|cleanup)\s*$")
# 0.4 sb_fileio.c file_print_stats(SB_STAT_CUMULATIVE); older 0.4 prints "Read, .. Write"
RE_FILEIO_04 = re.compile(r"^Operations performed:\s+(\d+) [Rr]eads?, (\d+) [Ww]rites?, (\d+) Other = (\d+) Total$")
RE_FILEIO_04_BYTES = re.compile(r"^Read (\S+)\s+Written (\S+)\s+Total transferred (\S+)\s+\((\S+)/sec\)$")
RE_FILEIO_04_RATE = re.compile(rf"^\s*{NUM} Requests/sec executed$")
# 0.4 sb_memory.c memory_print_stats; 1.0 "Total operations: N (X per second)", "X MiB transferred (Y MiB/sec)"
RE_MEMORY_OPS = re.compile(rf"^(?:Operations performed|Total operations): (\d+) \(\s*{NUM} (?:ops/sec|per second)\)$")
RE_MEMORY_BYTES = re.compile(rf"^{NUM} (MB|MiB) transferred \({NUM} (?:MB|MiB)/sec\)$")

SECTIONS = {
    "OLTP test statistics:": "sql",
    "SQL statistics:": "sql",
    "queries performed:": "queries",
    "General statistics:": "general",
    "Test execution summary:": "general",
    "Throughput:": "throughput",
    "Latency (ms):": "latency",
    "per-request statistics:": "latency",
    "response time:": "latency",
    "Threads fairness:": "fairness",
    "CPU speed:": "cpu",
    "File operations:": "fileio",
    "Operations performed:": "memory",
    # 1.0 sb_memory.c memory_print_mode: the options follow, indented
    "Running memory speed test with the following options:": "options",
}
# Lines sysbench prints that carry nothing the JSON reports.
INFO = re.compile("|".join([
    r"Running the test with following options:", r"Initializing random number generator",
    r"Random number generator seed is", r"Initializing worker threads\.\.\.", r"Threads started!",
    r"Done\.", r"Time limit exceeded, exiting\.\.\.", r"\(last message repeated \d+ times\)",
    r"No DB drivers specified", r"Doing OLTP test\.", r"Running (simple|mixed) OLTP test",
    r"Using (Uniform|Special|Gaussian|Pareto) distribution", r"Skipping BEGIN/COMMIT", r"Using auto_inc",
    r"Prime numbers limit:", r"Primer numbers limit:", r"Extra file open flags", r"\d+ files, ", r"\S+ total file size",
    r"Block size ", r"Number of IO requests", r"Read/Write ratio", r"Periodic FSYNC", r"Calling fsync\(\)",
    r"Using (synchronous|asynchronous|mmap) I/O mode", r"Doing (random|sequential) .* test",
    r"Running scope as unit:", r"Running memory speed test", r"Memory block size",
    r"Memory transfer size", r"Memory operations type", r"Memory scope type", r"Creating table",
    r"Inserting \d+ records", r"Creating a secondary index", r"Doing CPU performance benchmark",
    r"Doing memory operations speed test", r"Report checkpoint\(s\) at", r"Forcing shutdown in",
    r"Debug mode enabled", r"Additional request validation enabled", r"Number of random requests for random IO",
    r"Merging requests", r"Using checksums validation", r"Number of unfinished transactions on forced shutdown",
    # 0.4 sb_oltp.c oltp_print_mode (0.4.12.10 adds partitions and test tables)
    r"Running (non-transactional|stored procedure) test", r"Using Normal distribution",
    r'Using "(BEGIN|LOCK TABLES( READ| WRITE)?)" for starting transactions', r"Not using auto_inc",
    r"Maximum number of requests for OLTP test is limited to", r"Validation mode enabled",
    r"Number of (range|key) partitions per table", r"Using \d+ test tables",
    # 1.0/master sysbench.c print_run_mode; oltp_common.lua prepare/cleanup
    r"Warmup time: \d+s", r"Target transaction rate: ", r"Validation checks: on", r"Preloading table",
    r"Dropping table",
    # master (1.1, not 1.0) sysbench.c run_test with --warmup-time: "Warming up for %d seconds...\n"
    r"Warming up for \d+ seconds\.\.\.$",
]))
OLTP_TESTS = {"oltp", "oltp_read_write", "oltp_read_only", "oltp_write_only", "oltp_point_select",
              "oltp_update_index", "oltp_update_non_index", "oltp_delete", "oltp_insert", "select_random_points",
              "select_random_ranges", "bulk_insert"}
KINDS = {"cpu": "cpu", "fileio": "fileio", "memory": "memory", "tpcc": "tpcc"}
# The JSON field each summary line feeds, for "file:line" provenance of measured values.
SOURCE_KEYS = {"transactions": "tps", "queries": "qps", "avg": "latency_avg", "total time": "time_s",
               "time elapsed": "time_s", "total number of events": "events"}


def num(text: str) -> float | int:
    """A printed number: int when it has no decimal point, else the nearest double (float() rounds
    correctly, so the JSON prints the same digits back). Raises ValueError for anything else."""
    return float(text) if ("." in text or "e" in text or "E" in text) else int(text)


def unit(value: str, name: str) -> str:
    value = value.strip()
    if name and value.endswith(name):
        value = value[: -len(name)]
    Decimal(value)  # raises InvalidOperation for anything that is not a number
    return value


def whole(value: str) -> int:
    if not value.strip().isdigit():
        raise ValueError(value)
    return int(value)


def is_num(value: str) -> bool:
    try:
        Decimal(value)
        return True
    except InvalidOperation:
        return False


def pct(text: str) -> str:
    return format(Decimal(text).normalize(), "f")


def percentile_rank(text: str) -> str | None:
    """The rank a percentile line names, as pct gives it: sysbench prints "%3dth" (1.0+) and "approx. %3d"
    (0.4/0.5), so '95', '99', '100'; a rank written with its point ('99.9th') is read as written, and one
    written without it ('999th', '9999th': no percentile is above 100) as the 99.9 or 99.99 it names.
    None for any other rank above 100."""
    if Decimal(text) <= 100:
        return pct(text)
    if text.isdigit() and text.startswith("99") and text.strip("9") == "":
        return pct(f"99.{text[2:]}")
    return None


def half_unit(text: str, *, scale: int = 1) -> float:
    """Half the last printed digit of a figure (the most its rounding can have moved it), times
    ``scale`` for a figure read in another unit: '3.30' -> 0.005, '59.8391' s read as ms -> 0.05.
    The one rule every 'close to' cross-check takes its tolerance from."""
    _, point, decimals = text.strip().partition(".")
    digits = len(decimals.rstrip("sm")) if point else 0
    return float(Decimal(5).scaleb(-digits - 1) * scale)


MAX_SKIPPED = 1_000  # lines not sysbench output, each a warning of its own; the rest are counted (sysbench._Parser.skip)

# sysbench 1.0+ prints percentiles from a histogram of 1024 logarithmic buckets from 0.001 to
# 100000 ms (sb_logger.c OPER_LOG_*; sb_histogram.c rounds a value to its nearest bucket): a printed
# percentile may lie up to half a bucket outside the measured min and max. 0.4/0.5 use 100000
# buckets, a finer grid, so this factor covers them too.
PERCENTILE_SLACK = exp(log(1e5 / 1e-3) / 1023 / 2)
