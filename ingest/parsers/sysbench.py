"""Parse sysbench output of every published shape (0.4, 0.5, 1.0, 1.1, sysbench-tpcc).

One pass over the lines. Each value comes from a line the log prints; nothing is computed
into the totals except unit changes stated by the format (0.4/0.5 print the latency sum in
seconds). What the parser cannot read becomes a warning naming the line, and cross-checks
between printed figures become warnings too, so a wrong number never passes silently.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from math import fsum, sqrt

from . import ParseError, no_cyclic_gc, read_artifact

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
# The same lines exactly as sysbench 1.0/1.1 prints them, read a block at a time (see
# _Parser.interval_block): the block with its digits deleted must be this line repeated.
BLOCK_SKELETON = b"[ s ] thds:  tps: . qps: . (r/w/o: ././.) lat (ms,%): . err/s: . reconn/s: .\n"
BLOCK_INT_COLUMNS = (0, 1, 7)  # t_s, threads, latency_pct: printed without a decimal point
_NUMBER_BYTES = bytes(c if c in b"0123456789." else 0x20 for c in range(256))
RE_BLOCK_START = re.compile(r"^\[ \d+s \] thds: ", re.M)
RE_BLOCK_END = re.compile(r"\n(?!\[)")
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
        "intervals": [], "histogram": [], "warnings": [],
        "source_lines": {},
    }


def _num(text: str) -> float | int:
    """A printed number: int when it has no decimal point, else the nearest double (float() rounds
    correctly, so the JSON prints the same digits back). Raises ValueError for anything else."""
    return float(text) if ("." in text or "e" in text or "E" in text) else int(text)


# The columns of an interval sample, in the order sysbench 1.0 prints them: the one list the loader
# and the intervals table (ingest/sql/schema.sql, checked by a test) follow.
INTERVAL_COLUMNS = ("t_s", "threads", "tps", "qps", "reads_s", "writes_s", "other_s", "latency_pct", "latency_ms",
                    "errors_s", "reconnects_s")
_NO_SAMPLE = dict.fromkeys(INTERVAL_COLUMNS)
# The block reader turns columns of numbers into samples by the hundred thousand: dict(zip(...)) per
# sample takes 50% longer than a dict display, so the display is made from INTERVAL_COLUMNS once
# (as collections.namedtuple makes its methods from its field names).
_samples_of = eval(f"lambda columns: [{{{', '.join(f'{c!r}: {c}' for c in INTERVAL_COLUMNS)}}} "  # noqa: S307
                   f"for {', '.join(INTERVAL_COLUMNS)} in zip(*columns)]")


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
        self.interval_lines: list[int] = []  # the line of each kept interval row

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
        self.signals += 1
        intervals = self.out["intervals"]
        if intervals and row["t_s"] <= intervals[-1]["t_s"]:
            self.warn(line_no, f"interval at {row['t_s']}s does not follow {intervals[-1]['t_s']}s; not kept")
            return
        step = self.out["report_interval_s"]
        previous = intervals[-1]["t_s"] if intervals else 0
        if step and row["t_s"] - previous != step:
            self.warn(line_no, f"interval at {row['t_s']}s follows {previous}s: expected a step of {step}s")
        intervals.append(row)
        self.interval_lines.append(line_no)

    def interval_block(self, first_line: int, block: str) -> bool:
        """Whole lines of 1.0 interval reports (each ending in a newline) at once: store the rows
        _interval would store and return True, or store nothing and return False for the caller to
        feed the lines one by one (which warns about whatever is odd).

        What passes is exactly what RE_IVL_10 and _num read, in one shape: deleting the digits must
        leave BLOCK_SKELETON once per line (every literal, space and decimal point in place), every
        number must start with a digit and no integer may be empty; then the digit runs are exactly
        the 11 numbers of each line, in order. Times must follow each other as _interval expects."""
        try:
            raw = block.encode("ascii")
        except UnicodeEncodeError:
            return False
        n = raw.count(b"\n")
        if raw.translate(None, b"0123456789") != BLOCK_SKELETON * n or b"[ s" in raw or b"thds:  " in raw or b",%" in raw:
            return False
        numbers = raw.translate(_NUMBER_BYTES)
        tokens = numbers.split()
        if b" ." in numbers or len(tokens) != 11 * n:
            return False
        try:
            columns = [list(map(int if i in BLOCK_INT_COLUMNS else float, tokens[i::11])) for i in range(11)]
        except ValueError:  # a float with two points
            return False
        intervals, step, t = self.out["intervals"], self.out["report_interval_s"], columns[0]
        previous = intervals[-1]["t_s"] if intervals else 0
        if step:
            if t != list(range(previous + step, previous + step * (n + 1), step)):
                return False
        elif (intervals and t[0] <= previous) or any(a >= b for a, b in zip(t, t[1:])):
            return False
        intervals.extend(_samples_of(columns))
        self.interval_lines.extend(range(first_line, first_line + n))
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
            self.warn(self.interval_lines[-1], "the log ends after the interval reports: no final statistics")
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
        tps_samples = [i["tps"] for i in out["intervals"] if i["tps"] is not None]
        mean = fsum(tps_samples) / len(tps_samples) if tps_samples else None
        if tps_samples and t["tps"]:
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
            for row, line_no in zip(out["intervals"], self.interval_lines):
                if row["threads"] != out["threads"]:
                    self.warn(line_no, f"interval reports {row['threads']} threads, the header {out['threads']}")
                    break
        if len(tps_samples) >= 2:
            spread = sqrt(fsum((x - mean) ** 2 for x in tps_samples) / len(tps_samples))  # population stddev
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


def _feed_lines(parser: _Parser, first_line: int, lines: list[str]) -> None:
    for number, line in enumerate(lines, start=first_line):
        parser.feed(number, line)


def parse_text(text: str, *, name: str = "<log>") -> dict:
    """Line by line, except runs of 1.0 interval reports, which go to _Parser.interval_block
    whole (and line by line when it declines them)."""
    parser = _Parser(name)
    with no_cyclic_gc():
        pos, line_no = 0, 1
        while start := RE_BLOCK_START.search(text, pos):
            begin = start.start()
            before = text[pos:begin].split("\n")[:-1]  # whole lines: the last piece is empty
            _feed_lines(parser, line_no, before)
            line_no += len(before)
            end = RE_BLOCK_END.search(text, begin)
            # a last line without a newline is left to the line-by-line reading below
            stop = end.end() if end else text.rfind("\n", begin) + 1
            if stop <= begin:
                pos = begin
                break
            block = text[begin:stop]
            lines = block.count("\n")
            if not parser.interval_block(line_no, block):
                _feed_lines(parser, line_no, block.split("\n")[:-1])
            line_no += lines
            pos = stop
        _feed_lines(parser, line_no, text[pos:].split("\n"))
        return parser.finish()


def parse_file(path: Path) -> dict:
    return parse_text(read_artifact(path, kind="a sysbench log"), name=str(path))
