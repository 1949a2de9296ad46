"""Compare: picked series in the URL, shared values drawn, and every differing recorded fact listed."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from conftest import INCONSISTENT_REASON, MD10_SUMMARY_NOTE, read_by_keys

pytestmark = pytest.mark.browser
SR6 = "graid-supremeraid-mysql-2023:supremeraid-raid6"
MD10 = "graid-supremeraid-mysql-2023:mdraid-raid10"


def _loaded(page):
    """Wait until the picked series' studies are loaded and the view is built from them."""
    page.wait_for_selector('#fairness-summary[aria-busy="false"]')


def _goto(page, url):
    page.goto(url)
    _loaded(page)


def test_like_for_like_check_lists_what_differs(page, site_url):
    _goto(page, f"{site_url}/compare/?series={SR6},{MD10}")
    summary = page.locator("#fairness-summary")
    # SupremeRAID RAID 6 against MD RAID 10 (the Graid bundle): product, level, the product's kind and
    # version, and the two md rebuild speed limits only the MD systems set
    assert summary.inner_text() == ("6 recorded facts differ: Storage, RAID level, Storage kind, Storage driver or firmware version, "
            "host tuning dev.raid.speed_limit_min, host tuning dev.raid.speed_limit_max.")
    assert page.locator("#compare-config tr.differs").count() == 6
    expect(page.locator("#compare-chart")).to_have_attribute("data-drawn", "10")  # 5 thread counts x 2 series
    assert page.errors == []


def test_protocols_differ_in_protocol_and_filesystem(page, site_url):
    _goto(page, f"{site_url}/compare/?series=netapp-tr3693-mysql-2010:fcp,netapp-tr3693-mysql-2010:nfs")
    # TR-3693: the NFS mount's version (3) and mount options are stated, the FCP LUN's are not
    assert page.locator("#fairness-summary").inner_text() == ("4 recorded facts differ: Protocol, Filesystem, "
                                                             "Filesystem version, Mount options.")


def test_picking_changes_the_url_and_back_restores(page, site_url):
    _goto(page, f"{site_url}/compare/")
    assert page.locator("#fairness-summary").inner_text() == "Pick two or more series."
    page.locator(f'input[value="{SR6}"]').check()
    page.locator(f'input[value="{MD10}"]').check()
    assert page.url.endswith(f"/compare/?series={MD10},{SR6}")  # one selection, one URL: the list's order
    _loaded(page)
    assert page.locator("#fairness-summary").inner_text() == ("6 recorded facts differ: Storage, RAID level, Storage kind, Storage driver or firmware version, "
        "host tuning dev.raid.speed_limit_min, host tuning dev.raid.speed_limit_max.")
    page.go_back()
    assert page.url.endswith(f"/compare/?series={SR6}")
    expect(page.locator("#fairness-summary")).to_have_text("Pick two or more series.")
    expect(page.locator("#compare-config thead th[data-series]")).to_have_count(1)


def test_series_without_a_shared_metric_are_not_drawn_together(page, site_url):
    _goto(page, f"{site_url}/compare/?series={SR6},netapp-tr3693-mysql-2010:fcp")
    expect(page.locator("#compare-chart")).to_have_attribute("data-drawn", "none")
    assert "Study" in page.locator("#fairness-summary").inner_text()


DW_ON = "measured-mariadb-2core-vm:dw-on-uncompressed"
DW_OFF = "measured-mariadb-2core-vm:dw-off-uncompressed"


def test_repeated_runs_are_compared_as_mean_and_spread(page, site_url):
    _goto(page, f"{site_url}/compare/?series={DW_ON},{DW_OFF}")
    assert page.locator("#fairness-summary").inner_text() == "1 recorded fact differs: Doublewrite."
    expect(page.locator("#compare-chart")).to_have_attribute("data-drawn", "6")  # 2 series x 3 thread counts
    titles = read_by_keys(page, "#compare-chart .chart-canvas")  # each point's tip
    # the three 2-thread runs with doublewrite on: 1851.25, 903.35 and 817.01 TPS (mean 1190.54)
    assert any(t.startswith("doublewrite on, uncompressed (measured-mariadb-2core-vm)\n1190.54 (mean of 3 runs, 817.01 "
                            "to 1851.25) tx/s (measured)\nThreads: 2\nmean of 3 runs") for t in titles)
    # a min-max bar for each of the six points, plus the zero line
    assert page.locator('#compare-chart g[aria-label="rule"] line').count() == 7
    assert page.errors == []


def test_embed_page_shows_the_comparison_from_its_query(page, site_url):
    _goto(page, f"{site_url}/embed/compare/?series={DW_ON},{DW_OFF}")
    assert not page.locator("#compare-form").is_visible()
    assert page.locator("#fairness-summary").inner_text() == "1 recorded fact differs: Doublewrite."
    expect(page.locator("#compare-chart")).to_have_attribute("data-drawn", "6")
    back = page.get_by_role("link", name="Open this comparison in Compare, with provenance")
    assert back.get_attribute("href").endswith(f"/compare/?series={DW_ON},{DW_OFF}")
    assert page.errors == []


def test_cite_box_follows_the_picked_series(page, site_url):
    _goto(page, f"{site_url}/compare/?series={SR6}")
    page.locator(f'#compare-form input[value="{MD10}"]').check()
    _loaded(page)
    snippet = page.locator("#view-cite input[data-view-iframe]").input_value()
    assert f'/embed/compare/?series={MD10},{SR6}"' in snippet


DW_ON_Z = "measured-mariadb-2core-vm:dw-on-compressed"
DW_OFF_Z = "measured-mariadb-2core-vm:dw-off-compressed"


def test_values_whose_spreads_meet_are_not_ranked(page, site_url):
    # TPS of the 4-thread runs, compressed (data/measured-mariadb-2core-vm/artifacts/*-t4-r*.log line 24):
    # doublewrite off 360.96, 402.41, 434.14; on 319.51, 295.39, 372.02: the ranges meet (360.96 < 372.02).
    # At 1 and 2 threads they do not (off 217.98-243.47 vs on 164.56-180.27; off 343.99-344.88 vs on 246.33-267.04).
    _goto(page, f"{site_url}/compare/?series={DW_ON_Z},{DW_OFF_Z}")
    figure = page.locator("#compare-chart")
    expect(figure).to_have_attribute("data-drawn", "6")
    assert figure.get_attribute("data-unranked") == "2"
    assert "At 2 of 6 points the spread of repeated runs meets another series'" in figure.locator("figcaption").inner_text()
    # the chart in words: its highest point, doublewrite off at 4 threads: (360.96 + 402.41 + 434.14) / 3 = 399.17
    assert figure.locator("figcaption").inner_text().endswith(
        "highest: doublewrite off, compressed (ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8) (measured-mariadb-2core-vm) "
        "at 4 threads, 399.17 (mean of 3 runs, 360.96 to 434.14) tx/s.")
    titles = read_by_keys(page, "#compare-chart .chart-canvas")
    at4 = [t for t in titles if "\nThreads: 4\n" in t]
    assert len(at4) == 2 and all("not ranked: its spread meets" in t for t in at4)
    assert not any("not ranked" in t for t in titles if "\nThreads: 4\n" not in t)
    row = page.locator(f'#compare-values tr[data-series="{DW_OFF_Z}"][data-key="tps|tx/s||by-threads"][data-threads="4"]')
    assert row.count() == 3  # one row per run, each listing the series it cannot be ranked against
    assert row.first.locator("td.overlaps").inner_text() == (
        "doublewrite on, compressed (ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8) (measured-mariadb-2core-vm)")
    at2 = page.locator(f'#compare-values tr[data-series="{DW_OFF_Z}"][data-key="tps|tx/s||by-threads"][data-threads="2"]')
    assert at2.first.locator("td.overlaps").inner_text() == ""
    assert page.errors == []


def test_picking_fetches_only_the_picked_series_studies(page, site_url):
    requested = []
    page.on("request", lambda r: requested.append(r.url.split(site_url, 1)[-1]) if "/compare/series/" in r.url else None)
    _goto(page, f"{site_url}/compare/")
    assert requested == []
    page.locator(f'input[value="{DW_ON}"]').check()
    _loaded(page)
    page.locator(f'input[value="{SR6}"]').check()
    _loaded(page)
    page.locator(f'input[value="{DW_OFF}"]').check()  # its study's page is already here
    _loaded(page)
    assert requested == ["/compare/series/measured-mariadb-2core-vm/", "/compare/series/graid-supremeraid-mysql-2023/"]
    # the configuration table holds the picked series only, in the list's order
    assert page.locator("#compare-config thead th[data-series]").evaluate_all(
        "ths => ths.map((th) => th.dataset.series)") == [SR6, DW_OFF, DW_ON]
    assert set(page.locator("#compare-values tbody tr").evaluate_all("trs => trs.map((tr) => tr.dataset.series)")) == \
        {SR6, DW_OFF, DW_ON}
    # each value keeps its provenance, linked as on every page
    value = page.locator(f'#compare-values tr[data-series="{DW_ON}"] details.value-prov').first
    value.locator("summary").click()
    assert value.locator(".prov-pop a").get_attribute("href").startswith("/artifacts/measured-mariadb-2core-vm/")
    assert page.errors == []


def test_finding_a_series_by_name(page, site_url):
    _goto(page, f"{site_url}/compare/")
    page.locator("#compare-find").fill("NFSv3 tuning")  # every word in a study's name or a system's
    shown = page.locator("#compare-form label:visible:has(input[name=series])")
    assert shown.evaluate_all("ls => ls.map((l) => l.querySelector('input').value)") == ["netapp-tr3693-mysql-2010:nfs-tuning"]
    assert page.locator("#compare-found").inner_text() == "1 series in 1 studies match."
    page.locator("#compare-find").fill("netapp")  # a study's name: all its series
    expect(shown).to_have_count(4)
    page.locator("#compare-find").fill("")
    expect(page.locator("#compare-form details[data-study]:visible")).to_have_count(6)


def test_without_javascript_each_study_links_its_series_page(browser, site_url, built_site):
    index = json.loads((built_site.export / "data" / "compare.json").read_text(encoding="utf-8"))
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/compare/")
    links = page.locator("#compare-form a[data-series-page]").evaluate_all("as => as.map((a) => a.getAttribute('href'))")
    assert links == [f"/compare/series/{s['study']}/" for s in index["studies"]]
    page.goto(f"{site_url}/compare/series/measured-mariadb-2core-vm/")
    assert page.locator("table.compare-config thead th[data-series]").count() == 4
    # the registry's fields, then the 13 other facts the study's bundle records (storage kind, mount
    # options, page size, the eight server settings of its my.cnf, the host's OS and kernel)
    assert page.locator("table.compare-config tbody tr").count() == len(index["fields"]) + 13
    assert page.locator("table.compare-config tbody tr[data-fact] th").all_inner_texts()[3:5] == [
        "server setting innodb_buffer_pool_size", "server setting innodb_log_file_size"]
    assert page.locator("table.compare-values tbody tr").count() == 144
    assert page.locator("table.compare-values details.value-prov").count() == 144
    context.close()


def _swatches(page, figure: str) -> dict[str, str]:
    """A chart's legend as drawn: each series' name and the colour of its swatch."""
    return dict(page.locator(f"{figure} .chart-canvas [class$='-swatch']").evaluate_all(
        "els => els.map((e) => [e.textContent.trim(), e.querySelector('svg').getAttribute('fill')])"))


def test_a_system_has_its_study_page_colour(page, site_url):
    """Doublewrite off, uncompressed is its study's third system: the palette's third colour (#009E73) on the
    study page, and on Compare too, though it is the first series picked; each line and dot has its colour."""
    page.goto(f"{site_url}/studies/measured-mariadb-2core-vm/")
    page.wait_for_selector("figure[data-chart][data-drawn]")
    study = _swatches(page, "figure[data-chart]")
    assert study["doublewrite off, uncompressed"] == "#009E73" and study["doublewrite on, uncompressed"] == "#0072B2"
    _goto(page, f"{site_url}/compare/?series={DW_OFF},{DW_ON}")
    compare = _swatches(page, "#compare-chart")
    assert compare == {"doublewrite off, uncompressed (measured-mariadb-2core-vm)": "#009E73",
                       "doublewrite on, uncompressed (measured-mariadb-2core-vm)": "#0072B2"}
    strokes = page.locator('#compare-chart g[aria-label="line"] path').evaluate_all(
        "ps => ps.map((p) => p.getAttribute('stroke'))")
    fills = page.locator('#compare-chart g[aria-label="dot"] circle').evaluate_all(
        "cs => cs.map((c) => c.getAttribute('fill'))")
    assert sorted(strokes) == ["#0072B2", "#009E73"] and set(fills) == {"#0072B2", "#009E73"}
    # the axis and caption name the metric as the registry does (schema/fields.yaml), never its key
    chart = page.locator("#compare-chart").inner_text()
    assert "Transactions per second (tx/s)" in chart and "tps" not in chart
    assert page.errors == []


def test_two_series_of_one_colour_are_told_apart_by_dashes(page, site_url):
    """Doublewrite on, uncompressed is the first system of both measured studies: one colour, the second
    drawn dashed, and the caption says so."""
    other = "measured-mariadb-2core-vm-5min:dw-on-uncompressed"
    _goto(page, f"{site_url}/compare/?series={DW_ON},{other}")
    lines = page.locator('#compare-chart g[aria-label="line"]').evaluate_all(
        "gs => gs.map((g) => [g.getAttribute('stroke-dasharray'), [...g.querySelectorAll('path')].map((p) => p.getAttribute('stroke'))])")
    assert lines == [[None, ["#0072B2"]], ["6,4", ["#0072B2"]]]
    assert ("Dashed: doublewrite on, uncompressed (measured-mariadb-2core-vm-5min), whose colour (its place in its "
            "study) an earlier series has.") in page.locator("#compare-chart figcaption").inner_text()
    assert page.errors == []


REASON, MD10_NOTE = INCONSISTENT_REASON, MD10_SUMMARY_NOTE  # conftest: Graid's MD RAID 10 summary figure


def test_a_figure_the_studys_own_tables_contradict_is_marked_in_words(page, site_url, built_site):
    _goto(page, f"{site_url}/compare/?series={SR6},{MD10}")
    rows = page.locator("#compare-values tbody tr.inconsistent")
    expect(rows).to_have_count(2)  # 15994.38 optimal, 10108.93 in recovery
    row = page.locator(f'#compare-values tr.inconsistent[data-series="{MD10}"][data-value="15994.38"]')
    assert row.locator(".value-flag").inner_text() == f"⊗ {REASON}"
    assert row.locator(".value-flag").get_attribute("title") == MD10_NOTE
    assert row.get_attribute("data-note") == MD10_NOTE
    assert "matches-no-per-user-cell" not in page.locator("#compare-values").inner_text()
    # the chart draws the first metric the series share (the per-user table), which holds no such figure
    assert page.locator("#compare-chart .chart-inconsistent").count() == 0
    assert page.locator('#compare-chart g[aria-label="dot"][fill="none"]').count() == 0
    # without a script: the study's series page says the same
    series = (built_site.public / "compare" / "series" / "graid-supremeraid-mysql-2023" / "index.html").read_text(encoding="utf-8")
    assert series.count(f'class="value-flag inconsistent" title="{MD10_NOTE}"') == 1
    assert "matches-no-per-user-cell" not in series
    assert page.errors == []

