"""The home page's findings: each facet page's first comparison in its own numbers, and the ledger
in one line (ingest/publish/findings.py)."""

from __future__ import annotations

import re


def _home(built_site) -> str:
    page = (built_site.public / "index.html").read_text(encoding="utf-8")
    section = page[page.index('<section class="findings"'):page.index("</section>", page.index('class="findings"'))]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", section)).strip()


def test_the_ledger_in_one_line(built_site):
    # the bundles' verdict: lines, counted by hand: 33 holds, 20 unverifiable, 15 overstated, 3 misstated,
    # 1 understated, in the 4 bundles that have claims
    assert ("72 claims checked in 4 studies: 33 holds, 20 unverifiable, 15 overstated, 3 misstated, "
            "1 understated.") in _home(built_site)


def test_array_state_in_the_numbers_of_its_page(built_site):
    # Graid's rebuilding over optimal TPS rows (bundle lines 190/210, 192/212): SupremeRAID RAID 6
    # 3793.36/7669.51 = 0.4946 to 11616.73/13807.17 = 0.8414; MD RAID 6 484.88/9872.39 = 0.0491
    # to 973.79/8046.76 = 0.1210
    text = _home(built_site)
    assert ("SupremeRAID RAID 6 gives 0.49× to 0.84× its own transactions per second in optimal state "
            "(rebuilding) over 5 loads (exact values)") in text
    assert ("Linux MD RAID 6 gives 0.05× to 0.12× its own transactions per second in optimal state "
            "(rebuilding) over 5 loads (exact values).") in text


def test_overlapping_spreads_are_said(built_site):
    """The measured study's doublewrite pair: its numbers are the facet page's own ratios."""
    facet = (built_site.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    assert "1.22×" in facet and "1.75× (spreads overlap)" in facet
    assert ("doublewrite off, uncompressed gives 1.22× to 1.75× the transactions per second of doublewrite on, "
            "uncompressed over 3 loads (measured values), 1 of them not ranked: the runs' spreads overlap.") in _home(built_site)


def test_each_finding_links_its_facet_page(built_site):
    page = (built_site.public / "index.html").read_text(encoding="utf-8")
    section = page[page.index('<section class="findings"'):page.index("</section>", page.index('class="findings"'))]
    assert re.findall(r'<a href="([^"]+)">[^<]+</a>: in <em>', section) == [
        "/storage-product/", "/raid-level/", "/protocol/", "/doublewrite/", "/compression/", "/array-state/"]


def test_each_finding_with_a_chart_shows_its_build_time_svg(built_site):
    """The finding's comparison drawn small: the facet chart's standalone SVG (no script needed)."""
    page = (built_site.public / "index.html").read_text(encoding="utf-8")
    images = re.findall(r'<a class="finding-chart" href="([^"]+)"[^>]*><img src="([^"]+)"', page)
    assert [href for href, _ in images] == ["/storage-product/", "/raid-level/", "/doublewrite/", "/compression/",
                                            "/array-state/"]  # the protocol finding is a table, not a chart
    assert images[-1][1] == "/embed/facet-array-state--graid-supremeraid-mysql-2023--tps-rebuilding-by-threads.svg"
    assert all((built_site.public / svg.lstrip("/")).is_file() for _, svg in images)
