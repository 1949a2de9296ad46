"""The embed renderer's cache: unchanged charts are not drawn again, a damaged cache entry is never used."""

from __future__ import annotations

import copy
import json
import os
import shutil
import time

import pytest

from conftest import FIXTURES, ROOT, copy_project
from ingest.build import site as build
from ingest.build import embed_cache
from ingest.build import embed_render
from ingest.publish import embed_specs
from ingest.build.site import BuildError, Layout
from ingest.build.embed_render import EmbedPlan, plan_embeds, render_embeds
from ingest.plumbing.cache import prune as cache_prune
from ingest.build.embed_cache import EmbedCache, code_files

FRAMED = next(c for c in json.loads((FIXTURES / "charts" / "specs.json").read_text(encoding="utf-8"))["charts"]
              if c["name"] == "by-x-framed")


def chart(chart_id: str, title: str = "Transactions per second by made-up load") -> dict:
    entry = copy.deepcopy(FRAMED)
    entry.pop("name")
    entry.update(id=chart_id, title=title)
    return entry


@pytest.fixture
def layout(tmp_path) -> Layout:
    """A project of its own (its build/cache starts empty) drawing with this one's site and node_modules."""
    for name in ("site", "node_modules"):
        (tmp_path / name).symlink_to(ROOT / name)
    return Layout(tmp_path)


def render(layout: Layout, charts: list[dict], name: str = "export") -> tuple:
    export = layout.build / name
    shutil.rmtree(export, ignore_errors=True)
    export.mkdir(parents=True)
    (export / embed_specs.FOLDER).mkdir()
    embed_specs.write(export / embed_specs.FOLDER / "a-study.json", [json.dumps(c) for c in charts])
    counts = render_embeds(layout, export_dir=export, quiet=True)
    out = export / "static" / "embed"
    return counts, {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def no_link(source, target):
    raise OSError(18, "Invalid cross-device link")


def test_a_second_build_draws_nothing_and_writes_the_same_bytes(layout, capsys):
    charts = [chart("c0"), chart("c1", "Another title"), chart("c2", "A third title")]
    first_counts, first = render(layout, charts, "first")
    second_counts, second = render(layout, charts, "second")
    assert (first_counts.made, first_counts.cached) == (3, 0)
    assert (second_counts.made, second_counts.cached) == (0, 3)
    assert sorted(first) == ["c0.svg", "c1.svg", "c2.svg"]
    assert second == first
    render_embeds(layout, export_dir=layout.build / "second")
    assert capsys.readouterr().out == "embeds: 0 drawn, 3 from the cache\n"


def test_a_changed_chart_is_the_only_one_drawn_again(layout):
    charts = [chart("c0"), chart("c1"), chart("c2")]
    _, first = render(layout, charts, "first")
    charts[1]["spec"]["points"][0]["y"] = 150
    counts, second = render(layout, charts, "second")
    assert (counts.made, counts.cached) == (1, 2)
    assert [name for name in first if first[name] != second[name]] == ["c1.svg"]


def test_a_damaged_cache_entry_is_drawn_again(layout):
    charts = [chart("c0"), chart("c1")]
    _, first = render(layout, charts, "first")
    cache = EmbedCache(layout.cache / "embeds")
    entries = sorted(p for shard in cache.folder.iterdir() for p in shard.iterdir())
    assert len(entries) == 2
    assert [e.suffix for e in entries] == [".svg", ".svg"]  # an entry is the SVG itself
    whole = entries[0].read_bytes()
    entries[0].unlink()  # (a link to the first build's SVG: written through, it would tear that too)
    entries[0].write_bytes(whole[:1000])  # torn: an SVG without its end
    # what an interrupted build leaves: a temporary file, never read, removed once it is a day old (and
    # a folder, as in the caches of folders)
    leftover, left_folder = cache.folder / ".tmp-0123-99.svg", cache.folder / ".tmp-0456-99"
    leftover.write_bytes(b"<svg")
    (left_folder / "x").mkdir(parents=True)
    counts, second = render(layout, charts, "second")
    assert (counts.made, counts.cached) == (1, 1)
    assert second == first
    assert entries[0].read_bytes() == whole  # drawn again, and kept in its place
    assert leftover.is_file() and left_folder.is_dir()
    for left in (leftover, left_folder):
        os.utime(left, (time.time() - 2 * 86400,) * 2)
    cache.prune()
    assert not leftover.exists() and not left_folder.exists()


def test_cached_files_are_copied_where_they_cannot_be_linked(layout, monkeypatch):
    charts = [chart("c0")]
    _, first = render(layout, charts, "first")
    monkeypatch.setattr(embed_cache.os, "link", no_link)
    counts, second = render(layout, charts, "second")
    assert (counts.made, counts.cached, second) == (0, 1, first)
    assert (layout.build / "second" / "static" / "embed" / "c0.svg").stat().st_nlink == 1


def test_prune_removes_entries_unused_for_two_weeks_then_the_least_recently_used(layout, monkeypatch):
    charts = [chart(f"c{i}", f"Title {i}") for i in range(3)]
    render(layout, charts)
    cache = EmbedCache(layout.cache / "embeds")
    entries = sorted((p for shard in cache.folder.iterdir() for p in shard.iterdir()), key=lambda p: p.name)
    now = time.time()
    for age_days, entry in zip([15, 2, 1], entries):
        os.utime(entry, (now - age_days * 86400,) * 2)
    assert cache.prune(now=now) == 1
    assert [e.exists() for e in entries] == [False, True, True]
    monkeypatch.setattr(embed_cache, "MAX_BYTES", entries[2].stat().st_size)
    assert cache.prune(now=now, keep=frozenset({entries[1].stem})) == 0  # a key the build uses stays
    assert cache.prune(now=now) == 1
    assert [e.exists() for e in entries] == [False, False, True]


def test_a_plan_names_the_cache_entries_of_all_its_charts(layout):
    """What a build keeps when it prunes the embed cache: every chart's entry, drawn or linked."""
    charts = [chart(f"c{i}", f"Title {i}") for i in range(3)]
    render(layout, charts)
    cache = EmbedCache(layout.cache / "embeds")
    plan = plan_embeds(layout, export_dir=layout.build / "export")
    assert (plan.total, plan.misses) == (3, [])
    assert {cache.entry(key) for key in plan.keys} == {p for shard in cache.folder.iterdir() for p in shard.iterdir()}


def test_the_key_covers_every_module_that_draws():
    names = [p.name for p in code_files(ROOT / "site" / "render" / "embeds.mjs")]
    assert names == ["inconsistent.js", "palette.js", "plot-by-x.js", "plot-evidence.js", "plot-rebuild.js", "plot-runs.js", "dom.mjs", "draw.mjs",
                     "embed-worker.mjs", "embeds.mjs", "frame.mjs"]


def test_a_chart_that_cannot_be_drawn_is_named(layout):
    broken = chart("broken")
    broken["renderer"] = "pie"
    with pytest.raises(BuildError) as caught:
        render(layout, [chart("c0"), broken])
    assert str(caught.value).endswith('embed broken: no renderer "pie"')


def test_a_build_prunes_a_cache_at_most_once_in_a_while(tmp_path):
    """Pruning reads every entry's files: a build's call (every=) skips it when the cache was pruned
    less than that many seconds ago."""
    folder = tmp_path / "cache"
    now = time.time()
    old = []
    for name in ("aa1", "aa2"):
        entry = folder / "aa" / name
        entry.mkdir(parents=True)
        (entry / "chart.svg").write_bytes(b"<svg/>")
        old.append(entry)
    os.utime(old[0], (now - 15 * 86400,) * 2)
    assert cache_prune(folder, max_bytes=1000, now=now, every=3600) == 1
    os.utime(old[1], (now - 15 * 86400,) * 2)
    assert cache_prune(folder, max_bytes=1000, now=now + 60, every=3600) == 0
    assert old[1].is_dir()
    assert cache_prune(folder, max_bytes=1000, now=now + 3660, every=3600) == 1
    assert not old[1].exists()


def test_the_entries_a_build_uses_are_kept_past_the_bound(tmp_path):
    """A build whose entries outgrow the bound keeps them all (the export's cache at 10,000 bundles):
    the bound removes only older ones."""
    folder = tmp_path / "cache"
    now = time.time()
    entries = []
    for age, name in enumerate(("aa1", "aa2", "aa3")):
        entry = folder / "aa" / name
        entry.mkdir(parents=True)
        (entry / "chart.svg").write_bytes(b"<svg/>" * 100)  # 600 bytes
        os.utime(entry, (now - age * 60,) * 2)
        entries.append(entry)
    # without keep, the bound of 1,000 bytes would leave the newest only
    assert cache_prune(folder, max_bytes=1000, now=now, keep=frozenset(entries[:2])) == 1
    assert [e.exists() for e in entries] == [True, True, False]


def test_entries_are_copied_into_the_cache_where_files_cannot_be_linked(layout, monkeypatch):
    charts = [chart("c0"), chart("c1", "Another title")]
    with monkeypatch.context() as patched:
        patched.setattr(embed_cache.os, "link", no_link)
        counts, first = render(layout, charts, "first")
    assert (counts.made, counts.cached) == (2, 0)
    entries = sorted(p for shard in (layout.cache / "embeds").iterdir() for p in shard.iterdir())
    assert len(entries) == 2 and entries[0].stat().st_nlink == 1  # a copy
    counts, second = render(layout, charts, "second")
    assert (counts.made, counts.cached, second) == (0, 2, first)


def test_node_gets_a_worker_a_core_and_one_for_few_charts(tmp_path, monkeypatch):
    """A worker costs about 0.4 s to start: one draws up to CHARTS_A_WORKER charts (and then the build
    draws them beside Hugo: build.render_site), more get one a core."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)

    def workers(n: int) -> int:
        plan = EmbedPlan(out_dir=tmp_path, script=tmp_path / "embeds.mjs", cache=EmbedCache(tmp_path / "cache"),
                         misses=[("key", f"c{i}", b"{}") for i in range(n)], total=n)
        return plan.workers

    assert [workers(n) for n in (0, 1, 200, 201, 6800)] == [1, 1, 1, 2, 2]


def test_a_build_draws_many_charts_before_hugo_and_keeps_every_one(tmp_path, monkeypatch):
    """Many charts (here: more than one worker's, CHARTS_A_WORKER made 1) are drawn before Hugo's first
    run starts (the two would compete for the cores), and every one is kept in the cache: the decision
    is made once, before drawing empties the plan's list of charts to draw."""
    layout = copy_project(tmp_path)
    monkeypatch.setattr(embed_render, "CHARTS_A_WORKER", 1)
    order = []
    draw, hugo = build.draw_embeds, build._hugo
    monkeypatch.setattr(build, "draw_embeds", lambda plan: (order.append("draw"), draw(plan), order.append("drawn"))[1])
    monkeypatch.setattr(build, "_hugo", lambda *a, **k: (order.append("hugo"), hugo(*a, **k))[1])
    build.build_site(layout)
    assert order[:2] == ["draw", "drawn"] and order.count("draw") == 1 and set(order[2:]) == {"hugo"}
    charts = list((layout.export / "static" / "embed").glob("*.svg"))
    entries = [p for shard in (layout.cache / "embeds").iterdir() for p in shard.iterdir()]
    assert len(charts) > 2 and len(entries) == len(charts)
