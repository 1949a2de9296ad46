"""The built site in headless Chromium, served on 127.0.0.1 with netlify.toml's headers."""

from __future__ import annotations

import re

import duckdb
import pytest
from playwright.sync_api import expect

from conftest import open_folds, read_by_keys

pytestmark = pytest.mark.browser

STUDY = "/studies/graid-supremeraid-mysql-2023/"


def _db_values(layout, *, state: str) -> dict[tuple[str, int], str]:
    con = duckdb.connect(str(layout.database), read_only=True)
    rows = con.execute(
        "SELECT system_label, threads, value_text FROM results "
        "WHERE study = 'graid-supremeraid-mysql-2023' AND metric = 'tps' AND threads IS NOT NULL AND state = ?",
        [state]).fetchall()
    return {(label, threads): text for label, threads, text in rows}


def _dot_titles(page) -> dict[tuple[str, int], str]:
    """The points of the chart as its tips say them, walked with the keys."""
    out = {}
    for text in read_by_keys(page, "figure[data-chart] .chart-canvas"):
        m = re.match(r"(.+)\n(\S+) tx/s \(exact\)\nConcurrent users \(threads\): (\d+)\n", text)
        assert m, text
        out[(m.group(1), int(m.group(3)))] = m.group(2)
    return out


def test_home_lists_the_study(page, site_url):
    page.goto(site_url + "/")
    link = page.get_by_role("link", name=re.compile("SupremeRAID SR-1010 vs Linux MD RAID"))
    assert link.get_attribute("href") == STUDY
    assert "52 values" in page.locator(".study-list").inner_text()
    assert page.errors == []


def test_chart_draws_one_line_per_configuration(page, site_url, built_site):
    page.goto(site_url + STUDY)
    figure = page.locator("figure[data-chart]")
    expect(figure).to_have_attribute("data-drawn", "optimal")
    assert page.locator('figure[data-chart] g[aria-label="line"] path').count() == 4
    assert page.locator('figure[data-chart] g[aria-label="dot"] circle').count() == 20
    assert _dot_titles(page) == _db_values(built_site, state="optimal")
    assert page.errors == []


def test_switch_shows_the_rebuilding_state(page, site_url, built_site):
    page.goto(site_url + STUDY)
    page.get_by_label("rebuilding").check()
    expect(page.locator("figure[data-chart]")).to_have_attribute("data-drawn", "rebuilding")
    assert _dot_titles(page) == _db_values(built_site, state="rebuilding")
    assert page.locator('[data-chart-table][data-switch-value="rebuilding"]').is_visible()
    assert not page.locator('[data-chart-table][data-switch-value="optimal"]').is_visible()
    page.get_by_label("optimal").check()
    assert _dot_titles(page) == _db_values(built_site, state="optimal")
    assert page.errors == []


def test_switch_works_from_the_keyboard(page, site_url):
    page.goto(site_url + STUDY)
    page.get_by_role("radio", name="optimal").focus()  # the chart's own name holds "(optimal)" too
    page.keyboard.press("ArrowRight")
    expect(page.locator("figure[data-chart]")).to_have_attribute("data-drawn", "rebuilding")


def test_printed_tables_equal_the_database(page, site_url, built_site):
    page.goto(site_url + STUDY)
    con = duckdb.connect(str(built_site.database), read_only=True)
    for result in ("tps-optimal", "tps-rebuilding", "rebuild-summary"):
        expected = con.execute(
            "SELECT row_index, col_index, value_text, provenance FROM results "
            "WHERE study = 'graid-supremeraid-mysql-2023' AND result = ? ORDER BY row_index, col_index",
            [result]).fetchall()
        cells = page.locator(f"#table-{result} tbody data.value")
        got = [(c.get_attribute("value"), c.get_attribute("data-provenance")) for c in cells.all()]
        assert got == [(text, prov) for _, _, text, prov in expected]


def test_corrected_values_are_marked_and_explained(page, site_url):
    page.goto(site_url + STUDY)
    cell = page.locator('#table-tps-rebuilding data.value[value="15445.57"]')
    assert cell.locator("sup").inner_text() == "†"
    assert "printed as 1544557" in cell.get_attribute("title")
    corrections = page.locator("#corrections").inner_text()
    for printed in ("1544557", "244116", "471,77", "Ubuntu 20.044 LTS"):
        assert printed in corrections


def test_tables_work_without_javascript(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + STUDY)
    assert page.locator("[data-chart-table]").count() == 2
    assert page.locator('[data-chart-table][data-switch-value="optimal"]').is_visible()
    assert page.locator('[data-chart-table][data-switch-value="rebuilding"]').is_visible()
    assert not page.locator("fieldset.switch").is_visible()
    assert page.locator("#table-rebuild-summary").is_visible()
    context.close()


def test_bundle_text_is_escaped(page, site_url):
    page.goto(site_url + STUDY)
    # The Chinese source title holds "™" and the table captions "*": rendered as text, not markup.
    assert "SupremeRAID™ versus Linux MD RAID" in page.locator("#source-dayingke-zh").inner_text()
    assert page.locator("main script").count() == 0


def test_security_headers_are_served(page, site_url):
    response = page.goto(site_url + STUDY)
    headers = response.headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"


@pytest.mark.parametrize("path", [STUDY, "/explore/", "/", "/claims/"])
def test_narrow_screen_has_no_page_level_horizontal_scroll(browser, site_url, path):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(site_url + path)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    context.close()


@pytest.mark.parametrize("path", ["/", "/studies/", "/about/", "/explore/", STUDY, "/studies/netapp-tr3693-mysql-2010/",
                                  "/studies/seagate-nytro-mysql-2015/", "/studies/scaleflux-csd2000-mysql-2020/"])
def test_no_console_errors(page, site_url, path):
    response = page.goto(site_url + path)
    assert response.status == 200
    page.wait_for_load_state("networkidle")
    assert page.errors == []


def test_without_javascript_charts_show_their_build_time_svg(browser, site_url):
    """No blank gap where a chart should be: each panel shows its standalone SVG, loaded and drawn."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        for path, count in (("/studies/graid-supremeraid-mysql-2023/", 2), ("/studies/measured-mariadb-2core-vm/", 10),
                            ("/raid-level/", 4)):
            page.goto(site_url + path)
            open_folds(page)  # a facet page's studies are folded
            images = page.locator(".chart-canvas img.chart-fallback")
            assert images.count() == count, path
            for i in range(count):
                images.nth(i).scroll_into_view_if_needed()
                assert images.nth(i).evaluate("img => img.complete && img.naturalWidth") == 760, path
    finally:
        context.close()


def test_with_javascript_the_drawn_chart_replaces_the_fallback(page, site_url):
    page.goto(site_url + "/studies/graid-supremeraid-mysql-2023/")
    page.wait_for_selector("figure[data-drawn]")
    assert page.locator(".chart-canvas img.chart-fallback").count() == 0
    assert page.locator(".chart-canvas svg").count() >= 1


def test_chart_legends_are_at_least_12_px(page, site_url):
    page.goto(site_url + "/studies/graid-supremeraid-mysql-2023/")
    page.wait_for_selector("figure[data-drawn]")
    sizes = page.locator(".chart-canvas [class*='-swatches ']").evaluate_all(
        "els => els.map((e) => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 12


def test_a_chart_tip_follows_the_keys(page, site_url):
    """The chart takes focus; the right arrow puts Plot's tip on the first point (SupremeRAID RAID 10 at 64
    users: 8476.39 TPS, graid-en table line 123), the next arrow on the next, Escape hides it."""
    page.goto(site_url + STUDY)
    page.locator("figure[data-chart][data-drawn]").wait_for()  # its keys listened to (draw.js imported after load)
    canvas = page.locator("figure[data-chart] .chart-canvas")
    assert canvas.get_attribute("tabindex") == "0" and canvas.get_attribute("role") == "img"
    assert canvas.get_attribute("aria-hidden") is None
    assert canvas.get_attribute("aria-label").startswith("Transactions per second by concurrent users (optimal): ")
    tip = canvas.locator('g[aria-label="tip"]')
    assert tip.text_content() == ""
    canvas.focus()
    page.keyboard.press("ArrowRight")
    lines = tip.locator("tspan").evaluate_all("ts => ts.map((t) => t.textContent.replace(/\u200b/g, ''))")
    assert lines[:3] == ["SupremeRAID RAID 10", "8476.39 tx/s (exact)", "Concurrent users (threads): 64"]
    page.keyboard.press("ArrowRight")
    assert "14627.62 tx/s (exact)" in tip.text_content()
    live = canvas.evaluate("c => c.nextElementSibling.textContent")
    assert live.startswith("SupremeRAID RAID 10\n14627.62 tx/s (exact)\nConcurrent users (threads): 128\n")
    page.keyboard.press("Escape")
    assert tip.text_content() == "" and canvas.get_attribute("data-point") is None
    assert page.errors == []
