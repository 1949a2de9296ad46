"""Parse sysbench output of every published shape (0.4, 0.5, 1.0, 1.1, sysbench-tpcc).

One pass over the lines. Each value comes from a line the log prints; nothing is computed
into the totals except unit changes stated by the format (0.4/0.5 print the latency sum in
seconds). What the parser cannot read becomes a warning naming the line, and cross-checks
between printed figures become warnings too, so a wrong number never passes silently.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from math import fsum, sqrt
from pathlib import Path
from typing import Iterable

import numpy as np

from . import ParseError, artifact_pieces, no_cyclic_gc, split_pieces
from .sysbench_intervals import INTERVAL_COLUMNS, IntervalColumns, feed_lines, floats, read_block, read_piece, storable

# --- line shapes ----------------------------------------------------------------------------

NUM = r"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
RE_VERSION = re.compile(r"^sysbench (\S+?):?(?:\s|$)")
RE_VERSION_TEXT = re.compile(r"^\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?$")
RE_THREADS = re.compile(r"^Number of threads: (\d+)$")
RE_INTERVAL_SETTING = re.compile(r"^Report intermediate results every (\d+) second")
RE_IVL_05 = re.compile(
    rf"^\[\s*(\d+)s\] threads: (\d+), tps: {NUM}, reads(?:/s)?: {NUM}, writes(?:/s)?: {NUM},? "
    rf"response time: {NUM}ms \({NUM}%\)(?:, errors: {NUM}, reconnects:\s*{NUM})?$")
D = r"(\d[\d.]*)"  # digits, checked by the conversion (hot path: simpler than NUM)
RE_IVL_10 = re.compile(
    rf"\[ *(\d+)s \] thds: (\d+) tps: {D} qps: {D} \(r/w/o: {D}/{D}/{D}\) "
    rf"lat \(ms,{D}%\): {D} err/s:? {D} reconn/s: {D}$")
RE_IVL_10_EPS = re.compile(rf"^\[\s*(\d+)s \] thds: (\d+) eps: {NUM} lat \(ms,{NUM}%\): {NUM}$")
RE_KEY_VALUE = re.compile(r"^\s+([^:]+?):\s+(.*)$")
RE_PER_SEC = re.compile(rf"^{NUM}\s+\({NUM} per sec\.\)$")
RE_PERCENTILE = re.compile(r"^(?:approx\.\s+)?(\d+(?:\.\d+)?)(?:th)? percentile$")
RE_HIST_ROW = re.compile(rf"^\s*{NUM} \|[*\s]*?\s(\d+)$")
RE_FATAL = re.compile(r"FATAL:")
RE_COMMAND = re.compile(r"(?:^|\s)(?:\S*/)?sysbench\s.*\s(run|prepare|cleanup)\s*$")

SECTIONS = {
    "OLTP test statistics:": "sql",
    "SQL statistics:": "sql",
    "queries performed:": "queries",
    "General statistics:": "general",
    "Test execution summary:": "general",
    "Throughput:": "general",
    "Latency (ms):": "latency",
    "per-request statistics:": "latency",
    "response time:": "latency",
    "Threads fairness:": "fairness",
    "CPU speed:": "cpu",
    "File operations:": "fileio",
    "Operations performed:": "memory",
}
# Lines sysbench prints that carry nothing the JSON reports.
INFO = re.compile("|".join([
    r"Running the test with following options:", r"Initializing random number generator",
    r"Random number generator seed is", r"Initializing worker threads\.\.\.", r"Threads started!",
    r"Done\.", r"Time limit exceeded, exiting\.\.\.", r"\(last message repeated \d+ times\)",
    r"No DB drivers specified", r"Doing OLTP test\.", r"Running (simple|mixed) OLTP test",
    r"Using (Uniform|Special|Gaussian|Pareto) distribution", r"Skipping BEGIN/COMMIT", r"Using auto_inc",
    r"Prime numbers limit:", r"Extra file open flags", r"\d+ files, ", r"\S+ total file size",
    r"Block size ", r"Number of IO requests", r"Read/Write ratio", r"Periodic FSYNC", r"Calling fsync\(\)",
    r"Using (synchronous|asynchronous|mmap) I/O mode", r"Doing (random|sequential) .* test",
    r"Running scope as unit:", r"Total operations:", r"Running memory speed test", r"Memory block size",
    r"Memory transfer size", r"Memory operations type", r"Memory scope type", r"Creating table",
    r"Inserting \d+ records", r"Creating a secondary index",
]))
OLTP_TESTS = {"oltp", "oltp_read_write", "oltp_read_only", "oltp_write_only", "oltp_point_select",
              "oltp_update_index", "oltp_update_non_index", "oltp_delete", "oltp_insert", "select_random_points",
              "select_random_ranges", "bulk_insert"}
# The JSON field each summary line feeds, for "file:line" provenance of measured values.
_SOURCE_KEYS = {"transactions": "tps", "queries": "qps", "avg": "latency_avg", "total time": "time_s",
                "time elapsed": "time_s", "total number of events": "events"}
KINDS = {"cpu": "cpu", "fileio": "fileio", "memory": "memory", "tpcc": "tpcc"}


def _empty() -> dict:
    return {
        "sysbench_version": None, "test": None, "kind": None, "complete": False,
        "threads": None, "threads_source": None, "report_interval_s": None,
        "totals": {k: None for k in ("transactions", "tps", "queries", "qps", "reads", "writes", "other",
                                     "ignored_errors", "reconnects", "time_s", "events")},
        "latency_ms": {"min": None, "avg": None, "max": None, "sum": None, "percentiles": {}},
        "fairness": {"events_avg": None, "events_stddev": None, "time_avg": None, "time_stddev": None},
        "intervals": IntervalColumns(), "histogram": [], "warnings": [],
        "source_lines": {},
    }


def _num(text: str) -> float | int:
    """A printed number: int when it has no decimal point, else the nearest double (float() rounds
    correctly, so the JSON prints the same digits back). Raises ValueError for anything else."""
    return float(text) if ("." in text or "e" in text or "E" in text) else int(text)


_NO_SAMPLE = dict.fromkeys(INTERVAL_COLUMNS)


class _Parser:
    def __init__(self, name: str) -> None:
        self.name = name
        self.out = _empty()
        self.section: str | None = None
        self.seen: dict[tuple[str, str], int] = {}
        self.fatal: tuple[int, str] | None = None
        self.summary_line: int | None = None
        self.signals = 0          # lines that only sysbench prints
        self.kind_hint: str | None = None
        self.header_threads_line: int | None = None
        self.in_histogram = False
        self.queries_total: tuple[int, int] | None = None  # (line, value) of 'queries performed: total'

    def warn(self, line_no: int, message: str) -> None:
        self.out["warnings"].append(f"line {line_no}: {message}")

    # -- dispatch --------------------------------------------------------------------------

    def feed(self, line_no: int, raw: str) -> None:
        line = raw.rstrip("\r\n").rstrip()
        if not line:
            self.in_histogram = False
            return
        if line[0] == "[":
            self._interval(line_no, line)
            return
        if self.in_histogram:
            if self._histogram(line_no, line):
                return
            self.in_histogram = False
        if RE_FATAL.search(line):
            self.fatal = self.fatal or (line_no, line.strip())
            self.warn(line_no, f"sysbench reported: {line.strip()}")
            return
        if line.startswith("WARNING:") or line.startswith("ALERT:"):
            self.warn(line_no, f"sysbench reported: {line.strip()}")
            return
        section = SECTIONS.get(line.strip())
        if section is not None:
            self._enter(line_no, section)
            return
        if line[0] in " \t":
            self._key_value(line_no, line)
            return
        self._top_level(line_no, line)

    def _enter(self, line_no: int, section: str) -> None:
        self.section = section
        self.signals += 1
        if section in ("sql", "general", "cpu", "fileio", "memory") and self.summary_line is None:
            self.summary_line = line_no
        if section in ("cpu", "fileio", "memory"):
            self.kind_hint = section
        elif section == "sql":
            self.kind_hint = self.kind_hint or "oltp"

    def _top_level(self, line_no: int, line: str) -> None:
        if m := RE_VERSION.match(line):
            self.signals += 1
            version = m.group(1)
            if self.out["sysbench_version"] is not None:
                self.warn(line_no, "a second version line: the file may hold more than one run")
            elif not RE_VERSION_TEXT.match(version):
                self.warn(line_no, f"unreadable version {version!r}")
            else:
                self.out["sysbench_version"] = version
            return
        if m := RE_THREADS.match(line):
            self.signals += 1
            if self.out["threads"] is not None:
                self.warn(line_no, "a second 'Number of threads' line: the file may hold more than one run")
            else:
                self.out["threads"], self.out["threads_source"] = int(m.group(1)), "header"
                self.header_threads_line = line_no
            return
        if m := RE_INTERVAL_SETTING.match(line):
            self.signals += 1
            self.out["report_interval_s"] = int(m.group(1))
            return
        if line.startswith("Doing read-only test"):
            self.out["test"] = "oltp_read_only"
            return
        if line.startswith("Doing OLTP test."):
            self.out["test"] = self.out["test"] or "oltp"
            self.signals += 1
            return
        if INFO.match(line):
            return
        if m := RE_COMMAND.search(line):
            self._command(line)
            return
        if line.startswith("Latency histogram"):
            self.in_histogram = True
            return
        self.warn(line_no, f"skipped a line that is not sysbench output: {line[:80]!r}")

    def _command(self, line: str) -> None:
        """A shell command line before the log: the first test name after 'sysbench' names the test."""
        words = line.split()
        after = [i for i, w in enumerate(words) if w.endswith("sysbench")]
        for word in words[after[0] + 1:] if after else []:
            name = Path(word).name.lower()
            if name.endswith(".lua"):
                name = name.removesuffix(".lua").replace("-", "_")
            elif name not in OLTP_TESTS and name not in KINDS:
                continue
            self.out["test"] = name
            return

    # -- intervals ------------------------------------------------------------------------------

    def _interval(self, line_no: int, line: str) -> None:
        row = None
        if m := RE_IVL_10.match(line):
            try:
                row = dict(zip(INTERVAL_COLUMNS, map(_num, m.groups())))
            except ValueError:
                self.warn(line_no, f"unreadable interval line: {line[:80]!r}")
                return
        elif m := RE_IVL_05.match(line):
            t, thr, tps, r, w, lat, pct, err, rec = m.groups()
            row = {**_NO_SAMPLE, "t_s": int(t), "threads": int(thr), "tps": _num(tps), "reads_s": _num(r),
                   "writes_s": _num(w), "latency_pct": _num(pct), "latency_ms": _num(lat),
                   "errors_s": _num(err) if err else None, "reconnects_s": _num(rec) if rec else None}
        elif m := RE_IVL_10_EPS.match(line):
            t, thr, eps, pct, lat = m.groups()
            row = {**_NO_SAMPLE, "t_s": int(t), "threads": int(thr), "latency_pct": _num(pct),
                   "latency_ms": _num(lat), "eps": _num(eps)}
        else:
            self.warn(line_no, f"unreadable interval line: {line[:80]!r}")
            return
        if not storable(row):
            self.warn(line_no, f"unreadable interval line (a number out of range): {line[:80]!r}")
            return
        self.signals += 1
        intervals = self.out["intervals"]
        last = intervals.last_t_s
        if last is not None and row["t_s"] <= last:
            self.warn(line_no, f"interval at {row['t_s']}s does not follow {last}s; not kept")
            return
        step = self.out["report_interval_s"]
        previous = last if last is not None else 0
        if step and row["t_s"] - previous != step:
            self.warn(line_no, f"interval at {row['t_s']}s follows {previous}s: expected a step of {step}s")
        intervals.append(row, line=line_no)

    def interval_block(self, first_line: int, block: bytes) -> bool:
        """Whole lines of 1.0 interval reports (each ending in a newline) at once: store the rows
        _interval would store and return True, or store nothing and return False for the caller to
        feed the lines one by one (which warns about whatever is odd). read_block checks and types
        the lines; here the times must follow each other as _interval expects."""
        table = read_block(block)
        if table is None:
            return False
        intervals, step, t = self.out["intervals"], self.out["report_interval_s"], table.column("t_s").to_numpy()
        n = len(t)
        last = intervals.last_t_s
        previous = last if last is not None else 0
        if step:
            if not np.array_equal(t, np.arange(previous + step, previous + step * (n + 1), step)):
                return False
        elif (last is not None and t[0] <= previous) or (n > 1 and not (t[1:] > t[:-1]).all()):
            return False
        intervals.extend(table, first_line=first_line)
        self.signals += n
        return True

    def _histogram(self, line_no: int, line: str) -> bool:
        if m := RE_HIST_ROW.match(line):
            self.out["histogram"].append({"value_ms": _num(m.group(1)), "count": int(m.group(2))})
            return True
        if line.strip().startswith("value") or "(glob)" in line:
            if "(glob)" in line:
                self.warn(line_no, f"unreadable histogram row {line.strip()[:60]!r}")
            return True
        return False

    # -- summary key/value lines -----------------------------------------------------------------

    def _key_value(self, line_no: int, line: str) -> None:
        m = RE_KEY_VALUE.match(line)
        if not m:
            self.warn(line_no, f"unreadable line {line.strip()[:80]!r}")
            return
        key, value = m.group(1).strip(), m.group(2).strip()
        if value.endswith("(glob)") or "*" in value:
            self.warn(line_no, f"unreadable value for {key!r}: {value!r}")
            return
        section = self.section or "?"
        if (section, key) in self.seen:
            self.warn(line_no, f"{key!r} is given again (first on line {self.seen[(section, key)]}); the first is kept")
            return
        self.seen[(section, key)] = line_no
        try:
            self._store(line_no, section, key, value)
        except (InvalidOperation, ValueError):
            self.warn(line_no, f"unreadable value for {key!r}: {value!r}")
            return
        self.out["source_lines"].setdefault(_SOURCE_KEYS.get(key, key), line_no)

    def _store(self, line_no: int, section: str, key: str, value: str) -> None:
        totals, latency, fairness = self.out["totals"], self.out["latency_ms"], self.out["fairness"]
        if section in ("sql", "queries"):
            if key in ("read", "write", "other"):
                totals[{"read": "reads", "write": "writes", "other": "other"}[key]] = _int(value)
            elif key == "total":
                self.queries_total = (line_no, _int(value))
            elif key in ("transactions", "queries", "ignored errors", "reconnects", "deadlocks",
                         "read/write requests", "other operations"):
                m = RE_PER_SEC.match(value)
                if not m:
                    raise ValueError(value)
                count, rate = int(m.group(1)), _num(m.group(2))
                if key == "transactions":
                    totals["transactions"], totals["tps"] = count, rate
                elif key == "queries":
                    totals["queries"], totals["qps"] = count, rate
                elif key == "ignored errors":
                    totals["ignored_errors"] = count
                elif key == "reconnects":
                    totals["reconnects"] = count
            else:
                self.warn(line_no, f"unknown statistic {key!r}")
        elif section == "general":
            if key in ("total time", "time elapsed"):
                totals["time_s"] = _num(_unit(value, "s"))
            elif key == "total number of events":
                totals["events"] = _int(value)
            elif key == "total time taken by event execution":
                latency["sum"] = _num(str(Decimal(_unit(value, "s")) * 1000))
            elif key == "events/s (eps)":
                pass  # the same figure as events / time; kept from 'CPU speed' where printed
            elif key in ("read, MiB/s", "written, MiB/s"):
                self.out.setdefault("other_statistics", {})[key] = _num(value)
            else:
                self.warn(line_no, f"unknown statistic {key!r}")
        elif section == "latency":
            if key in ("min", "avg", "max", "sum"):
                latency[key] = _num(_unit(value, "ms"))
            elif m := RE_PERCENTILE.match(key):
                latency["percentiles"][_pct(m.group(1))] = _num(_unit(value, "ms"))
                self.out["source_lines"][f"latency_p{_pct(m.group(1))}"] = line_no
            else:
                self.warn(line_no, f"unknown statistic {key!r}")
        elif section == "fairness":
            avg, _, std = value.partition("/")
            if key == "events (avg/stddev)":
                fairness["events_avg"], fairness["events_stddev"] = _num(avg), _num(std)
            elif key == "execution time (avg/stddev)":
                fairness["time_avg"], fairness["time_stddev"] = _num(avg), _num(std)
            else:
                self.warn(line_no, f"unknown statistic {key!r}")
        elif section in ("cpu", "fileio", "memory"):
            self.out.setdefault("other_statistics", {})[key] = _num(_unit(value, "")) if _is_num(value) else value
        else:
            self.warn(line_no, f"statistic {key!r} outside any section")

    # -- the end ------------------------------------------------------------------------------------

    def finish(self) -> dict:
        out = self.out
        if self.signals == 0:
            raise ParseError(f"{self.name}: not a sysbench log (no sysbench header, interval or statistics line)")
        has_summary = out["totals"]["events"] is not None or out["totals"]["transactions"] is not None
        if self.fatal and not has_summary:
            line_no, text = self.fatal
            raise ParseError(f"{self.name}:{line_no}: run failed: {text}")
        out["complete"] = has_summary and out["totals"]["time_s"] is not None
        if out["intervals"] and not has_summary:
            self.warn(out["intervals"].last_line, "the log ends after the interval reports: no final statistics")
        out["kind"] = self._kind()
        if out["threads"] is None:
            self._infer_threads()
        self._cross_check()
        return out

    def _kind(self) -> str | None:
        test = self.out["test"]
        if test in KINDS:
            return KINDS[test]
        if test and (test in OLTP_TESTS or test.startswith("oltp")):
            return "oltp"
        if test and "tpcc" in test:
            return "tpcc"
        return self.kind_hint

    def _infer_threads(self) -> None:
        totals, fair, lat = self.out["totals"], self.out["fairness"], self.out["latency_ms"]
        guess = None
        if totals["events"] and fair["events_avg"]:
            guess = totals["events"] / fair["events_avg"]
            how = "total events / fairness events avg"
        elif lat["sum"] and totals["time_s"]:
            guess = lat["sum"] / 1000 / totals["time_s"]
            how = "latency sum / elapsed time"
        if guess is None or guess < 0.5:
            self.warn(0, "no 'Number of threads' line and nothing to infer the thread count from")
            return
        threads = round(guess)
        self.out["threads"], self.out["threads_source"] = threads, "inferred"
        if abs(guess - threads) > 0.05 * threads:
            self.warn(0, f"threads inferred as {threads} from {how} = {guess:.2f}, which is not a whole number")

    def _cross_check(self) -> None:
        out, t, lat = self.out, self.out["totals"], self.out["latency_ms"]
        line = self.summary_line or 0
        if self.queries_total is not None:
            total_line, total = self.queries_total
            if t["queries"] is None:
                t["queries"] = total
            elif t["queries"] != total:
                self.warn(total_line, f"queries performed total {total} differs from queries {t['queries']}")
        timed = t["time_s"] is not None and t["time_s"] > 0
        for count, rate, name in (("transactions", "tps", "tps"), ("queries", "qps", "qps")):
            if timed and t[count] is not None and t[rate] is not None:
                per_s = t[count] / t["time_s"]
                if abs(per_s - t[rate]) > 0.005 * t[rate] + 0.01:
                    self.warn(line, f"{count} / time = {per_s:.2f} per second, but the log prints {name} {t[rate]}")
        if out["test"] in ("oltp", "oltp_read_write") and t["writes"] == 0 and t["reads"]:
            self.warn(line, f"a {out['test']} run that wrote nothing: is a read-only line missing?")
        tps_samples = list(out["intervals"].numbers("tps"))  # exact sums over the samples, as fsum gives
        count = sum(map(len, tps_samples))
        mean = fsum(floats(tps_samples)) / count if count else None
        if count and t["tps"]:
            if abs(mean - t["tps"]) > 0.10 * t["tps"]:
                self.warn(line, f"mean interval tps {mean:.2f} is more than 10% from the total tps {t['tps']}")
        if t["events"] and timed and lat["avg"] and out["threads"]:
            busy = t["events"] / t["time_s"] * lat["avg"] / 1000
            if abs(busy - out["threads"]) > 0.2 * out["threads"] + 0.5:
                self.warn(line, f"Little's law: events/s x avg latency = {busy:.2f} busy threads, "
                                f"but the run has {out['threads']}")
        parts = [t["reads"], t["writes"], t["other"]]
        if None not in parts and t["queries"] is not None and sum(parts) != t["queries"]:
            self.warn(line, f"reads + writes + other = {sum(parts)}, but total queries = {t['queries']}")
        if out["threads"] and self.out["threads_source"] == "header":
            other = out["intervals"].first_other("threads", out["threads"])
            if other is not None:
                self.warn(other[1], f"interval reports {other[0]} threads, the header {out['threads']}")
        if count >= 2:
            deviations = (np.square(x - mean) for x in tps_samples)
            spread = sqrt(fsum(floats(deviations)) / count)  # population stddev
            out["interval_tps_cv"] = round(spread / mean, 4) if mean else None
        else:
            out["interval_tps_cv"] = None


def _unit(value: str, unit: str) -> str:
    value = value.strip()
    if unit and value.endswith(unit):
        value = value[: -len(unit)]
    Decimal(value)  # raises InvalidOperation for anything that is not a number
    return value


def _int(value: str) -> int:
    if not value.strip().isdigit():
        raise ValueError(value)
    return int(value)


def _is_num(value: str) -> bool:
    try:
        Decimal(value)
        return True
    except InvalidOperation:
        return False


def _pct(text: str) -> str:
    value = Decimal(text).normalize()
    return format(value, "f")


def _parse(pieces: Iterable[bytes], *, name: str) -> dict:
    """``pieces``: the log's bytes as pieces of whole lines (each ending in a newline), then one last
    piece without a newline: what follows the last newline (perhaps nothing)."""
    parser = _Parser(name)
    with no_cyclic_gc():
        line_no, tail = 1, b""
        for piece in pieces:
            if piece.endswith(b"\n"):
                line_no = read_piece(parser, line_no, piece)
            else:
                tail = piece
        feed_lines(parser, line_no, tail, whole=False)
        return parser.finish()


def parse_text(text: str, *, name: str = "<log>", piece_bytes: int | None = None) -> dict:
    return _parse(split_pieces(text.encode("utf-8", errors="surrogatepass"), size=piece_bytes), name=name)


def parse_file(path: Path) -> dict:
    return _parse(artifact_pieces(path, kind="a sysbench log"), name=str(path))
