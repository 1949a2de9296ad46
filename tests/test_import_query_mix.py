"""`benchdb import` of logs that name no test: the query mix each prints tells a read-only run from one
that writes (issue #58). Before, sysbench 0.5's OLTP logs under names without ro/rw were one workload whose
test was to be stated, and a read-only run (write: 0) counted as a repetition of read-write ones.

The logs are the real ones of tests/fixtures/sysbench/ (hgxl64/mariadb-benchmarks @ 6ff617a8b44c, see its
PROVENANCE.md), copied under names that say nothing of ro or rw; each figure and line expected below was
read off the log: "read:", "write:" and "other:" under "queries performed:"."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from click.testing import CliRunner

from conftest import FIXTURES
from ingest.cli import main
from ingest.contribute.grouping import read_mapping
from ingest.contribute.importer import survey

LOGS = FIXTURES / "sysbench"
RO_64 = "mariadbbench-0.5-ro-64thr-95pct.log"  # series25/res01/sysbench.ro.64.res: read 62217666, write 0 (lines 73-74)
RW_1 = "mariadbbench-0.5-ivl-reads-s-99pct.log"  # series01/res1/sysbench.1.res: write 1018848 (line 76)
RW_128 = "mariadbbench-0.5-timer-warning.log"  # series01/res1/sysbench.128.res: write 10943796 (line 77)
WRITES_1 = "mariadbbench-0.5-errors-reconnects-cols.log"  # MDEV-13491/res01/sysbench.1.res: read 0, other 0
RO_04 = "mariadbbench-0.4.12-oltp-ro-1thr.log"  # 0.4.12, its line 9 "Doing read-only test"
FLAGS = ["--no-input", "--label", "MariaDB on SSD", "--product", "Intel SSD 320", "--vendor", "Intel", "--kind", "device",
         "--raid-level", "none", "--protocol", "local", "--cpu", "2 x Xeon", "--publisher", "MariaDB"]
READ_WRITE = "Test oltp_read_write inferred by benchdb import from the query mix its log prints, as nothing names it ("
ONE_STATEMENT = ("writes alone and no other queries: a test of one statement's mix too (insert, update_index, "
                 "update_non_index, delete)")


def _folder(root: Path, logs: dict[str, str]) -> Path:
    root.mkdir()
    for name, log in logs.items():
        shutil.copy(LOGS / log, root / name)
    return root


def _import(folder: Path, out: Path) -> tuple[list[str], dict]:
    done = CliRunner().invoke(main, ["import", str(folder), "--out", str(out), *FLAGS])
    assert done.exit_code == 0, done.output
    return done.stdout.splitlines(), yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))


def _stated(out: Path, **values: str) -> CliRunner:
    """The bundle with what the contributor states in place of its TO BE STATED values, then validated."""
    text = (out / "bundle.yaml").read_text(encoding="utf-8")
    for field, value in values.items():
        text = text.replace(f"{field}: TO BE STATED", f"{field}: {value}")
    (out / "bundle.yaml").write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["validate", str(out)])


def test_a_read_only_mix_and_read_write_mixes_are_two_workloads(tmp_path):
    # as series01/res1/ names them: the thread count alone
    folder = _folder(tmp_path / "series", {"sysbench.1.res": RW_1, "sysbench.128.res": RW_128, "sysbench.64.res": RO_64})
    out = tmp_path / "data" / "series"
    printed, doc = _import(folder, out)
    assert printed[:6] == [
        "1 system(s):",
        "  system (the only system): one system: its runs differ in no subfolder, setting or file name; 3 run(s) of "
        "oltp_read_only, oltp_read_write: sysbench.1.res, sysbench.128.res, sysbench.64.res",
        "  not a system's difference: file names' 1, 64, 128: the logs' thread counts",
        "  test oltp_read_write of sysbench.1.res: inferred from its read-write query mix, read 3565968 (line 75), "
        "write 1018848 (line 76), other 509424 (line 77)",
        "  test oltp_read_write of sysbench.128.res: inferred from its read-write query mix, read 38303286 (line 76), "
        "write 10943796 (line 77), other 5471898 (line 78)",
        "  test oltp_read_only of sysbench.64.res: inferred from its read-only query mix, read 62217666 (line 73), "
        "write 0 (line 74), other 8888238 (line 75)"]
    assert doc["workloads"] == [
        {"id": "oltp-read-only", "tool": "sysbench", "test": "oltp_read_only", "tool_version": "0.5", "concurrency": [64],
         "notes": "Test oltp_read_only inferred by benchdb import from the query mix its log prints, as nothing names "
                  "it (artifacts/sysbench.64.res: read-only, read 62217666 (line 73), write 0 (line 74), other 8888238 "
                  "(line 75))."},
        {"id": "oltp-read-write", "tool": "sysbench", "test": "oltp_read_write", "tool_version": "0.5",
         "concurrency": [1, 128],
         "notes": READ_WRITE + "artifacts/sysbench.1.res: read-write, read 3565968 (line 75), write 1018848 (line 76), "
                  "other 509424 (line 77); artifacts/sysbench.128.res: read-write, read 38303286 (line 76), write "
                  "10943796 (line 77), other 5471898 (line 78))."}]
    assert [(r["id"], r["system"], r["workload"]) for r in doc["results"]] == [
        ("sysbench-1", "system", "oltp-read-write"), ("sysbench-128", "system", "oltp-read-write"),
        ("sysbench-64", "system", "oltp-read-only")]
    done = _stated(out, engine="MariaDB", compression="none")
    assert done.exit_code == 0, done.output
    assert "error" not in done.output


def test_a_mapping_s_test_beats_the_mix(tmp_path):
    folder = _folder(tmp_path / "series", {"sysbench.1.res": RW_1, "sysbench.64.res": RO_64})
    (tmp_path / "facts.yaml").write_text('"sysbench.64.res": {answers: {test: oltp_read_only}}\n')
    found, grouping = survey(folder, mapping=read_mapping(tmp_path / "facts.yaml"))
    assert [(r["source"], t) for r, t in zip(found.runs, grouping.tests)] == [
        ("sysbench.1.res", ("oltp_read_write", "query mix")),
        ("sysbench.64.res", ("oltp_read_only", "mapping's 'sysbench.64.res'"))]


def test_runs_of_one_thread_repeat_each_other_only_where_their_tests_match(tmp_path):
    """A read-only run its log names, a read-write run its mix shows, and writes alone with no BEGIN or
    COMMIT (other 0: what oltp.lua's transactions never print), which infer no test: three workloads of
    one system at one thread, none a repetition of another."""
    folder = _folder(tmp_path / "one-thread", {"first.log": RO_04, "second.log": RW_1, "third.log": WRITES_1})
    out = tmp_path / "data" / "one-thread"
    printed, doc = _import(folder, out)
    assert printed[:5] == [
        "1 system(s):",
        "  system (the only system): one system: its runs differ in no subfolder, setting or file name; 3 run(s) of "
        "TO BE STATED, oltp_read_only, oltp_read_write: first.log, second.log, third.log",
        "  a test that nothing names: to be stated",
        "  test oltp_read_write of second.log: inferred from its read-write query mix, read 3565968 (line 75), "
        "write 1018848 (line 76), other 509424 (line 77)",
        f"  third.log: its query mix infers no test (read 0 (line 38), write 30860 (line 39), other 0 (line 40): "
        f"{ONE_STATEMENT})"]
    assert [(w["id"], w["test"], w["tool_version"], w["concurrency"], w.get("notes")) for w in doc["workloads"]] == [
        ("sysbench", "TO BE STATED", "0.5", [1], "Nothing names the test, and the query mix infers none "
         f"(artifacts/third.log: read 0 (line 38), write 30860 (line 39), other 0 (line 40): {ONE_STATEMENT})."),
        ("oltp-read-only", "oltp_read_only", "0.4.12", [1], None),
        ("oltp-read-write", "oltp_read_write", "0.5", [1], READ_WRITE + "artifacts/second.log: read-write, read "
         "3565968 (line 75), write 1018848 (line 76), other 509424 (line 77)).")]
    assert [(r["id"], r["system"], r["workload"]) for r in doc["results"]] == [
        ("first", "system", "oltp-read-only"), ("second", "system", "oltp-read-write"), ("third", "system", "sysbench")]
    done = _stated(out, engine="MariaDB", compression="none")
    assert done.exit_code == 1
    assert [line for line in done.output.splitlines() if "bundle.yaml:" in line] == [
        f"{out / 'bundle.yaml'}:26: workloads[sysbench].test: to be stated: only the contributor knows it "
        "(replace TO BE STATED)"]
