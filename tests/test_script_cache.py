"""The scripts' bundles kept for the runs of Hugo (ingest/build/script_cache.py). A build that reads them
writes the pages a clean build writes: tests/test_stage.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.build import script_cache

HASH = "0123456789abcdef" * 4


def _site(tmp_path: Path, *names: str) -> Path:
    site = tmp_path / "site"
    (site / "assets" / "js").mkdir(parents=True)
    for name in names:
        (site / "assets" / "js" / f"{name}.js").write_text("// a script\n", encoding="utf-8")
    return site


def test_the_bundles_published_once_are_kept_under_the_key(tmp_path: Path):
    site = _site(tmp_path, "site", "png", "sql")
    run = tmp_path / "run" / "js"
    run.mkdir(parents=True)
    (run / f"site.{HASH}.js").write_text("bundled site", encoding="utf-8")
    (run / f"png.{HASH}.js").write_text("bundled png", encoding="utf-8")
    (run / f"sql.{HASH}.js").write_text("one version", encoding="utf-8")
    (run / f"sql.{HASH[::-1]}.js").write_text("another", encoding="utf-8")  # two versions: left to js.Build
    (run / f"other.{HASH}.js").write_text("not a script of the site's", encoding="utf-8")
    (run / "site.js").write_text("not fingerprinted", encoding="utf-8")
    cache = tmp_path / "cache"
    assert script_cache.bundles(cache, "ab" * 32) is None
    assert script_cache.keep(cache, "ab" * 32, site=site, run=run.parent) == 2
    mounted = script_cache.bundles(cache, "ab" * 32)
    assert mounted == cache / "scripts" / "ab" / ("ab" * 32) / "js"
    assert {p.name: p.read_text(encoding="utf-8") for p in mounted.iterdir()} == {
        "site.js": "bundled site", "png.js": "bundled png"}
    assert script_cache.bundles(cache, "cd" * 32) is None  # another version of the site's code


@pytest.mark.parametrize("damage", ["changed", "gone", "added", "no digests"])
def test_a_damaged_entry_is_removed_and_not_mounted(tmp_path: Path, damage: str):
    site = _site(tmp_path, "site", "png")
    run = tmp_path / "run" / "js"
    run.mkdir(parents=True)
    for name in ("site", "png"):
        (run / f"{name}.{HASH}.js").write_text(f"bundled {name}", encoding="utf-8")
    cache = tmp_path / "cache"
    script_cache.keep(cache, "ab" * 32, site=site, run=run.parent)
    mounted = script_cache.bundles(cache, "ab" * 32)
    if damage == "changed":  # a copy of the cache restored half-written, say
        (mounted / "site.js").write_text("bundled sit", encoding="utf-8")
    elif damage == "gone":
        (mounted / "png.js").unlink()
    elif damage == "added":
        (mounted / "sql.js").write_text("bundled sql", encoding="utf-8")
    else:
        (mounted.parent / script_cache.DIGESTS).unlink()
    assert script_cache.bundles(cache, "ab" * 32) is None
    assert not mounted.parent.exists()
    assert script_cache.keep(cache, "ab" * 32, site=site, run=run.parent) == 2  # kept again by the next build
    assert script_cache.bundles(cache, "ab" * 32) == mounted


def test_a_run_that_published_no_script_keeps_nothing(tmp_path: Path):
    site = _site(tmp_path, "site")
    (tmp_path / "run").mkdir()
    assert script_cache.keep(tmp_path / "cache", "ab" * 32, site=site, run=tmp_path / "run") == 0
    assert not (tmp_path / "cache").exists()
