"""The home page: each facet's answer (ingest/publish/evidence.py) and the ledger in one line
(ingest/publish/findings.py)."""

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


def test_the_home_page_answers_each_facet_from_its_best_evidence(built_site):
    """Each facet's question, its computed answer (tests/test_evidence.py checks the sentences) and
    what weighs it: doublewrite's from the 300 s study, graded above the 5 s runs that fail a rule."""
    text = _home(built_site)
    assert ("What does turning InnoDB doublewrite off change? Transactions per second, doublewrite off over on: "
            "1.02× (1 pair in 1 study, graded ⊕⊕⊕⊕ measured, no run-quality rule fails).") in text
    assert ("Best evidence: ⊕⊕⊕⊕ measured, no run-quality rule fails · 2026 · source: measured here") in text
    assert "Best evidence: ⊕⊕⊕◯ figures the source prints · 2015 to 2023 · source: vendor" in text
    # Graid's rebuilding over optimal TPS rows (bundle lines 190/210, 192/212): MD RAID 6 484.88/9872.39 =
    # 0.0491 the lowest; SupremeRAID RAID 10 at 1024 users the highest, 1.0099
    assert ("Transactions per second, array state each system against itself in optimal state, rebuilding 0.05× "
            "to 1.01× (4 pairs in 1 study, graded ⊕⊕⊕◯ figures the source prints).") in text
    assert "exact values" not in text  # no ratio is said to be exact


def test_the_measured_doublewrite_pair_keeps_its_spread_on_its_page(built_site):
    facet = (built_site.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    assert "1.22×" in facet and "1.75× (spreads overlap)" in facet


def test_each_answer_links_its_facet_page(built_site):
    page = (built_site.public / "index.html").read_text(encoding="utf-8")
    section = page[page.index('<section class="findings"'):page.index("</section>", page.index('class="findings"'))]
    assert re.findall(r'<h3><a href="([^"]+)">', section) == [
        "/storage-product/", "/raid-level/", "/protocol/", "/doublewrite/", "/compression/", "/filesystem/",
        "/device-class/", "/volume-size/", "/provisioned-iops/", "/array-state/"]
