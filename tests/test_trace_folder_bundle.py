"""An mdstat trace given as a folder of snapshot files, end to end: validate, load, build the site.

Fixture: tests/fixtures/bundles/rebuild-folder-fixture (what it holds is in its bundle.yaml): the
samples of rebuild-trace-fixture's mdstat.trace, one file each, named by their time."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import duckdb
import pytest

from conftest import build_with_bundle
from ingest.build.site import Layout
from ingest.bundles.validate import validate_paths

FIXTURE = Path(__file__).parent / "fixtures" / "bundles" / "rebuild-folder-fixture"
SNAPSHOTS = sorted((FIXTURE / "artifacts" / "mdstat").iterdir())


def test_the_folder_validates_without_a_problem():
    loaded, problems = validate_paths([FIXTURE])
    assert problems == []
    assert [s["file"] for s in loaded[0].artifacts["trace"]["snapshots"]] == [p.name for p in SNAPSHOTS]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Layout:
    return build_with_bundle(tmp_path_factory.mktemp("project"), FIXTURE)


def test_the_build_loads_the_folder(site):
    con = duckdb.connect(str(site.database), read_only=True)
    # the folder's digest is that of its listing: one "name NUL bytes NUL SHA-256" line per file, by name
    listing = "".join(f"{p.name}\0{p.stat().st_size}\0{hashlib.sha256(p.read_bytes()).hexdigest()}\n"
                      for p in SNAPSHOTS)
    assert con.execute("SELECT format, path, bytes, sha256 FROM artifacts WHERE study = 'rebuild-folder-fixture'"
                       ).fetchall() == [("mdstat-trace", "artifacts/mdstat", sum(p.stat().st_size for p in SNAPSHOTS),
                                         hashlib.sha256(listing.encode()).hexdigest())]
    # the same samples as rebuild-trace-fixture (test_alignment): 0, 600, 660 s recovering at 0.4, 3.6 and
    # 3.9 %, then optimal at 1200 s
    assert con.execute("SELECT t_s, state, percent FROM trace_samples WHERE study = 'rebuild-folder-fixture' "
                       "ORDER BY t_s").fetchall() == [(0.0, "recovering", 0.4), (600.0, "recovering", 3.6),
                                                      (660.0, "recovering", 3.9), (1200.0, "optimal", None)]
    # (8448 - 1024) blocks of 1 KiB in 660 s = 11.248 KiB/s = 0.01152 MB/s, over 1200 s until optimal
    assert con.execute("SELECT metric, value_text FROM results WHERE study = 'rebuild-folder-fixture' "
                       "ORDER BY col_index").fetchall() == [("rebuild_mb_s", "0.01152"),
                                                            ("rebuild_duration_s", "1200.0")]


def test_the_site_lists_the_folder(site):
    entries = json.loads((site.export / "data" / "artifact_list.json").read_text(encoding="utf-8"))
    mine = [e for e in entries if e["study"] == "rebuild-folder-fixture"]
    assert [(e["artifact"], e["path"], e["file"]) for e in mine] == [("trace", "artifacts/mdstat", None)]
    pages = json.loads((site.export / "data" / "artifacts" / "rebuild-folder-fixture.json").read_text(encoding="utf-8"))
    assert [(e["artifact"], e["pages"]) for e in pages] == [("trace", [])]
    assert (site.public / "studies" / "rebuild-folder-fixture" / "index.html").is_file()


LINK_IN_FOLDER = ("symlink", "artifact folder 'artifacts/mdstat' holds a symbolic link "
                  "(mdstat-2024-05-01T12-30-00Z.txt): links are not followed")


@pytest.mark.parametrize("where,target,problem", [
    # a link inside the trace folder, to a file inside the bundle: refused before the parser reads the folder
    # (which refuses it too, for `benchdb parse`: tests/test_mdstat_trace.py)
    ("artifacts/mdstat/mdstat-2024-05-01T12-30-00Z.txt", "mdstat-2024-05-01T12-20-00Z.txt", LINK_IN_FOLDER),
    # a link inside the trace folder, to a file outside the bundle: refused the same way, never read
    ("artifacts/mdstat/mdstat-2024-05-01T12-30-00Z.txt", "/etc/hostname", LINK_IN_FOLDER),
])
def test_a_symbolic_link_in_a_trace_folder_fails_validation(tmp_path, where, target, problem):
    folder = tmp_path / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    (folder / where).symlink_to(target)
    _, problems = validate_paths([folder])
    assert [(p.severity, p.field, p.type, p.message) for p in problems] == [("error", "results[trace].path", *problem)]


def test_a_trace_path_that_is_a_symbolic_link(tmp_path):
    folder = tmp_path / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    (folder / "artifacts" / "linked").symlink_to("mdstat")
    (folder / "artifacts" / "outside").symlink_to(tmp_path)
    bundle = folder / "bundle.yaml"
    text = bundle.read_text()
    bundle.write_text(text.replace("path: artifacts/mdstat,", "path: artifacts/linked,"))
    _, problems = validate_paths([folder])
    assert [p.message for p in problems] == [
        "artifact path 'artifacts/linked' goes through a symbolic link (linked): links are not followed"]
    bundle.write_text(text.replace("path: artifacts/mdstat,", "path: artifacts/outside,"))
    _, problems = validate_paths([folder])
    assert [p.message for p in problems] == [
        "artifact path 'artifacts/outside' goes through a symbolic link (outside): links are not followed"]


def test_a_trace_time_that_does_not_exist_fails_validation_naming_file_and_line(tmp_path):
    # line 22 of rebuild-trace-fixture's mdstat.trace is its third time line, 2024-05-01T12:11:00+00:00
    folder = tmp_path / "rebuild-trace-fixture"
    shutil.copytree(FIXTURE.parent / "rebuild-trace-fixture", folder)
    trace = folder / "artifacts" / "mdstat.trace"
    trace.write_text(trace.read_text().replace("2024-05-01T12:11:00+00:00", "2024-05-01T12:11:60+00:00"))
    _, problems = validate_paths([folder])
    assert [(p.severity, p.field, p.type, p.message) for p in problems] == [
        ("error", "results[trace].path", "artifact-unreadable",
         "artifacts/mdstat.trace:22: '2024-05-01T12:11:60+00:00' is not a time that exists (second must be in 0..59)")]
