"""`benchdb import` on a folder holding what a folder can hold: it reads regular files only, each within a
size and a piece at a time, names everything else it skips, and shortens long names (issue #49, hole 7).
Before, a FIFO hung the import, a socket, /dev/zero and a 250-character name of a multi-run log ended in
tracebacks, and a 2 GB file was read whole."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from conftest import FIXTURES, ROOT
from ingest.cli import main
from ingest.contribute.importer import MAX_FILE_BYTES, MAX_NAME
from ingest.parsers.sysbench_runs import parse_text_runs

LOGS = FIXTURES / "sysbench"
LONG = "a" * 246 + ".log"  # 250 characters: with "-run1" and a folder's name, past what a file system takes


def _odd_folder(folder: Path) -> bool:
    """A folder of two logs (one of three runs, under a 250-character name) beside a FIFO, a socket, a
    2 GiB sparse file, a log followed by 64 MiB of NUL bytes and, where this user may make one, a device
    (/dev/zero's numbers). Whether the device was made."""
    folder.mkdir()
    shutil.copy(LOGS / "handmade-1.0.17-oltp-ro-rhel-prompt.log", folder / "good.log")
    shutil.copy(LOGS / "handmade-1.0.20-point-select-three-runs.log", folder / LONG)
    os.mkfifo(folder / "fifo")
    here = os.getcwd()
    os.chdir(folder)  # a socket's path is short (108 bytes): bound by its name
    try:
        server = socket.socket(socket.AF_UNIX)
        server.bind("sock")
        server.close()
    finally:
        os.chdir(here)
    with open(folder / "sparse.log", "wb") as f:
        f.truncate(2 * 2**30 + 1)
    with open(folder / "zeros.log", "wb") as f:  # the log's 98 lines, then NUL bytes from line 99 on
        f.write((LOGS / "mariadbbench-0.5-timer-warning.log").read_bytes())
        f.write(b"\0" * 64 * 2**20)
    try:
        os.mknod(folder / "zero", 0o20666, os.makedev(1, 5))
    except PermissionError:
        return False
    return True


def test_an_odd_folder_is_imported_with_everything_skipped_named(tmp_path):
    folder = tmp_path / "odd"
    device = _odd_folder(folder)
    benchdb = Path(sys.executable).parent / "benchdb"
    done = subprocess.run([str(benchdb), "import", str(folder), "--out", str(tmp_path / "out" / "odd"), "--no-input"],
                          capture_output=True, text=True, timeout=120,  # a FIFO opened to read waits for ever
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # this checkout's code, not the installed one
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [  # the grouping first: two names with nothing in common make no system
        "1 system(s):",
        "  system (the only system): one system: its runs differ in no subfolder, setting or file name; 4 run(s) of "
        f"TO BE STATED, oltp_read_only: {LONG}, good.log",
        "  a test that nothing names: to be stated",
        # the three point_select runs (handmade-1.0.20-point-select-three-runs.log's lines 17-19, 57-59, 97-99):
        # reads and no other queries, which oltp_read_only's BEGIN and COMMIT would be
        *(f"  {LONG} lines {first}-{last}: its query mix infers no test (read {reads} (line {line}), write 0 "
          f"(line {line + 1}), other 0 (line {line + 2}): reads alone and no other queries: a test of one "
          "statement's mix too (point_select, select_random_points, select_random_ranges))"
          for first, last, reads, line in ((1, 39, 102749, 17), (41, 79, 189316, 57), (81, 119, 332463, 97))),
        "wrote {}: 4 run(s), 0 mdstat file(s), 0 database setting(s) read".format(tmp_path / "out" / "odd")]
    skipped = [line for line in done.stderr.splitlines() if line.startswith("skipped ")]
    assert skipped == [
        "skipped fifo: a FIFO (named pipe): not read",
        "skipped sock: a socket: not read",
        f"skipped sparse.log: 2,147,483,649 bytes: larger than the {MAX_FILE_BYTES:,} bytes import reads",
        *(["skipped zero: a character device: not read"] if device else []),
        "skipped zeros.log: not a sysbench log, /proc/mdstat output, variables dump, my.cnf, mdadm --detail or "
        f"lsblk output ({folder / 'zeros.log'}:99: a line longer than 4,194,304 bytes: not a sysbench log; at "
        f"{(folder / 'zeros.log').stat().st_size:,} bytes, larger than the 16,777,216 a settings file, mdadm's or "
        "lsblk's output may be, it was not read as one)"]
    artifacts = sorted(p.name for p in (tmp_path / "out" / "odd" / "artifacts").iterdir())
    assert artifacts[-1] == "good.log" and len(artifacts) == 4
    runs = artifacts[:3]
    assert [name[-9:] for name in runs] == ["-run1.log", "-run2.log", "-run3.log"]
    assert all(len(name.encode()) <= MAX_NAME and name.startswith("a" * 60) for name in runs)
    assert len({name[:-9] for name in runs}) == 1  # one file's runs: one stem, its hash kept
    # each run file holds its lines of the original: lines 1-39, 41-79 and 81-119 of the three-run log (each
    # from its "sysbench 1.0.20" line to its "execution time" line; lines 40, 80 and 120 are blank)
    original = (folder / LONG).read_bytes().splitlines(keepends=True)
    assert [(tmp_path / "out" / "odd" / "artifacts" / name).read_bytes() for name in runs] == [
        b"".join(original[0:39]), b"".join(original[40:79]), b"".join(original[80:119])]
    # the workload's note cites each run's mix by its lines in its own file: 17-19 of each 39-line piece
    doc = yaml.safe_load((tmp_path / "out" / "odd" / "bundle.yaml").read_text(encoding="utf-8"))
    assert next(w["notes"] for w in doc["workloads"] if w["id"] == "sysbench") == (
        "Nothing names the test, and the query mix infers none (" + "; ".join(
            f"artifacts/{name}: read {reads} (line 17), write 0 (line 18), other 0 (line 19): reads alone and no "
            "other queries: a test of one statement's mix too (point_select, select_random_points, "
            "select_random_ranges)" for name, reads in zip(runs, (102749, 189316, 332463))) + ").")


def test_files_and_folders_that_cannot_be_read_are_named(tmp_path, monkeypatch):
    """Root reads any file, so the refusals are made here as the system would make them."""
    folder = tmp_path / "logs"
    (folder / "locked").mkdir(parents=True)
    shutil.copy(LOGS / "handmade-1.0.17-oltp-ro-rhel-prompt.log", folder / "good.log")
    shutil.copy(LOGS / "handmade-1.0.17-oltp-ro-rhel-prompt.log", folder / "secret.log")
    real_open, real_scandir = os.open, os.scandir

    def refusing_open(path, *args, **kwargs):
        if str(path).endswith("secret.log"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    def refusing_scandir(path="."):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", refusing_open)
    monkeypatch.setattr(os, "scandir", refusing_scandir)
    result = CliRunner().invoke(main, ["import", str(folder), "--out", str(tmp_path / "out" / "x"), "--no-input"])
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if line.startswith("skipped ")] == [
        "skipped locked: a folder that cannot be read (Permission denied)",
        "skipped secret.log: cannot be read (Permission denied)"]
    assert sorted(p.name for p in (tmp_path / "out" / "x" / "artifacts").iterdir()) == ["good.log"]


def test_lines_that_are_not_sysbench_are_counted_past_the_first_thousand():
    log = (LOGS / "handmade-1.0.17-oltp-ro-rhel-prompt.log").read_text()  # 43 lines
    [run] = parse_text_runs(log + "junk\n" * 2500)
    skipped = [w for w in run["warnings"] if "not sysbench output" in w]
    assert len(skipped) == 1001
    assert skipped[999] == "line 1043: skipped a line that is not sysbench output: 'junk'"
    assert skipped[1000] == ("line 2543: skipped 1,500 more lines that are not sysbench output, up to this one "
                             "(the first 1,000 are named one by one)")
