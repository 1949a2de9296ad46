"""`benchdb import` makes one study of many systems (issue #51): runs grouped by subfolder, by the settings
files that apply to them and by the varying part of their file names; workloads one a sysbench test;
repetitions only where test, threads, settings and system match. The folders are made here of copies of
the sysbench fixtures; each expected value is read off the folder made above it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import FIXTURES, build_with_bundle, copy_project
from ingest.build.site import build_site
from ingest.bundles.validate import validate_paths
from ingest.cli import main
from ingest.contribute.grouping import MappingError, describe, read_mapping
from ingest.contribute.importer import import_folder, survey
from ingest.publish.facets import read_facets

LOGS = FIXTURES / "sysbench"
RO = "handmade-1.0.17-oltp-ro-rhel-prompt.log"  # oltp_read_only, 16 threads (its command line and header)
RW = "web-1.0.20-oltp-rw-ivl20-shell-prompt.log"  # oltp_read_write, 64 threads
PS3 = "handmade-1.0.20-point-select-three-runs.log"  # three runs (1, 2, 4 threads) that name no test
EVERYTHING = {"label": "MD RAID 10", "product": "Linux MD RAID", "vendor": "Linux kernel", "kind": "software-raid",
              "raid_level": "10", "drives": "4", "drive_model": "Samsung PM9A3", "protocol": "local",
              "cpu": "2 vCPU", "publisher": "A. Contributor"}


def _variables(doublewrite: str) -> str:
    return ("Variable_name\tValue\ninnodb_buffer_pool_size\t134217728\n"
            f"innodb_doublewrite\t{doublewrite}\ninnodb_flush_method\tO_DIRECT\nversion\t10.11.6-MariaDB\n")


def _copy(name: str, to: Path) -> None:
    to.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(LOGS / name, to)


def _doc(out: Path) -> dict:
    return yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))


def _errors(out: Path) -> list:
    return [p for p in validate_paths([out])[1] if p.severity == "error" and p.type != "to-be-stated"]


def test_subfolders_are_systems_and_a_filesystem_s_name_its_filesystem(tmp_path):
    folder = tmp_path / "fs"
    for fs in ("ext4", "xfs"):
        _copy(RO, folder / fs / "ro.log")
        _copy(RW, folder / fs / "rw.log")
    _copy(RW, folder / "xfs" / "run2" / "rw.log")  # a repetition's folder: the same system
    out = tmp_path / "data" / "fs"
    found, problems = import_folder(folder, out=out, answers={})
    doc = _doc(out)
    assert [(s["id"], s["label"], s.get("filesystem")) for s in doc["systems"]] == [
        ("ext4", "ext4", {"type": "ext4"}), ("xfs", "xfs", {"type": "xfs"})]
    assert doc["systems"][1]["notes"] == ("Grouped by benchdb import: subfolder xfs/. "
                                          "Filesystem xfs: the name of its subfolder xfs/.")
    assert [(w["id"], w["test"], w["concurrency"]) for w in doc["workloads"]] == [
        ("oltp-read-only", "oltp_read_only", [16]), ("oltp-read-write", "oltp_read_write", [64])]
    assert [(r["path"], r["system"], r["workload"]) for r in doc["results"]] == [
        ("artifacts/ext4-ro.log", "ext4", "oltp-read-only"), ("artifacts/ext4-rw.log", "ext4", "oltp-read-write"),
        ("artifacts/xfs-ro.log", "xfs", "oltp-read-only"), ("artifacts/xfs-run2-rw.log", "xfs", "oltp-read-write"),
        ("artifacts/xfs-rw.log", "xfs", "oltp-read-write")]  # xfs's two read-write runs: repetitions
    assert _errors(out) == []
    assert {p.field for p in problems} >= {"systems[ext4].storage.product", "systems[xfs].protocol"}
    _, grouping = survey(folder)
    assert describe(grouping, runs=found.runs) == [
        "2 system(s):",
        "  ext4 (ext4): subfolder ext4/; 2 run(s) of oltp_read_only, oltp_read_write: ext4/ro.log, ext4/rw.log",
        "  xfs (xfs): subfolder xfs/; 3 run(s) of oltp_read_only, oltp_read_write: xfs/ro.log, xfs/run2/rw.log, "
        "xfs/rw.log",
        "  not a system's difference: folder(s) run2/: named as repetitions, not systems"]


def test_a_name_that_is_no_filesystem_gives_none(tmp_path):
    folder = tmp_path / "versions"
    _copy(RW, folder / "mariadb-10.6" / "rw.log")
    _copy(RW, folder / "mariadb-10.11" / "rw.log")
    out = tmp_path / "data" / "versions"
    import_folder(folder, out=out, answers={})
    systems = _doc(out)["systems"]
    assert [(s["id"], s["label"], "filesystem" in s) for s in systems] == [
        ("mariadb-10-11", "mariadb-10.11", False), ("mariadb-10-6", "mariadb-10.6", False)]
    assert systems[0]["notes"] == ("Grouped by benchdb import: subfolder mariadb-10.11/. Its logs are in the "
                                   "subfolder mariadb-10.11/; what that name means is not read from it.")


def test_a_provisioned_iops_sweep_is_a_system_a_value_and_a_test_from_the_file_name(tmp_path):
    folder = tmp_path / "iops"
    for iops in (1000, 5000, 15000):
        _copy(RW, folder / f"res_iops{iops}.txt")
    _copy(PS3, folder / "point_select_iops1000.txt")  # the log names no test: its file name does
    out = tmp_path / "data" / "iops"
    found, _ = import_folder(folder, out=out, answers={"label": "EBS io2"})
    doc = _doc(out)
    assert [(s["id"], s["label"], s["notes"]) for s in doc["systems"]] == [
        ("iops-1000", "EBS io2, iops 1000", "Grouped by benchdb import: file names' iops=1000."),
        ("iops-5000", "EBS io2, iops 5000", "Grouped by benchdb import: file names' iops=5000."),
        ("iops-15000", "EBS io2, iops 15000", "Grouped by benchdb import: file names' iops=15000.")]  # as numbers
    assert [(w["id"], w["test"], w["concurrency"]) for w in doc["workloads"]] == [
        ("oltp-point-select", "oltp_point_select", [1, 2, 4]), ("oltp-read-write", "oltp_read_write", [64])]
    assert [(r["id"], r["system"], r["workload"]) for r in doc["results"]] == [
        ("point-select-iops1000-run1", "iops-1000", "oltp-point-select"),
        ("point-select-iops1000-run2", "iops-1000", "oltp-point-select"),
        ("point-select-iops1000-run3", "iops-1000", "oltp-point-select"),
        ("res-iops1000", "iops-1000", "oltp-read-write"), ("res-iops15000", "iops-15000", "oltp-read-write"),
        ("res-iops5000", "iops-5000", "oltp-read-write")]
    assert _errors(out) == []
    _, grouping = survey(folder)
    assert describe(grouping, runs=found.runs)[-1] == "  test oltp_point_select: from the file name"


def test_thread_counts_repetitions_and_dates_in_names_make_no_system(tmp_path):
    folder = tmp_path / "same"
    _copy(RO, folder / "ro_16thr_rep1_20240501.log")
    _copy(RO, folder / "ro_16thr_rep2_20240502.log")
    out = tmp_path / "data" / "same"
    found, _ = import_folder(folder, out=out, answers={})
    doc = _doc(out)
    assert [s["id"] for s in doc["systems"]] == ["system"]
    assert {(r["system"], r["workload"]) for r in doc["results"]} == {("system", "oltp-read-only")}
    assert survey(folder)[1].notes == ["file names' 20240501, 20240502: dates or times",
                                       "file names' rep1, rep2: repetitions"]


def test_read_only_is_never_a_repetition_of_read_write_at_the_same_threads(tmp_path):
    """The same three-run log (1, 2 and 4 threads, no test named) as read_only and as read_write."""
    folder = tmp_path / "tests"
    _copy(PS3, folder / "sb_read_only.log")
    _copy(PS3, folder / "sb_read_write.log")
    out = tmp_path / "data" / "tests"
    import_folder(folder, out=out, answers={})
    doc = _doc(out)
    assert [s["id"] for s in doc["systems"]] == ["system"]
    assert [(w["id"], w["concurrency"]) for w in doc["workloads"]] == [
        ("oltp-read-only", [1, 2, 4]), ("oltp-read-write", [1, 2, 4])]
    assert [(r["id"], r["workload"]) for r in doc["results"]] == [
        ("sb-read-only-run1", "oltp-read-only"), ("sb-read-only-run2", "oltp-read-only"),
        ("sb-read-only-run3", "oltp-read-only"), ("sb-read-write-run1", "oltp-read-write"),
        ("sb-read-write-run2", "oltp-read-write"), ("sb-read-write-run3", "oltp-read-write")]


def test_a_script_beside_the_log_names_its_test(tmp_path):
    folder = tmp_path / "script"
    _copy(PS3, folder / "out.log")
    (folder / "bench.sh").write_text("#!/bin/sh\nsysbench oltp_point_select --threads=$T run > out.log\n")
    found, grouping = survey(folder)
    assert grouping.tests == [("oltp_point_select", "script bench.sh")] * 3


def test_per_folder_my_cnf_settings_tell_systems_apart_and_are_cited(tmp_path):
    folder = tmp_path / "cnf"
    for name, method in (("a", "O_DIRECT"), ("b", "fsync")):
        _copy(RO, folder / name / "ro.log")
        (folder / name / "my.cnf").write_text(f"[mysqld]\ninnodb_flush_method = {method}\nsync_binlog = 1\n")
    out = tmp_path / "data" / "cnf"
    import_folder(folder, out=out, answers={})
    systems = _doc(out)["systems"]
    assert [(s["id"], s["label"], s["database"]["settings"]) for s in systems] == [
        ("a", "a", {"innodb_flush_method": "O_DIRECT", "sync_binlog": "1"}),
        ("b", "b", {"innodb_flush_method": "fsync", "sync_binlog": "1"})]
    assert systems[1]["notes"] == (
        "Grouped by benchdb import: subfolder b/; settings: innodb_flush_method fsync. Its logs are in the "
        "subfolder b/; what that name means is not read from it. Database settings in effect, as benchdb import "
        "read them (a variables dump beats the server's command line, which beats its option files): "
        "innodb_flush_method = fsync ([mysqld] of artifacts/b-my.cnf line 2); sync_binlog = 1 ([mysqld] of "
        "artifacts/b-my.cnf line 3).")
    assert _errors(out) == []


def _doublewrite_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "dw"
    for value in ("ON", "OFF"):
        _copy(RO, folder / f"ro-dw{value.lower()}.log")
        _copy(RW, folder / f"rw-dw{value.lower()}.log")
        (folder / f"vars-dw{value.lower()}.txt").write_text(_variables(value))
    return folder


def test_variables_dumps_per_run_split_systems_by_doublewrite(tmp_path):
    folder = _doublewrite_folder(tmp_path)
    out = tmp_path / "data" / "dw"
    found, _ = import_folder(folder, out=out, answers={})
    doc = _doc(out)
    assert [(s["id"], s["label"], s["database"]["doublewrite"]) for s in doc["systems"]] == [
        ("innodb-doublewrite-off", "innodb_doublewrite OFF", False),
        ("innodb-doublewrite-on", "innodb_doublewrite ON", True)]
    assert doc["systems"][0]["notes"].startswith(
        "Grouped by benchdb import: settings: innodb_doublewrite OFF. Database settings in "
        "effect, as benchdb import read them (a variables dump beats the server's command line, which beats its "
        "option files): innodb_buffer_pool_size = 134217728 (artifacts/vars-dwoff.txt line 2); innodb_doublewrite "
        "= OFF (artifacts/vars-dwoff.txt line 3);")
    assert [(r["id"], r["system"], r["workload"]) for r in doc["results"]] == [
        ("ro-dwoff", "innodb-doublewrite-off", "oltp-read-only"), ("ro-dwon", "innodb-doublewrite-on", "oltp-read-only"),
        ("rw-dwoff", "innodb-doublewrite-off", "oltp-read-write"), ("rw-dwon", "innodb-doublewrite-on", "oltp-read-write")]


def test_with_every_answer_the_study_builds_and_is_on_the_doublewrite_page(tmp_path):
    out = tmp_path / "import" / "imported-dw"
    _, problems = import_folder(_doublewrite_folder(tmp_path), out=out, answers=dict(EVERYTHING))
    # table compression is not a server variable: the one value left for the contributor, in each system
    assert [p.field for p in problems] == [
        "systems[innodb-doublewrite-off].database.compression", "systems[innodb-doublewrite-on].database.compression"]
    text = (out / "bundle.yaml").read_text(encoding="utf-8")
    (out / "bundle.yaml").write_text(text.replace("compression: TO BE STATED", "compression: none"), encoding="utf-8")
    assert [p for p in validate_paths([out])[1] if p.severity == "error"] == []
    layout = build_with_bundle(tmp_path / "project", out)
    facets = read_facets(layout.export / "data")
    study = next(s for s in facets["doublewrite"]["studies"] if s["study"] == "imported-dw")
    assert {(p["other"], p["reference"]) for p in study["pairs"]} == {("innodb-doublewrite-on", "innodb-doublewrite-off")}
    assert "imported-dw" not in {s["study"] for s in facets["raid-level"]["studies"]}
    page = (layout.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    assert "MD RAID 10, innodb_doublewrite ON" in page


def test_a_mapping_file_overrides_the_grouping_and_the_command_shows_it(tmp_path):
    folder = tmp_path / "iops"
    for iops in (1000, 5000, 15000):
        _copy(RW, folder / f"res_iops{iops}.txt")
    (tmp_path / "systems.yaml").write_text(
        '"res_iops1*": {id: low, label: low IOPS, answers: {product: Amazon EBS io2}}\niops5000: mid\n')
    out = tmp_path / "data" / "mapped"
    done = CliRunner().invoke(main, ["import", str(folder), "--out", str(out), "--no-input", "--product", "EBS",
                                     "--systems", str(tmp_path / "systems.yaml")])
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[:3] == [
        "2 system(s):",
        "  low (low IOPS): the mapping's 'res_iops1*'; 2 run(s) of oltp_read_write: res_iops1000.txt, res_iops15000.txt",
        "  mid (mid): the mapping's 'iops5000'; 1 run(s) of oltp_read_write: res_iops5000.txt"]
    systems = _doc(out)["systems"]
    assert [(s["id"], s["label"], s["storage"]["product"]) for s in systems] == [
        ("low", "low IOPS", "Amazon EBS io2"), ("mid", "mid", "EBS")]
    done = CliRunner().invoke(main, ["import", str(folder), "--out", str(tmp_path / "data" / "one"), "--no-input",
                                     "--one-system"])
    assert done.stdout.splitlines()[:2] == [
        "1 system(s):",
        "  system (the only system): one system: its runs differ in no subfolder, setting or file name; 3 run(s) of "
        "oltp_read_write: res_iops1000.txt, res_iops15000.txt, res_iops5000.txt"]


@pytest.mark.parametrize("text,message", [
    ("xfs/*: XFS\n", "{path}: 'xfs/*': give a system id of lower-case letters, digits and dashes (e.g. xfs-nvme), "
                     "or {{id: ..., label: ..., answers: {{...}}}}"),
    ("xfs/*: {id: xfs, colour: red}\n", "{path}: 'xfs/*': colour: not id, label or answers"),
    ("- xfs\n", "{path}: not a mapping of a glob or a file name's word to a system id"),
    ('"*": {label: all, answers: {test: tpcc}}\n', "{path}: '*': a label names a system: give its id too"),
])
def test_a_mapping_file_s_mistake_is_named(tmp_path, text, message):
    path = tmp_path / "systems.yaml"
    path.write_text(text)
    with pytest.raises(MappingError) as caught:
        read_mapping(path)
    assert str(caught.value) == message.format(path=path)


def test_scripts_starting_the_server_per_subfolder_and_mdstat_files_go_to_their_system(tmp_path):
    folder = tmp_path / "scripts"
    for fs, doublewrite in (("ext4", "1"), ("xfs", "0")):
        _copy(RO, folder / fs / "ro.log")
        (folder / fs / "start.sh").write_text(f"#!/bin/sh\nmysqld --innodb_doublewrite={doublewrite} &\n")
    shutil.copy(FIXTURES / "mdstat" / "checkraid-pr28_0.txt", folder / "xfs" / "mdstat.txt")
    shutil.copy(FIXTURES / "mdstat" / "checkraid-pr28_0.txt", folder / "mdstat.txt")  # of which system: not said
    out = tmp_path / "data" / "scripts"
    found, problems = import_folder(folder, out=out, answers={})
    doc = _doc(out)
    assert [(s["id"], s["label"], s["database"]["doublewrite"], s["database"]["settings"]) for s in doc["systems"]] == [
        ("ext4", "ext4", True, {"innodb_doublewrite": "1"}), ("xfs", "xfs", False, {"innodb_doublewrite": "0"})]
    assert doc["systems"][1]["notes"].startswith(
        "Grouped by benchdb import: subfolder xfs/; settings: innodb_doublewrite 0. Filesystem xfs: the name of its "
        "subfolder xfs/. Database settings in effect, as benchdb import read them (a variables dump beats the "
        "server's command line, which beats its option files): innodb_doublewrite = 0 (command line, "
        "artifacts/xfs-start.sh line 2)")
    assert [(r["id"], r["system"]) for r in doc["results"]] == [
        ("ext4-ro", "ext4"), ("xfs-ro", "xfs"), ("mdstat", "TO BE STATED"), ("xfs-mdstat", "xfs")]
    assert "results[mdstat].system" in {p.field for p in problems} and _errors(out) == []


def test_a_settings_file_of_several_that_names_no_log_applies_to_none_and_is_said(tmp_path):
    folder = _doublewrite_folder(tmp_path)
    (folder / "vars-dwmaybe.txt").write_text(_variables("ON"))
    found, grouping = survey(folder)
    assert [s.id for s in grouping.systems] == ["innodb-doublewrite-off", "innodb-doublewrite-on"]
    assert grouping.unapplied == ["vars-dwmaybe.txt"]
    assert describe(grouping, runs=found.runs)[-1] == (
        "  vars-dwmaybe.txt: a settings file whose name shares no word with a log's or its folder's: "
        "applied to no run")


def test_a_mapping_s_answers_make_a_protocol_pair_and_subfolders_a_filesystem_pair(tmp_path):
    """fc/ and iscsi/ (not filesystems' names) told apart by the mapping's protocol: /protocol/. ext4/ and
    xfs/: a filesystem pair on /filesystem/ (a facet of schema/fields.yaml since format 2), and on no
    other facet page."""
    protocols, filesystems = tmp_path / "protocols", tmp_path / "filesystems"
    for name in ("fc", "iscsi"):
        _copy(RW, protocols / name / "rw.log")
    for name in ("ext4", "xfs"):
        _copy(RW, filesystems / name / "rw.log")
    mapping = tmp_path / "systems.yaml"
    mapping.write_text('"fc/*": {id: fc, label: FC, answers: {protocol: fcp}}\n'
                       '"iscsi/*": {id: iscsi, label: iSCSI, answers: {protocol: iscsi}}\n')
    answers = {k: v for k, v in EVERYTHING.items() if k != "protocol"}
    imported = tmp_path / "import"
    import_folder(protocols, out=imported / "imported-protocols", answers=answers, mapping=read_mapping(mapping))
    import_folder(filesystems, out=imported / "imported-filesystems", answers=dict(EVERYTHING))
    for out in imported.iterdir():
        text = (out / "bundle.yaml").read_text(encoding="utf-8")
        text = text.replace("compression: TO BE STATED", "compression: none")  # no settings file: the
        (out / "bundle.yaml").write_text(text.replace("engine: TO BE STATED", "engine: MariaDB"))  # contributor's
        assert [p for p in validate_paths([out])[1] if p.severity == "error"] == []
    assert [(s["id"], s["protocol"]) for s in _doc(imported / "imported-protocols")["systems"]] == [
        ("fc", "fcp"), ("iscsi", "iscsi")]
    assert [(s["id"], s["filesystem"]) for s in _doc(imported / "imported-filesystems")["systems"]] == [
        ("ext4", {"type": "ext4"}), ("xfs", {"type": "xfs"})]
    layout = copy_project(tmp_path / "project")
    for out in imported.iterdir():
        shutil.copytree(out, layout.data / out.name)
    build_site(layout)
    facets = read_facets(layout.export / "data")
    study = next(s for s in facets["protocol"]["studies"] if s["study"] == "imported-protocols")
    assert {(p["other"], p["reference"]) for p in study["pairs"]} == {("iscsi", "fc")}
    study = next(s for s in facets["filesystem"]["studies"] if s["study"] == "imported-filesystems")
    assert {(p["other"], p["reference"]) for p in study["pairs"]} == {("xfs", "ext4")}  # ext4 is listed first
    assert [name for name, facet in facets.items()
            if "imported-filesystems" in {s["study"] for s in facet["studies"]}] == ["filesystem"]
    page = (layout.public / "studies" / "imported-filesystems" / "index.html").read_text(encoding="utf-8")
    assert "MD RAID 10, ext4" in page and "MD RAID 10, xfs" in page  # built, with its two systems


def test_a_name_s_value_the_log_s_command_line_gives_makes_no_system(tmp_path):
    folder = tmp_path / "times"
    _copy(RW, folder / "rw_time300.log")  # its command line: --time=300
    text = (LOGS / RW).read_text(encoding="utf-8")
    assert text.count("--time=300") == 1
    (folder / "rw_time600.log").write_text(text.replace("--time=300", "--time=600"), encoding="utf-8")
    found, grouping = survey(folder)
    assert [(s.id, len(s.runs)) for s in grouping.systems] == [("system", 2)]
    assert grouping.notes == ["file names' time300, time600: the logs' --time"]


def test_nested_subfolders_are_systems_by_their_path(tmp_path):
    folder = tmp_path / "nested"
    for path in ("nvme/ext4", "nvme/xfs", "sata/ext4"):
        _copy(RW, folder / path / "rw.log")
    _, grouping = survey(folder)
    assert [(s.id, s.label, s.rule, s.filesystem) for s in grouping.systems] == [
        ("nvme-ext4", "nvme/ext4", "subfolder nvme/ext4/", "ext4"), ("nvme-xfs", "nvme/xfs", "subfolder nvme/xfs/", "xfs"),
        ("sata-ext4", "sata/ext4", "subfolder sata/ext4/", "ext4")]


def test_0_5_s_ro_and_rw_files_are_two_workloads_and_a_script_s_tpcc_lua_a_test(tmp_path):
    """sysbench 0.5's result files (sysbench.ro.8.res, sysbench.rw.8.res) name no test inside: their
    names' ro and rw do. A script running ./tpcc.lua beside a log names its test."""
    folder = tmp_path / "series"
    _copy(PS3, folder / "sysbench.ro.8.res")
    _copy(PS3, folder / "sysbench.rw.8.res")
    _copy(PS3, folder / "tpcc" / "res.txt")
    (folder / "tpcc" / "run.sh").write_text("OUT=x\n\t./tpcc.lua --threads=$i --report_csv=yes run | tee -a res.txt\n")
    found, grouping = survey(folder)
    assert sorted({(found.runs[j]["source"], grouping.tests[j]) for j in range(len(found.runs))}) == [
        ("sysbench.ro.8.res", ("oltp_read_only", "file name")), ("sysbench.rw.8.res", ("oltp_read_write", "file name")),
        ("tpcc/res.txt", ("tpcc", "script tpcc/run.sh"))]


def test_a_mapping_entry_without_an_id_states_facts_and_places_no_run(tmp_path):
    folder = tmp_path / "iops"
    for iops in (1000, 5000):
        _copy(PS3, folder / f"res_iops{iops}.txt")
    mapping = tmp_path / "facts.yaml"
    mapping.write_text('"*": {answers: {test: tpcc, product: Amazon EBS}}\n')
    found, grouping = survey(folder, mapping=read_mapping(mapping))
    assert [(s.id, s.answers) for s in grouping.systems] == [("iops-1000", {"product": "Amazon EBS"}),
                                                           ("iops-5000", {"product": "Amazon EBS"})]
    assert {t for t in grouping.tests} == {("tpcc", "mapping's '*'")}
    mapping.write_text('"*.log": {answers: {test: tpcc}}\n')
    with pytest.raises(MappingError) as caught:
        survey(folder, mapping=read_mapping(mapping))
    assert str(caught.value) == "'*.log': matches no log of the folder"
    _copy(RW, folder / "res_iops15000.txt")  # its log names oltp_read_write
    mapping.write_text('"*": {answers: {test: tpcc}}\n')
    with pytest.raises(MappingError) as caught:
        survey(folder, mapping=read_mapping(mapping))
    assert str(caught.value) == "'*': test tpcc, but res_iops15000.txt names oltp_read_write"


def test_a_binlog_turned_off_by_skip_log_bin_is_kept(tmp_path):
    """Percona's binlog runs (201805-sysbench-tpcc-binlog-fs, each no-binlog run's my.cnf line 22) turn
    the binary log off with skip-log-bin alone: a setting like-for-like pairs must see."""
    folder = tmp_path / "binlog"
    for name, line in (("on", "log_bin = mysql-bin"), ("off", "skip-log-bin")):
        _copy(RO, folder / name / "ro.log")
        (folder / name / "my.cnf").write_text(f"[mysqld]\n{line}\n")
    out = tmp_path / "data" / "binlog"
    import_folder(folder, out=out, answers={})
    assert [(s["id"], s["database"]["settings"]) for s in _doc(out)["systems"]] == [
        ("off", {"skip_log_bin": ""}), ("on", {"log_bin": "mysql-bin"})]
