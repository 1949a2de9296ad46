"""The shapes of issue #51 beyond their golden tests (tests/test_sysbench_golden.py): each variant of a
shape, with values typed by hand from the lines the test writes or the fixture it changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.parsers import ParseError
from ingest.parsers.sysbench_fileio import mib
from ingest.parsers.sysbench_runs import parse_text, parse_text_runs

FIXTURES = Path(__file__).parent / "fixtures" / "sysbench"


def _text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# --- 0.5 interval latency in microseconds ------------------------------------------------------------

def test_microseconds_are_read_as_milliseconds_digit_for_digit():
    got = parse_text(_text("handmade-0.5-oltp-rw-ivl-latency-us.log"))
    # 13426.06us, 13398.51us, 13441.70us (lines 13-15)
    assert [row["latency_ms"] for row in got["intervals"].to_rows()] == [13.42606, 13.39851, 13.4417]
    assert got["warnings"] == []


def test_microseconds_with_the_errors_and_reconnects_columns():
    line = "[  10s] threads: 4, tps: 12.50, reads: 0.00, writes: 50.00, response time: 980.5us (99%), " \
           "errors: 0.00, reconnects:  0.00\n"
    got = parse_text("Number of threads: 4\n" + line)
    row = got["intervals"].to_rows()[0]
    assert (row["latency_ms"], row["latency_pct"], row["errors_s"], row["reconnects_s"]) == (0.9805, 99, 0.0, 0.0)


# --- sysbench-tpcc --report_csv=yes ------------------------------------------------------------------

def test_csv_reports_take_the_percentile_of_the_command_line():
    text = _text("handmade-1.0.20-tpcc-report-csv.log").replace("--report_csv=yes run",
                                                                "--percentile=99 --report_csv=yes run")
    text = text.replace("95th percentile:    ", "99th percentile:    ")
    got = parse_text(text)
    assert [row["latency_pct"] for row in got["intervals"].to_rows()] == [99, 99, 99]
    assert got["latency_ms"]["percentiles"] == {"99": 88.16}


def test_csv_reports_that_do_not_follow_each_other_are_named():
    text = _text("handmade-1.0.20-tpcc-report-csv.log").replace("\n30,16,", "\n20,16,")
    got = parse_text(text)
    assert len(got["intervals"]) == 2
    assert "line 16: interval at 20s does not follow 20s; not kept" in got["warnings"]


def test_a_line_of_numbers_that_is_no_csv_report_is_still_skipped():
    got = parse_text(_text("handmade-1.0.20-tpcc-report-csv.log").replace("Threads started!", "10,16,401.30"))
    assert "line 12: skipped a line that is not sysbench output: '10,16,401.30'" in got["warnings"]


# --- a UTF-8 byte order mark -------------------------------------------------------------------------

def test_a_byte_order_mark_is_no_text():
    raw = (FIXTURES / "handmade-1.0.20-point-select-bom.log").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfsysbench 1.0.20 ")
    with_mark = parse_text(raw.decode("utf-8"))
    without = parse_text(raw[3:].decode("utf-8"))
    assert with_mark["sysbench_version"] == "1.0.20" and with_mark["warnings"] == []
    assert {k: v for k, v in with_mark.items() if k != "intervals"} == \
        {k: v for k, v in without.items() if k != "intervals"}


# --- percentiles -------------------------------------------------------------------------------------

@pytest.mark.parametrize("key,rank", [("95th", "95"), ("99th", "99"), ("100th", "100"), ("99.9th", "99.9"),
                                      ("999th", "99.9"), ("9999th", "99.99"), ("99.99th", "99.99"),
                                      ("approx.  95", "95"), ("approx.  99", "99")])
def test_percentile_ranks(key, rank):
    text = _text("handmade-1.0.20-oltp-ro-999th-percentile.log").replace("999th percentile:", f"{key} percentile:")
    got = parse_text(text)
    assert got["latency_ms"]["percentiles"] == {rank: 21.89}
    assert got["warnings"] == []


def test_a_rank_above_100_that_names_no_percentile_is_named():
    got = parse_text(_text("handmade-1.0.20-oltp-ro-999th-percentile.log").replace("999th", "150th"))
    assert got["latency_ms"]["percentiles"] == {}
    assert got["warnings"] == ["line 31: unknown statistic '150th percentile'"]


# --- failed attempts before a run --------------------------------------------------------------------

FAILED = _text("handmade-0.4.12-failed-prepare-then-run.log").split("\n")


def test_failed_attempts_after_the_run_are_named_on_it():
    attempt = "\n".join(FAILED[:7]) + "\n"  # lines 1-7: one failed prepare
    run = "\n".join(FAILED[14:54]) + "\n"  # lines 15-54: the whole run
    runs = parse_text_runs(run + attempt)
    assert len(runs) == 1 and runs[0]["lines"] == [1, 40] and runs[0]["complete"]
    assert runs[0]["warnings"] == ["line 41: lines 41-47 are a sysbench run that failed "
                                   "(line 47: FATAL: failed to create test table); not read as a run"]


def test_a_file_of_failed_attempts_only_is_still_refused():
    with pytest.raises(ParseError, match=r"<log>:7: run failed: FATAL: failed to create test table"):
        parse_text("\n".join(FAILED[:14]) + "\n")


def test_failed_attempts_between_two_runs_are_named_on_the_next():
    run = "\n".join(FAILED[14:54]) + "\n"
    attempt = "\n".join(FAILED[:7]) + "\n"
    runs = parse_text_runs(run + attempt + run)
    assert [r["lines"] for r in runs] == [[1, 40], [48, 87]]
    assert runs[0]["warnings"] == []
    assert runs[1]["warnings"] == ["line 41: lines 41-47 are a sysbench run that failed "
                                   "(line 47: FATAL: failed to create test table); not read as a run"]


# --- Little's law under a rate ---------------------------------------------------------------------

RATE = _text("handmade-1.0.20-oltp-ro-rate-limited.log")
LITTLE = "line 20: Little's law: events/s x avg latency = 0.54 busy threads, but the run has 16"
NO_HEADER = RATE.replace("Target transaction rate: 100/sec\n", "")
NO_QUEUE = "\n".join(line for line in NO_HEADER.split("\n") if "queue length" not in line)


@pytest.mark.parametrize("text", [RATE, NO_HEADER, "$ sysbench oltp_read_only --rate=100 run\n" + NO_QUEUE,
                                  "$ sysbench --test=oltp.lua --tx-rate=100 run\n" + NO_QUEUE],
                         ids=["header", "queue", "--rate", "--tx-rate"])
def test_a_rate_limited_run_is_not_held_to_littles_law(text):
    assert not any("Little's law" in w for w in parse_text(text)["warnings"])


def test_an_unlimited_run_is_held_to_littles_law():
    assert parse_text(NO_QUEUE)["warnings"] == [LITTLE.replace("line 20", "line 16")]
    assert parse_text("$ sysbench oltp_read_only --rate=0 run\n" + NO_QUEUE)["warnings"] == [
        LITTLE.replace("line 20", "line 17")]


# --- the threads finishing at the end of a run ------------------------------------------------------

RAMP = _text("handmade-0.5-oltp-rw-ramp-down.log")


@pytest.mark.parametrize("old,new,warning", [
    # three lines falling to the end: 12, 11, 4
    ("[  30s] threads: 16", "[  30s] threads: 12", None),
    # fewer threads, then all of them again: not a ramp-down
    ("[  20s] threads: 16", "[  20s] threads: 12", "line 14: interval reports 12 threads, the header 16"),
    # 11 -> 3 -> 4: a count that rises again at the end
    ("[  40s] threads: 11", "[  40s] threads: 3", "line 16: interval reports 3 threads, the header 16"),
])
def test_only_threads_finishing_at_the_end_are_no_warning(old, new, warning):
    got = parse_text(RAMP.replace(old, new))
    assert got["warnings"] == ([warning] if warning else [])


def test_a_ramp_down_without_a_header_keeps_the_most_threads():
    got = parse_text(RAMP.replace("Number of threads: 16\n", ""))
    assert (got["threads"], got["threads_source"], got["warnings"]) == (16, "intervals", [])


# --- fileio sizes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,value", [("93.75Mb", 93.75), ("512Kb", 0.5), ("2Gb", 2048), ("1.5Tb", 1572864),
                                        ("524288b", 0.5), ("5.2083Mb", 5.2083), ("93.75", None), ("xMb", None)])
def test_04_sizes_in_mib(text, value):
    assert mib(text) == value
