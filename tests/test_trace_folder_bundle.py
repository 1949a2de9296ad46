"""An mdstat trace given as a folder of snapshot files, end to end: validate, load, build the site.

Fixture: tests/fixtures/bundles/rebuild-folder-fixture (what it holds is in its bundle.yaml): the
samples of rebuild-trace-fixture's mdstat.trace, one file each, named by their time."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import duckdb
import pytest

from conftest import build_with_bundle
from ingest.build import Layout
from ingest.validate import validate_paths

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
    entries = json.loads((site.export / "data" / "artifacts.json").read_text(encoding="utf-8"))
    mine = [e for e in entries if e["study"] == "rebuild-folder-fixture"]
    assert [(e["artifact"], e["path"], e["file"]) for e in mine] == [("trace", "artifacts/mdstat", None)]
    assert (site.public / "studies" / "rebuild-folder-fixture" / "index.html").is_file()
