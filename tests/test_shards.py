"""The site rendered in parts (ingest/build/shards.py): each group of studies' pages from its own data, the
rest over all of it, and a group's pages from the cache when nothing it reads changed."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from conftest import copy_project
from ingest.build import shards
from ingest.build.site import Layout, build_site, hugo_env, prepare, render_site
from ingest.plumbing.cache import CacheCounts
from ingest.build.generation import Generation, new_generation
from ingest.bundles.problems import BuildError
from ingest.build.page_keys import _cuts, folders_by_study
from ingest.build.shards import (CATALOGUE, Job, _cut, facet_pages_of, facet_run_data, link_tree, render_pages,
                           shard_count, shard_of, split_data)
from test_stage import _differences

MEASURED = "measured-mariadb-2core-vm"
# the project's studies in 8 shards (one study a shard at most: a shard count of 8), by the first 64 bits
# of the SHA-256 of each id modulo 8, worked out with sha256sum
IN_EIGHT = {3: ("measured-mariadb-2core-vm-5min",), 5: ("scaleflux-csd2000-mysql-2020", "seagate-nytro-mysql-2015"),
            6: ("graid-supremeraid-mysql-2023",), 7: ("measured-mariadb-2core-vm", "netapp-tr3693-mysql-2010")}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Layout:
    """The project built once (its six studies in one shard)."""
    layout = copy_project(tmp_path_factory.mktemp("shards") / "project")
    build_site(layout)
    return layout


def _with_export_of(layout: Layout) -> Generation:
    """A new generation holding the current one's export (linked), ready to render."""
    generation = new_generation(layout.build)
    shutil.copytree(layout.build / "current" / "export", generation.export, copy_function=os.link)
    return generation


def test_shards_are_counted_in_powers_of_two_and_keep_their_studies():
    assert [shard_count(n, per_shard=128) for n in (0, 1, 128, 129, 1000, 10_000)] == [1, 1, 1, 2, 8, 128]
    assert {n: tuple(s for s in sorted(sum(IN_EIGHT.values(), ())) if shard_of(s, 8) == n) for n in IN_EIGHT} == IN_EIGHT


def test_the_pages_are_the_same_rendered_in_one_shard_and_in_four(built: Layout):
    shutil.rmtree(built.cache / "pages")
    generation = _with_export_of(built)
    took = render_site(built, generation, per_shard=1)
    assert "hugo (6 studies rendered, 0 cached, in runs: 4; 10 facet pages rendered, 0 cached), static links and search index" in took
    assert sorted(p.name for p in (generation.folder / "parts").iterdir()) == ["3", "5", "6", "7", "facets-0", "site"]
    assert _differences(built.public, generation.public) == []
    again = _with_export_of(built)
    assert "hugo (0 studies rendered, 6 cached, in runs: 0; 0 facet pages rendered, 10 cached), static links and search index" in render_site(built, again, per_shard=1)
    assert sorted(p.name for p in (again.folder / "parts").iterdir()) == ["site"]
    assert _differences(built.public, again.public) == []


def test_the_facet_pages_are_the_same_rendered_one_a_run_and_all_in_one(built: Layout):
    """The build rendered the six facet pages in one run; here each in a run of its own, with the facets
    of the other pages cut down to their titles."""
    pages = sorted(p.name for p in (built.export / "data" / "facet_pages").iterdir())
    assert pages == ["array-state-1.json", "compression-1.json", "device-class-1.json", "doublewrite-1.json",
                     "filesystem-1.json", "protocol-1.json", "provisioned-iops-1.json", "raid-level-1.json",
                     "storage-product-1.json", "volume-size-1.json"]
    shutil.rmtree(built.cache / "pages")
    generation = _with_export_of(built)
    took = render_site(built, generation, facet_pages_per_run=1)
    assert "hugo (6 studies rendered, 0 cached, in runs: 1; 10 facet pages rendered, 0 cached), static links and search index" in took
    assert len(list((generation.folder / "parts").glob("facets-*"))) == 10
    facets = json.loads((generation.folder / "parts" / "facets-0" / "facets.json").read_text(encoding="utf-8"))
    assert facets["raid-level"] == {"title": "RAID level", "chunks": []}
    assert _differences(built.public, generation.public) == []


def test_only_the_pages_of_a_changed_study_are_rendered_again(tmp_path: Path, capsys):
    layout = copy_project(tmp_path / "project")
    first = new_generation(layout.build)
    prepare(layout, first, quiet=True)
    assert "hugo (6 studies rendered, 0 cached, in runs: 4; 10 facet pages rendered, 0 cached), static links and search index" in render_site(layout, first, per_shard=1)
    bundle = layout.data / MEASURED / "bundle.yaml"
    bundle.write_text(bundle.read_text(encoding="utf-8").replace("title: '", "title: 'Changed: ", 1), encoding="utf-8")
    second = new_generation(layout.build)
    prepare(layout, second, quiet=True)
    # its pages (not those of netapp-tr3693-mysql-2010, in its shard), and the two facet pages it is on
    # (doublewrite, compression)
    assert "hugo (1 studies rendered, 5 cached, in runs: 1; 2 facet pages rendered, 8 cached), static links and search index" in render_site(layout, second, per_shard=1)
    assert [p.name for p in (second.folder / "parts").iterdir() if p.name.isdigit()] == ["7"]
    assert sorted(p.name for p in (second.folder / "parts" / "7" / "studies").iterdir()) == [f"{MEASURED}.json"]

    incremental = shutil.copytree(second.public, tmp_path / "incremental")  # a build removes other generations

    shutil.rmtree(layout.cache)
    build_site(layout)  # from nothing, in one shard
    assert _differences(incremental, layout.public) == []
    assert "Changed: " in (incremental / "studies" / MEASURED / "index.html").read_text(encoding="utf-8")


def test_a_shard_holds_only_its_studies_data(built: Layout, tmp_path: Path):
    parts = split_data(data=built.export / "data", out=tmp_path / "parts", per_shard=1)
    assert {s.number: s.studies for s in parts.shards} == IN_EIGHT
    for shard in parts.shards:
        mine = set(shard.studies)
        read = lambda name: json.loads((shard.data / name).read_text(encoding="utf-8"))  # noqa: E731
        assert {p.stem for p in (shard.data / "studies").iterdir()} == mine
        assert {r["study"] for rows in read("embeds.json").values() for r in rows} <= mine
        assert {r["study"] for r in read("explore.json")["studies"]} == mine
        assert {r["study"] for r in read("compare.json")["studies"]} == mine
        assert set(read("findings.json")) == {"headlines"} and set(read("findings.json")["headlines"]) <= mine
        assert {p.stem for p in (shard.data / "artifacts").iterdir()} <= mine
        assert not (shard.data / "facets.json").exists() and not (shard.data / "sql.json").exists()
        assert not (shard.data / "facet_pages").exists()
    embeds = json.loads((built.export / "data" / "embeds.json").read_text(encoding="utf-8"))
    assert sum(len(json.loads((s.data / "embeds.json").read_text(encoding="utf-8"))) for s in parts.shards) == len(embeds)
    site = json.loads((parts.site / "studies.json").read_text(encoding="utf-8"))
    assert sorted(site) == sorted(sum(IN_EIGHT.values(), ()))
    assert sorted(site[MEASURED]) == ["catalogue", "id", "sources", "summary", "systems", "title", "value_count",
                                      "varies"]
    logs = json.loads((parts.site / "artifact_list.json").read_text(encoding="utf-8"))
    assert logs and all("pages" not in row and row["sha256"] for row in logs)
    assert not (parts.site / "artifacts").exists()
    assert not (parts.site / "facets.json").exists() and not (parts.site / "facet_pages").exists()


def test_a_run_of_facet_pages_holds_only_its_pages_data(built: Layout, tmp_path: Path):
    data = built.export / "data"
    facets, pages = facet_pages_of(data)
    page = next(p for p in pages if p.name == "doublewrite-1")
    assert (page.path, page.file, page.studies) == ("/doublewrite/", "doublewrite/index.html", (MEASURED, f"{MEASURED}-5min"))
    out = facet_run_data(data=data, out=tmp_path / "run", facets=facets, pages=[page])
    assert sorted(p.name for p in out.iterdir()) == ["embeds.json", "evidence_grades.json", "facet_pages", "facets.json",
                                                     "fields.json", "run_quality.json"]
    assert [p.name for p in (out / "facet_pages").iterdir()] == ["doublewrite-1.json"]
    cut = json.loads((out / "facets.json").read_text(encoding="utf-8"))
    assert cut["doublewrite"] == facets["doublewrite"] and cut["compression"] == {"title": "Compression", "chunks": []}
    embeds = json.loads((data / "embeds.json").read_text(encoding="utf-8"))
    mine = {k for k, rows in embeds.items() if {r["study"] for r in rows} & set(page.studies)}
    assert mine and set(json.loads((out / "embeds.json").read_text(encoding="utf-8"))) == mine


def test_a_data_file_nobody_placed_stops_the_build(built: Layout, tmp_path: Path):
    data = tmp_path / "data"
    shutil.copytree(built.export / "data", data)
    (data / "ranking.json").write_text("{}", encoding="utf-8")
    with pytest.raises(BuildError) as error:
        split_data(data=data, out=tmp_path / "parts")
    assert str(error.value) == (f"exported data {data / 'ranking.json'}: not in ingest/build/shards.py's CATALOGUE "
                                "(say which pages read it: each study's, or only the site's)")


def test_each_study_is_keyed_by_its_cut_of_the_data_made_in_one_pass(built: Layout):
    """page_keys._cuts gives, for every study at once, what shards._cut gives for the study alone."""
    data = built.export / "data"
    studies = sorted(p.stem for p in (data / "studies").glob("*.json"))
    for name, rules in CATALOGUE.items():
        rule = rules["shard"]
        if rule in (None, "whole", "study file") or not (data / name).exists():
            continue
        value = json.loads((data / name).read_text(encoding="utf-8"))
        cuts = _cuts(value, rule, studies, name)
        assert list(cuts) == studies
        assert all(cuts[s] == _cut(value, rule, {s}, name) for s in studies), name
    embeds = _cuts(json.loads((data / "embeds.json").read_text(encoding="utf-8")), "by study", studies, "embeds.json")
    assert embeds[MEASURED] and all(r["study"] == MEASURED for rows in embeds[MEASURED].values() for r in rows)


def test_a_runs_pages_go_to_their_studies_by_their_folders(tmp_path: Path):
    run = tmp_path / "run"
    for file in ("studies/a/index.html", "explore/rows/a/index.html", "compare/series/b/index.html",
                 "artifacts/b/log-1/index.html", "embed/a--tps/index.html", "embed/a--tps/index.json",
                 "embed/resize.js", "css/site.css", "favicon.svg"):
        (run / file).parent.mkdir(parents=True, exist_ok=True)
        (run / file).write_text(file, encoding="utf-8")
    assert folders_by_study(run, studies=("a", "b"), charts={"a--tps": "a"}) == {
        "a": ["studies/a", "explore/rows/a", "embed/a--tps"], "b": ["artifacts/b", "compare/series/b"]}
    (run / "studies" / "c").mkdir()
    (run / "studies" / "c" / "index.html").write_text("c", encoding="utf-8")
    with pytest.raises(BuildError) as error:
        folders_by_study(run, studies=("a", "b"), charts={"a--tps": "a"})
    assert str(error.value) == (f"{run}/studies/c: a page of none of this run's studies (study 'c'; "
                                "ingest/build/page_keys.py: STUDY_FOLDERS)")
    with pytest.raises(BuildError) as error:
        folders_by_study(run, studies=("a", "b", "c"), charts={})
    assert str(error.value) == (f"{run}/embed/a--tps: a page of none of this run's studies (chart 'a--tps'; "
                                "ingest/build/page_keys.py: STUDY_FOLDERS)")


def test_trees_linked_into_one_share_their_files_and_must_agree_on_the_rest(tmp_path: Path):
    """Cache entries linked into a site: their own pages linked, the script every run wrote linked
    once and compared with each run's copy (once a copy), and a file two of them wrote differently
    stops the build."""
    def tree(name: str, files: dict[str, str]) -> Path:
        for file, text in files.items():
            (tmp_path / name / file).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name / file).write_text(text, encoding="utf-8")
        return tmp_path / name

    one = tree("one", {"studies/a/index.html": "a", "js/site.js": "plot"})
    two = tree("two", {"studies/b/index.html": "b", "js/site.js": "plot"})
    three = tree("three", {"studies/c/index.html": "c"})
    (three / "js").mkdir()
    os.link(two / "js" / "site.js", three / "js" / "site.js")  # an entry of the same run as two's
    public, same = tmp_path / "public", set()
    assert [link_tree(t, public, same=same) for t in (one, two, three)] == [2, 1, 1]
    assert (public / "studies" / "b" / "index.html").samefile(two / "studies" / "b" / "index.html")
    assert (public / "js" / "site.js").samefile(one / "js" / "site.js")
    site_js = os.stat(two / "js" / "site.js")
    assert same == {(f"{public}/js/site.js", site_js.st_dev, site_js.st_ino)}  # two's and three's copy, compared once
    four = tree("four", {"js/site.js": "other"})
    with pytest.raises(BuildError) as error:
        link_tree(four, public, same=same)
    assert str(error.value) == f"{public}/js/site.js: two parts of the site wrote it differently"


def test_the_page_cache_holds_each_studys_pages_apart(built: Layout):
    entries = [p for p in (built.cache / "pages").glob("*/*") if (p / "studies").is_dir()]
    assert sorted(next((e / "studies").iterdir()).name for e in entries) == sorted(sum(IN_EIGHT.values(), ()))
    for entry in entries:
        (study,) = [p.name for p in (entry / "studies").iterdir()]
        assert {p.name for p in (entry / "explore" / "rows").iterdir()} <= {study}
        assert all(p.name.startswith(f"{study}--") or f"--{study}--" in p.name for p in (entry / "embed").iterdir() if p.is_dir())
        assert (entry / "embed" / "resize.js").is_file()


def test_what_follows_the_runs_of_study_pages_starts_beside_the_other_runs(tmp_path: Path):
    """render_pages calls after_studies once the runs of study pages are done, before the runs of other
    pages start and beside them (the build indexes the study pages for search then), in the place of
    one of the two runs at a time, and after_runs once every run is done; a run of study pages that
    fails stops the build before after_studies."""
    events: list[str] = []
    facets_may_end, more_started, studies_started = threading.Event(), threading.Event(), threading.Event()
    lock = threading.Lock()
    busy = [0, 0]  # now, at most

    def start() -> None:
        with lock:
            busy[0] += 1
            busy[1] = max(busy)

    def end() -> None:
        with lock:
            busy[0] -= 1

    def job(name: str, *, studies: bool, wait: bool = False, fail: bool = False) -> Job:
        def render(to: Path) -> None:
            start()
            try:
                if wait:
                    assert facets_may_end.wait(30), "after_studies did not run while this run went on"
                if name == "more-facets":  # a run that would be beside after_studies if a third could be
                    more_started.set()
                    studies_started.wait(1)
                if fail:
                    raise BuildError(f"{name} failed")
                (to / name).mkdir(parents=True)
                (to / name / "index.html").write_text(name, encoding="utf-8")
                events.append(f"run {name}")
            finally:
                end()
        return Job(render=render, keys=(f"{name}-key",), files=lambda _: {f"{name}-key": [name]}, studies=studies)

    def after_studies() -> None:
        start()
        events.append("after studies")
        studies_started.set()
        more_started.wait(1)
        facets_may_end.set()
        end()

    def run(jobs: list[Job], out: str) -> None:
        render_pages(cache=tmp_path / out / "cache", keys=[k for j in jobs for k in j.keys], jobs=jobs,
                     public=tmp_path / out / "public", site=lambda to: to.mkdir(parents=True),
                     own=tmp_path / out / "own", after_studies=after_studies,
                     after_runs=lambda: events.append("after runs"))

    # the first facet run (second of the two at a time) waits for after_studies: it could not end otherwise
    run([job("facets", studies=False, wait=True), job("shard-0", studies=True), job("shard-1", studies=True),
         job("more-facets", studies=False)], "ok")
    assert events.index("after studies") > max(events.index("run shard-0"), events.index("run shard-1"))
    assert events.index("run facets") > events.index("after studies") and events[-1] == "after runs"
    assert events.index("run more-facets") > events.index("after studies")  # it starts first, the longest
    assert busy == [0, 2]  # never a run beside after_studies and another run
    assert (tmp_path / "ok" / "public" / "shard-1" / "index.html").read_text(encoding="utf-8") == "shard-1"
    events.clear()
    with pytest.raises(BuildError) as error:
        run([job("shard-0", studies=True, fail=True), job("facets", studies=False)], "failed")
    assert str(error.value) == "shard-0 failed"
    assert "after studies" not in events and "after runs" not in events


def test_the_page_cache_is_pruned_beside_what_follows_the_runs(tmp_path: Path, monkeypatch):
    """Once every run is done, the page cache is pruned beside after_runs (the build's search index of
    the other pages, and the links), not after it: an entry of another build goes while after_runs
    waits for it, and the run's own entry stays, though the two outgrow the bound."""
    monkeypatch.setattr(shards, "MAX_BYTES", 1)
    cache = tmp_path / "cache"
    old = cache / "pages" / "ol" / "old-key"
    (old / "studies").mkdir(parents=True)
    (old / "studies" / "index.html").write_text("an old page", encoding="utf-8")
    seen: list[bool] = []

    def render(to: Path) -> None:
        (to / "shard-0").mkdir(parents=True)
        (to / "shard-0" / "index.html").write_text("shard-0", encoding="utf-8")

    def after_runs() -> None:
        deadline = time.monotonic() + 10
        while old.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        seen.append(old.exists())

    job = Job(render=render, keys=("shard-0-key",), files=lambda _: {"shard-0-key": ["shard-0"]}, studies=True)
    counts = render_pages(cache=cache, keys=["shard-0-key"], jobs=[job], public=tmp_path / "public",
                          site=lambda to: to.mkdir(parents=True), own=tmp_path / "own", after_runs=after_runs)
    assert seen == [False]
    assert counts == CacheCounts(made=1, cached=0, pruned=1)
    assert (cache / "pages" / "sh" / "shard-0-key" / "shard-0" / "index.html").read_text(encoding="utf-8") == "shard-0"
    assert (tmp_path / "public" / "shard-0" / "index.html").read_text(encoding="utf-8") == "shard-0"


def test_hugo_runs_with_a_memory_limit_and_a_collector_setting_a_developer_can_override(monkeypatch):
    monkeypatch.delenv("GOMEMLIMIT", raising=False)
    monkeypatch.delenv("GOGC", raising=False)
    env = hugo_env()
    assert (env["GOMEMLIMIT"], env["GOGC"]) == ("1200MiB", "200")
    monkeypatch.setenv("GOGC", "100")
    monkeypatch.setenv("GOMEMLIMIT", "3GiB")
    env = hugo_env()
    assert (env["GOMEMLIMIT"], env["GOGC"]) == ("3GiB", "100")
