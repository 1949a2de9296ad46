"""The Explore page: filters in the URL, back/forward, sorting, keyboard, and a chart only for one study and metric."""

from __future__ import annotations

import contextlib
import csv
import json

import pytest
from playwright.sync_api import expect

from conftest import INCONSISTENT_REASON, MD10_SUMMARY_NOTE, read_by_keys
from ingest.bundles.fields import registry

pytestmark = pytest.mark.browser
GRAID = "graid-supremeraid-mysql-2023"


@pytest.fixture(scope="module")
def index(built_site):
    return json.loads((built_site.export / "data" / "explore.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def total(index):
    return sum(s["count"] for s in index["studies"])


def _visible(page):
    return page.locator("#explore-table tbody tr:not([hidden])")


def _goto(page, url):
    """Open an Explore page and wait until the rows of the studies its view needs are loaded and shown."""
    page.goto(url)
    page.wait_for_selector('#explore-status[aria-busy="false"]')


def test_filters_change_the_url_and_the_table(page, site_url, total):
    _goto(page, site_url + "/explore/")
    assert _visible(page).count() == min(total, 50)  # at most 50 rows are laid out at a time, all at load
    page.locator('fieldset[data-param="study"] input[value="%s"]' % GRAID).check()
    page.wait_for_url(f"**/explore/?study={GRAID}")  # recorded just after the redraw is painted
    assert page.locator("#explore-status").inner_text() == f"52 of {total} values (showing the first 50)."
    expect(_visible(page)).to_have_count(50)  # the first 20 with the chart, the other 30 when the browser is idle
    page.locator('fieldset[data-param="state"] input[value="rebuilding"]').check()
    page.wait_for_url(f"**/explore/?study={GRAID}&state=rebuilding")
    expect(_visible(page)).to_have_count(28)  # 20 per-user cells + 8 summary cells (recovery TPS, rebuild MB/s)
    assert page.locator("#explore-status").inner_text() == f"28 of {total} values."
    assert page.errors == []


def test_a_url_restores_the_view_and_back_forward_work(page, site_url):
    _goto(page, f"{site_url}/explore/?raid_level=6,10&state=rebuilding")
    assert page.locator('fieldset[data-param="raid_level"] input[value="6"]').is_checked()
    assert page.locator('fieldset[data-param="raid_level"] input[value="10"]').is_checked()
    assert _visible(page).count() == 28
    page.locator('fieldset[data-param="protocol"] input[value="local"]').check()
    page.wait_for_url(lambda url: "protocol=local" in url)
    page.go_back()
    assert "protocol" not in page.url
    assert not page.locator('fieldset[data-param="protocol"] input[value="local"]').is_checked()
    page.go_forward()
    assert page.locator('fieldset[data-param="protocol"] input[value="local"]').is_checked()


def test_one_study_and_metric_is_one_chart_several_are_small_multiples(page, site_url):
    _goto(page, f"{site_url}/explore/?study={GRAID}&metric=tps&state=optimal")
    figure = page.locator("#explore-chart")
    expect(figure).to_have_attribute("data-drawn", "24")
    assert figure.get_attribute("data-multiples") is None
    assert page.locator('#explore-chart g[aria-label="dot"] circle').count() == 24  # 20 per-user + 4 summary
    # TPS in four studies: four charts, each on its own axis, in the list's order
    _goto(page, site_url + "/explore/?metric=tps")
    assert figure.get_attribute("data-multiples") == "4"
    titles = page.locator("#explore-chart .explore-multiple > h3").all_inner_texts()
    assert [t.split(" in ")[1][:22] for t in titles] == [
        "SupremeRAID SR-1010 vs", "Measured: sysbench olt", "Measured: sysbench olt", "Seagate Nytro accelera"]
    assert all(t.startswith("Transactions per second (tx/s) in ") for t in titles)
    # Graid: 24 points in each state; measured: 4 variants x 3 thread counts, drawn as means; its 300 s
    # runs: 4 variants at 2 threads, one run each; Seagate: 2 cards
    words = page.locator("#explore-chart .multiple-words").all_inner_texts()
    assert [w.split(";")[0] for w in words] == ["48 points", "12 points", "4 points", "2 points"]
    assert words[3] == ("2 points; lowest: Competitor's PCIe flash card, 412.33; "
                        "highest: Seagate Nytro accelerator card, 1328.06.")
    expect(figure).to_have_attribute("data-drawn", "66")
    caption = page.locator("#explore-chart figcaption").inner_text()
    assert caption.startswith("4 charts, one per study and metric: values of different studies or units are never "
                              "drawn on one axis, and each chart has its own scale.")
    # the charts in words for screen readers (the canvas is aria-hidden)
    assert page.locator("#explore-chart figcaption li").count() == 4
    # everything: more study-metric pairs than are drawn, and the caption says how many are left
    _goto(page, site_url + "/explore/")
    assert figure.get_attribute("data-multiples") == "9"
    assert "15 charts, one per study and metric" in figure.inner_text()  # the 300 s runs' study has 4 metrics
    assert "the first 9 shown, 6 more: pick filters to narrow" in figure.inner_text()


def test_columns_sort(page, site_url):
    _goto(page, f"{site_url}/explore/?study={GRAID}&metric=tps")
    page.get_by_role("button", name="Value", exact=True).click()
    # 24 optimal + 20 rebuilding per-user TPS + 4 recovery TPS; sorting lays out the first 20 at once
    expect(_visible(page)).to_have_count(48)
    values = [float(v) for v in _visible(page).evaluate_all("rows => rows.map((r) => r.dataset.value)")]
    assert values == sorted(values)
    assert page.locator('th[data-key="value"]').get_attribute("aria-sort") == "ascending"
    page.get_by_role("button", name="Value", exact=True).click()
    expect(_visible(page)).to_have_count(48)
    values = [float(v) for v in _visible(page).evaluate_all("rows => rows.map((r) => r.dataset.value)")]
    assert values == sorted(values, reverse=True)


def test_filters_work_from_the_keyboard(page, site_url):
    _goto(page, site_url + "/explore/")
    box = page.locator('fieldset[data-param="protocol"] input[value="nfs"]')
    box.focus()
    page.keyboard.press("Space")
    page.wait_for_url("**/explore/?protocol=nfs")
    outline = box.evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline != "none"


def test_without_javascript_every_study_links_to_all_its_values(browser, site_url, index, total):
    """Without a script, Explore lists every study, with its value count, linking to its row page,
    which lists every value of the study: together every value in the database."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "/explore/")
    assert not page.locator("#filters").is_visible()
    assert page.locator("#explore-table tbody tr").count() == 0
    links = page.locator("#explore-studies tbody tr td:first-child a")
    hrefs = links.evaluate_all("as => as.map((a) => a.getAttribute('href'))")
    assert hrefs == [f"/explore/rows/{s['study']}/" for s in index["studies"]]
    listed = 0
    for study, href in zip(index["studies"], hrefs):
        page.goto(site_url + href)
        rows = page.locator(f'table[data-explore-rows="{study["study"]}"] tbody tr')
        assert rows.count() == study["count"]
        assert rows.first.locator("details.value-prov").count() == 1  # the value with its provenance, as everywhere
        listed += study["count"]
    assert listed == total
    context.close()


def test_a_filter_fetches_only_the_studies_that_can_match(page, site_url, index):
    requested = []
    page.on("request", lambda r: requested.append(r.url.split(site_url, 1)[-1]) if "/explore/rows/" in r.url else None)
    _goto(page, f"{site_url}/explore/?study={GRAID}")
    assert requested == [f"/explore/rows/{GRAID}/"]
    page.locator('fieldset[data-param="protocol"] input[value="nfs"]').check()  # NetApp's only
    page.wait_for_url("**protocol=nfs")
    assert page.locator("#explore-status").inner_text() == f"0 of {sum(s['count'] for s in index['studies'])} values."
    assert requested == [f"/explore/rows/{GRAID}/"]  # no study has both: nothing more fetched
    page.locator('fieldset[data-param="study"] input[value="%s"]' % GRAID).uncheck()
    page.wait_for_url("**/explore/?protocol=nfs")
    may_match = [s["study"] for s in index["studies"] if "nfs" in s["facets"][[f["param"] for f in index["facets"]].index("protocol")]]
    assert may_match == ["netapp-tr3693-mysql-2010"]
    assert requested == [f"/explore/rows/{GRAID}/", "/explore/rows/netapp-tr3693-mysql-2010/"]
    page.go_back()  # the study fetched before is not fetched again
    page.wait_for_selector('#explore-status[aria-busy="false"]')
    assert len(requested) == 2
    assert page.errors == []


def test_show_all_reveals_every_match(page, site_url, total):
    _goto(page, site_url + "/explore/")
    if total <= 50:
        pytest.skip("fewer than 50 values")
    assert page.locator("#explore-status").inner_text() == f"{total} of {total} values (showing the first 50)."
    page.get_by_role("button", name=f"Show all {total} values").click()
    assert _visible(page).count() == total


MEASURED = "measured-mariadb-2core-vm"


def test_repeated_runs_are_drawn_once_with_their_spread(page, site_url):
    _goto(page, f"{site_url}/explore/?study={MEASURED}&metric=tps")
    assert _visible(page).count() == 36  # 4 variants x 3 thread counts x 3 runs, each run a row
    figure = page.locator("#explore-chart")
    assert figure.get_attribute("data-drawn") == "12"  # one point per variant and thread count
    assert page.locator('#explore-chart g[aria-label="dot"] circle').count() == 12
    assert page.locator('#explore-chart g[aria-label="rule"] line').count() == 13  # 12 min-max bars + the zero line
    titles = read_by_keys(page, "#explore-chart .chart-canvas")  # each point's tip
    # the three runs of data/measured-mariadb-2core-vm, doublewrite on, uncompressed, 2 threads:
    # 817.01, 1851.25 and 903.35 TPS (mean 1190.54)
    assert "doublewrite on, uncompressed\n1190.54 (mean of 3 runs, 817.01 to 1851.25) tx/s (measured)\n2 threads" in titles
    assert "lowest to the highest" in figure.locator("figcaption").inner_text()
    assert page.errors == []


def test_lines_join_points_by_thread_count_whatever_the_table_order(page, site_url):
    _goto(page, f"{site_url}/explore/?study={MEASURED}&metric=tps")
    for _ in range(2):  # ascending by value, then descending
        page.get_by_role("button", name="Value", exact=True).click()
        paths = page.locator('#explore-chart g[aria-label="line"] path')
        assert paths.count() == 4  # one per variant
        for d in paths.evaluate_all("ps => ps.map((p) => p.getAttribute('d'))"):
            xs = [float(step.split(",")[0]) for step in d.replace("L", " ").replace("M", "").split()]
            assert len(xs) == 3 and xs == sorted(xs)  # 1, 2 and 4 threads, left to right
    titles = paths.locator("title").all_text_contents()
    assert "doublewrite on, uncompressed" in titles
    assert page.errors == []


def test_cite_box_follows_the_view(page, site_url):
    _goto(page, f"{site_url}/explore/?study={GRAID}")
    page.locator("#view-cite summary").click()
    page.locator('fieldset[data-param="state"] input[value="rebuilding"]').check()
    snippet = page.locator("#view-cite input[data-view-iframe]").input_value()
    # the snippet is HTML: the query's "&" is written as "&amp;"
    assert f'/embed/explore/?study={GRAID}&amp;state=rebuilding"' in snippet and snippet.startswith("<iframe src=")
    with page.expect_download() as download:
        page.locator("#view-cite a[data-view-csv]").click()
    lines = open(download.value.path(), encoding="utf-8").read().splitlines()
    assert lines[0].startswith("study,system,raid_level") and len(lines) == 1 + 28
    assert page.errors == []


def test_embed_page_draws_the_view_from_its_query(page, site_url):
    _goto(page, f"{site_url}/embed/explore/?study={GRAID}&metric=tps&state=optimal")
    expect(page.locator("#explore-chart")).to_have_attribute("data-drawn", "24")
    assert not page.locator("#filters").is_visible()
    assert page.locator(".site-header").count() == 0
    back = page.get_by_role("link", name="Open this view in Explore, with provenance")
    assert back.get_attribute("href").endswith(f"/explore/?study={GRAID}&metric=tps&state=optimal")
    assert back.get_attribute("target") == "_top"
    assert page.errors == []


def test_graid_series_split_by_state_and_table(page, site_url):
    _goto(page, f"{site_url}/explore/?study={GRAID}&metric=tps")
    paths = page.locator('#explore-chart g[aria-label="line"] path')
    names = paths.locator("title").all_text_contents()
    assert sorted(names) == sorted(f"{s} ({state})" for s in ["SupremeRAID RAID 10", "SupremeRAID RAID 6",
                                                             "Linux MD RAID 10", "Linux MD RAID 6"]
                                   for state in ["optimal", "rebuilding"])
    # each line joins the 5 per-user cells (64 to 1024 users) of one table, never a summary figure
    for d in paths.evaluate_all("ps => ps.map((p) => p.getAttribute('d'))"):
        assert d.count("L") == 4 and d.count("M") == 1
    # the points' tips, walked with the keys: the lines' 40 points, each with its thread count, then the panel's 8
    tips = read_by_keys(page, "#explore-chart .chart-canvas")
    assert len(tips) == 48 and all(t.endswith(" threads") for t in tips[:40])
    panel = page.locator("#explore-chart .explore-panel")
    assert panel.count() == 1
    assert panel.locator(".panel-title").inner_text() == \
        "Without a thread count, from “Optimal vs recovery TPS and SSD rebuild speed”"
    assert "SupremeRAID RAID 10 (rebuilding)\n16119.14 tx/s (exact)" in tips[40:]  # the summary table's figure
    assert page.errors == []


REASON, MD10_NOTE = INCONSISTENT_REASON, MD10_SUMMARY_NOTE  # conftest: Graid's MD RAID 10 summary figure


def test_a_figure_the_studys_own_tables_contradict_is_marked_in_words(page, site_url, built_site):
    _goto(page, f"{site_url}/explore/?study={GRAID}&metric=tps&state=optimal")
    panel = page.locator("#explore-chart .explore-panel")
    # drawn hollow and crossed (a ring with no fill, a cross over it), the other 23 points filled
    assert panel.locator('g[aria-label="dot"] circle').count() == 4
    assert panel.locator('g[aria-label="dot"][fill="none"] circle').count() == 1
    assert panel.locator('g[aria-label="dot"] path').count() == 1  # the cross
    assert page.locator('#explore-chart g[aria-label="dot"][fill="none"]').count() == 2  # ring and cross, in the panel only
    # the key under its panel, in words
    assert panel.locator(".chart-inconsistent").inner_text() == (
        f"⊗ hollow, crossed dot: the source's own figures contradict it. Linux MD RAID 10 (optimal), 15994.38 tx/s: {REASON}.")
    # its tip: the reason and the note
    tips = read_by_keys(page, "#explore-chart .chart-canvas")
    assert f"Linux MD RAID 10 (optimal)\n15994.38 tx/s (exact)\n⊗ {REASON}\n{MD10_NOTE}" in tips
    assert sum(REASON in t for t in tips) == 1
    # the caption (what a screen reader reads: the canvas is aria-hidden)
    caption = page.locator("#explore-chart figcaption").inner_text()
    assert caption.endswith(" Drawn as a hollow, crossed dot (⊗), a value the source's own figures contradict: Linux MD "
                            f"RAID 10 (optimal), 15994.38 tx/s: {REASON} ({MD10_NOTE[:-1]}).")
    # its row of the table: greyed, the reason in words after the value, never the flag's key
    row = page.locator("#explore-table tbody tr.inconsistent")
    expect(row).to_have_count(1)
    assert row.locator("data").get_attribute("value") == "15994.38"
    assert row.locator(".value-flag").inner_text() == f"⊗ {REASON}"
    assert row.locator(".value-flag").get_attribute("title") == MD10_NOTE
    assert "matches-no-per-user-cell" not in page.locator("#explore-table").inner_text()
    # the view's CSV says it too, in the column results.csv says it in
    page.locator("#view-cite summary").click()
    with page.expect_download() as download:
        page.locator("#view-cite a[data-view-csv]").click()
    with open(download.value.path(), newline="", encoding="utf-8") as f:
        flagged = [(r["value_text"], r["inconsistency"], r["note"]) for r in csv.DictReader(f) if r["inconsistency"]]
    assert flagged == [("15994.38", REASON, MD10_NOTE)]
    # without a script: the study's row page says the same in its table
    rows = (built_site.public / "explore" / "rows" / GRAID / "index.html").read_text(encoding="utf-8")
    assert rows.count(f'class="value-flag inconsistent" title="{MD10_NOTE}"') == 1
    assert rows.count("⊗ the figure is in no cell of the source&#39;s own per-load table</span>") == 2  # and 10108.93
    assert "matches-no-per-user-cell" not in rows
    assert page.errors == []


def test_caption_names_the_active_filters(page, site_url):
    _goto(page, f"{site_url}/explore/?study={GRAID}&metric=tps&state=rebuilding")
    caption = page.locator("#explore-chart figcaption").inner_text()
    assert caption.startswith("Transactions per second (tx/s) in SupremeRAID SR-1010 vs Linux MD RAID: MySQL sysbench OLTP read/write; "
                              "filters: array state = rebuilding; ")
    page.locator('fieldset[data-param="raid_level"] input[value="6"]').check()
    caption = page.locator("#explore-chart figcaption").inner_text()
    assert "; filters: RAID level = 6, array state = rebuilding; " in caption
    assert "4 values without a thread count" not in caption and "2 values without a thread count" in caption


@contextlib.contextmanager
def _page_at(browser, width, *, height=900):
    """A page of its own at a given viewport width (the shared ``page`` fixture is 1280 px wide)."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()


def _overlaps(a, b):
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("width", [1280, 375])
def test_netapp_labels_do_not_overlap(browser, site_url, width):
    with _page_at(browser, width) as page:
        _netapp_labels_do_not_overlap(page, site_url)


def _netapp_labels_do_not_overlap(page, site_url):
    _goto(page, f"{site_url}/explore/?study=netapp-tr3693-mysql-2010&metric=oet")
    chart = page.locator("#explore-chart")
    expect(chart).to_have_attribute("data-drawn", "9")
    # the name of each value, wrapped beside its dot, and the value axis' tick labels
    labels = chart.locator('g[aria-label="text"] text, g[aria-label="x-axis tick label"] text')
    boxes = [b for b in labels.evaluate_all("ts => ts.map((t) => t.getBoundingClientRect().toJSON())")]
    names = chart.locator('g[aria-label="text"] text').all_text_contents()
    assert len(names) == 9 and "2. buffer pool 6GB" in names
    assert any("FCP (two QLogic" in n for n in names)
    svg = chart.locator("svg").first.bounding_box()
    for i, a in enumerate(boxes):
        assert a["x"] >= svg["x"] - 1 and a["x"] + a["width"] <= svg["x"] + svg["width"] + 1  # within the chart
        for b in boxes[i + 1:]:
            assert not _overlaps(a, b), (a, b)


def _too_wide(page):
    return page.locator("table").evaluate_all(
        "ts => ts.filter((t) => t.getClientRects().length && t.parentElement.scrollWidth > t.parentElement.clientWidth)"
        ".map((t) => t.className || t.outerHTML.slice(0, 60))")


def test_measured_study_tables_fit_at_1280(page, site_url):
    page.goto(f"{site_url}/studies/{MEASURED}/")
    for details in page.locator("details.runs-chart").all()[:2]:
        details.locator("> summary").click()
    assert page.locator("table.runs").count() == 1
    assert _too_wide(page) == []
    status = page.locator("table.runs th", has_text="Status")
    assert status.bounding_box()["x"] + status.bounding_box()["width"] <= 1280


@pytest.mark.parametrize("width", [1280, 375])
def test_explore_table_fits(browser, site_url, width):
    with _page_at(browser, width) as page:
        _explore_table_fits(page, site_url, width)


def _explore_table_fits(page, site_url, width):
    _goto(page, f"{site_url}/explore/?study={GRAID}&state=rebuilding")
    table = page.locator("#explore-table")
    fits = table.evaluate("t => [t.scrollWidth <= t.clientWidth, t.parentElement.scrollWidth <= t.parentElement.clientWidth]")
    assert fits == [True, True]
    first = table.locator("tbody tr").first
    assert first.get_attribute("role") == "row" and first.locator("td").first.get_attribute("role") == "cell"
    if width == 375:  # each row a card of label: value pairs, the label from the registry
        label = first.locator("td").nth(1).evaluate("td => getComputedStyle(td, '::before').content")
        assert label == '"System"'


def test_measured_study_tables_fit_on_a_phone(browser, site_url):
    """At 375 px the runs, setup and chart-data tables are cards: no table scrolls sideways."""
    with _page_at(browser, 375, height=800) as page:
        _measured_study_tables_fit_on_a_phone(page, site_url)


def _measured_study_tables_fit_on_a_phone(page, site_url):
    page.goto(f"{site_url}/studies/{MEASURED}/")
    assert page.locator("table.chart-data.cards").count() >= 2
    assert _too_wide(page) == []
    labels = page.locator("table.chart-data tbody tr").first.locator("td").evaluate_all(
        "tds => tds.map((td) => td.dataset.label)")
    assert labels == ["1 thread", "2 threads", "4 threads"]


def test_a_system_keeps_its_colour_in_explore(page, site_url):
    """SupremeRAID RAID 6 (the Graid bundle's second system) is the palette's second colour, as on its
    study page and the facet pages; its line while rebuilding is dashed."""
    _goto(page, f"{site_url}/explore/?study={GRAID}&metric=tps")
    lines = page.locator('#explore-chart g[aria-label="line"] path').evaluate_all(
        "ps => ps.map((p) => [p.querySelector('title').textContent, p.getAttribute('stroke'),"
        " p.getAttribute('stroke-dasharray')])")
    mine = {title: (stroke, dash) for title, stroke, dash in lines if title.startswith("SupremeRAID RAID 6 ")}
    assert mine == {"SupremeRAID RAID 6 (optimal)": ("#E69F00", None), "SupremeRAID RAID 6 (rebuilding)": ("#E69F00", "5,3")}
    assert "dashed: not in optimal state" in page.locator("#explore-chart figcaption").inner_text()


def test_small_multiples_share_one_legend(page, site_url):
    """One legend above the multiples names each study's series with its colour and dash: the Graid study's
    eight (SupremeRAID RAID 6 is its bundle's second system, #E69F00; dashed while rebuilding)."""
    _goto(page, site_url + "/explore/?metric=tps")
    legend = page.locator("#explore-chart .explore-legend")
    assert legend.count() == 1
    rows = legend.locator("p[data-study]")
    assert rows.count() == 4  # the four studies of the four charts
    # and what the hollow, crossed dot of Graid's chart means (MD RAID 10's two summary figures)
    assert legend.locator("p.legend-inconsistent").inner_text() == (
        "⊗ hollow, crossed dot: a value the source's own figures contradict; why is said under its chart.")
    assert legend.locator("p").count() == 5
    graid = legend.locator(f'p[data-study="{GRAID}"]')
    assert graid.locator(".legend-study").inner_text() == "SupremeRAID SR-1010 vs Linux MD RAID: MySQL sysbench OLTP read/write:"
    items = graid.locator(".legend-item").evaluate_all(
        "els => els.map((e) => [e.textContent, e.querySelector('line').getAttribute('stroke'),"
        " e.querySelector('line').getAttribute('stroke-dasharray')])")
    assert len(items) == 8
    assert ["SupremeRAID RAID 6 (optimal)", "#E69F00", None] in items
    assert ["SupremeRAID RAID 6 (rebuilding)", "#E69F00", "5,3"] in items
    # the same colour and dash as the multiple's line
    paths = page.locator("#explore-chart .explore-multiple").first.locator('g[aria-label="line"] path').evaluate_all(
        "ps => ps.map((p) => [p.querySelector('title').textContent, p.getAttribute('stroke'), p.getAttribute('stroke-dasharray')])")
    assert ["SupremeRAID RAID 6 (rebuilding)", "#E69F00", "5,3"] in paths
    assert "The legend above them names each study's series by colour (dashed: not in optimal state)" in \
        page.locator("#explore-chart figcaption").inner_text()
    assert page.errors == []


@pytest.mark.parametrize("query", ["", "?metric=rebuild_mb_s,tps,qps,latency_avg_ms"])
def test_no_metric_key_reaches_the_charts(page, site_url, query):
    """Every metric the multiples, their titles, axes and legend name is named as schema/fields.yaml labels
    it: never its key (rebuild_mb_s) nor the key made into words (rebuild mb s)."""
    keys = [m.key for m in registry().metrics]
    _goto(page, site_url + "/explore/" + query)
    assert page.locator("#explore-chart").get_attribute("data-multiples") is not None
    text = page.locator("#explore-chart .chart-canvas").evaluate("c => c.textContent")
    assert "Rebuild speed (MB/s)" in text
    for key in keys:  # a key of one word (tps) may be a unit as recorded ("(tps)"), never a name before one
        slugs = [key, key.replace("_", " ")] if "_" in key else [f"{key} ("]
        assert not [slug for slug in slugs if slug in text], key
    assert page.errors == []


def test_the_catalogue_s_first_view_loads_its_first_studies_up_to_250_values(page, catalogue_url, catalogue):
    """Explore's first view on the whole catalogue (1,780 values in 32 studies) fetches the row pages of
    its first studies up to ROW_BUDGET's 250 values (explore-load.js), says so, and a filter fetches the
    studies it needs, a study of more than 250 values whole."""
    studies = json.loads((catalogue.export / "data" / "explore.json").read_text(encoding="utf-8"))["studies"]
    counts = [(s["study"], s["count"]) for s in studies]
    total = sum(c for _, c in counts)
    first, values = [], 0
    for study, count in counts:  # the list's order: the catalogue's first three are 52, 32 and 270 values
        if first and values + count > 250:
            break
        first.append(study)
        values += count
    assert first == [GRAID, "guitarrapc-docker-mysql-doublewrite-2022"] and values == 84
    requested = []
    page.on("request", lambda r: "/explore/rows/" in r.url and requested.append(r.url.split("/explore/rows/")[1]))
    _goto(page, catalogue_url + "/explore/")
    assert page.locator("#explore-status").inner_text() == (
        f"84 of {total} values (showing the first 50). Values of 2 of {len(counts)} studies shown: pick filters to narrow.")
    assert requested == [f"{s}/" for s in first]
    big = "hgxl64-mdev13845-myrocks-compression-2018"
    page.locator(f'fieldset[data-param="study"] input[value="{big}"]').check()
    page.wait_for_url(f"**/explore/?study={big}")
    page.wait_for_selector('#explore-status[aria-busy="false"]')
    assert page.locator("#explore-status").inner_text() == f"270 of {total} values (showing the first 50)."
    assert requested[2:] == [f"{big}/"]
    assert page.errors == []
