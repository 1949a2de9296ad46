"""The export's per-study outputs cached by content (ingest/publish/study_cache.py): which studies a
build exports again, and that an export from the cache writes the same bytes as a clean one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import copy_project, remove_build
from ingest.build.site import Layout, build_site
from ingest.plumbing.cache import link_or_copy
from ingest.publish import export_all
from ingest.publish.study_cache import TEXTS, lookup, store
from ingest.database.stage import build_database_from, stage_bundles
from test_stage import _differences

MEASURED = "measured-mariadb-2core-vm"
SEAGATE = "seagate-nytro-mysql-2015"


@pytest.fixture
def project(tmp_path: Path) -> Layout:
    return copy_project(tmp_path / "project")


def _edit(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert text.count(old) >= 1
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def _study_count(project: Layout) -> int:
    """How many studies the project's data/ holds (the tests never pin it: the catalogue grows)."""
    return len(list(project.data.glob("*/bundle.yaml")))


def _studies_line(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("studies: ")]
    return line


# a change of one of a bundle's values (its CSV and data hash, its charts, the facet pages and findings
# that compare it); a change of a title: tests/test_stage.py
def test_a_build_after_one_value_changed_exports_its_study_alone_and_writes_what_a_clean_build_writes(
        project: Layout, capsys):
    n = _study_count(project)
    build_site(project)
    assert _studies_line(capsys.readouterr().out) == f"studies: {n} exported, 0 from the cache"
    _edit(project.data / SEAGATE / "bundle.yaml", 'values: "1328.06"', 'values: "1400.06"')
    build_site(project)
    assert _studies_line(capsys.readouterr().out) == f"studies: 1 exported, {n - 1} from the cache"
    incremental = project.root / "incremental"
    shutil.copytree(project.public, incremental / "public")
    shutil.copytree(project.export, incremental / "export")

    remove_build(project)  # every cache with it
    build_site(project)
    assert _studies_line(capsys.readouterr().out) == f"studies: {n} exported, 0 from the cache"
    assert _differences(incremental / "export", project.export) == []
    assert _differences(incremental / "public", project.public) == []
    changed = (project.export / "data" / "studies" / f"{SEAGATE}.json").read_text(encoding="utf-8")
    assert '"value_text":"1400.06"' in changed


def _export(project: Layout, out: Path, *, cache: Path | None, site_url: str = ""):
    staged, problems, _ = stage_bundles([project.data], cache=project.cache)
    assert [p for p in problems if p.severity == "error"] == []
    db = build_database_from(staged, db_path=out.with_suffix(".duckdb"))
    keys = {s.id: s.key for s in staged} if cache else None
    return export_all(db_path=db, out_dir=out, bundles=project.data, site_url=site_url, cache=cache, bundle_keys=keys)


def test_a_damaged_entry_and_another_address_are_exported_again(project: Layout, tmp_path: Path):
    cache = tmp_path / "export-cache"
    n = _study_count(project)
    clean = _export(project, tmp_path / "clean", cache=None)
    assert (clean.made, clean.cached, clean.pruned) == (n, 0, 0)
    first = _export(project, tmp_path / "first", cache=cache)
    assert (first.made, first.cached) == (n, 0)
    assert _differences(tmp_path / "clean", tmp_path / "first") == []
    # one file of one entry gone: that study is exported again, the others come from the cache
    entries = sorted(p for p in cache.glob("*/*") if p.is_dir())
    assert len(entries) == n
    (entries[0] / "0").unlink()
    # and the texts of another's parts of the facet pages cut short
    texts = next(e / TEXTS for e in entries[1:] if (e / TEXTS).is_file())
    texts.write_bytes(texts.read_bytes()[:-1])
    # and a third's record cut short
    third = next(e for e in entries[1:] if e != texts.parent)
    (third / "record.json").write_bytes((third / "record.json").read_bytes()[:-8])
    second = _export(project, tmp_path / "second", cache=cache)
    assert (second.made, second.cached) == (3, n - 3)
    assert _differences(tmp_path / "clean", tmp_path / "second") == []
    # the citations print the site's address: another address misses every entry
    elsewhere = _export(project, tmp_path / "elsewhere", cache=cache, site_url="https://example.org")
    assert (elsewhere.made, elsewhere.cached) == (n, 0)
    assert "https://example.org/studies/" in (tmp_path / "elsewhere" / "data" / "studies" / f"{SEAGATE}.json").read_text(
        encoding="utf-8")


def test_an_entry_gives_back_the_record_it_was_given(tmp_path: Path):
    """The texts of the facet parts are kept beside the record as they are (CRLF, any character)."""
    out = tmp_path / "export"
    (out / "data").mkdir(parents=True)
    (out / "data" / "a.json").write_text("{}", encoding="utf-8")
    record = {"files": ["data/a.json"], "head": {"id": "a"},
              "facets": {"raid-level": {"text": '{"title": "RAID 5 \u00e9\r\né\r\n 💾"}', "finding": None},
                         "protocol": {"finding": "no text"},
                         "doublewrite": {"text": "", "embeds": []}, "compression": {"text": "x\r"}}}
    store(tmp_path / "cache", "ab" * 32, record, out_dir=out)
    hit = lookup(tmp_path / "cache", "ab" * 32)
    assert {k: v for k, v in hit.items() if k != "entry"} == record
    assert (hit["entry"] / TEXTS).read_bytes().count(b"\r\n") == 2  # as given, not read as newlines


def test_cached_files_are_linked_into_the_export(project: Layout, tmp_path: Path):
    """A hit costs a link a file (a copy where links are not allowed), not the file's bytes again."""
    cache = tmp_path / "export-cache"
    _export(project, tmp_path / "first", cache=cache)
    _export(project, tmp_path / "second", cache=cache)
    page = tmp_path / "second" / "data" / "studies" / f"{SEAGATE}.json"
    assert page.stat().st_nlink == 3  # the first export's file, the cache's and this one
    assert page.samefile(tmp_path / "first" / "data" / "studies" / f"{SEAGATE}.json")


def test_a_file_linked_or_copied_over_another_replaces_it_without_writing_through(tmp_path: Path, monkeypatch):
    """link_or_copy puts the source in place of what is there (a file left behind, the same file linked
    before, another link of a file that must keep its bytes), and copies where links fail."""
    source, kept = tmp_path / "source", tmp_path / "kept"
    source.write_text("new", encoding="utf-8")
    kept.write_text("old", encoding="utf-8")
    target = tmp_path / "target"
    os.link(kept, target)
    link_or_copy(source, target)
    assert target.samefile(source) and kept.read_text(encoding="utf-8") == "old"
    link_or_copy(source, target)  # the very file, again
    assert target.samefile(source) and source.stat().st_nlink == 2

    def refused(*_):
        raise PermissionError(1, "Operation not permitted")

    os.link(kept, tmp_path / "other")
    monkeypatch.setattr(os, "link", refused)
    link_or_copy(source, tmp_path / "other")
    assert (tmp_path / "other").read_text(encoding="utf-8") == "new" and kept.read_text(encoding="utf-8") == "old"
    assert not (tmp_path / "other").samefile(source)
