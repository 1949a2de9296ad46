"""The whole catalogue (every study in data/, not only the six the other site tests are written
against) validates and builds: a page a study, a row a study on /studies/, and every facet page."""

from __future__ import annotations

import html
import re

from playwright.sync_api import expect

from conftest import ROOT, serve_folder
from ingest.build.site import Layout
from ingest.bundles.fields import facet_pages

STUDIES = sorted(p.name for p in (ROOT / "data").iterdir() if (p / "bundle.yaml").is_file())


def test_every_study_has_its_page_and_its_row(catalogue: Layout):
    assert sorted(p.parent.name for p in (catalogue.public / "studies").glob("*/index.html")) == STUDIES
    listing = (catalogue.public / "studies" / "index.html").read_text(encoding="utf-8")
    body = listing[listing.index("<tbody>"):listing.index("</tbody>")]
    assert sorted(re.findall(r'<tr [^>]*>\s*<td><a href="/studies/([^/"]+)/"', body)) == STUDIES
    assert f"<caption>{len(STUDIES)} studies, newest first</caption>" in listing


def test_every_facet_page_is_built(catalogue: Layout):
    for facet in facet_pages():
        assert (catalogue.public / facet.page.slug / "index.html").is_file(), facet.page.slug


GUITARRAPC = "guitarrapc-docker-mysql-doublewrite-2022"


def test_a_doublewrite_pair_shares_its_flush_method_and_each_workload_is_a_comparison(catalogue: Layout):
    """guitarrapc/db-benchmark's four tables (README at c275955): flush method and doublewrite vary
    together, so only the O_DIRECT_NO_FSYNC pair (lines 39-46 against 50-57) differs in doublewrite
    alone; its eight sysbench tests at 8 threads are eight comparisons, not one value averaged."""
    page = (catalogue.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    start = page.index(f'data-study="{GUITARRAPC}"')
    end = page.find('<section class="facet-study"', start)
    part = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[start:end if end > 0 else None]))
    assert ("Pairs that differ in doublewrite alone: flush O_DIRECT_NO_FSYNC, doublewrite OFF (off) against "
            "flush O_DIRECT_NO_FSYNC, doublewrite ON (on)") in part
    assert ("flush fsync, doublewrite ON: differs from every system of another doublewrite in flush method "
            "(innodb_flush_method) (fsync against O_DIRECT or O_DIRECT_NO_FSYNC) as well") in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    # Select Simple 30001 / 28540 = 1.0512; ReadWrite 2605 / 2538 = 1.0264
    assert ("In numbers: flush O_DIRECT_NO_FSYNC, doublewrite ON: 1.00× at 8 threads; flush O_DIRECT_NO_FSYNC, "
            "doublewrite OFF: 1.05× at 8 threads.") in part
    assert ("In numbers: flush O_DIRECT_NO_FSYNC, doublewrite ON: 1.00× at 8 threads; flush O_DIRECT_NO_FSYNC, "
            "doublewrite OFF: 1.03× at 8 threads.") in part
    assert part.count("relative to flush O_DIRECT_NO_FSYNC, doublewrite ON") == 8


def test_a_study_of_many_long_runs_draws_every_kth_sample(catalogue: Layout):
    """percona-innodb-ebs-io1-gp2-scaling-2018: 55 runs of about an hour at 1 s, 198,035 samples in all
    (its cited/*.parquet); a page carries about 4,000 (runs.PAGE_SAMPLES), so every 50th is drawn
    (198,035 / 4,000 = 49.5, rounded up), and the page stays near a megabyte instead of 36 MB."""
    page = (catalogue.public / "studies" / "percona-innodb-ebs-io1-gp2-scaling-2018" / "index.html")
    text = page.read_text(encoding="utf-8")
    assert text.count("Every 50th sample of each run is drawn") == 55
    assert 'class="samples"' not in text  # no table of thinned samples
    assert page.stat().st_size < 1_500_000


def _text(page: str) -> str:
    """A page's text as a reader sees it: no tags, entities read ("&#43;" is "+"), spaces one."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


# The whole catalogue's /doublewrite/ answer, its figures checked against the bundles by hand:
# hgxl64 series 36 (res02, doublewrite off, over res01, on; the cited figures' tps at 1 to 512 threads):
# read-only from 1672.83/1729.8 = 0.9671 (8 threads) to 212.71/194.36 = 1.0944 (1), read/write from
# 164.34/159.81 = 1.0283 (1) to 1421.19/1054.71 = 1.3475 (16); with the 300 s study's compressed pair
# (1.0151) and mcgrof's 12-hour runs (artifacts, line 21619: 5298.68 over 5374.40 per sec. = 0.9859)
# every run passes: 0.97x to 1.35x, the 300 s pair wholly above 1x and mcgrof's below; Percona's MySQL
# 8.0.11 tpcc (cited, 56 threads, its baseline doublewrite on) off over on at buffer pools of 5 to 50 GB:
# 1042.15/817.37 = 1.2750, 1760.00/1318.72 = 1.3346, 2346.59/1749.97 = 1.3409, 2795.43/2120.45 = 1.3183,
# 3229.02/2550.19 = 1.2662, 3792.84/3113.34 = 1.2183: 9 pairs in 4 studies.
# LeeBohyun's DuraSSD TPC-C (printed): DWB OFF 106 over default 84 = 1.2619. The failing runs: the six-study figures (test_evidence.py) and the 60 s matrix (means of
# 3 runs' "per sec." transactions, off over on at 1, 2, 4, 8 threads): uncompressed 482.59/600.48 = 0.8037,
# 979.65/1225.05 = 0.7997, 0.8845, 1344.81/1285.34 = 1.0463; compressed 1.5688, 1.4381, 1.0929, 1.7546.
# Each study's effect is the median of those ratios (Percona's six: (1.2750 + 1.3183) / 2 = 1.30, as its
# forest row prints); seven studies pooled by DerSimonian-Laird (the method held to metafor's BCG trials in
# tests/test_pooling.py), I² 79%: "considerable inconsistency" (schema/synthesis.yaml).
DOUBLEWRITE = ("Doublewrite off against on: about 16% more transactions per second; a new setting may see −15% to "
               "+59%. Certainty: low (7 studies; considerable inconsistency).")


def test_the_whole_catalogue_answers_doublewrite_and_lists_every_answer(catalogue: Layout):
    """/doublewrite/ opens with the catalogue's answer, and its evidence table has a row a workload:
    guitarrapc's O_DIRECT_NO_FSYNC pair is eight rows, each naming its sysbench test; /facets/ lists
    every facet's question, the doublewrite answer among them."""
    page = (catalogue.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    assert DOUBLEWRITE in _text(page[:page.index('class="evidence-plot')])  # (a forest's: "evidence-plot forest-plot")
    table = page[page.index('class="evidence-table"'):page.index("</details>", page.index('class="evidence-table"'))]
    rows = [_text(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S) if GUITARRAPC in r]
    assert len(rows) == 8
    assert [r for r in rows if "Select Simple" in r] == [
        " MySQL 8.0.31 in Docker on tmpfs: doublewrite and flush method, sysbench (2022, independent) "
        "flush O_DIRECT_NO_FSYNC, doublewrite OFF over flush O_DIRECT_NO_FSYNC, doublewrite ON sysbench "
        "oltp_read_only --point_selects=1 --range_selects=0 (Select Simple) Queries per second 1.05× 1.05× to 1.05× "
        "1 ⊕⊕⊕◯ figures the source prints "]  # 30001 / 28540 = 1.0512 (README, lines 50 and 39)
    facets = (catalogue.public / "facets" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<h2><a href="([^"]+)">', facets) == [f"/{f.page.slug}/" for f in facet_pages()]
    assert DOUBLEWRITE in _text(facets)


def test_a_page_of_many_charts_draws_each_when_it_is_opened(catalogue: Layout, browser):
    """percona-innodb-ebs-io1-gp2-scaling-2018's page holds a chart of each of its 55 runs' samples,
    each folded (study/runs.html): none is drawn or fetched until it is opened, then that one is (it drew
    40 at once, and carried every chart's samples, 70 KB of gzip). /volume-size/, which drew 40 of its
    172 charts at once, folds its studies: none is drawn until one is opened."""
    server = serve_folder(catalogue.public)
    try:
        page = browser.new_page()
        fetched: list[str] = []
        page.on("requestfinished", lambda r: fetched.append(r.url))
        page.goto(f"http://127.0.0.1:{server.server_port}/studies/percona-innodb-ebs-io1-gp2-scaling-2018/")
        page.wait_for_load_state("networkidle")
        charts = page.locator("details.runs-chart > figure[data-timeseries]")
        assert charts.count() == 55
        assert page.locator("figure[data-timeseries][data-drawn]").count() == 0
        assert not [url for url in fetched if url.endswith(".json")]
        page.locator("details.runs-chart > summary").last.click()
        charts.last.locator("svg").first.wait_for()
        assert page.locator("figure[data-timeseries][data-drawn]").count() == 1
        expect(charts.last).to_have_attribute("data-drawn", "runs")
        assert [url for url in fetched if url.endswith(".json")] == [
            f"http://127.0.0.1:{server.server_port}{charts.last.get_attribute('data-timeseries')}"]
        page.goto(f"http://127.0.0.1:{server.server_port}/volume-size/")
        page.wait_for_load_state("networkidle")
        assert page.locator("section.facet-study figure[data-chart]").count() > 0
        assert page.locator("section.facet-study figure[data-chart][data-drawn]").count() == 0
        page.close()
    finally:
        server.shutdown()


def test_a_system_s_runs_of_two_benchmarks_are_two_lines_on_explore(catalogue: Layout, page):
    """hgxl64's MyRocks study (MDEV-13845) ran each system with sysbench read-only and read/write at the
    same thread counts, every run a row of its one table of runs: Explore draws a line a benchmark, not
    one line going up and down between them at each thread count."""
    server = serve_folder(catalogue.public)
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/explore/"
                  "?study=hgxl64-mdev13845-myrocks-compression-2018&metric=tps")
        page.wait_for_selector("#explore-chart[data-drawn]:not([data-drawn=none])")
        caption = page.inner_text("#explore-chart figcaption")
        paths = page.eval_on_selector_all("#explore-chart svg g[aria-label=line] path",
                                          "ps => ps.map(p => p.getAttribute('d'))")
    finally:
        server.shutdown()
    assert "one line per system, state, table and benchmark" in caption
    assert len(paths) > 3
    for d in paths:
        xs = [float(x) for x in re.findall(r"[ML](-?[0-9.]+),", d)]
        assert len(xs) > 1 and all(a < b for a, b in zip(xs, xs[1:])), d  # each thread count once a line


def test_no_study_page_is_wider_than_a_phone(catalogue: Layout, browser):
    """Every study's page at 375 px fits its width (a source's long address once made the High
    Performance MySQL study's page 513 px wide)."""
    server = serve_folder(catalogue.public)
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    wide = {}
    try:
        for study in STUDIES:
            page.goto(f"http://127.0.0.1:{server.server_port}/studies/{study}/")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 375:
                wide[study] = width
    finally:
        context.close()
        server.shutdown()
    assert wide == {}
