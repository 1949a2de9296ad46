"""Facet pages: comparisons within one study, normalised to its baseline; never across studies."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def facets(built_site):
    return json.loads((built_site.export / "data" / "facets.json").read_text(encoding="utf-8"))


def _group(facets, facet, study, gid):
    s = next(s for s in facets[facet]["studies"] if s["study"] == study)
    return next(g for g in s["groups"] if g["id"] == gid)


def _cell(group, system, threads):
    row = next(r for r in group["rows"] if r["system"] == system)
    return next(c for c in row["cells"] if c["threads"] == threads)


def test_raid_level_against_md_raid_10(facets):
    g = _group(facets, "raid-level", "graid-supremeraid-mysql-2023", "tps-optimal-by-threads")
    assert _cell(g, "supremeraid-raid6", 512)["ratio"] == round(18878.61 / 10221.50, 4)
    assert _cell(g, "mdraid-raid10", 512)["ratio"] == 1.0
    # SupremeRAID RAID 10 has the baseline's RAID level: not part of a RAID-level comparison
    assert {r["system"] for r in g["rows"]} == {"supremeraid-raid6", "mdraid-raid10", "mdraid-raid6"}


def test_protocol_against_fcp_includes_the_derived_iscsi_value(facets):
    g = _group(facets, "protocol", "netapp-tr3693-mysql-2010", "oet-any")
    ratios = {r["system"]: r["cells"][0]["ratio"] for r in g["rows"]}
    assert ratios == {"fcp": 1.0, "iscsi": 0.91, "nfs": round(11262 / 13431, 4)}  # nfs-tuning has six values: left out


def test_array_state_against_the_same_system_optimal(facets):
    g = _group(facets, "array-state", "graid-supremeraid-mysql-2023", "tps-rebuilding-by-threads")
    assert _cell(g, "mdraid-raid6", 128)["ratio"] == round(484.88 / 9872.39, 4)
    assert _cell(g, "supremeraid-raid10", 1024)["ratio"] == round(14875.35 / 14729.23, 4)


def test_every_comparison_stays_within_one_study(facets):
    for facet in facets.values():
        for study in facet["studies"]:
            for group in study["groups"]:
                provenances = [c["provenance"] for r in group["rows"] for c in r["cells"]]
                sources = {p.split(":")[0] for p in provenances}
                assert len(sources) == 1, (study["study"], group["id"], sources)


@pytest.mark.parametrize("path", ["/raid-level/", "/protocol/", "/doublewrite/", "/compression/", "/array-state/"])
def test_facet_pages(page, site_url, path):
    response = page.goto(site_url + path)
    assert response.status == 200
    assert page.errors == []


def test_measured_doublewrite_comparison_has_spread(facets):
    study = next(s for s in facets["doublewrite"]["studies"] if s["study"] == "measured-mariadb-2core-vm")
    assert study["baseline"] == "doublewrite on, uncompressed"
    group = next(g for g in study["groups"] if g["id"] == "tps-any-by-threads")
    # like for like: only the uncompressed pair, three repetitions per thread count
    assert {r["system"] for r in group["rows"]} == {"dw-on-uncompressed", "dw-off-uncompressed"}
    for row in group["rows"]:
        for cell in row["cells"]:
            assert cell["runs"] == 3 and cell["low"] <= cell["ratio"] <= cell["high"]
            assert cell["overlap"] is False or row["system"] != "dw-on-uncompressed"


def test_raid_level_page_draws_ratio_charts(page, site_url):
    page.goto(site_url + "/raid-level/")
    assert page.locator("figure[data-chart]").count() == 2
    assert page.locator('figure[data-chart] g[aria-label="line"] path').first.is_visible()


def test_facet_tables_show_each_value_s_kind_and_facet(page, site_url):
    """The derived iSCSI figure reads "derived" on /protocol/; /array-state/ names each value's state."""
    page.goto(site_url + "/protocol/")
    iscsi = page.locator("table.facet-table tr", has=page.locator('th:has-text("iSCSI")'))
    assert iscsi.locator("td").first.text_content() == "iscsi"
    assert iscsi.locator("data").get_attribute("data-kind") == "derived"
    assert page.locator('table.facet-table data[data-kind="exact"]').count() == 2  # FCP and NFS, as printed
    page.goto(site_url + "/array-state/")
    states = page.locator("table.facet-table tbody td:first-of-type").all_text_contents()
    assert states and set(states) == {"rebuilding"}


def test_facet_pages_mark_values_that_carry_a_note(page, site_url):
    """MD RAID 10's summary TPS (the Graid baseline) matches no per-user cell: marked, and the note shown."""
    page.goto(site_url + "/raid-level/")
    table = page.locator("table.facet-table", has=page.locator("caption", has_text="Transactions per second (tx/s), optimal"))
    baseline = table.locator("tr", has=page.locator('th:text-is("Linux MD RAID 10")')).locator("td").nth(2)
    assert baseline.inner_text() == "15994.38 ‡ matches-no-per-user-cell"
    notes = table.locator("xpath=../following-sibling::ul[1]").inner_text()
    assert "15994.38 is in no cell of the per-user optimal table" in notes
