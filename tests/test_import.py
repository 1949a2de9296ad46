"""`benchdb import`: a bundle from a folder of logs, with what only the contributor knows to be stated."""

from __future__ import annotations

import json

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import FIXTURES, ROOT, copy_project
from ingest.build.site import build_site
from ingest.contribute.importer import ImportFailed, import_folder
from ingest.bundles.validate import validate_paths

RW = "web-1.0.20-oltp-rw-ivl20-shell-prompt.log"  # 54 lines: sysbench 1.0.20 oltp_read_write, 64 threads
RO = "web-0.4.12-oltp-ro-2thr-lastmsg-repeated.log"
VARIABLES = ("Variable_name\tValue\ninnodb_buffer_pool_size\t134217728\ninnodb_doublewrite\tOFF\n"
             "innodb_flush_method\tO_DIRECT\ninnodb_page_size\t16384\nversion\t10.11.6-MariaDB-0+deb12u1\n")
EVERYTHING = {"label": "MD RAID 10 on 4 NVMe", "product": "Linux MD RAID", "vendor": "Linux kernel",
              "kind": "software-raid", "raid_level": "10", "drives": "4", "drive_model": "Samsung PM9A3",
              "protocol": "local", "cpu": "2 vCPU", "publisher": "A. Contributor"}


def _folder(tmp_path: Path) -> Path:
    logs = tmp_path / "logs"
    (logs / "run2").mkdir(parents=True)
    shutil.copy(FIXTURES / "sysbench" / RW, logs / RW)
    shutil.copy(FIXTURES / "sysbench" / "web-1.0.20-fileio-rndrw.log", logs)
    shutil.copy(FIXTURES / "mdstat" / "checkraid-pr28_0.txt", logs / "mdstat.txt")
    (logs / "variables.txt").write_text(VARIABLES, encoding="utf-8")
    (logs / "notes.md").write_text("what I did\n", encoding="utf-8")
    # two runs one after the other in one file, and a log of the same name in another folder
    both = (FIXTURES / "sysbench" / RO).read_text(encoding="utf-8") + (FIXTURES / "sysbench" / RO).read_text(encoding="utf-8")
    (logs / "run2" / "both.log").write_text(both, encoding="utf-8")
    shutil.copy(FIXTURES / "sysbench" / RW, logs / "run2" / RW)
    return logs


def test_a_folder_becomes_a_bundle_with_its_unknowns_to_be_stated(tmp_path):
    out = tmp_path / "data" / "my-runs"
    found, problems = import_folder(_folder(tmp_path), out=out, answers={})
    assert found.skipped == [
        ("notes.md", "not a sysbench log, /proc/mdstat output, variables dump, my.cnf, mdadm --detail or lsblk output "
                     f"({tmp_path}/logs/notes.md: not a sysbench log (no sysbench header, interval or statistics line))")]
    doc = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))
    assert [(r["id"], r["path"], r.get("workload")) for r in doc["results"]] == [
        ("run2-both-run1", "artifacts/run2-both-run1.log", "oltp-read-only"),
        ("run2-both-run2", "artifacts/run2-both-run2.log", "oltp-read-only"),
        ("run2-web-1-0-20-oltp-rw-ivl20-shell-prompt", f"artifacts/run2-{RW}", "oltp-read-write"),
        # a fileio run is a workload of its own: its mode and block size ("random r/w", "Block size 16KiB")
        ("web-1-0-20-fileio-rndrw", "artifacts/web-1.0.20-fileio-rndrw.log", "fileio-rndrw-16k"),
        ("web-1-0-20-oltp-rw-ivl20-shell-prompt", f"artifacts/{RW}", "oltp-read-write"),
        ("mdstat", "artifacts/mdstat.txt", "TO BE STATED")]
    # its options as the log prints them, lines 8-16 (1GiB, 16KiB, fsync each 100 and at the end, "(none)")
    assert doc["workloads"][2] == {
        "id": "fileio-rndrw-16k", "tool": "sysbench", "test": "rndrw", "tool_version": "1.0.20", "concurrency": [1],
        "file_test": {"total_size_mib": 1024, "block_size_kib": 16, "fsync_every": 100, "fsync_end": True,
                      "fsync_all": False, "o_direct": False, "io_mode": "synchronous"}}
    # a chart of each figure it prints that is not 0, by thread count, of its workload alone
    assert [(c["id"], c["metric"], c["workload"]) for c in doc["charts"]] == [
        (f"fileio-rndrw-16k-{figure.replace('_', '-')}", metric, "fileio-rndrw-16k")
        for figure, metric in (("reads_s", "fileio_reads_s"), ("writes_s", "fileio_writes_s"), ("fsyncs_s", "fsyncs_s"),
                               ("read_mib_s", "read_mib_s"), ("written_mib_s", "written_mib_s"))]
    database = doc["systems"][0]["database"]
    assert (database["engine"], database["doublewrite"], database["buffer_pool_mib"], database["page_size_kib"]) == (
        "MariaDB", False, 128, 16)
    assert "innodb_doublewrite = OFF (artifacts/variables.txt line 3)" in doc["systems"][0]["notes"]
    assert [(p.line, p.field) for p in problems] == [
        (7, "sources[logs].publisher"), (13, "systems[system].label"), (15, "systems[system].storage.product"),
        (16, "systems[system].storage.vendor"), (17, "systems[system].storage.kind"), (18, "systems[system].protocol"),
        (25, "systems[system].database.compression"), (32, "systems[system].host.cpu"),
        (34, "systems[system].raid.level"), (35, "systems[system].raid.drives"), (36, "systems[system].raid.drive_model"),
        (105, "results[mdstat].workload")]
    assert {(p.type, p.message) for p in problems} == {
        ("to-be-stated", "to be stated: only the contributor knows it (replace TO BE STATED)")}


def test_a_file_of_several_runs_is_split_one_run_a_file(tmp_path):
    """The 0.4.12 log twice: 42 lines each, the last blank, so its runs are lines 1-41 and 43-83."""
    out = tmp_path / "data" / "my-runs"
    import_folder(_folder(tmp_path), out=out, answers=EVERYTHING)
    lines = (FIXTURES / "sysbench" / RO).read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) == 42 and lines[41] == "\n"
    assert (out / "artifacts" / "run2-both-run1.log").read_text(encoding="utf-8") == "".join(lines[:41])
    assert (out / "artifacts" / "run2-both-run2.log").read_text(encoding="utf-8") == "".join(lines[:41])
    notes = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))["notes"]
    assert notes[1:] == [
        "Files that held several runs were split, one run a file: artifacts/run2-both-run1.log is lines 1-41 of "
        "run2/both.log; artifacts/run2-both-run2.log is lines 43-83 of run2/both.log.",
        "The other 2 line(s) of run2/both.log outside its runs are blank."]


def test_with_every_answer_the_bundle_validates_and_builds(tmp_path):
    project = copy_project(tmp_path / "project")
    out = project.data / "my-runs"
    logs = _folder(tmp_path)
    shutil.copy(FIXTURES / "sysbench" / "handmade-1.0.20-fileio-seqwr-ivl.log", logs)  # fileio with intervals
    _, problems = import_folder(logs, out=out, answers={**EVERYTHING})
    # table compression is not a server variable; the snapshot was taken with one of two workloads
    assert [p.field for p in problems] == ["systems[system].database.compression", "results[mdstat].workload"]
    text = (out / "bundle.yaml").read_text(encoding="utf-8")
    text = text.replace("compression: TO BE STATED", "compression: none")
    (out / "bundle.yaml").write_text(text.replace("workload: TO BE STATED", "workload: oltp-read-write"), encoding="utf-8")
    bundles, problems = validate_paths([out])
    assert len(bundles) == 1 and [p for p in problems if p.severity == "error"] == []
    build_site(project)
    page = (project.public / "studies" / "my-runs" / "index.html").read_text(encoding="utf-8")
    assert "MD RAID 10 on 4 NVMe" in page and "30.99" in page  # the 1.0.20 log's tps (its line 35)
    # the fileio runs in a table of their own: rndrw's "reads/s: 447.81" (line 24), seqwr's "writes/s:
    # 12873.38" (line 27), each linking to its line
    fileio = page[page.index('<h3 id="fileio-runs">'):]
    assert '<data value="447.81"' in fileio and "/artifacts/my-runs/web-1-0-20-fileio-rndrw/#L24" in fileio
    assert '<data value="12873.38"' in fileio and "/my-runs/handmade-1-0-20-fileio-seqwr-ivl/#L27" in fileio
    # seqwr's interval lines (21-23) drawn in panels of their own (not its reads: "reads: 0.00 MiB/s" in
    # each), its samples fetched when its fold opens: "writes: 205.32 MiB/s" at 10 s
    chart = page[page.index('<figure id="fileio-over-time"'):]
    assert [m for m in ("written_mib_s", "read_mib_s", "fsyncs_s", "latency_ms")
            if f'data-metric="{m}"' in chart[:chart.index("</figure>")]] == ["written_mib_s", "fsyncs_s", "latency_ms"]
    samples = json.loads((project.public / "data" / "studies" / "my-runs" / "fileio-over-time.json").read_text(encoding="utf-8"))
    at_10 = [s for r in samples["runs"] for s in r["intervals"] if s["t_s"] == 10 and s["written_mib_s"] == 205.32]
    assert [(s["read_mib_s"], s["fsyncs_s"]) for s in at_10] == [(0, 131.4)]
    # the imported charts of each figure by threads, one a workload: seqwr prints no reads (0.00), so none of them
    assert 'id="chart-fileio-seqwr-16k-written-mib-s"' in page and 'id="chart-fileio-rndrw-16k-reads-s"' in page
    assert 'id="chart-fileio-seqwr-16k-reads-s"' not in page


def test_the_command_asks_nothing_without_a_terminal(tmp_path):
    out = tmp_path / "data" / "my-runs"
    benchdb = Path(sys.executable).parent / "benchdb"
    here = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's code, not the installed copy's
    done = subprocess.run([str(benchdb), "import", str(_folder(tmp_path)), "--out", str(out), "--product", "Linux MD RAID"],
                          cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, env=here)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [  # the grouping, shown before the bundle is written
        "1 system(s):",
        "  system (the only system): one system: its runs differ in no subfolder, setting or file name; 5 run(s) of "
        f"oltp_read_only, oltp_read_write, rndrw: run2/both.log, run2/{RW}, web-1.0.20-fileio-rndrw.log, {RW}",
        "  not a system's difference: folder(s) run2/: named as repetitions, not systems",
        f"wrote {out}: 5 run(s), 1 mdstat file(s), 5 database setting(s) read"]
    assert done.stderr.splitlines()[-1] == f"11 value(s) to be stated: edit {out / 'bundle.yaml'}, then run benchdb validate"
    done = subprocess.run([str(benchdb), "import", str(tmp_path / "logs"), "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, env=here)
    assert (done.returncode, done.stderr) == (1, f"Error: {out} exists already: choose another --out or remove it\n")


def test_at_a_terminal_it_asks_what_was_not_given(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from ingest import cli

    monkeypatch.setattr(cli, "_at_a_terminal", lambda: True)
    out = tmp_path / "data" / "my-runs"
    # every question in order but the product (given as a flag); Enter leaves one to be stated
    answers = ["MD RAID 10", "Linux kernel", "software-raid", "10", "4", "", "local", "2 vCPU", "Me"]
    done = CliRunner().invoke(cli.main, ["import", str(_folder(tmp_path)), "--out", str(out), "--product", "Linux MD RAID"],
                              input="\n".join(answers) + "\n")
    assert done.exit_code == 0, done.output
    assert "the drives' model (Enter: state it later): " in done.output
    system = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))["systems"][0]
    assert (system["label"], system["storage"], system["raid"]) == (
        "MD RAID 10", {"product": "Linux MD RAID", "vendor": "Linux kernel", "kind": "software-raid"},
        {"level": "10", "drives": 4, "drive_model": "TO BE STATED"})


MDADM = """/dev/md0:
           Version : 1.2
     Creation Time : Mon May  6 10:00:00 2024
        Raid Level : raid10
        Array Size : 1953260544 (1862.77 GiB 2000.14 GB)
      Raid Devices : 4
     Total Devices : 4
            Layout : near=2
        Chunk Size : 512K

    Number   Major   Minor   RaidDevice State
       0     259        1        0      active sync set-A   /dev/nvme0n1p1
       1     259        3        1      active sync set-B   /dev/nvme1n1p1
       2     259        5        2      active sync set-A   /dev/nvme2n1p1
       3     259        7        3      active sync set-B   /dev/nvme3n1p1
"""
# lsblk -o NAME,MODEL,SIZE,TYPE (a tree: partitions under their disk)
LSBLK = """NAME          MODEL                       SIZE TYPE
nvme0n1       Samsung SSD 980 PRO 1TB   931.5G disk
└─nvme0n1p1                             931.5G part
nvme1n1       Samsung SSD 980 PRO 1TB   931.5G disk
└─nvme1n1p1                             931.5G part
nvme2n1       Samsung SSD 980 PRO 1TB   931.5G disk
└─nvme2n1p1                             931.5G part
nvme3n1       Samsung SSD 980 PRO 1TB   931.5G disk
└─nvme3n1p1                             931.5G part
vda           QEMU HARDDISK              40G disk
"""


def test_mdadm_detail_gives_the_raid_level_drives_and_chunk_with_their_lines(tmp_path):
    logs = _folder(tmp_path)
    (logs / "mdadm-detail.txt").write_text(MDADM, encoding="utf-8")
    out = tmp_path / "data" / "my-runs"
    _, problems = import_folder(logs, out=out, answers={})
    system = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))["systems"][0]
    assert system["raid"] == {"level": "10", "drives": 4, "drive_model": "TO BE STATED", "chunk_kib": 512}
    assert system["notes"].count("lsblk") == 0
    assert system["notes"].endswith("RAID as mdadm --detail prints it: chunk size 512K (artifacts/mdadm-detail.txt "
                                    "line 9); raid devices 4 (artifacts/mdadm-detail.txt line 6); raid level raid10 "
                                    "(artifacts/mdadm-detail.txt line 4).")
    assert "systems[system].raid.level" not in {p.field for p in problems}
    with pytest.raises(ImportFailed) as caught:
        import_folder(logs, out=tmp_path / "data" / "other", answers={"raid_level": "6"})
    assert str(caught.value) == "--raid-level 6 but mdadm --detail says 10 (artifacts/mdadm-detail.txt)"


def test_lsblk_names_the_model_of_the_drives_mdadm_lists(tmp_path):
    logs = _folder(tmp_path)
    (logs / "mdadm-detail.txt").write_text(MDADM, encoding="utf-8")
    (logs / "lsblk.txt").write_text(LSBLK, encoding="utf-8")
    out = tmp_path / "data" / "my-runs"
    import_folder(logs, out=out, answers={})
    system = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))["systems"][0]
    assert system["raid"]["drive_model"] == "Samsung SSD 980 PRO 1TB"
    assert system["notes"].endswith(
        "Drive model as lsblk prints it for the array's members: nvme0n1p1: Samsung SSD 980 PRO 1TB "
        "(artifacts/lsblk.txt line 2); nvme1n1p1: Samsung SSD 980 PRO 1TB (artifacts/lsblk.txt line 4); "
        "nvme2n1p1: Samsung SSD 980 PRO 1TB (artifacts/lsblk.txt line 6); nvme3n1p1: Samsung SSD 980 PRO 1TB "
        "(artifacts/lsblk.txt line 8).")
    (logs / "lsblk.txt").write_text(LSBLK.replace("nvme3n1       Samsung SSD 980 PRO 1TB", "nvme3n1       Samsung SSD 970 EVO 1TB "),
                                    encoding="utf-8")
    import_folder(logs, out=tmp_path / "data" / "mixed", answers={})
    system = yaml.safe_load((tmp_path / "data" / "mixed" / "bundle.yaml").read_text(encoding="utf-8"))["systems"][0]
    assert system["raid"]["drive_model"] == "TO BE STATED"
    assert "The array's members have no single model in lsblk: " in system["notes"]


def test_a_run_whose_test_the_log_does_not_name_is_skipped_in_words(tmp_path):
    """sysbench's own histogram test template names no test (it was "a sysbench None test")."""
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(FIXTURES / "sysbench" / RW, logs / RW)
    shutil.copy(FIXTURES / "sysbench" / "sysbench-repo-CRAMTEMPLATE-master-histogram.log", logs / "histogram.log")
    found, _ = import_folder(logs, out=tmp_path / "data" / "x", answers={})
    assert found.skipped == [("histogram.log", "a sysbench run whose test the log does not name, and not a database run")]
