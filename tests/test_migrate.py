"""Bundle format versions (issue #17's mechanism, issue #51's format 2): `benchdb migrate` rewrites a
bundle of format 1 to format 2 as text, so that nothing else of the file changes, and validate names
the format a bundle needs; it also rewrites a unit written as a source prints it to the registry's
spelling (issue #58)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIRST_SIX, FIXTURES, ROOT
from ingest.bundles.validate import validate_paths
from schema.models import SCHEMA_VERSION

# the bundles that format 1 wrote: the six studies of data/ then, and the test fixtures
BUNDLES = sorted([*(ROOT / "data" / study / "bundle.yaml" for study in FIRST_SIX),
                  *(FIXTURES / "bundles").glob("*/bundle.yaml"), FIXTURES / "every-field" / "bundle.yaml"])
BENCHDB = Path(sys.executable).parent / "benchdb"


def _as_format_1(bundle: Path, folder: Path) -> Path:
    """A copy of ``bundle``'s folder as format 1 wrote it: format 2 only adds, so its text is the same
    but for the version."""
    copy = folder / bundle.parent.name
    shutil.copytree(bundle.parent, copy)
    lines = bundle.read_text(encoding="utf-8").split("\n")
    assert lines.count("schema_version: 2") == 1
    lines[lines.index("schema_version: 2")] = "schema_version: 1"
    (copy / "bundle.yaml").write_text("\n".join(lines), encoding="utf-8")
    return copy


def test_every_bundle_of_format_1_is_migrated_to_the_same_bytes_and_validates(tmp_path):
    assert SCHEMA_VERSION == 2 and len(BUNDLES) == 11
    copies = [_as_format_1(bundle, tmp_path) for bundle in BUNDLES]
    _, problems = validate_paths(copies)
    assert {(p.type, p.message) for p in problems} == {
        ("format", "bundle format 1: this version reads format 2; `benchdb migrate` rewrites it (run it with --write)")}
    assert len(problems) == len(copies)
    done = subprocess.run([str(BENCHDB), "migrate", "--write", *map(str, copies)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{copy / 'bundle.yaml'}: format 1 -> 2" for copy in copies]
    for bundle, copy in zip(BUNDLES, copies):
        assert (copy / "bundle.yaml").read_bytes() == bundle.read_bytes()  # comments, anchors, lines kept
    _, problems = validate_paths([c for c in copies if c.name != "every-field"])
    assert [p for p in problems if p.severity == "error"] == []


def test_without_write_it_says_what_it_would_change_and_changes_nothing(tmp_path):
    copy = _as_format_1(ROOT / "data" / "seagate-nytro-mysql-2015" / "bundle.yaml", tmp_path)
    before = (copy / "bundle.yaml").read_bytes()
    done = subprocess.run([str(BENCHDB), "migrate", str(copy)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (
        0, f"{copy / 'bundle.yaml'}: format 1 -> 2 (run with --write to rewrite it)\n")
    assert (copy / "bundle.yaml").read_bytes() == before
    done = subprocess.run([str(BENCHDB), "migrate", str(ROOT / "data")], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # the shipped bundles are current


@pytest.mark.parametrize(("version", "said"), [
    ("3", "bundle format 3: this version of benchdb reads format 2"),
    ("0", "bundle format 0: this version of benchdb reads format 2"),
])
def test_a_format_this_version_cannot_read_is_named(tmp_path, version, said):
    copy = _as_format_1(ROOT / "data" / "seagate-nytro-mysql-2015" / "bundle.yaml", tmp_path)
    file = copy / "bundle.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("\nschema_version: 1\n", f"\nschema_version: {version}\n"))
    assert f"\nschema_version: {version}\n" in file.read_text(encoding="utf-8")
    _, problems = validate_paths([copy])
    assert [(p.line, p.field, p.message) for p in problems] == [(5, "schema_version", said)]  # after 4 lines of comment
    done = subprocess.run([str(BENCHDB), "migrate", str(copy)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr == (f"{file}:format {version}: this version of benchdb reads format 2 and migrates "
                           "formats 1\n")


# --- units written as a source prints them (issue #58) ------------------------------------------------

SOFIRE = ROOT / "data" / "sofire-tpcc-ssd-vs-sata-raid10-2015"
REGISTRY_OET = "unit: new-order transactions/min,"


def _copy(bundle: Path, folder: Path, *, old: str, new: str, count: int) -> Path:
    copy = folder / bundle.name
    shutil.copytree(bundle, copy)
    text = (bundle / "bundle.yaml").read_text(encoding="utf-8")
    assert text.count(old) == count
    (copy / "bundle.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return copy


def test_a_unit_as_a_source_prints_it_is_rewritten_to_the_registry_s_on_its_line(tmp_path):
    """sofire's three tables as they were written before the registry owned units: TpmC."""
    copy = _copy(SOFIRE, tmp_path, old=REGISTRY_OET, new="unit: TpmC,", count=3)
    file = copy / "bundle.yaml"
    _, problems = validate_paths([copy])
    assert [(p.line, p.field) for p in problems] == [
        (150, "results[tpmc-ssd-vs-raid10].defaults.unit"), (168, "results[tpmc-raid10-second-run].defaults.unit"),
        (185, "results[tpmc-by-buffer-pool].defaults.unit")]
    done = subprocess.run([str(BENCHDB), "migrate", str(copy)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        f"{file}:{line}: results[{table}].defaults.unit: unit 'TpmC' -> 'new-order transactions/min' "
        "(run with --write to rewrite it)"
        for line, table in ((150, "tpmc-ssd-vs-raid10"), (168, "tpmc-raid10-second-run"), (185, "tpmc-by-buffer-pool"))]
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(copy)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert file.read_bytes() == (SOFIRE / "bundle.yaml").read_bytes()  # those three lines alone changed back
    done = subprocess.run([str(BENCHDB), "migrate", str(copy)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "")


def test_an_older_format_and_its_units_are_migrated_in_one_run(tmp_path):
    bundle = ROOT / "data" / "leebohyun-durassd-tpcc-doublewrite"
    copy = _copy(bundle, tmp_path, old="defaults: {metric: tps, unit: tx/s,", new="defaults: {metric: tps, unit: 'TPS',",
                 count=1)
    file = copy / "bundle.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("schema_version: 2\n", "schema_version: 1\n"), encoding="utf-8")
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(copy)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [f"{file}: format 1 -> 2",
                                        f"{file}:74: results[tps-steps].defaults.unit: unit 'TPS' -> 'tx/s'"]
    # the quotes it was written in are kept
    assert file.read_text(encoding="utf-8") == (bundle / "bundle.yaml").read_text(encoding="utf-8").replace(
        "defaults: {metric: tps, unit: tx/s,", "defaults: {metric: tps, unit: 'tx/s',")


def test_a_unit_the_registry_does_not_know_is_left_to_validate(tmp_path):
    """hpm3's book prints operations a second: no spelling of requests/s that migrate may assume."""
    bundle = ROOT / "data" / "hpm3-san-raid5-raid10-nfs-2012"
    copy = _copy(bundle, tmp_path, old="unit: requests/s,", new="unit: operations/s,", count=1)
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(copy)], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    _, problems = validate_paths([copy])
    assert [(p.line, p.message) for p in problems] == [
        (119, "requests_s's unit is 'requests/s' (schema/fields.yaml), not 'operations/s': state that unit or none")]


def test_an_anchor_whose_unit_other_metrics_share_is_not_rewritten(tmp_path, bundle_dir):
    minimal = (FIXTURES / "malformed" / "valid-partial-dates" / "bundle.yaml").read_text(encoding="utf-8")
    text = minimal.replace("id: valid-partial-dates", "id: shared").replace(
        "defaults: {metric: tps, unit: tx/s, state: optimal}", "defaults: {metric: tps, unit: &u TPS, state: optimal}")
    text = text.replace("charts:\n", """  - type: table
    id: qps
    title: QPS
    provenance: {source: doc, section: Results, table: Table 2}
    defaults: {metric: qps, unit: *u, state: optimal}
    columns: [{label: 64 Users, threads: 64}]
    rows: [{system: a, label: A, values: "1000"}]
charts:
""")
    folder = bundle_dir("shared", text)
    before = (folder / "bundle.yaml").read_bytes()
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(folder)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (1, "")
    # line 46: where the qps table takes the anchor, whose unit is no spelling of qps's
    assert done.stderr == (f"{folder / 'bundle.yaml'}:line 46: results[qps].defaults.unit: rewriting the units would "
                           "change this one's ('TPS' to 'tx/s', an anchor other metrics' values share); rewrite them by "
                           "hand\n")
    assert (folder / "bundle.yaml").read_bytes() == before


def test_a_bundle_written_with_crlf_is_migrated_with_crlf(tmp_path):
    """migrate read a CRLF file as text and wrote it back LF: every line changed (issue #61)."""
    copy = _as_format_1(ROOT / "data" / "seagate-nytro-mysql-2015" / "bundle.yaml", tmp_path)
    crlf = (copy / "bundle.yaml").read_bytes().replace(b"\n", b"\r\n")
    (copy / "bundle.yaml").write_bytes(crlf)
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(copy)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"{copy / 'bundle.yaml'}: format 1 -> 2\n")
    assert (copy / "bundle.yaml").read_bytes() == crlf.replace(b"schema_version: 1\r\n", b"schema_version: 2\r\n")


@pytest.mark.parametrize("linked", ["file", "folder"])
def test_migrate_follows_no_symbolic_link_to_a_bundle(tmp_path, linked):
    """A bundle.yaml that is a link (or a link to a bundle's folder) had the file it points at rewritten,
    though validate refuses both (issue #61)."""
    outside = _as_format_1(ROOT / "data" / "seagate-nytro-mysql-2015" / "bundle.yaml", tmp_path / "outside")
    before = (outside / "bundle.yaml").read_bytes()
    folder = tmp_path / "data" / "seagate-nytro-mysql-2015"
    folder.parent.mkdir()
    if linked == "file":
        folder.mkdir()
        (folder / "bundle.yaml").symlink_to(outside / "bundle.yaml")
        why = "bundle.yaml is a symbolic link: a bundle file must be a file of its folder (links are not followed)"
    else:
        folder.symlink_to(outside, target_is_directory=True)
        why = ("the bundle folder seagate-nytro-mysql-2015 is a symbolic link: a bundle is a folder of its own "
               "(links are not followed)")
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(folder.parent)], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"{folder / 'bundle.yaml'}:-: {why}\n")
    assert (outside / "bundle.yaml").read_bytes() == before
    _, problems = validate_paths([folder])
    assert [p.message for p in problems] == [why]
