"""A folder of links brought up to date in place (ingest/plumbing/recycle.py): the spare generation's files kept,
replaced or removed, and never written through."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ingest.plumbing import recycle
from ingest.build.generation import SPARE, TRASH, keep_spare, new_generation, switch_to
from ingest.bundles.problems import BuildError
from ingest.plumbing.recycle import Tree
from ingest.build.shards import link_tree


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def spare(tmp_path: Path) -> tuple[Path, Path]:
    """A cache entry and a site that the last build linked from it, plus one page of its own."""
    entry, site = tmp_path / "entry", tmp_path / "site"
    for name, text in {"a/index.html": "a", "b/index.html": "b", "gone/deep/index.html": "gone"}.items():
        _write(entry / name, text)
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        os.link(entry / name, site / name)
    _write(site / "own.json", "written by the last build")
    return entry, site


@pytest.mark.parametrize("background", [False, True])
def test_the_spare_files_are_kept_replaced_or_removed_and_the_cache_is_not_written(spare, tmp_path: Path, background):
    entry, site = spare
    new = tmp_path / "new"
    (new / "a").mkdir(parents=True)
    os.link(entry / "a" / "index.html", new / "a" / "index.html")  # a: the same file
    _write(new / "b" / "index.html", "b, changed")  # b: another file at the same path
    _write(new / "c" / "index.html", "c")  # c: a new page
    tree = Tree(site, background=background)
    assert link_tree(new, site, tree=tree) == 3
    assert tree.kept == 1
    assert tree.purge() == 2  # gone/deep/index.html and own.json
    assert _files(site) == {"a/index.html": "a", "b/index.html": "b, changed", "c/index.html": "c"}
    assert not (site / "gone").exists()  # its folders, empty now, went with it
    assert os.path.samefile(site / "a" / "index.html", entry / "a" / "index.html")
    assert _files(entry) == {"a/index.html": "a", "b/index.html": "b", "gone/deep/index.html": "gone"}


def test_a_listing_that_failed_on_its_thread_is_raised_where_the_files_are_needed(spare, monkeypatch):
    _, site = spare

    def unreadable(root):
        raise PermissionError(13, "Permission denied", root)
    monkeypatch.setattr(recycle, "_scan", unreadable)
    tree = Tree(site, background=True)
    with pytest.raises(PermissionError, match="Permission denied"):
        tree.keep(os.fspath(site / "own.json"), os.fspath(site / "own.json"))


def test_a_folder_the_build_made_stays_even_when_empty(spare, tmp_path: Path):
    _, site = spare
    new = tmp_path / "new"
    (new / "gone" / "deep").mkdir(parents=True)  # a folder with nothing in it, as a run may leave
    tree = Tree(site)
    link_tree(new, site, tree=tree)
    tree.purge()
    assert (site / "gone" / "deep").is_dir() and _files(site) == {}


def test_a_file_where_the_spare_had_a_folder_and_a_folder_where_it_had_a_file(spare, tmp_path: Path):
    _, site = spare
    new = tmp_path / "new"
    _write(new / "gone", "now a file")
    _write(new / "own.json" / "index.html", "now a folder")
    tree = Tree(site)
    link_tree(new, site, tree=tree)
    tree.purge()
    assert _files(site) == {"gone": "now a file", "own.json/index.html": "now a folder"}


def test_two_parts_of_the_build_at_one_path_are_compared_with_each_other_not_with_the_spare(spare, tmp_path: Path):
    _, site = spare
    one, two, three = (_write(tmp_path / name / "b" / "index.html", text).parents[1]
                       for name, text in (("one", "b, new"), ("two", "b, new"), ("three", "b, other")))
    tree = Tree(site)
    assert [link_tree(part, site, tree=tree) for part in (one, two)] == [1, 0]  # the same bytes: one file
    with pytest.raises(BuildError, match=r"site/b/index.html: two parts of the site wrote it differently"):
        link_tree(three, site, tree=tree)


def test_a_file_the_build_writes_itself_replaces_the_spare_file_without_writing_through_it(spare):
    entry, site = spare
    tree = Tree(site)
    tree.fresh(os.fspath(site / "a" / "index.html"))
    (site / "a" / "index.html").write_text("written", encoding="utf-8")
    assert (entry / "a" / "index.html").read_text(encoding="utf-8") == "a"
    assert not tree.stale(os.fspath(site / "a" / "index.html")) and tree.stale(os.fspath(site / "b" / "index.html"))


def test_a_tree_over_no_folder_links_every_file(tmp_path: Path):
    source = _write(tmp_path / "source" / "p" / "index.html", "p").parents[1]
    tree = Tree(tmp_path / "site")
    assert not tree.recycled
    assert link_tree(source, tmp_path / "site", tree=tree) == 1 and tree.kept == 0 and tree.purge() == 0
    assert _files(tmp_path / "site") == {"p/index.html": "p"}


def test_the_generation_a_build_replaced_is_the_spare_the_next_recycles(tmp_path: Path):
    build = tmp_path / "build"
    first = new_generation(build, recycle=True)  # no spare yet: a new folder
    _write(first.public / "index.html", "first")
    _write(first.folder / "parts" / "data.json", "{}")
    keep_spare(switch_to(first))
    assert not (build / SPARE).exists()  # it replaced nothing
    second = new_generation(build, recycle=True)
    keep_spare(switch_to(second))
    assert (build / SPARE / "public" / "index.html").read_text(encoding="utf-8") == "first"
    third = new_generation(build, recycle=True)
    assert not (build / SPARE).exists() and third.folder.name.startswith("gen-")
    assert sorted(p.name for p in third.folder.iterdir()) == ["public"]  # what a build makes again is gone
    assert (third.public / "index.html").read_text(encoding="utf-8") == "first"
    other = new_generation(build)  # without recycle: a new folder, the spare left for another
    assert list(other.folder.iterdir()) == []
    keep_spare(switch_to(third))
    keep_spare(switch_to(other))  # a spare no build took goes to the trash
    assert [p.name.split("-")[0] for p in (build / TRASH).iterdir()] == [SPARE]
    assert (build / SPARE / "public" / "index.html").is_file()
