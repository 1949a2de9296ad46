"""The end of one sysbench run: its kind and thread count, and the cross-checks between the
figures it printed. Each check that fails is a warning naming the line of the figure checked.

"Close" is never a made-up constant: a printed figure may be off by half its last printed digit
(sysbench_shapes.half_unit), and a relation between figures holds when it holds within the sum of
those roundings (``_close``).
"""

from __future__ import annotations

from math import fsum, sqrt

import numpy as np

from .reading import ParseError
from .sysbench_command import threads_given
from .sysbench_fileio import close_options, fileio_figures
from .sysbench_intervals import floats
from .sysbench_shapes import KINDS, MAX_SKIPPED, OLTP_TESTS, PERCENTILE_SLACK, half_unit

# sysbench 0.5 and later print every interval figure with "%4.2f" (0.5 db_driver.c, 1.0 db_driver.c
# db_report_intermediate, sysbench.lua report_default).
_INTERVAL_HALF = half_unit("0.00")


def _close(a: float, b: float, *, slack: float) -> bool:
    """a and b agree within ``slack`` (the roundings of the figures they come from), and within the
    error of the double arithmetic that combined them."""
    return abs(a - b) <= slack + _EPSILON * max(abs(a), abs(b), 1.0)


def _at_most(a: float, b: float, *, slack: float) -> bool:
    """a <= b, within ``slack`` and the error of double arithmetic, as _close."""
    return a <= b + slack + _EPSILON * max(abs(a), abs(b), 1.0)


_EPSILON = 1e-9
_FROM_FAIRNESS = "total events / fairness events avg"  # how a thread count may be inferred


def finish(parser) -> dict:
    """The run a _Parser has read, checked; a ParseError when it is no sysbench run or a failed one."""
    out = parser.out
    if parser.signals == 0:
        raise ParseError(f"{parser.name}: not a sysbench log (no sysbench header, interval or statistics line)")
    if parser.checkpoint is not None:
        parser.close_checkpoint()  # a checkpoint report the log ends in
    if parser.continued is not None:
        parser.warn(parser.continued[0], "a command continued with '\\' that the log never ends")
    if parser.last_skipped is not None:
        more = parser.skipped - MAX_SKIPPED
        parser.warn(parser.last_skipped, f"skipped {more:,} more lines that are not sysbench output, up to this "
                                         f"one (the first {MAX_SKIPPED:,} are named one by one)")
    has_summary = out["totals"]["events"] is not None or out["totals"]["transactions"] is not None
    if parser.fatal and not has_summary and not out["intervals"]:
        line_no, text = parser.fatal
        raise ParseError(f"{parser.name}:{line_no}: run failed: {text}")
    out["complete"] = has_summary and out["totals"]["time_s"] is not None
    if out["intervals"] and not has_summary:
        parser.warn(out["intervals"].last_line, "the log ends after the interval reports: no final statistics")
    out["kind"] = _kind(parser)
    options = out.pop("fileio_options", None)
    if out["kind"] == "fileio" and ((figures := fileio_figures(out)) is not None or options):
        out["fileio"] = {**(figures or {}), "options": close_options(options or {})}  # an unfinished run: options
    if out["threads"] is None:
        _threads(parser)
    _cross_check(parser)
    _figures(parser)
    return out


def _kind(parser) -> str | None:
    test = parser.out["test"]
    if test in KINDS:
        return KINDS[test]
    if test and (test in OLTP_TESTS or test.startswith("oltp")):
        return "oltp"
    if test and "tpcc" in test:
        return "tpcc"
    return parser.kind_hint


def _threads(parser) -> None:
    """No 'Number of threads' line: the command's --threads, else the interval lines' thread
    counts, else inferred from the summary."""
    out = parser.out
    if parser.command is not None and threads_given(parser.command[1]) is not None:
        out["threads"], out["threads_source"] = threads_given(parser.command[1]), "command"
        return
    counts = [part for part in out["intervals"].numbers("threads")]
    most = int(max(part.max() for part in counts)) if counts else 0
    if most > 0:
        out["threads"], out["threads_source"] = most, "intervals"
        other = _odd_threads(out["intervals"], most)
        if other is not None:
            parser.warn(other[1], f"interval reports {other[0]} threads, other interval lines {most}: "
                                  f"the run's thread count is taken as {most}")
        return
    totals, fair, lat = out["totals"], out["fairness"], out["latency_ms"]
    guess = None
    if totals["events"] and fair["events_avg"]:
        guess = totals["events"] / fair["events_avg"]
        how = _FROM_FAIRNESS
    elif lat["sum"] and totals["time_s"]:
        guess = lat["sum"] / 1000 / totals["time_s"]
        how = "latency sum / elapsed time"
    if guess is None or guess < 0.5:
        parser.warn(0, "no 'Number of threads' line and nothing to infer the thread count from")
        return
    threads = round(guess)
    out["threads"], out["threads_source"] = threads, "inferred"
    parser.threads_how = how
    if abs(guess - threads) > 0.05 * threads:
        parser.warn(0, f"threads inferred as {threads} from {how} = {guess:.2f}, which is not a whole number")


def _odd_threads(intervals, threads: int) -> tuple[int, int] | None:
    """The first interval line (value, line) whose thread count is not the run's, leaving out the last
    reports where the threads finish one by one (fewer threads, never more, to the end)."""
    other = intervals.first_other("threads", threads, skip_null=True)
    tail = intervals.falling_tail("threads", threads) if other is not None else None
    return None if tail is not None and other[1] >= tail else other


def _rate_limited(parser) -> bool:
    """A run at a fixed rate (--rate, 0.4/0.5 --tx-rate): its threads wait for work, so Little's law
    (events/s x latency = threads) does not hold. Named by the header, the command or the queue reports."""
    options = parser.command[1] if parser.command else {}
    given = options.get("rate", options.get("tx-rate", "0"))
    return parser.rate_line is not None or bool(parser.out.get("queue")) or given.strip("0") != ""


def _cross_check(parser) -> None:
    out, t, lat = parser.out, parser.out["totals"], parser.out["latency_ms"]
    line = parser.summary_line or 0
    if parser.queries_total is not None:
        total_line, total = parser.queries_total
        if t["queries"] is None:
            t["queries"] = total
        elif t["queries"] != total:
            parser.warn(total_line, f"queries performed total {total} differs from queries {t['queries']}")
    timed = t["time_s"] is not None and t["time_s"] > 0
    for count, rate, name in (("transactions", "tps", "tps"), ("queries", "qps", "qps")):
        if timed and t[count] is not None and t[rate] is not None:
            per_s = t[count] / t["time_s"]
            if abs(per_s - t[rate]) > 0.005 * t[rate] + 0.01:
                parser.warn(line, f"{count} / time = {per_s:.2f} per second, but the log prints {name} {t[rate]}")
    if out["test"] in ("oltp", "oltp_read_write") and t["writes"] == 0 and t["reads"]:
        parser.warn(line, f"a {out['test']} run that wrote nothing: is a read-only line missing?")
    tps_samples = list(out["intervals"].numbers("tps"))  # exact sums over the samples, as fsum gives
    count = sum(map(len, tps_samples))
    mean = fsum(floats(tps_samples)) / count if count else None
    if count and t["tps"]:
        if abs(mean - t["tps"]) > 0.10 * t["tps"]:
            parser.warn(line, f"mean interval tps {mean:.2f} is more than 10% from the total tps {t['tps']}")
    if t["events"] and timed and lat["avg"] and out["threads"] and not _rate_limited(parser):
        busy = t["events"] / t["time_s"] * lat["avg"] / 1000
        if abs(busy - out["threads"]) > 0.2 * out["threads"] + 0.5:
            parser.warn(line, f"Little's law: events/s x avg latency = {busy:.2f} busy threads, "
                              f"but the run has {out['threads']}")
    parts = [t["reads"], t["writes"], t["other"]]
    if None not in parts and t["queries"] is not None and sum(parts) != t["queries"]:
        parser.warn(line, f"reads + writes + other = {sum(parts)}, but total queries = {t['queries']}")
    if out["threads"] and out["threads_source"] in ("header", "command"):
        other = _odd_threads(out["intervals"], out["threads"])
        if other is not None:
            parser.warn(other[1], f"interval reports {other[0]} threads, the {out['threads_source']} {out['threads']}")
    if out["threads_source"] == "header" and parser.command is not None:
        options = parser.command[1]
        given = options.get("threads", options.get("num-threads"))
        if given is not None and given != str(out["threads"]):
            parser.warn(parser.command[0], f"the command gives --threads={given}, the header {out['threads']}")
    if count >= 2:
        deviations = (np.square(x - mean) for x in tps_samples)
        spread = sqrt(fsum(floats(deviations)) / count)  # population stddev
        out["interval_tps_cv"] = round(spread / mean, 4) if mean else None
    else:
        out["interval_tps_cv"] = None


def _figures(parser) -> None:
    """Relations sysbench's own arithmetic makes hold between the figures it prints."""
    out, t, lat, half = parser.out, parser.out["totals"], parser.out["latency_ms"], parser.half
    where = out["source_lines"].get
    warn = parser.warn
    _interval_queries(parser)
    if t["time_s"] is not None and t["time_s"] <= 0:
        warn(where("time_s", 0), f"the total time is {t['time_s']}s: a run takes a positive time")
    low, avg, high = lat["min"], lat["avg"], lat["max"]
    order = [("min", low), ("avg", avg), ("max", high)]
    for (a, x), (b, y) in zip(order, order[1:]):
        if x is not None and y is not None and not _at_most(x, y, slack=half[a] + half[b]):
            warn(where("latency_avg" if b == "avg" else b, 0), f"latency {a} {x} ms is above {b} {y} ms")
    for p, value in lat["percentiles"].items():
        slack = half[f"p{p}"]
        if high is not None and not _at_most(value, high * PERCENTILE_SLACK, slack=slack + half["max"]):
            warn(where(f"latency_p{p}", 0), f"latency {p}th percentile {value} ms is above max {high} ms")
        if low is not None and not _at_most(low, value * PERCENTILE_SLACK, slack=slack + half["min"]):
            warn(where(f"latency_p{p}", 0), f"latency {p}th percentile {value} ms is below min {low} ms")
    events = t["events"]
    if events is not None and avg is not None and lat["sum"] is not None:
        if not _close(lat["sum"], events * avg, slack=events * half["avg"] + half["sum"]):
            warn(where("sum", where("total time taken by event execution", 0)),
                 f"latency sum {lat['sum']} ms is not events x avg = {events} x {avg} = {events * avg:.2f} ms")
    if events is not None and t["transactions"] is not None and events != t["transactions"] and _one_event_a_tx(parser):
        warn(where("tps", 0), f"transactions {t['transactions']} differ from total number of events {events}")
    if out["histogram"] and events is not None:
        counted = sum(row["count"] for row in out["histogram"])
        if counted != events:
            warn(parser.histogram_line or 0, f"the histogram counts {counted} events, the summary {events}")
    fair = out["fairness"]["events_avg"]
    if fair is not None and events is not None and out["threads"] and parser.threads_how != _FROM_FAIRNESS:
        n = out["threads"]
        if not _close(fair * n, events, slack=n * half["events_avg"]):
            warn(where("events (avg/stddev)", 0),
                 f"fairness events avg {fair} x {n} threads = {fair * n:.4f}, but total number of events is {events}")
    stats = out.get("other_statistics", {})
    if all(isinstance(stats.get(k), int) for k in ("reads", "writes", "other", "total")):
        operations = stats["reads"] + stats["writes"] + stats["other"]
        if operations != stats["total"]:
            warn(where("fileio total", 0), f"reads + writes + other = {operations}, but the total is {stats['total']}")


def _one_event_a_tx(parser) -> bool:
    """Whether the run counts one transaction an event: 1.0+ prints its event count as transactions
    (db_driver.c db_report_cumulative), 0.4 counts one transaction a request (sb_oltp.c); 0.5 counts
    COMMIT statements (db_driver.c db_update_thread_stats), which a script may not send."""
    version = parser.out["sysbench_version"]
    if version is None:
        return parser.sql_header == "SQL statistics:"
    return not version.startswith("0.5")


def _interval_queries(parser) -> None:
    """Each 1.0 interval line prints qps as (reads + writes + other) / seconds and each of the four
    rounded to two decimals: qps = r + w + o within four roundings."""
    slack = 4 * _INTERVAL_HALF
    for table, lines in parser.out["intervals"].parts():
        if table.column("qps").null_count == len(table):
            continue
        columns = [table.column(name).to_numpy(zero_copy_only=False).astype(float)
                   for name in ("qps", "reads_s", "writes_s", "other_s")]
        qps, parts = columns[0], columns[1] + columns[2] + columns[3]
        bad = np.flatnonzero(np.abs(qps - parts) > slack + _EPSILON * np.maximum(np.abs(qps), 1.0))  # _close
        for i in bad.tolist():
            parser.warn(lines[i], f"interval qps {qps[i]:.2f} is not reads + writes + other = {parts[i]:.2f}")
