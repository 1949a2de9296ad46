"""Shapes of sysbench logs seen in the wild (issue #16): several runs in a file, bytes that are not
UTF-8, mid-run reports, and the cross-checks between printed figures. Fixtures: PROVENANCE.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.cli import main
from ingest.parsers import ParseError
from ingest.parsers.sysbench_runs import parse_file, parse_runs, parse_text
from ingest.parsers.sysbench_runs import parse_text_runs

FIXTURES = Path(__file__).parent / "fixtures" / "sysbench"
THREE = FIXTURES / "handmade-1.0.20-point-select-three-runs.log"
RHEL = FIXTURES / "handmade-1.0.17-oltp-ro-rhel-prompt.log"
RHEL_TEXT = RHEL.read_text(encoding="utf-8")


# --- several runs in one file -------------------------------------------------------------------

def test_every_run_of_a_file_comes_back_with_its_lines():
    runs = parse_runs(THREE)
    # the version lines are lines 1, 41 and 81; each run ends with its fairness block
    assert [run["lines"] for run in runs] == [[1, 39], [41, 79], [81, 119]]
    assert [run["threads"] for run in runs] == [1, 2, 4]
    assert [run["totals"]["tps"] for run in runs] == [10273.77, 18929.90, 33242.31]
    assert [run["totals"]["events"] for run in runs] == [102749, 189316, 332463]
    assert [len(run["intervals"]) for run in runs] == [2, 2, 2]
    assert [run["warnings"] for run in runs] == [[], [], []]


def test_one_run_is_refused_naming_where_the_second_starts():
    with pytest.raises(ParseError) as err:
        parse_file(THREE)
    assert str(err.value) == (f"{THREE}:41: a second run starts here: the file holds 3 runs "
                              "(lines 1-39, 41-79, 81-119); give each run its own artifact file")


def test_cli_prints_every_run():
    result = CliRunner().invoke(main, ["parse", "sysbench", str(THREE)])
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    assert [run["lines"] for run in printed["runs"]] == [[1, 39], [41, 79], [81, 119]]
    assert [run["intervals"][0]["tps"] for run in printed["runs"]] == [10241.60, 18850.40, 33105.60]
    single = json.loads(CliRunner().invoke(main, ["parse", "sysbench", str(RHEL)]).stdout)
    assert "runs" not in single and single["lines"] == [1, 43]


def test_interval_only_runs_that_start_again_are_two_runs():
    text = (FIXTURES / "handmade-1.0-oltp-rw-intervals-only.log").read_text(encoding="utf-8")
    runs = parse_text_runs(text + text.replace("thds: 8 ", "thds: 16 "))
    assert [(run["lines"], run["threads"], run["threads_source"]) for run in runs] == [
        ([1, 5], 8, "intervals"), ([6, 10], 16, "intervals")]


def test_statistics_given_again_start_a_run_but_a_repeated_header_does_not():
    text = (FIXTURES / "handmade-1.0.20-oltp-rw-tab-notes.log").read_text(encoding="utf-8")
    summary = text[text.index("SQL statistics:"):]
    runs = parse_text_runs(text + summary)
    assert [run["lines"] for run in runs] == [[1, 36], [38, 62]]
    assert runs[1]["totals"]["events"] == 31434
    doubled = parse_text(text.replace("SQL statistics:\n", "SQL statistics:\nSQL statistics:\n"))
    assert doubled["totals"]["reads"] == 440076


# --- bytes that are not UTF-8 --------------------------------------------------------------------

def test_bad_bytes_in_a_figure_line_are_an_error_naming_it(tmp_path):
    log = tmp_path / "x.log"
    log.write_bytes(RHEL.read_bytes().replace(b"(2434.78", b"(24\xff34.78"))
    with pytest.raises(ParseError) as err:
        parse_file(log)
    assert str(err.value) == (f"{log}:23: bytes that are not UTF-8 in a line of figures: "
                              r"'    transactions:                        73056  (24\xff34.78 per sec.)'")
    result = CliRunner().invoke(main, ["parse", "sysbench", str(log)])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_bad_bytes_in_a_line_without_figures_are_named(tmp_path):
    log = tmp_path / "x.log"
    log.write_bytes(RHEL.read_bytes().replace(b"Threads started!", b"Threads st\xe4rted!"))
    assert parse_file(log)["warnings"] == [r"line 12: bytes that are not UTF-8: 'Threads st\xe4rted!'",
                                           "line 12: skipped a line that is not sysbench output: "
                                           "'Threads st\ufffdrted!'"]
    result = CliRunner().invoke(main, ["parse", "sysbench", str(log)])
    assert result.exit_code == 0 and "Threads st\\\\xe4rted!" in result.stdout


# --- cross-checks: each a warning naming the line -------------------------------------------------

CHANGES = [
    ("qps: 38565.60", "qps: 38565.90", "line 14: interval qps 38565.90 is not reads + writes + other = 38565.60"),
    ("min:                                    2.01", "min:                                    7.01",
     "line 34: latency min 7.01 ms is above avg 6.57 ms"),
    ("max:                                   41.77", "max:                                    4.77",
     "line 35: latency avg 6.57 ms is above max 4.77 ms"),
    ("max:                                   41.77", "max:                                    4.77",
     "line 36: latency 95th percentile 8.28 ms is above max 4.77 ms"),
    ("percentile:                        8.28", "percentile:                        1.28",
     "line 36: latency 95th percentile 1.28 ms is below min 2.01 ms"),
    ("sum:                               480065.62", "sum:                               490065.62",
     "line 37: latency sum 490065.62 ms is not events x avg = 73056 x 6.57 = 479977.92 ms"),
    ("total number of events:              73056", "total number of events:              73065",
     "line 23: transactions 73056 differ from total number of events 73065"),
    ("total time:                          30.0052s", "total time:                          0.0000s",
     "line 29: the total time is 0.0s: a run takes a positive time"),
    ("4566.0000/35.22", "4567.0000/35.22",
     "line 40: fairness events avg 4567.0 x 16 threads = 73072.0000, but total number of events is 73056"),
    ("--threads=16", "--threads=32", "line 1: the command gives --threads=32, the header 16"),
]


@pytest.mark.parametrize("old,new,warning", CHANGES, ids=[c[2][:40] for c in CHANGES])
def test_a_changed_figure_breaks_a_relation_and_is_named(old, new, warning):
    assert parse_text(RHEL_TEXT)["warnings"] == []
    assert RHEL_TEXT.count(old) == 1
    assert warning in parse_text(RHEL_TEXT.replace(old, new))["warnings"]


def test_histogram_counts_must_sum_to_the_events():
    text = (FIXTURES / "web-1.1.0-cpu-histogram-p99.log").read_text(encoding="utf-8")
    warnings = parse_text(text.replace("                                         95\n",
                                       "                                         96\n"))["warnings"]
    assert warnings == ["line 15: the histogram counts 64823 events, the summary 64822"]


def test_fileio_operations_must_sum_to_their_total():
    text = (FIXTURES / "handmade-0.4.12-fileio-rndrw.log").read_text(encoding="utf-8")
    warnings = parse_text(text.replace("= 22800 Total", "= 22801 Total"))["warnings"]
    assert warnings == ["line 19: reads + writes + other = 22800, but the total is 22801"]


def test_a_05_run_may_count_no_transactions():
    # 0.5 counts COMMIT statements as transactions (db_driver.c): a script without them prints 0
    got = parse_file(FIXTURES / "mariadbbench-0.5-errors-reconnects-cols.log")
    assert (got["totals"]["transactions"], got["totals"]["events"], got["warnings"]) == (0, 15430, [])


# --- other shapes sysbench prints ----------------------------------------------------------------

def test_fatal_after_interval_lines_keeps_the_unfinished_run():
    lines = RHEL_TEXT.split("\n")
    fatal = ["FATAL: mysql_drv_query() returned error 2013 (Lost connection to MySQL server during query) "
             "for query 'SELECT c FROM sbtest1 WHERE id=?'",
             "FATAL: `thread_run' function failed: /usr/share/sysbench/oltp_common.lua:432: SQL error, errno = 2013"]
    got = parse_text("\n".join(lines[:15] + fatal))
    assert (got["complete"], len(got["intervals"])) == (False, 2)
    assert got["warnings"] == [f"line 16: sysbench reported: {fatal[0]}", f"line 17: sysbench reported: {fatal[1]}",
                               "line 15: the log ends after the interval reports: no final statistics"]


def test_percentile_stats_disabled_is_read_without_a_warning():
    text = RHEL_TEXT.replace("95th percentile:                        8.28",
                             "percentile stats:               disabled")
    got = parse_text(text)
    assert (got["latency_ms"]["percentiles"], got["warnings"]) == ({}, [])


CHECKPOINTS = """\
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 2
Report intermediate results every 5 second(s)
Report checkpoint(s) at 5 seconds

Threads started!

[ 5s ] thds: 2 eps: 1789.40 lat (ms,95%): 1.14
[ 5s ] Checkpoint report:
CPU speed:
    events per second:  1789.38

General statistics:
    total time:                          5.0003s
    total number of events:              8947

Latency (ms):
         min:                                    1.08
         avg:                                    1.12
         max:                                    4.31
         95th percentile:                        1.14
         sum:                                 9996.12

Threads fairness:
    events (avg/stddev):           4473.5000/12.50
    execution time (avg/stddev):   4.9981/0.00

[ 10s ] thds: 2 eps: 1795.20 lat (ms,95%): 1.14
CPU speed:
    events per second:  1795.18

General statistics:
    total time:                          10.0005s
    total number of events:              17923
"""


def test_a_checkpoint_report_is_kept_apart_from_the_run():
    # sysbench.c checkpoints_thread_proc: "[ 5s ] Checkpoint report:" then a whole cumulative report
    got = parse_text(CHECKPOINTS)
    assert got["checkpoints"] == [{
        "t_s": 5, "lines": [11, 28],
        "totals": {"transactions": None, "tps": None, "queries": None, "qps": None, "reads": None, "writes": None,
                   "other": None, "ignored_errors": None, "reconnects": None, "time_s": 5.0003, "events": 8947},
        "latency_ms": {"min": 1.08, "avg": 1.12, "max": 4.31, "sum": 9996.12, "percentiles": {"95": 1.14}}}]
    assert (got["totals"]["events"], got["totals"]["time_s"], len(got["intervals"])) == (17923, 10.0005, 2)
    assert got["kind"] == "cpu" and "lines" in got and got["lines"] == [1, 36]


def test_zero_threads_is_not_a_thread_count():
    # the fuzz test found it: sysbench refuses --threads=0 (sysbench.c), so a 0 is a damaged figure
    text = (FIXTURES / "web-0.4.12-oltp-ro-2thr-lastmsg-repeated.log").read_text(encoding="utf-8")
    got = parse_text(text.replace("Number of threads: 2", "Number of threads: 0"))
    assert (got["threads"], got["threads_source"]) == (2, "inferred")
    assert got["warnings"] == ["line 5: 'Number of threads: 0': sysbench runs at least one thread; not kept"]


def test_a_bracketed_line_after_the_statistics_that_is_no_report_stays_in_the_run():
    got = parse_text(RHEL_TEXT + "[end of log]\n")
    assert got["lines"] == [1, 44]
    assert got["warnings"] == ["line 44: unreadable interval line: '[end of log]'"]


def test_04_memory_summary_and_interval_lines():
    # 0.4 sb_memory.c memory_print_stats: "[%4.0fs] %4.2f MB/sec," and "Operations performed: N (X ops/sec)"
    text = ("sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\nRunning the test with following options:\n"
            "Number of threads: 1\nReport intermediate results every 1 second(s)\n\n"
            "Doing memory operations speed test\nMemory block size: 1K\n\nMemory transfer size: 1024M\n\n"
            "Memory operations type: write\nMemory scope type: global\nThreads started!\n"
            "[   1s] 1012.50 MB/sec,\nDone.\n\nOperations performed: 1048576 (1036810.25 ops/sec)\n\n"
            "1024.00 MB transferred (1012.51 MB/sec)\n\n")
    got = parse_text(text)
    assert (got["kind"], got["warnings"]) == ("memory", ["line 15: the log ends after the interval reports: "
                                                         "no final statistics"])
    assert got["intervals"].to_rows()[0]["mib_s"] == 1012.50
    assert got["other_statistics"] == {"operations": 1048576, "operations/s": 1036810.25, "MB transferred": 1024.00,
                                       "MB/s": 1012.51}


def test_master_fileio_prints_throughput_twice_in_one_run():
    # master sb_fileio.c file_report_cumulative prints "Throughput:" (MiB/s), then sb_report_cumulative its own
    text = (FIXTURES / "handmade-1.0.20-fileio-seqwr-ivl.log").read_text(encoding="utf-8")
    text = text.replace("General statistics:\n    total time:", "Throughput:\n    time elapsed:")
    got = parse_text(text)
    assert (got["lines"], got["totals"]["time_s"], got["totals"]["events"], got["warnings"]) == (
        [1, 47], 30.0032, 390105, [])


def test_rate_limited_runs_print_their_queue():
    # 1.0 db_driver.c db_report_intermediate with --rate: "[ 10s ] queue length: 0, concurrency: 3"
    lines = RHEL_TEXT.split("\n")
    got = parse_text("\n".join(lines[:14] + ["[ 10s ] queue length: 0, concurrency: 3"] + lines[14:]))
    assert got["queue"] == [{"t_s": 10, "length": 0, "concurrency": 3, "line": 15}]
    assert got["warnings"] == [] and len(got["intervals"]) == 3


def test_a_second_run_cut_after_its_first_line_is_still_a_run():
    runs = parse_text_runs(RHEL_TEXT + "Running the test with following options:\n")
    assert [(run["lines"], run["complete"]) for run in runs] == [([1, 43], True), ([44, 44], False)]


def test_a_checkpoint_report_cut_short_by_the_next_run():
    head = CHECKPOINTS[: CHECKPOINTS.index("Threads fairness:")]
    runs = parse_text_runs(head + RHEL_TEXT)
    assert [run["lines"] for run in runs] == [[1, 24], [26, 68]]
    assert runs[0]["checkpoints"][0]["lines"] == [11, 24] and runs[1]["threads"] == 16


def test_a_command_continued_over_lines_is_read_whole():
    lines = RHEL_TEXT.split("\n")
    command = ["[root@db01 ~]# sysbench --test=oltp --num-threads=16 \\", "    --max-time=30 \\",
               "    --report-interval=10 run"]
    got = parse_text("\n".join(command + [ln for ln in lines[1:] if not ln.startswith("Number of threads")]))
    # 0.4/0.5 spelling: --test=oltp, --num-threads=16
    assert (got["test"], got["threads"], got["threads_source"]) == ("oltp", 16, "command")
    assert got["command_options"] == {"test": "oltp", "num-threads": "16", "max-time": "30", "report-interval": "10"}
    assert got["lines"] == [1, 44]
    assert got["warnings"] == ["line 18: a oltp run that wrote nothing: is a read-only line missing?"]
    cut = parse_text("sysbench 1.0.17 (using system LuaJIT 2.0.4)\n[root@db01 ~]# sysbench oltp_read_only \\\n"
                     "    --threads=4 \\\n")
    assert cut["warnings"] == ["line 2: a command continued with '\\' that the log never ends",
                               "line 0: no 'Number of threads' line and nothing to infer the thread count from"]


def test_an_average_above_the_percentile_is_no_error():
    # A heavy tail lifts the mean above a percentile: hgxl64/mariadb-benchmarks
    # Archive/sysbench-runs/series02/res04/sysbench.rw.2.res prints avg 3.31 ms, 99th 2.65 ms, max 19742.03 ms.
    got = parse_text(RHEL_TEXT.replace("95th percentile:                        8.28",
                                       "95th percentile:                        6.00"))
    assert got["warnings"] == []
