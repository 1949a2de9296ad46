"""sysbench fileio runs (issue #51): a fileio log is a run of its own workload (test: its --file-test-mode,
file_test: the options it prints), stored with the figures it prints. Every expected value is read off
the fixture logs by hand (tests/fixtures/sysbench/PROVENANCE.md), the line named beside it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest.bundles.validate import validate_paths

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
