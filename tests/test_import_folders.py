"""Issue #51's real folders, end to end: each fixture folder of tests/fixtures/import-folders/ is made in the
shape and layout of a real result folder of a public repository (PROVENANCE.md there names each one), imported
with nothing asked (``--no-input``) plus the facts only its contributor knows, and must give the study a reader
of that repository would make: its systems, workloads and settings, a bundle that validates, and, in one build
for all of them, a place on the facet pages its variation belongs to (and on no other).

The contributor's facts for these hand-made folders are stated here, as a contributor would give them: the
flags' answers, a --systems mapping, and the values import leaves to be stated (the engine, the buffer pool a
shell variable sets, table compression), written into bundle.yaml as contributing.md says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from conftest import FIXTURES, copy_project
from ingest.build.site import build_site
from ingest.bundles.validate import validate_paths
from ingest.contribute.grouping import describe, read_mapping
from ingest.contribute.importer import import_folder, survey
from ingest.publish.facets import read_facets

FOLDERS = FIXTURES / "import-folders"
HOST = {"kind": "device", "raid_level": "none", "protocol": "local", "cpu": "2 x Xeon (as the contributor states)",
        "publisher": "Percona"}
TPCC = '"*": {answers: {test: tpcc}}\n'  # sysbench-tpcc: its logs name no test; the contributor does
EBS = {**HOST, "product": "Amazon EBS", "vendor": "Amazon Web Services", "kind": "cloud-volume",
       "device_class": "cloud-volume", "protocol": "not-stated", "volume_service": "aws-ebs"}
# the mapping of each folder (YAML), the answers for every system, and per system what is left to state
CASES = {
    "binlog-fs": (TPCC, {**HOST, "product": "Samsung SM863", "vendor": "Samsung"},
                  {"engine": "Percona Server", "compression": "none", "buffer_pool_mib": {"bp60": 61440, "bp70": 71680}}),
    # spec/hdd.txt of the real folder: GP2 600GB (res-tpcc-<date>/) and GP2 1200GB (res-tpcc-mem-GP1.2TB-<date>/)
    "myrocks-ec2": (TPCC + '"res-tpcc-mem-GP1.2TB-*": {answers: {volume_size_gb: 1200}}\n'
                    '"res-tpcc-2018-*": {answers: {volume_size_gb: 600}}\n',
                    {**EBS, "volume_type": "gp2"},
                    {"engine": "Percona Server", "compression": "none", "buffer_pool_mib": {"bp5": 5120, "bp25": 25600}}),
    # cmd/ and parse.sh of the real folder: io1 volumes by provisioned IOPS, gp2 volumes by size (GB)
    "cloudio": (TPCC + '"innodb/res_iops*": {answers: {volume_type: io1, provisioned_iops: "{iops}"}}\n'
                '"innodb/res_sz*": {answers: {volume_type: gp2, volume_size_gb: "{sz}"}}\n', EBS, {"engine": "Percona Server"}),
    # README and run.sh of the real folder: Aurora against RDS MySQL on r5.xlarge, sysbench-tpcc
    "aurora": (TPCC + '"res-tpcc-Aurora-*": {answers: {product: Amazon Aurora storage}}\n'
               '"res-tpcc-RDS-*": {answers: {product: Amazon EBS}}\n',
               {**HOST, "vendor": "Amazon Web Services", "kind": "storage-array", "protocol": "not-stated"},
               {"engine": "MySQL", "compression": "none", "buffer_pool_mib": {"1": 23552}}),
    # params.txt of the real folder: ps8 on node1, mysql8 on node3, both on SSD; io<N>: innodb_io_capacity
    "checkpoint": (None, {**HOST, "product": "SSD (as params.txt says)", "vendor": "not stated"},
                   {"engine": "Percona Server", "compression": "none", "buffer_pool_mib": 143360}),
    # a cloud vendor's parser fixtures: what ran where is not in them; the test is PKB's oltp.lua (read-write)
    "pkb-tests-data": ('"sysbench-output-sample.txt": {answers: {test: oltp_read_write}}\n',
                       {**HOST, "product": "not stated", "vendor": "not stated", "kind": "not-stated",
                        "protocol": "not-stated", "publisher": "PerfKitBenchmarker authors", "label": "PKB sample"},
                       {"engine": "MySQL", "compression": "none"}),
    "hg-charsets": (None, {**HOST, "product": "Intel SSD 320", "vendor": "Intel", "publisher": "MariaDB"},
                    {"engine": "MariaDB", "compression": "none"}),
    "hg-series": ('"res11/*": {id: server-one, label: server one}\n"res12/*": {id: server-two, label: server two}\n',
                  {**HOST, "product": "Intel SSD 320", "vendor": "Intel", "publisher": "MariaDB"},
                  {"engine": "MariaDB", "compression": "none"}),
}


def _state(out: Path, stated: dict) -> dict:
    """Write what the contributor states in place of each TO BE STATED of the systems' database sections."""
    doc = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))
    for system in doc["systems"]:
        db = system["database"]
        for name, value in stated.items():
            if db.get(name) == "TO BE STATED" or (name != "buffer_pool_mib" and name not in db):
                db[name] = value[system["id"].rsplit("-", 1)[-1]] if isinstance(value, dict) else value
        db["settings"] = {k: v for k, v in db.get("settings", {}).items() if v != "TO BE STATED"}
    (out / "bundle.yaml").write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return doc


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("import-folders")
    for name, (mapping, answers, stated) in CASES.items():
        (root / f"{name}.yaml").write_text(mapping or "", encoding="utf-8")
        out = root / "data" / f"folder-{name}"
        import_folder(FOLDERS / name, out=out, answers=answers, mapping=mapping and read_mapping(root / f"{name}.yaml"))
        _state(out, stated)
    return root / "data"


def _doc(imported: Path, name: str) -> dict:
    return yaml.safe_load((imported / f"folder-{name}" / "bundle.yaml").read_text(encoding="utf-8"))


def _systems(doc: dict) -> list[tuple]:
    return [(s["id"], s["label"], s.get("filesystem", {}).get("type"), s["storage"]["product"],
             s["database"].get("buffer_pool_mib")) for s in doc["systems"]]


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_folder_validates_with_nothing_left_to_state(imported, name):
    problems = validate_paths([imported / f"folder-{name}"])[1]
    assert [(p.field, p.message) for p in problems if p.severity == "error"] == []


def test_binlog_fs_ext4_against_xfs_at_two_buffer_pools(imported):
    """res-tpcc-inno-<EXT4|XFS>-full-binlog-sync1-<date>/mysql57.BP<60|70>/thr16/: four systems, named by the
    words that tell their folders apart (a "-try2-<date>" folder repeats its system); the filesystem from the
    word EXT4 or XFS; the test from
    run_tpcc_inno.sh's ./tpcc.lua beside each log, confirmed by the contributor."""
    doc = _doc(imported, "binlog-fs")
    assert _systems(doc) == [("ext4-bp60", "EXT4/BP60", "ext4", "Samsung SM863", 61440),
                             ("ext4-bp70", "EXT4/BP70", "ext4", "Samsung SM863", 71680),
                             ("xfs-bp60", "XFS/BP60", "xfs", "Samsung SM863", 61440),
                             ("xfs-bp70", "XFS/BP70", "xfs", "Samsung SM863", 71680)]
    assert [(w["id"], w["test"], w["tool_version"], w["concurrency"]) for w in doc["workloads"]] == [
        ("tpcc", "tpcc", "1.0.14", [16])]
    settings = doc["systems"][0]["database"]["settings"]
    assert (settings["sync_binlog"], settings["innodb_flush_method"]) == ("1", "O_DIRECT_NO_FSYNC")
    notes = doc["systems"][2]["notes"]
    assert "Filesystem xfs: a word of its subfolder's name res-tpcc-inno-XFS-full-binlog-sync1-2018-04-18-15-23/" \
        "mysql57.BP60/thr16/." in notes
    assert "innodb_buffer_pool_size is given by a shell variable on the server's command line" in notes
    found, grouping = survey(FOLDERS / "binlog-fs", mapping=read_mapping(imported.parent / "binlog-fs.yaml"))
    lines = describe(grouping, runs=found.runs)
    assert lines[4] == ("  xfs-bp70 (XFS/BP70): subfolder res-tpcc-inno-XFS-full-binlog-sync1-2018-04-18-15-23/mysql57.BP70/"
                        "thr16/, res-tpcc-inno-XFS-full-binlog-sync1-try2-2018-04-20-18-43/mysql57.BP70/thr16/; 2 run(s) of "
                        "tpcc: res-tpcc-inno-XFS-full-binlog-sync1-2018-04-18-15-23/mysql57.BP70/thr16/res.txt, "
                        "res-tpcc-inno-XFS-full-binlog-sync1-try2-2018-04-20-18-43/mysql57.BP70/thr16/res.txt")
    assert lines[5] == ("  not a system's difference: folder(s) res-tpcc-inno-EXT4-full-binlog-sync1-2018-04-17-11-53/, "
                        "res-tpcc-inno-XFS-full-binlog-sync1-2018-04-18-15-23/, "
                        "res-tpcc-inno-XFS-full-binlog-sync1-try2-2018-04-20-18-43/: the dates and repetitions' numbers in "
                        "their names, not systems")
    assert lines[6:8] == [
        "  cnf/my-rocks.cnf: a settings file whose name shares no word with a log's or its folder's: "
        "applied to no run",
        "  cnf/my.cnf: a settings file whose name shares no word with a log's or its folder's: applied to no run"]
    assert lines[8] == ("  test tpcc: from the script res-tpcc-inno-EXT4-full-binlog-sync1-2018-04-17-11-53/mysql57.BP60/"
                        "thr16/run_tpcc_inno.sh")
    assert grouping.tests[0] == ("tpcc", "script res-tpcc-inno-EXT4-full-binlog-sync1-2018-04-17-11-53/mysql57.BP60/"
                                 "thr16/run_tpcc_inno.sh")


def _volumes(doc: dict) -> list[tuple]:
    return [(s["id"], s["label"], s["storage"]["kind"], s["volume"]) for s in doc["systems"]]


def test_myrocks_ec2_two_gp2_volume_sizes_at_two_buffer_pools(imported):
    doc = _doc(imported, "myrocks-ec2")
    gp2 = {"service": "aws-ebs", "type": "gp2"}
    assert _volumes(doc) == [("bp5", "BP5", "cloud-volume", {**gp2, "size_gb": 600}),
                             ("bp25", "BP25", "cloud-volume", {**gp2, "size_gb": 600}),
                             ("mem-gp1-2tb-bp5", "mem-GP1.2TB/BP5", "cloud-volume", {**gp2, "size_gb": 1200}),
                             ("mem-gp1-2tb-bp25", "mem-GP1.2TB/BP25", "cloud-volume", {**gp2, "size_gb": 1200})]
    assert [s["database"]["buffer_pool_mib"] for s in doc["systems"]] == [5120, 25600, 5120, 25600]
    assert [(w["id"], w["tool_version"], w["concurrency"]) for w in doc["workloads"]] == [("tpcc", "1.0.13", [16])]


def test_cloudio_provisioned_iops_and_volume_sizes_from_the_file_names(imported):
    doc = _doc(imported, "cloudio")
    ebs = {"service": "aws-ebs"}
    assert _volumes(doc) == [("iops-1000", "iops 1000", "cloud-volume", {**ebs, "type": "io1", "provisioned_iops": 1000}),
                             ("iops-5000", "iops 5000", "cloud-volume", {**ebs, "type": "io1", "provisioned_iops": 5000}),
                             ("iops-15000", "iops 15000", "cloud-volume", {**ebs, "type": "io1", "provisioned_iops": 15000}),
                             ("sz-1000", "sz 1000", "cloud-volume", {**ebs, "type": "gp2", "size_gb": 1000}),
                             ("sz-2000", "sz 2000", "cloud-volume", {**ebs, "type": "gp2", "size_gb": 2000})]
    assert doc["systems"][0]["notes"] == "Grouped by benchdb import: file names' iops=1000."
    assert [(w["id"], w["tool_version"], w["concurrency"]) for w in doc["workloads"]] == [("tpcc", "1.0.15", [16])]


def test_hg_series_servers_and_flushing_settings_read_only_apart_from_read_write(imported):
    """res11/, res12/ (two servers, named by the mapping as DESC names them) and res_A/, res_B/ (flushing
    settings each my.cnf states); sysbench 0.5's sysbench.ro.8.res and sysbench.rw.8.res are two workloads."""
    doc = _doc(imported, "hg-series")
    assert [(s["id"], s["label"]) for s in doc["systems"]] == [
        ("res-a", "res_A"), ("res-b", "res_B"), ("server-one", "server one"), ("server-two", "server two")]
    assert "innodb_adaptive_flushing_method = keep_average ([mysqld] of artifacts/res_B-my.cnf line 4)" in (
        doc["systems"][1]["notes"])
    assert "innodb_adaptive_flushing_method = " not in doc["systems"][0]["notes"]
    assert [s["database"]["buffer_pool_mib"] for s in doc["systems"]] == [16384] * 4
    assert "innodb_flush_neighbor_pages = none ([mysqld] of artifacts/res12-my.cnf line 3)" in doc["systems"][3]["notes"]
    assert [(w["id"], w["test"], w["tool_version"], w["concurrency"]) for w in doc["workloads"]] == [
        ("oltp-read-only", "oltp_read_only", "0.5", [8]), ("oltp-read-write", "oltp_read_write", "0.5", [8])]
    assert sorted((r["system"], r["workload"]) for r in doc["results"]) == [
        ("res-a", "oltp-read-write"), ("res-b", "oltp-read-write"), ("server-one", "oltp-read-only"),
        ("server-one", "oltp-read-write"), ("server-two", "oltp-read-only"), ("server-two", "oltp-read-write")]


def test_hg_charsets_long_and_short_ranges_are_two_workloads_in_every_server_s_folder(imported):
    """<charset>/res0N/sysbench.ro.{long,short}.8.res: four systems (charset and server), and long and short
    two workloads of one test, as each folder holds both; my.cnf.01 applies to res01/'s runs (its number), and
    my.cnf.02, a symbolic link to my.cnf.01, is named and not followed: res02/'s settings are the contributor's
    to state."""
    doc = _doc(imported, "hg-charsets")
    assert [(s["id"], s["label"], s["database"].get("buffer_pool_mib")) for s in doc["systems"]] == [
        ("latin1-res01", "latin1/res01", 512), ("latin1-res02", "latin1/res02", None),
        ("utf8mb4-general-res01", "utf8mb4-general/res01", 512), ("utf8mb4-general-res02", "utf8mb4-general/res02", None)]
    assert [(w["id"], w["test"], w["concurrency"], w["notes"]) for w in doc["workloads"]] == [
        ("oltp-read-only-long", "oltp_read_only", [8], "The runs whose file names say long."),
        ("oltp-read-only-short", "oltp_read_only", [8], "The runs whose file names say short.")]
    assert [(r["path"], r["system"], r["workload"]) for r in doc["results"]][:2] == [
        ("artifacts/latin1-res01-sysbench.ro.long.8.res", "latin1-res01", "oltp-read-only-long"),
        ("artifacts/latin1-res01-sysbench.ro.short.8.res", "latin1-res01", "oltp-read-only-short")]
    found, _ = survey(FOLDERS / "hg-charsets")
    assert ("latin1/my.cnf.02", "a symbolic link (not followed)") in found.skipped


def test_aurora_s_variables_apply_to_its_runs_and_another_server_s_my_cnf_to_none(imported):
    """aurora.variables.txt (SHOW VARIABLES, its tabs expanded into spaces) at the top applies to the runs of
    res-tpcc-Aurora-.../ alone, as its name says; my-mgr.cnf names no folder of runs and applies to none."""
    doc = _doc(imported, "aurora")
    assert [(s["id"], s["storage"]["product"], s["database"].get("version"), s["database"].get("doublewrite"))
            for s in doc["systems"]] == [
        ("res-tpcc-aurora-3nodes-db-r5-xlarge-1", "Amazon Aurora storage", "5.7.12", False),
        ("res-tpcc-rds-3nodes-r5-xlarge-1", "Amazon EBS", None, None)]
    assert "innodb_doublewrite = OFF (artifacts/aurora.variables.txt line 3)" in doc["systems"][0]["notes"]
    found, grouping = survey(FOLDERS / "aurora", mapping=read_mapping(imported.parent / "aurora.yaml"))
    assert grouping.unapplied == ["my-mgr.cnf"]


def test_checkpoint_hosts_and_io_capacity_with_a_repeated_run(imported):
    """res-tpcc-<host>-<date>[-r2]/io<N>.BP140.threads16.bpi32/: systems by host and io<N>, named by what tells
    them apart; the -r2 folder repeats its system's run."""
    doc = _doc(imported, "checkpoint")
    assert [(s["id"], s["label"]) for s in doc["systems"]] == [
        ("node1-io6000", "node1/io6000"), ("node1-io7000", "node1/io7000"), ("node3-io7000", "node3/io7000")]
    assert sorted((r["system"], r["workload"]) for r in doc["results"]) == [
        ("node1-io6000", "tpcc"), ("node1-io7000", "tpcc"), ("node1-io7000", "tpcc"), ("node3-io7000", "tpcc")]


def test_a_cloud_vendor_s_fixtures_give_their_one_sysbench_run_and_name_every_other_file(imported):
    doc = _doc(imported, "pkb-tests-data")
    assert [(s["id"], s["label"]) for s in doc["systems"]] == [("system", "PKB sample")]
    assert [(w["id"], w["test"], w["tool_version"], w["concurrency"]) for w in doc["workloads"]] == [
        ("oltp-read-write", "oltp_read_write", "0.5", [16])]
    found, _ = survey(FOLDERS / "pkb-tests-data")
    assert [name for name, _ in found.skipped] == [
        "bonnie-plus-plus-sample.txt", "fio/fio-parser-sample-result.json", "fio.job", "hammerdb/hammerdbcli_tpcc.log",
        "iperf_results.txt"]


def test_one_build_puts_each_folder_on_its_facet_pages(imported, tmp_path):
    layout = copy_project(tmp_path / "project")
    for out in sorted(imported.iterdir()):
        shutil.copytree(out, layout.data / out.name)
    build_site(layout)
    facets = read_facets(layout.export / "data")
    on = {name: sorted(slug for slug, facet in facets.items() if f"folder-{name}" in {s["study"] for s in facet["studies"]})
          for name in CASES}
    assert on == {"aurora": [], "binlog-fs": ["filesystem"], "checkpoint": [],
                  "cloudio": ["provisioned-iops", "volume-size"], "hg-charsets": [],
                  "hg-series": [],
                  "myrocks-ec2": ["volume-size"], "pkb-tests-data": []}
    study = next(s for s in facets["filesystem"]["studies"] if s["study"] == "folder-binlog-fs")
    assert {(p["other"], p["reference"]) for p in study["pairs"]} == {("xfs-bp60", "ext4-bp60"), ("xfs-bp70", "ext4-bp70")}
    study = next(s for s in facets["volume-size"]["studies"] if s["study"] == "folder-myrocks-ec2")
    assert {(p["other"], p["reference"]) for p in study["pairs"]} == {("mem-gp1-2tb-bp25", "bp25"), ("mem-gp1-2tb-bp5", "bp5")}
    study = next(s for s in facets["volume-size"]["studies"] if s["study"] == "folder-cloudio")
    assert {(p["other"], p["reference"]) for p in study["pairs"]} == {("sz-2000", "sz-1000")}
    study = next(s for s in facets["provisioned-iops"]["studies"] if s["study"] == "folder-cloudio")
    assert {(p["other"], p["reference"]) for p in study["pairs"]} == {
        ("iops-5000", "iops-1000"), ("iops-15000", "iops-1000"), ("iops-15000", "iops-5000")}
    for name in CASES:
        assert (layout.public / "studies" / f"folder-{name}" / "index.html").exists()
