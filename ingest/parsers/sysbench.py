"""Parse sysbench output of every published shape (0.4, 0.4.12.10, 0.5, 1.0, 1.1, sysbench-tpcc).

One pass over the lines. Each value comes from a line the log prints; nothing is computed
into the totals except unit changes stated by the format (0.4/0.5 print the latency sum in
seconds). What the parser cannot read becomes a warning naming the line, and cross-checks
between printed figures become warnings too (sysbench_checks.py), so a wrong number never
passes silently. A file may hold several runs one after the other: each is read on its own,
with its line range (sysbench_runs.py).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

import numpy as np

from .reading import ParseError
from .sysbench_fileio import file_option
from .sysbench_command import RE_CONTINUED, is_opener, opens_a_run, read_command
from .sysbench_intervals import INTERVAL_COLUMNS, IntervalColumns, read_block, storable
from .sysbench_rows import interval_row
from .sysbench_shapes import (
    INFO, RE_CHECKPOINT, RE_COMMAND, RE_FATAL, RE_FILEIO_04, RE_FILEIO_04_BYTES, RE_FILEIO_04_RATE,
    RE_HIST_ROW, RE_INTERVAL_SETTING, RE_IVL_CSV, MAX_SKIPPED, RE_KEY_VALUE, RE_MEMORY_BYTES, RE_MEMORY_OPS,
    RE_PER_SEC, RE_PERCENTILE, RE_PROMPT, RE_QUEUE, RE_THREADS, RE_VERSION, RE_VERSION_TEXT, SECTIONS, SOURCE_KEYS,
    half_unit, is_num, num, percentile_rank, unit, whole,
)

# The parser of one run's lines. Reading a file (its runs, one or all) is sysbench_runs.py's, which
# drives this parser: parse_file, parse_log, parse_runs, parse_text are there.
__all__ = ["INTERVAL_COLUMNS"]


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


# Bytes that are not UTF-8, as the reader decodes them (errors="surrogateescape").
_BAD_BYTES = re.compile("[\udc80-\udcff]")


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
        self.half: dict[str, float] = {}  # figure -> half its last printed digit (sysbench_shapes.half_unit)
        self.sql_header: str | None = None
        self.command: tuple[int, dict] | None = None  # (line, --options) of a shell command before the log
        self.histogram_line: int | None = None
        self.checkpoint: _Parser | None = None  # a --report-checkpoints report being read
        self.body_line: int | None = None  # the first line of figures (intervals, statistics, FATAL)
        self.first: tuple[int, int] | None = None  # a checkpoint report's (t_s, first line)
        self.last: int | None = None  # and its last line
        self.new_run_at: int | None = None  # set, and the line left unread, where a line opens the next run
        self.threads_how: str | None = None  # how an inferred thread count was inferred (sysbench_checks)
        self.continued: tuple[int, str] | None = None  # (first line, text) of a command continued with '\\'
        self.skipped = 0  # lines that are not sysbench output (skip)
        self.last_skipped: int | None = None  # the last of them past MAX_SKIPPED
        self.rate_line: int | None = None  # 'Target transaction rate: N/sec': a rate-limited run (--rate)

    def warn(self, line_no: int, message: str) -> None:
        self.out["warnings"].append(f"line {line_no}: {message}")

    def skip(self, line_no: int, line: str) -> None:
        """A line that is not sysbench output: each of the first MAX_SKIPPED is a warning of its own, the
        rest are counted (sysbench_checks.finish says how many and where), so that a log followed by a
        file's worth of other lines keeps its warnings small (issue #49)."""
        self.skipped += 1
        if self.skipped <= MAX_SKIPPED:
            self.warn(line_no, f"skipped a line that is not sysbench output: {line[:80]!r}")
        else:
            self.last_skipped = line_no

    # -- dispatch --------------------------------------------------------------------------

    def feed(self, line_no: int, raw: str) -> None:
        line = raw.rstrip("\r\n").rstrip()
        if line[:1] == "\ufeff":  # a UTF-8 byte order mark (a file saved by a Windows editor): no text
            line = line[1:]
        if not line:
            self.in_histogram = False
            return
        if not line.isascii() and _BAD_BYTES.search(line):
            line = self._bad_bytes(line_no, line)
        if self.continued is not None:
            self._continued(line)
            return
        if self.checkpoint is not None and self._in_checkpoint(line_no, line):
            return
        if line[0] == "[" and not RE_PROMPT.match(line):
            self._interval(line_no, line)
            return
        if self.in_histogram:
            if self._histogram(line_no, line):
                return
            self.in_histogram = False
        if RE_FATAL.search(line):
            self.fatal = self.fatal or (line_no, line.strip())
            self.body_line = self.body_line or line_no
            self.warn(line_no, f"sysbench reported: {line.strip()}")
            return
        if line.startswith("WARNING:") or line.startswith("ALERT:"):
            self.warn(line_no, f"sysbench reported: {line.strip()}")
            return
        section = SECTIONS.get(line.strip())
        if section is not None:
            self._enter(line_no, section, line.strip())
            return
        if m := RE_FILEIO_04_RATE.match(line):
            self._fileio_04(line_no, "requests/s", num(m.group(1)))
            return
        if line[0] in " \t":
            self._key_value(line_no, line)
            return
        if line[0].isdigit() and RE_IVL_CSV.match(line):
            self._interval(line_no, line)  # sysbench.report_csv (sysbench-tpcc --report_csv=yes)
            return
        self._top_level(line_no, line)

    def _percentile(self) -> int | None:
        """The command's --percentile, where the log shows the command."""
        value = self.command[1].get("percentile") if self.command else None
        return int(value) if value and value.isdigit() else None

    def _bad_bytes(self, line_no: int, line: str) -> str:
        """A line with bytes that are not UTF-8: an error where it may hold a figure (a digit, an
        indented statistic, a bracketed report), else a warning and the line read without them."""
        shown = line.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        if line[0] in " \t[" or any(c.isdigit() for c in line):
            raise ParseError(f"{self.name}:{line_no}: bytes that are not UTF-8 in a line of figures: '{shown[:100]}'")
        self.warn(line_no, f"bytes that are not UTF-8: '{shown[:80]}'")
        return _BAD_BYTES.sub("\ufffd", line)

    def _enter(self, line_no: int, section: str, header: str) -> None:
        if section in _OPENS_A_REPORT:
            family = (section, "queries") if section == "sql" else (section,)  # 'queries performed:' is SQL
            if any(seen in family for seen, _ in self.seen):
                self.new_run_at = line_no  # statistics this run has already printed: the next run's
                return
        self.section = section
        if section == "options":
            self.kind_hint = "memory"  # only memory_print_mode prints this header
            return
        self.signals += 1
        self.body_line = self.body_line or line_no
        if section in ("sql", "general", "throughput", "cpu", "fileio", "memory") and self.summary_line is None:
            self.summary_line = line_no
        if section in ("cpu", "fileio", "memory"):
            self.kind_hint = section
        elif section == "sql":
            self.kind_hint = self.kind_hint or "oltp"
            self.sql_header = header

    def _top_level(self, line_no: int, line: str) -> None:
        if self.body_line is not None and opens_a_run(line):
            self.new_run_at = line_no
            return
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
            elif m.group(1).strip("0") == "":
                self.warn(line_no, "'Number of threads: 0': sysbench runs at least one thread; not kept")
            else:
                self.out["threads"], self.out["threads_source"] = int(m.group(1)), "header"
                self.header_threads_line = line_no
            return
        if m := RE_INTERVAL_SETTING.match(line):
            self.signals += 1
            self.out["report_interval_s"] = int(m.group(1))
            return
        if is_opener(line):
            self.signals += 1
            return
        if RE_CONTINUED.search(line):
            self.continued = (line_no, line[:-1])
            self.signals += 1
            return
        if line.startswith("Doing read-only test"):
            self.out["test"] = "oltp_read_only"
            return
        if line.startswith("Doing OLTP test."):
            self.out["test"] = self.out["test"] or "oltp"
            self.signals += 1
            return
        if line.startswith("Target transaction rate: "):
            self.rate_line = line_no
        if (option := file_option(line)) is not None:
            self._file_option(line_no, *option)
            return
        if INFO.match(line) or ((m := RE_PROMPT.match(line)) and not line[m.end():].strip()):
            return  # nothing to read (a bare shell prompt included)
        if (m := RE_FILEIO_04.match(line)) or (m := RE_FILEIO_04_BYTES.match(line)):
            names = ("reads", "writes", "other", "total") if m.re is RE_FILEIO_04 else (
                "read", "written", "transferred", "per second")
            for key, value in zip(names, m.groups()):
                self._fileio_04(line_no, key, int(value) if value.isdigit() else value)
            return
        if (m := RE_MEMORY_OPS.match(line)) or (m := RE_MEMORY_BYTES.match(line)):
            self.kind_hint = self.kind_hint or "memory"
            self.signals += 1
            stats = self.out.setdefault("other_statistics", {})
            if m.re is RE_MEMORY_OPS:
                stats["operations"], stats["operations/s"] = int(m.group(1)), num(m.group(2))
            else:
                stats[f"{m.group(2)} transferred"], stats[f"{m.group(2)}/s"] = num(m.group(1)), num(m.group(3))
            return
        if m := RE_COMMAND.search(line):
            self._command(line_no, line)
            return
        if line.startswith("Latency histogram"):
            self.in_histogram = True
            self.histogram_line = line_no
            return
        self.skip(line_no, line)

    def _fileio_04(self, line_no: int, key: str, value) -> None:
        """0.4 fileio's summary lines (sb_fileio.c file_print_stats): a fileio run."""
        self.kind_hint = "fileio"
        self.signals += 1
        self.body_line = self.body_line or line_no
        self.summary_line = self.summary_line or line_no
        self.out.setdefault("other_statistics", {})[key] = value
        self.out["source_lines"].setdefault(f"fileio {key}", line_no)

    def _file_option(self, line_no: int, name: str, values: dict) -> None:
        """A line of fileio's options (sysbench_fileio.file_option): kept with its line; only the fileio
        test prints them."""
        self.signals += 1
        self.kind_hint = "fileio"
        self.out.setdefault("fileio_options", {}).update(values)
        self.out["source_lines"].setdefault(f"fileio option {name}", line_no)

    def _command(self, line_no: int, line: str) -> None:
        """A shell command line before the log (sysbench_command.py)."""
        test, options = read_command(line)
        if test:
            self.out["test"] = test
        self.out["command_options"] = options
        self.command = (line_no, options)
        self.signals += 1

    def _continued(self, line: str) -> None:
        """A line of a command continued with a trailing backslash: read at its last line."""
        first, text = self.continued
        text = f"{text} {line.strip()}"
        if text.endswith("\\"):
            self.continued = (first, text[:-1])
            return
        self.continued = None
        if RE_COMMAND.search(text):
            self._command(first, text)
        else:
            self.warn(first, f"skipped a command that runs no sysbench test: {text[:80]!r}")

    # -- intervals ------------------------------------------------------------------------------

    def _interval(self, line_no: int, line: str) -> None:
        try:
            row = interval_row(line, percentile=self._percentile())
        except ValueError:
            self.warn(line_no, f"unreadable interval line: {line[:80]!r}")
            return
        if row is None:
            if m := RE_CHECKPOINT.match(line):
                self.checkpoint = _Parser(self.name)
                self.checkpoint.first = (int(m.group(1)), line_no)
            elif m := RE_QUEUE.match(line):
                self.out.setdefault("queue", []).append(
                    {"t_s": int(m.group(1)), "length": int(m.group(2)), "concurrency": int(m.group(3)),
                     "line": line_no})
            else:
                self.warn(line_no, f"unreadable interval line: {line[:80]!r}")
            return
        if not storable(row):
            self.warn(line_no, f"unreadable interval line (a number out of range): {line[:80]!r}")
            return
        intervals = self.out["intervals"]
        last = intervals.last_t_s
        again = last is not None and row["t_s"] < last and row["t_s"] <= intervals.first_t_s
        if self.summary_line is not None or again:
            self.new_run_at = line_no  # reports after the final statistics, or from the first time again
            return
        self.signals += 1
        self.body_line = self.body_line or line_no
        if row["tps"] is not None:  # only a database run reports transactions
            self.kind_hint = self.kind_hint or "oltp"
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
        if self.checkpoint is not None:
            return False
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
        self.kind_hint = self.kind_hint or "oltp"
        self.signals += n
        self.body_line = self.body_line or first_line
        return True

    def _in_checkpoint(self, line_no: int, line: str) -> bool:
        """A --report-checkpoints report: the cumulative statistics sysbench prints mid-run, read on
        their own and kept under 'checkpoints'; it ends after the fairness block (the last lines a
        report prints) or at the next bracketed line, which is then read as usual."""
        if line[0] == "[":
            self.close_checkpoint()
            return False
        self.checkpoint.feed(line_no, line)
        if self.checkpoint.new_run_at is not None:  # a report cut short, and the next run begins
            self.close_checkpoint()
            self.new_run_at = line_no
            return True
        self.checkpoint.last = line_no
        if ("fairness", "execution time (avg/stddev)") in self.checkpoint.seen:
            self.close_checkpoint()
        return True

    def close_checkpoint(self) -> None:
        report, self.checkpoint = self.checkpoint, None
        t_s, first = report.first
        self.out.setdefault("checkpoints", []).append(
            {"t_s": t_s, "lines": [first, report.last or first], "totals": report.out["totals"],
             "latency_ms": report.out["latency_ms"]})
        self.out["warnings"].extend(report.out["warnings"])

    def _histogram(self, line_no: int, line: str) -> bool:
        if m := RE_HIST_ROW.match(line):
            self.out["histogram"].append({"value_ms": num(m.group(1)), "count": int(m.group(2)), "line": line_no})
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
        if "\t" in value:  # a reader's own note after a TAB: the figure is read, the note named
            value, _, note = value.partition("\t")
            value = value.strip()
            self.warn(line_no, f"text after the figure for {key!r} is not sysbench output: {note.strip()[:60]!r}")
        if value.endswith("(glob)") or "*" in value:
            self.warn(line_no, f"unreadable value for {key!r}: {value!r}")
            return
        section = self.section or "?"
        if (section, key) in self.seen:
            self.warn(line_no, f"{key!r} is given again (first on line {self.seen[(section, key)]}); the first is kept")
            return
        self.seen[(section, key)] = line_no
        if section != "options":
            self.body_line = self.body_line or line_no
        try:
            self._store(line_no, section, key, value)
        except (InvalidOperation, ValueError):
            self.warn(line_no, f"unreadable value for {key!r}: {value!r}")
            return
        self.out["source_lines"].setdefault(SOURCE_KEYS.get(key, key), line_no)

    def _store(self, line_no: int, section: str, key: str, value: str) -> None:
        totals, latency, fairness = self.out["totals"], self.out["latency_ms"], self.out["fairness"]
        if section in ("sql", "queries"):
            if key in ("read", "write", "other"):
                totals[{"read": "reads", "write": "writes", "other": "other"}[key]] = whole(value)
            elif key == "total":
                self.queries_total = (line_no, whole(value))
            elif key in ("transactions", "queries", "ignored errors", "reconnects", "deadlocks",
                         "read/write requests", "other operations"):
                m = RE_PER_SEC.match(value)
                if not m:
                    raise ValueError(value)
                count, rate = int(m.group(1)), num(m.group(2))
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
        elif section in ("general", "throughput"):
            if key in ("total time", "time elapsed"):
                totals["time_s"] = num(unit(value, "s"))
            elif key == "total number of events":
                totals["events"] = whole(value)
            elif key == "total time taken by event execution":
                seconds = unit(value, "s")
                latency["sum"] = num(str(Decimal(seconds) * 1000))
                self.half["sum"] = half_unit(seconds, scale=1000)
            elif key == "events/s (eps)":
                pass  # the same figure as events / time; kept from 'CPU speed' where printed
            elif key in ("read, MiB/s", "written, MiB/s"):
                self.out.setdefault("other_statistics", {})[key] = num(value)
            else:
                self.warn(line_no, f"unknown statistic {key!r}")
        elif section == "latency":
            if key in ("min", "avg", "max", "sum"):
                latency[key] = num(unit(value, "ms"))
                self.half[key] = half_unit(unit(value, "ms"))
            elif (m := RE_PERCENTILE.match(key)) and (rank := percentile_rank(m.group(1))) is not None:
                latency["percentiles"][rank] = num(unit(value, "ms"))
                self.half[f"p{rank}"] = half_unit(unit(value, "ms"))
                self.out["source_lines"][f"latency_p{rank}"] = line_no
            elif key == "percentile stats" and value == "disabled":
                pass  # 1.0+ with --percentile=0 (sysbench.c sb_report_cumulative): no percentile printed
            else:
                self.warn(line_no, f"unknown statistic {key!r}")
        elif section == "fairness":
            avg, _, std = value.partition("/")
            if key == "events (avg/stddev)":
                fairness["events_avg"], fairness["events_stddev"] = num(avg), num(std)
                self.half["events_avg"] = half_unit(avg)
            elif key == "execution time (avg/stddev)":
                fairness["time_avg"], fairness["time_stddev"] = num(avg), num(std)
            else:
                self.warn(line_no, f"unknown statistic {key!r}")
        elif section == "options":
            self.out.setdefault("test_options", {})[key] = value
        elif section in ("cpu", "fileio", "memory"):
            self.out.setdefault("other_statistics", {})[key] = num(unit(value, "")) if is_num(value) else value
        else:
            self.warn(line_no, f"statistic {key!r} outside any section")


# The sections a final report starts with ("Throughput:" is printed twice by master's fileio test).
_OPENS_A_REPORT = {"sql", "general", "cpu", "fileio", "memory"}
