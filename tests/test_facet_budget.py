"""Facet pages stay short and light: every page of every facet (/<slug>/, /<slug>/N/) is at most 15,000 px
tall at 1280 px and, with all it loads, at most 150 KB of gzip (level 6, as test_scripts.py measures the
study page). Each study is folded (facet.html), its charts drawn when it is opened; a study heavier than
its page holds (ingest/publish/facets.py: INLINE_WEIGHT) is on a page of its own, fetched into the fold."""

from __future__ import annotations

import gzip
import json
import re
import urllib.parse

import pytest

from conftest import serve_folder
from ingest.publish import facets as facets_module

BUDGET = 150 * 1024
HEIGHT = 15_000
MEASURED = "measured-mariadb-2core-vm"
FIVE_MIN = "measured-mariadb-2core-vm-5min"


def _facet_paths(export) -> list[str]:
    facets = json.loads((export / "data" / "facets.json").read_text(encoding="utf-8"))
    return [c["path"] for f in facets.values() for c in f["chunks"]]


def _file(public, path: str):
    return public / (path.lstrip("/") + ("index.html" if path.endswith("/") else ""))


def _weighed(page, url: str, public) -> dict[str, int]:
    """The gzip size of each file a first visit to ``url`` loads: what the browser fetched once the
    network was idle, and what the page links (its icon, which Chromium may ask for after that)."""
    fetched: list[str] = []
    page.on("requestfinished", lambda r: fetched.append(urllib.parse.urlparse(r.url).path))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    html = _file(public, urllib.parse.urlparse(url).path).read_text(encoding="utf-8")
    linked = re.findall(r'<(?:link|script)\b[^>]*\b(?:href|src)="(/[^"]+)"', html)
    files = {_file(public, p) for p in [*fetched, *linked]}
    return {f.relative_to(public).as_posix(): len(gzip.compress(f.read_bytes(), 6)) for f in files}


def test_every_facet_page_of_the_site_is_within_its_budget(browser, site_url, built_site):
    """Heights and sizes of the six studies' facet pages (the whole catalogue's, measured by hand, are in
    benchmarks/HISTORY.md: /provisioned-iops/ was 171,782 px and 275.7 KB)."""
    paths = _facet_paths(built_site.export)
    assert len(paths) == 10
    over = []
    for path in paths:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        sizes = _weighed(page, site_url + path, built_site.public)
        height = page.evaluate("document.documentElement.scrollHeight")
        names = sorted(re.sub(r"\.[0-9a-f]{64}", "", n.rsplit("/", 1)[-1]) for n in sizes)
        # a page of studies draws (site.js, draw.js, plot.js); /filesystem/ and three more hold none of these six
        assert names in (["draw.js", "favicon.svg", "index.html", "plot.js", "site.js", "site.min.css"],
                         ["favicon.svg", "index.html", "site.min.css"]), (path, names)
        if sum(sizes.values()) > BUDGET or height > HEIGHT:
            over.append((path, sum(sizes.values()), height))
        context.close()
    assert over == []


def test_a_study_is_folded_and_its_chart_drawn_when_opened(page, site_url):
    """The measured study's line: its two pairs, and its TPS ratios of doublewrite off over on, the means
    of its three runs a load (its bundle): uncompressed 849.96 / 683.54 = 1.24, 2084.55 / 1190.54 = 1.75,
    2155.66 / 1766.69 = 1.22; compressed 231.49 / 173.06 = 1.34, 344.48 / 257.63 = 1.34, 399.17 / 328.97
    = 1.21: 1.21x to 1.75x."""
    page.goto(site_url + "/doublewrite/")
    page.wait_for_load_state("networkidle")
    folds = page.locator("section.facet-study > details.facet-fold")
    assert folds.count() == 2 and page.locator("details.facet-fold[open]").count() == 0
    fold = page.locator(f'section.facet-study[data-study="{MEASURED}"] > details.facet-fold')
    assert page.locator(f"#facet-{MEASURED}").inner_text() == (
        "Measured: sysbench oltp_read_write on MariaDB, doublewrite and compression variants")
    assert fold.locator("> summary").inner_text() == "2 pairs · transactions per second: 1.21× to 1.75×"
    assert fold.locator("figure[data-chart] svg").count() == 0  # not drawn while folded
    assert fold.locator("figure[data-chart][data-drawn]").count() == 0
    fold.locator("> summary").click()
    fold.locator("figure[data-chart][data-drawn] svg").first.wait_for()
    assert fold.locator("figure[data-chart][data-drawn]").count() == fold.locator("figure[data-chart]").count() == 8
    assert page.errors == []


def test_without_scripts_a_fold_opens_to_its_tables(browser, site_url):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(site_url + "/doublewrite/")
    fold = page.locator(f'section.facet-study[data-study="{MEASURED}"] > details.facet-fold')
    fold.locator("> summary").click()
    assert fold.locator("table.chart-data").first.is_visible()
    assert fold.locator("ul.facet-pairs li").count() == 2
    context.close()


def test_a_study_goes_on_a_page_of_its_own_once_its_page_is_full():
    """_place_details: what fits in what INLINE_WEIGHT leaves on its page is inline, in order; a study
    that does not fit has a page of its own, and one after it that fits is inline again."""
    def entry(study: str, path: str, cells: int, pairs: int) -> dict:
        groups = [{"chart": {"points": [{}] * cells}}]
        text = json.dumps({"groups": groups, "pairs": [{}] * pairs})
        return {"study": study, "path": path, "part": {"text": text}}

    studies = [entry("a", "/f/", 200, 10), entry("b", "/f/", 40, 1), entry("c", "/f/", 30, 10),
               entry("d", "/f/2/", 251, 0)]
    assert facets_module.INLINE_WEIGHT == 250
    facets_module._place_details("f", studies)
    assert [s["detail"] for s in studies] == [None, "/f/studies/b/", None, "/f/studies/d/"]


def test_a_heavy_study_is_fetched_into_its_fold_from_its_own_page(tmp_path, monkeypatch, browser):
    """At a weight of 60 a page, /doublewrite/ holds the 2-minute measured study (48 chart points and 2
    pairs: 50) and the 5-minute one (16 and 2) goes on /doublewrite/studies/<id>/: linked from its fold,
    which fetches it when opened; its two references folded there, each draws its 4 charts when opened."""
    from conftest import copy_project
    from ingest.build.site import build_site

    monkeypatch.setattr(facets_module, "INLINE_WEIGHT", 60)
    project = copy_project(tmp_path / "project")
    build_site(project)
    detail = f"/doublewrite/studies/{FIVE_MIN}/"
    facets = json.loads((project.export / "data" / "facets.json").read_text(encoding="utf-8"))
    assert facets["doublewrite"]["chunks"][0]["details"] == [detail]
    html = (project.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    assert f'data-detail="{detail}"' in html and f'<a href="{detail}">a page of their own</a>' in html
    own = (project.public / detail.strip("/") / "index.html").read_text(encoding="utf-8")
    assert f'<div class="facet-study-body" data-study="{FIVE_MIN}">' in own and 'table class="chart-data' in own
    embeds = json.loads((project.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    pages = {e["full_page"].split("#")[0] for e in embeds if e["id"].startswith(f"facet-doublewrite--{FIVE_MIN}--")}
    assert pages == {detail}  # its charts' full page is where they are drawn
    server = serve_folder(project.public)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        fetched: list[str] = []
        page.on("requestfinished", lambda r: fetched.append(urllib.parse.urlparse(r.url).path))
        page.goto(f"http://127.0.0.1:{server.server_port}/doublewrite/")
        page.wait_for_load_state("networkidle")
        assert detail not in fetched  # not before it is opened
        fold = page.locator(f'section.facet-study[data-study="{FIVE_MIN}"] > details.facet-fold')
        fold.locator("> summary").click()
        # its page of its own folds each reference too: open the first, and its charts are drawn
        reference = fold.locator("section.facet-reference > details.facet-fold").first
        reference.locator("> summary").click()
        reference.locator("figure[data-chart][data-drawn] svg").first.wait_for()
        assert detail in fetched
        assert fold.locator("section.facet-reference").count() == 2
        assert fold.locator("figure[data-chart]").count() == 8 and fold.locator("ul.facet-pairs li").count() == 2
        assert reference.locator("figure[data-chart][data-drawn]").count() == reference.locator("figure[data-chart]").count() == 4
        assert errors == []
        context.close()
    finally:
        server.shutdown()
