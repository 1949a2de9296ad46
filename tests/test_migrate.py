"""Bundle format versions (issue #17's mechanism, issue #51's format 2): `benchdb migrate` rewrites a
bundle of format 1 to format 2 as text, so that nothing else of the file changes, and validate names
the format a bundle needs."""

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
