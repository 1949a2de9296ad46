"""A study page you can find your way in: the study at a glance, and a list of its sections that
follows the reader."""

from __future__ import annotations

import re

from conftest import INCONSISTENT_REASON, MD10_SUMMARY_NOTE

GRAID = "graid-supremeraid-mysql-2023"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def test_the_summary_counts_systems_values_and_verdicts(built_site):
    page = (built_site.public / "studies" / GRAID / "index.html").read_text(encoding="utf-8")
    summary = page[page.index('<dl class="study-summary">'):page.index("</dl>", page.index("study-summary"))]
    # the bundle: 4 systems, 52 values printed as numbers, 49 claims (verdict: lines of its ledger).
    # Setup: its workload (8 tables x 50,000,000 rows, 64-1024 users, 600 s; the buffer pool 32,000 MiB of
    # 100 GB = 0.3125). Headline: the storage-product page's first comparison, the per-user optimal TPS of
    # SupremeRAID RAID 10 over MD RAID 10 (bundle lines 189, 191): 8476.39/9838.45 = 0.8615 to
    # 22048.90/10221.50 = 2.1571.
    assert _text(summary) == (
        "Setup sysbench 1.1.0: oltp_read_write (OLTP_RW-trx.lua); 8 tables of 50,000,000 rows; 100GB of data; "
        "64 to 1024 threads; 600 s a run; buffer pool 31% of the data (derived) "
        "Headline SupremeRAID RAID 10 gives 0.86× to 2.16× the transactions per second of Linux MD RAID 10 "
        "(optimal) over 5 loads (ratios of exact values) (the first comparison on Storage product, which has them all). "
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


def test_a_study_of_several_workloads_lists_each_and_says_only_what_is_stated(built_site):
    page = (built_site.public / "studies" / "scaleflux-csd2000-mysql-2020" / "index.html").read_text(encoding="utf-8")
    summary = page[page.index('<dl class="study-summary">'):page.index("</dl>", page.index("study-summary"))]
    # five workloads in the bundle; none states its thread counts or run length; no facet page compares
    # its systems with ratios, so there is no headline
    assert _text(summary).startswith(
        "Setup (5 workloads) sysbench: OLTP read_only, write_only, read_write (default lua scripts); "
        "100 tables of 10,000,000 rows; 220G of data sysbench: OLTP read_only, write_only, read_write (default "
        "lua scripts); 1,000 tables of 10,000,000 rows; 2.3T of data ")
    assert "Headline" not in summary and "threads" not in summary


def test_a_figure_the_studys_own_tables_contradict_is_marked_in_words(built_site):
    """MD RAID 10's two summary figures (seed 000 line 201) are in no cell of the per-user tables: the summary
    table writes each with the reason in words (schema/evidence-grades.yaml) and its note, never the flag's
    key; a flag that says no such thing (at-512-users) keeps its key, its note listed under the table."""
    page = (built_site.public / "studies" / GRAID / "index.html").read_text(encoding="utf-8")
    table = page[page.index('id="table-rebuild-summary"'):]
    table = table[:table.index('<ul class="cell-notes">', 0) + 10000].split("</ul>")[0]
    reason = INCONSISTENT_REASON.replace("'", "&#39;")
    row = table[table.index('<tr data-system="mdraid-raid10">'):].split("</tr>")[0]
    row = _text(re.sub(r'<span class="prov-pop">.*?</details>', "", row, flags=re.S))  # each value's pop-up
    assert row == f"Linux MD RAID 10 15994.38 ⊗ {INCONSISTENT_REASON} 10108.93 ⊗ {INCONSISTENT_REASON} 420".replace(
        "'", "&#39;")
    assert f'<span class="value-flag inconsistent" title="{MD10_SUMMARY_NOTE}" data-inconsistent="{reason}">⊗ {reason}</span>' in table
    notes = _text(table[table.index('<ul class="cell-notes">'):])
    assert f"⊗ {INCONSISTENT_REASON}: {MD10_SUMMARY_NOTE}".replace("'", "&#39;") in notes
    assert "‡ matches-no-per-user-cell" not in page  # (the bundle's own note on the table names the flag)
    assert table.count("‡ at-512-users") == 4 + 4  # 4 cells, 4 notes under the table
