"""Compare: picked series in the URL, shared values drawn, and every differing configuration field listed."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
SR6 = "graid-supremeraid-mysql-2023:supremeraid-raid6"
MD10 = "graid-supremeraid-mysql-2023:mdraid-raid10"


def test_like_for_like_check_lists_what_differs(page, site_url):
    page.goto(f"{site_url}/compare/?series={SR6},{MD10}")
    summary = page.locator("#fairness-summary")
    assert summary.inner_text() == "2 configuration fields differ: Storage, RAID level."
    assert page.locator("#compare-config tr.differs").count() == 2
    assert page.locator("#compare-chart").get_attribute("data-drawn") == "10"  # 5 thread counts x 2 series
    assert page.errors == []


def test_protocols_differ_in_protocol_and_filesystem(page, site_url):
    page.goto(f"{site_url}/compare/?series=netapp-tr3693-mysql-2010:fcp,netapp-tr3693-mysql-2010:nfs")
    assert page.locator("#fairness-summary").inner_text() == "2 configuration fields differ: Protocol, Filesystem."


def test_picking_changes_the_url_and_back_restores(page, site_url):
    page.goto(f"{site_url}/compare/")
    assert page.locator("#fairness-summary").inner_text() == "Pick two or more series."
    page.locator(f'input[value="{SR6}"]').check()
    page.locator(f'input[value="{MD10}"]').check()
    assert page.url.endswith(f"/compare/?series={MD10},{SR6}")  # one selection, one URL: the list's order
    page.go_back()
    assert page.url.endswith(f"/compare/?series={SR6}")
    assert page.locator("#fairness-summary").inner_text() == "Pick two or more series."


def test_series_without_a_shared_metric_are_not_drawn_together(page, site_url):
    page.goto(f"{site_url}/compare/?series={SR6},netapp-tr3693-mysql-2010:fcp")
    assert page.locator("#compare-chart").get_attribute("data-drawn") == "none"
    assert "Study" in page.locator("#fairness-summary").inner_text()
