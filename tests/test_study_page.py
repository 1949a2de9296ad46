"""A study page you can find your way in: the study at a glance, and a list of its sections that
follows the reader."""

from __future__ import annotations

import re

GRAID = "graid-supremeraid-mysql-2023"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def test_the_summary_counts_systems_values_and_verdicts(built_site):
    page = (built_site.public / "studies" / GRAID / "index.html").read_text(encoding="utf-8")
    summary = page[page.index('<dl class="study-summary">'):page.index("</dl>", page.index("study-summary"))]
    # the bundle: 4 systems, 52 values printed as numbers, 49 claims (verdict: lines of its ledger)
    assert _text(summary) == (
        "Systems 4: SupremeRAID RAID 10; SupremeRAID RAID 6; Linux MD RAID 10; Linux MD RAID 6 "
        "Values 52 (52 exact) "
        "Claims checked 49: 28 holds, 15 overstated, 3 unverifiable, 2 misstated, 1 understated (the ledger)")


def test_on_this_page_lists_every_section_heading(built_site):
    page = (built_site.public / "studies" / GRAID / "index.html").read_text(encoding="utf-8")
    toc = page[page.index('<nav class="study-toc"'):page.index("</nav>", page.index("study-toc"))]
    listed = re.findall(r'<a href="#([^"]+)">', toc)
    body = page[page.index("</nav>", page.index("study-toc")):]
    assert listed == re.findall(r'<h2 id="([^"]+)"', body) == [
        "sources-heading", "chart-tps-by-users-heading", "tables-heading", "redundancy-heading", "claims-heading",
        "setup-heading",
        "corrections-heading", "notes-heading"]


def test_the_list_marks_the_section_in_view(page, site_url):
    page.set_viewport_size({"width": 1700, "height": 900})
    page.goto(f"{site_url}/studies/{GRAID}/#claims-heading")
    current = page.locator(".study-toc a[aria-current]")
    current.wait_for()
    assert current.inner_text() == "Claims checked against the study's own numbers"
    assert page.errors == []
