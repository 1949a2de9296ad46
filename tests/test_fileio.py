"""sysbench fileio runs (issue #51): a fileio log is a run of its own workload (test: its --file-test-mode,
file_test: the options it prints), stored with the figures it prints. Every expected value is read off
the fixture logs by hand (tests/fixtures/sysbench/PROVENANCE.md), the line named beside it."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from ingest.bundles.validate import validate_paths
from ingest.database.load import build_database
from ingest.parsers.sysbench_fileio import size_in
from ingest.parsers.sysbench_runs import parse_file

from test_validate import MINIMAL

SYSBENCH = Path(__file__).parent / "fixtures" / "sysbench"
OLTP_WORKLOAD = """\
  - id: rw
    tool: sysbench
    test: oltp_read_write
"""


def fileio_workload(test: str, **options) -> str:
    # web-1.0.20-fileio-rndrw.log's options: lines 10 (1GiB), 11 (16KiB), 14 (each 100), 15 (at the end),
    # 8 ("(none)": no O_DIRECT), 16 (synchronous)
    given = {"total_size_mib": 1024, "block_size_kib": 16, "fsync_every": 100, "fsync_end": "true",
             "fsync_all": "false", "o_direct": "false", "io_mode": "synchronous", **options}
    return (f"  - id: rw\n    tool: sysbench\n    test: {test}\n    file_test: {{"
            + ", ".join(f"{k}: {v}" for k, v in given.items()) + "}\n")


def bundle(tmp_path: Path, log: str, *, workload: str) -> Path:
    """MINIMAL with one artifact, ``log`` (a fixture), in workload ``workload`` (its YAML)."""
    text = MINIMAL.replace(OLTP_WORKLOAD, workload).replace("charts:\n", (
        "  - {type: artifact, id: log1, format: sysbench, path: artifacts/run.log, system: a}\ncharts:\n"))
    folder = tmp_path / "tiny"
    (folder / "artifacts").mkdir(parents=True)
    (folder / "bundle.yaml").write_text(text, encoding="utf-8")
    shutil.copy(SYSBENCH / log, folder / "artifacts" / "run.log")
    return folder


def problems(folder: Path) -> list[str]:
    _, found = validate_paths([folder])
    return [str(p).replace(str((folder / "bundle.yaml").absolute()), "bundle.yaml") for p in found]


def test_a_fileio_run_in_its_fileio_workload_is_valid(tmp_path):
    assert problems(bundle(tmp_path, "web-1.0.20-fileio-rndrw.log", workload=fileio_workload("rndrw"))) == []


def test_a_fileio_run_in_an_oltp_workload_is_an_error(tmp_path):
    assert problems(bundle(tmp_path, "web-1.0.20-fileio-rndrw.log", workload=OLTP_WORKLOAD)) == [
        "bundle.yaml:29: workloads[rw].test: artifacts/run.log:17 is a sysbench fileio rndrw run, but workload "
        "'rw' is test 'oltp_read_write': a fileio run belongs in a workload whose test is its --file-test-mode "
        "(rndrd, rndrw, rndwr, seqrd, seqrewr, seqwr)"]


def test_an_oltp_run_in_a_fileio_workload_is_an_error(tmp_path):
    folder = bundle(tmp_path, "web-1.0.20-oltp-rw-ivl20-shell-prompt.log", workload=fileio_workload("rndrw"))
    assert problems(folder) == [
        "bundle.yaml:43: results[log1]: artifacts/run.log is a sysbench oltp_read_write run (a database "
        "benchmark), but workload 'rw' is a fileio test (rndrw): a database run belongs in a workload of its own test"]


def test_the_workload_s_options_are_checked_against_the_log(tmp_path):
    # the 0.4 log: "Doing random r/w test" (line 15), "2Gb total file size" (line 8), flags "0" (line 6)
    workload = fileio_workload("seqwr", total_size_mib=1024, fsync_all="true", o_direct="true")
    assert problems(bundle(tmp_path, "handmade-0.4.12-fileio-rndrw.log", workload=workload)) == [
        "bundle.yaml:29: workloads[rw].test: workload 'rw' is test 'seqwr', but artifacts/run.log:15 is a rndrw run",
        "bundle.yaml:30: workloads[rw].file_test.total_size_mib: the workload says total_size_mib 1024, "
        "artifacts/run.log:8 says 2048",
        # "after each write" is printed only when on: its absence is read at the mode's line
        "bundle.yaml:30: workloads[rw].file_test.fsync_all: the workload says fsync_all true, "
        "artifacts/run.log:15 says false",
        "bundle.yaml:30: workloads[rw].file_test.o_direct: the workload says o_direct true, "
        "artifacts/run.log:6 says false"]


def test_a_fileio_workload_needs_its_options(tmp_path):
    workload = "  - id: rw\n    tool: sysbench\n    test: seqwr\n"
    assert problems(bundle(tmp_path, "handmade-1.0.20-fileio-seqwr-ivl.log", workload=workload)) == [
        "bundle.yaml:27: workloads[rw]: workload 'rw' is a fileio test: give its file_test (total_size_mib, "
        "block_size_kib, fsync_every, fsync_end, fsync_all, o_direct, io_mode) as artifacts/run.log prints them"]


def load(tmp_path: Path, log: str, workload: str) -> duckdb.DuckDBPyConnection:
    loaded, found = validate_paths([bundle(tmp_path, log, workload=workload)])
    assert found == []
    return duckdb.connect(str(build_database(loaded, db_path=tmp_path / "benchmarks.duckdb")), read_only=True)


def test_a_fileio_run_is_stored_with_the_figures_it_prints(tmp_path):
    con = load(tmp_path, "handmade-1.0.20-fileio-seqwr-ivl.log", fileio_workload("seqwr", total_size_mib=2048))
    rows = con.execute("SELECT metric, unit, value, provenance FROM results WHERE result = 'log1' "
                       "ORDER BY col_index").fetchall()
    assert rows == [
        ("latency_avg_ms", "ms", 0.08, "log artifacts/run.log, line 40"),         # "avg: 0.08"
        ("latency_p95_ms", "ms", 0.09, "log artifacts/run.log, line 42"),         # "95th percentile: 0.09"
        ("fileio_reads_s", "reads/s", 0.0, "log artifacts/run.log, line 26"),     # "reads/s: 0.00"
        ("fileio_writes_s", "writes/s", 12873.38, "log artifacts/run.log, line 27"),
        ("fsyncs_s", "fsyncs/s", 128.73, "log artifacts/run.log, line 28"),
        ("read_mib_s", "MiB/s", 0.0, "log artifacts/run.log, line 31"),           # "read, MiB/s: 0.00"
        ("written_mib_s", "MiB/s", 201.15, "log artifacts/run.log, line 32")]
    assert con.execute("SELECT DISTINCT benchmark, threads, value_kind FROM results WHERE result = 'log1'").fetchall() \
        == [("sysbench seqwr", 1, "measured")]
    # lines 21-23: "[ 10s ] reads: 0.00 MiB/s writes: 205.32 MiB/s fsyncs: 131.40/s latency (ms,95%): 0.085", ...
    assert con.execute("SELECT t_s, read_mib_s, written_mib_s, fsyncs_s, latency_pct, latency_ms, tps FROM intervals "
                       "ORDER BY t_s").fetchall() == [
        (10, 0.0, 205.32, 131.40, 95.0, 0.085, None), (20, 0.0, 198.70, 127.17, 95.0, 0.087, None),
        (30, 0.0, 201.15, 128.74, 95.0, 0.086, None)]
    # graded on MiB/s read and written: 205.32 + 198.70 + 201.15 = 605.17 over 3 samples; 30.0032 s long
    grade, mean = con.execute("SELECT grade, tps_mean_all FROM run_grades").fetchone()
    assert grade == "fail" and mean == pytest.approx(605.17 / 3)
    assert con.execute("SELECT status, reason FROM run_checks WHERE rule IN ('duration', 'stalls', 'buffer_pool') "
                       "ORDER BY rule").fetchall() == [
        ("not known", "not known: a sysbench fileio run uses no database buffer pool"),
        ("fail", "the run lasts 30.0 s; under the 60 s minimum"),
        ("pass", "no sample under 25% of the median MiB/s read and written (201.15)")]


def test_a_0_4_fileio_run_is_stored_with_its_requests_and_transfer_rates(tmp_path):
    workload = fileio_workload("rndrw", total_size_mib=2048)
    con = load(tmp_path, "handmade-0.4.12-fileio-rndrw.log", workload)
    assert con.execute("SELECT metric, unit, value_text, line, threads FROM results WHERE result = 'log1' "
                       "ORDER BY col_index").fetchall() == [
        ("latency_avg_ms", "ms", "11.97", 29, 4),                    # "avg: 11.97ms", "Number of threads: 4"
        ("latency_p95_ms", "ms", "45.12", 31, 4),                    # "approx.  95 percentile: 45.12ms"
        ("requests_s", "requests/s", "333.33", 21, 4),               # "333.33 Requests/sec executed"
        ("transferred_mib_s", "MiB/s", "5.2083", 20, 4)]             # "(5.2083Mb/sec)"
    assert con.execute("SELECT grade FROM run_grades").fetchall() == [("not graded",)]


@pytest.mark.parametrize(("text", "power", "value"), [
    ("16KiB", 1, 16), ("512B", 1, 0.5), ("1.5GiB", 2, 1536), ("2Gb", 2, 2048), ("4Mb", 1, 4096), ("16x", 1, None)])
def test_a_printed_size_is_read_in_powers_of_1024(text, power, value):
    assert size_in(text, power) == value


def test_the_options_sysbench_prints_only_when_on_are_read_when_on(tmp_path):
    # 1.0 print_file_extra_flags "sync " and "directio"; "Calling fsync() after each write operation."; no
    # periodic fsync line (--file-fsync-freq=0)
    log = (SYSBENCH / "web-1.0.20-fileio-rndrw.log").read_text(encoding="utf-8")
    log = log.replace("Extra file open flags: (none)", "Extra file open flags: sync directio")
    log = log.replace("Periodic FSYNC enabled, calling fsync() each 100 requests.\n",
                      "Calling fsync() after each write operation.\n")
    path = tmp_path / "run.log"
    path.write_text(log, encoding="utf-8")
    assert parse_file(path)["fileio"]["options"] == {
        "fsync_every": 0, "fsync_end": True, "fsync_all": True, "extra_flags": "sync directio", "o_direct": True,
        "files": 128, "file_size_mib": 8, "total_size": "1GiB", "total_size_mib": 1024, "block_size": "16KiB",
        "block_size_kib": 16, "io_mode": "synchronous", "mode": "rndrw"}
    # 0.4 prints the flags as the platform's number: only 0 says no O_DIRECT
    log = (SYSBENCH / "handmade-0.4.12-fileio-rndrw.log").read_text(encoding="utf-8")
    path.write_text(log.replace("Extra file open flags: 0", "Extra file open flags: 4000"), encoding="utf-8")
    assert parse_file(path)["fileio"]["options"]["o_direct"] is None


def test_an_unfinished_fileio_run_keeps_its_options(tmp_path):
    # the seqwr log cut after its interval lines (21-23): no figures, its options (lines 9-16) all the same
    log = (SYSBENCH / "handmade-1.0.20-fileio-seqwr-ivl.log").read_text(encoding="utf-8")
    path = tmp_path / "run.log"
    path.write_text(log[: log.index("File operations:")], encoding="utf-8")
    run = parse_file(path)
    assert (run["complete"], list(run["fileio"]), run["fileio"]["options"]["mode"]) == (False, ["options"], "seqwr")


def test_a_chart_of_a_fileio_metric_names_its_workload_among_several(tmp_path):
    two = fileio_workload("rndrw") + fileio_workload("seqwr").replace("id: rw", "id: seq")
    folder = bundle(tmp_path, "web-1.0.20-fileio-rndrw.log", workload=two)
    text = (folder / "bundle.yaml").read_text(encoding="utf-8").replace(
        "system: a}\ncharts:\n",
        "system: a, workload: rw}\ncharts:\n  - {id: w, title: W, metric: fileio_writes_s, x: threads}\n"
    ).replace("state: optimal}", "state: optimal, workload: rw}")  # the table's
    (folder / "bundle.yaml").write_text(text, encoding="utf-8")
    assert problems(folder) == [
        "bundle.yaml:49: charts[w]: a chart of fileio_writes_s needs its workload: the bundle has 2 fileio "
        "workloads (rw, seq)"]
