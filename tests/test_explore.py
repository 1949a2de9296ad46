"""The Explore page: filters in the URL, back/forward, sorting, keyboard, and a chart only for one study and metric."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
GRAID = "graid-supremeraid-mysql-2023"


@pytest.fixture(scope="module")
def total(built_site):
    data = json.loads((built_site.export / "data" / "explore.json").read_text(encoding="utf-8"))
    return len(data["rows"])


def _visible(page):
    return page.locator("#explore-table tbody tr:not([hidden])")


def test_filters_change_the_url_and_the_table(page, site_url, total):
    page.goto(site_url + "/explore/")
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
    page.goto(f"{site_url}/explore/?raid_level=6,10&state=rebuilding")
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


def test_chart_only_for_one_study_and_one_metric(page, site_url):
    page.goto(site_url + "/explore/?metric=tps")
    figure = page.locator("#explore-chart")
    assert figure.get_attribute("data-drawn") == "none"
    assert "never drawn on one axis" in figure.inner_text()
    page.goto(f"{site_url}/explore/?study={GRAID}&metric=tps&state=optimal")
    assert figure.get_attribute("data-drawn") == "24"
    assert page.locator('#explore-chart g[aria-label="dot"] circle').count() == 24


def test_columns_sort(page, site_url):
    page.goto(f"{site_url}/explore/?study={GRAID}&metric=tps")
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
    page.goto(site_url + "/explore/")
    box = page.locator('fieldset[data-param="protocol"] input[value="nfs"]')
    box.focus()
    page.keyboard.press("Space")
    page.wait_for_url("**/explore/?protocol=nfs")
    outline = box.evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline != "none"


def test_without_javascript_every_result_is_listed(browser, site_url, total):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "/explore/")
    assert page.locator("#explore-table tbody tr").count() == total
    assert not page.locator("#filters").is_visible()
    context.close()


def test_show_all_reveals_every_match(page, site_url, total):
    page.goto(site_url + "/explore/")
    if total <= 50:
        pytest.skip("fewer than 50 values")
    assert page.locator("#explore-status").inner_text() == f"{total} of {total} values (showing the first 50)."
    page.get_by_role("button", name=f"Show all {total} values").click()
    assert _visible(page).count() == total


MEASURED = "measured-mariadb-2core-vm"


def test_repeated_runs_are_drawn_once_with_their_spread(page, site_url):
    page.goto(f"{site_url}/explore/?study={MEASURED}&metric=tps")
    assert _visible(page).count() == 36  # 4 variants x 3 thread counts x 3 runs, each run a row
    figure = page.locator("#explore-chart")
    assert figure.get_attribute("data-drawn") == "12"  # one point per variant and thread count
    assert page.locator('#explore-chart g[aria-label="dot"] circle').count() == 12
    assert page.locator('#explore-chart g[aria-label="rule"] line').count() == 13  # 12 min-max bars + the zero line
    titles = page.locator('#explore-chart g[aria-label="dot"] title').evaluate_all("ts => ts.map((t) => t.textContent)")
    # the three runs of data/measured-mariadb-2core-vm, doublewrite on, uncompressed, 2 threads:
    # 817.01, 1851.25 and 903.35 TPS (mean 1190.54)
    assert "doublewrite on, uncompressed: 1190.54 (mean of 3 runs, 817.01 to 1851.25)" in titles
    assert "lowest to the highest" in figure.locator("figcaption").inner_text()
    assert page.errors == []


def test_lines_join_points_by_thread_count_whatever_the_table_order(page, site_url):
    page.goto(f"{site_url}/explore/?study={MEASURED}&metric=tps")
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
    page.goto(f"{site_url}/explore/?study={GRAID}")
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
    page.goto(f"{site_url}/embed/explore/?study={GRAID}&metric=tps&state=optimal")
    assert page.locator("#explore-chart").get_attribute("data-drawn") == "24"
    assert not page.locator("#filters").is_visible()
    assert page.locator(".site-header").count() == 0
    back = page.get_by_role("link", name="Open this view in Explore, with provenance")
    assert back.get_attribute("href").endswith(f"/explore/?study={GRAID}&metric=tps&state=optimal")
    assert back.get_attribute("target") == "_top"
    assert page.errors == []
