"""Facet pages: comparisons within one study, normalised to its baseline; never across studies."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from conftest import open_folds
from ingest.publish.facets import read_facets


@pytest.fixture(scope="module")
def facets(built_site):
    return read_facets(built_site.export / "data")


def _group(facets, facet, study, gid):
    s = next(s for s in facets[facet]["studies"] if s["study"] == study)
    return next(g for g in s["groups"] if g["id"] == gid)


def _cell(group, system, threads):
    row = next(r for r in group["rows"] if r["system"] == system)
    return next(c for c in row["cells"] if c["threads"] == threads)


GRAID = "graid-supremeraid-mysql-2023"
MEASURED = "measured-mariadb-2core-vm"
NETAPP = "netapp-tr3693-mysql-2010"


def _study(facets, facet, study):
    return next(s for s in facets[facet]["studies"] if s["study"] == study)


def _pairs(facets, facet, study):
    return {(p["other"], p["reference"]) for p in _study(facets, facet, study)["pairs"]}


def test_raid_level_pairs_differ_in_raid_level_alone(facets):
    """RAID 6 against RAID 10 within each product; SupremeRAID against MD belongs to /storage-product/."""
    assert _pairs(facets, "raid-level", GRAID) == {("mdraid-raid6", "mdraid-raid10"),
                                                     ("supremeraid-raid6", "supremeraid-raid10")}
    g = _group(facets, "raid-level", GRAID, "tps-optimal-by-threads")  # against the study's baseline
    assert {r["system"] for r in g["rows"]} == {"mdraid-raid10", "mdraid-raid6"}
    assert _cell(g, "mdraid-raid10", 512)["ratio"] == 1.0
    # SupremeRAID RAID 6 against SupremeRAID RAID 10 (the one with the baseline's RAID level), bundle lines 118-123
    g = _group(facets, "raid-level", GRAID, "tps-optimal-by-threads-vs-supremeraid-raid10")
    assert [r["system"] for r in g["rows"]] == ["supremeraid-raid10", "supremeraid-raid6"]
    assert _cell(g, "supremeraid-raid6", 512)["ratio"] == round(18878.61 / 22048.90, 4) == 0.8562
    refs = {r["system"]: r["why"] for r in _study(facets, "raid-level", GRAID)["references"]}
    assert refs == {"mdraid-raid10": "the study's baseline", "supremeraid-raid10": "has the baseline's RAID level (10)"}
    assert _study(facets, "raid-level", GRAID)["left_out"] == []


def test_storage_product_pairs_one_raid_level_each(facets):
    assert _pairs(facets, "storage-product", GRAID) == {("supremeraid-raid10", "mdraid-raid10"),
                                                          ("supremeraid-raid6", "mdraid-raid6")}
    g = _group(facets, "storage-product", GRAID, "tps-optimal-by-threads")
    assert _cell(g, "supremeraid-raid10", 512)["ratio"] == round(22048.90 / 10221.50, 4)
    g = _group(facets, "storage-product", GRAID, "tps-optimal-by-threads-vs-mdraid-raid6")
    assert {r["system"] for r in g["rows"]} == {"mdraid-raid6", "supremeraid-raid6"}
    assert _pairs(facets, "storage-product", "seagate-nytro-mysql-2015") == {("nytro", "competitor")}


# The tuning steps' system states no database settings (bundle lines 99-107); the three protocols' state
# them (the database anchor, lines 41-60)
NFS_TUNING = (
    "differs from every system of another protocol in doublewrite (not stated against off), buffer pool (MiB) "
    "(not stated against 22528), flush method (innodb_flush_method) (not stated against fsync (default)), log flush "
    "at commit (innodb_flush_log_at_trx_commit) (not stated against 1), InnoDB page size (KiB) (not stated against "
    "16), server setting innodb_buffer_pool_size (not stated against 22G), server setting innodb_log_file_size (not "
    "stated against 500M), server setting innodb_support_xa (not stated against OFF) and 5 other recorded facts "
    "(Compare lists them) as well")


def test_protocol_pairs_and_the_system_left_out(facets):
    study = _study(facets, "protocol", NETAPP)
    assert _pairs(facets, "protocol", NETAPP) == {("iscsi", "fcp"), ("nfs", "fcp"), ("nfs", "iscsi")}
    nfs = next(p for p in study["pairs"] if p["other"] == "nfs" and p["reference"] == "fcp")
    # an NFS mount's filesystem, its version and its mount options are NFS's (bundle lines 92-98 against 73-78)
    why = "an NFS mount is both the protocol and the filesystem, and its version and mount options are NFS's"
    assert nfs["follows"] == [
        {"key": "filesystem", "label": "Filesystem", "values": ["nfs", "ext3"], "why": why},
        {"key": "filesystem.version", "label": "Filesystem version", "values": ["3", "not stated"], "why": why},
        {"key": "filesystem.mount_options", "label": "Mount options", "values": [
            "hard, rw, rsize=32768, wsize=32768, bg, vers=3, tcp, actimeo=600, nointr, suid, timeo=600", "not stated"],
         "why": why}]
    assert study["left_out"] == [{
        "system": "nfs-tuning", "label": "NFSv3 during tuning (the configuration changes step by step)",
        "reason": NFS_TUNING}]
    g = _group(facets, "protocol", NETAPP, "oet-any-vs-iscsi")
    assert {r["system"]: r["cells"][0]["ratio"] for r in g["rows"]} == {"iscsi": 1.0, "nfs": round(11262 / 12222, 4)}


@pytest.mark.parametrize("facet,expected", [
    ("doublewrite", {("dw-off-uncompressed", "dw-on-uncompressed"), ("dw-off-compressed", "dw-on-compressed")}),
    ("compression", {("dw-on-compressed", "dw-on-uncompressed"), ("dw-off-compressed", "dw-off-uncompressed")}),
])
def test_measured_study_shows_every_pair(facets, facet, expected):
    study = _study(facets, facet, MEASURED)
    assert _pairs(facets, facet, MEASURED) == expected and study["left_out"] == []
    suffix = "-vs-dw-on-compressed" if facet == "doublewrite" else "-vs-dw-off-uncompressed"
    group = _group(facets, facet, MEASURED, "tps-any-by-threads" + suffix)
    assert len(group["rows"]) == 2 and all(c["runs"] == 3 for r in group["rows"] for c in r["cells"])


def test_measured_caveats_come_from_the_bundle(facets, built_site):
    import duckdb
    import yaml

    bundle = yaml.safe_load((built_site.data / MEASURED / "bundle.yaml").read_text(encoding="utf-8"))
    caveats = _study(facets, "doublewrite", MEASURED)["caveats"]
    assert caveats[:2] == bundle["notes"] and "2-core virtual machine" in caveats[0] and "5-second runs" in caveats[0]
    con = duckdb.connect(str(built_site.database), read_only=True)
    n, low, high = con.execute("SELECT count(*), min(elapsed_s), max(elapsed_s) FROM runs WHERE study = ?",
                               [MEASURED]).fetchone()
    assert n == 36 and bundle["workloads"][0]["duration_s"] == 5
    assert caveats[2] == f"36 runs compared here, each {low:.2f} to {high:.2f} s long by its log's total time."
    assert caveats[3] == "Host as the bundle states it: Intel(R) Xeon(R) Processor, 23.59 GiB of memory."
    assert _study(facets, "raid-level", GRAID)["caveats"] == []  # printed values: no measuring caveats


def test_studies_that_vary_a_facet_without_a_pair_say_why(facets):
    scaleflux = next(u for u in facets["doublewrite"]["unpaired"] if u["study"] == "scaleflux-csd2000-mysql-2020")
    reasons = {l["system"]: l["reason"] for l in scaleflux["left_out"]}
    assert reasons["scaleflux"] == "its doublewrite is not stated"
    assert reasons["intel-dw-on"] == "no printed or measured value"


def test_protocol_against_fcp_includes_the_derived_iscsi_value(facets):
    g = _group(facets, "protocol", NETAPP, "oet-any")
    ratios = {r["system"]: r["cells"][0]["ratio"] for r in g["rows"]}
    assert ratios == {"fcp": 1.0, "iscsi": 0.91, "nfs": round(11262 / 13431, 4)}  # nfs-tuning has six values: left out


def test_array_state_against_the_same_system_optimal(facets):
    g = _group(facets, "array-state", "graid-supremeraid-mysql-2023", "tps-rebuilding-by-threads")
    assert _cell(g, "mdraid-raid6", 128)["ratio"] == round(484.88 / 9872.39, 4)
    assert _cell(g, "supremeraid-raid10", 1024)["ratio"] == round(14875.35 / 14729.23, 4)
    assert _study(facets, "array-state", GRAID)["left_out"] == []  # every system has rebuilding values


def test_every_comparison_stays_within_one_study(facets):
    for facet in facets.values():
        for study in facet["studies"]:
            for group in study["groups"]:
                # a value links to its source, its study's list of sources or its study's log: never to
                # another study's page or log
                links = [c["source_href"] or "" for r in group["rows"] for c in r["cells"]]
                studies = {m.group(1) for m in (re.match(r"/(?:studies|artifacts)/([^/]+)/", h) for h in links) if m}
                assert studies <= {study["study"]}, (study["study"], group["id"], studies)


@pytest.mark.parametrize("path", ["/raid-level/", "/protocol/", "/doublewrite/", "/compression/", "/array-state/",
                                  "/storage-product/"])
def test_facet_pages(page, site_url, path):
    response = page.goto(site_url + path)
    assert response.status == 200
    assert page.errors == []


def test_measured_doublewrite_comparison_has_spread(facets):
    study = _study(facets, "doublewrite", MEASURED)
    assert study["baseline"] == "doublewrite on, uncompressed"
    group = next(g for g in study["groups"] if g["id"] == "tps-any-by-threads")
    # the pair with the baseline: three repetitions per thread count
    assert {r["system"] for r in group["rows"]} == {"dw-on-uncompressed", "dw-off-uncompressed"}
    for row in group["rows"]:
        for cell in row["cells"]:
            assert cell["runs"] == 3 and cell["low"] <= cell["ratio"] <= cell["high"]
            assert cell["overlap"] is False or row["system"] != "dw-on-uncompressed"


def test_facet_chart_ids_are_unique(facets):
    for slug, facet in facets.items():
        for study in facet["studies"]:
            ids = [g["id"] for g in study["groups"]]
            assert len(ids) == len(set(ids)), (slug, study["study"])


def test_raid_level_page_draws_ratio_charts(page, site_url):
    page.goto(site_url + "/raid-level/")
    open_folds(page)
    assert page.locator("figure[data-chart]").count() == 4  # optimal and rebuilding, for each of the two pairs
    # the reference's line is flat at 1 (a box of no height, which Playwright calls invisible): check the other
    page.locator('figure[data-chart] g[aria-label="line"] path').last.wait_for()
    assert page.locator('figure[data-chart] g[aria-label="line"] path').last.is_visible()


def test_facet_tables_show_each_value_s_kind_and_facet(page, site_url):
    """The derived iSCSI figure reads "derived" on /protocol/; /array-state/ names each value's state."""
    page.goto(site_url + "/protocol/")
    open_folds(page)
    fcp = page.locator('section.facet-reference[data-reference="fcp"]')
    iscsi = fcp.locator("table.facet-table tr", has=page.locator('th:has-text("iSCSI")'))
    assert iscsi.locator("td").first.text_content() == "iscsi"
    assert iscsi.locator("data").get_attribute("data-kind") == "derived"
    assert fcp.locator('table.facet-table data[data-kind="exact"]').count() == 2  # FCP and NFS, as printed
    # against iSCSI, the derived figure is the reference: its cell says so too
    against_iscsi = page.locator('section.facet-reference[data-reference="iscsi"] table.facet-table tbody tr')
    assert against_iscsi.nth(1).locator("td").nth(2).inner_text() == "12222 (derived)"  # NFS's reference cell
    page.goto(site_url + "/array-state/")
    open_folds(page)
    states = page.locator("table.facet-table tbody td:first-of-type").all_text_contents()
    assert states and set(states) == {"rebuilding"}


def test_facet_pages_mark_values_that_carry_a_note(page, site_url):
    """MD RAID 10's summary TPS (the Graid baseline) matches no per-user cell: marked, and the note shown."""
    page.goto(site_url + "/raid-level/")
    open_folds(page)
    table = page.locator('section.facet-reference[data-reference="mdraid-raid10"] table.facet-table',
                         has=page.locator("caption", has_text="Transactions per second (tx/s), optimal"))
    baseline = table.locator("tr", has=page.locator('th:text-is("Linux MD RAID 10")')).locator("td").nth(2)
    # in the words of schema/evidence-grades.yaml, never the flag's key
    assert baseline.inner_text() == "15994.38\n⊗ the figure is in no cell of the source's own per-load table"
    notes = table.locator("xpath=../following-sibling::ul[1]").inner_text()
    assert "15994.38 is in no cell of the per-user optimal table" in notes


def test_facet_pages_show_pairs_left_out_systems_and_caveats(page, site_url):
    page.goto(site_url + "/raid-level/")
    open_folds(page)
    pairs = page.locator("ul.facet-pairs li").all_inner_texts()
    assert [p.removesuffix(" · compare") for p in pairs] == [
        "Linux MD RAID 6 (6) against Linux MD RAID 10 (10); host tuning /sys/block/md6/md/group_thread_cnt differs "
        "too (8 against not stated), as it follows from the RAID level: MD's parity worker threads exist for RAID 4, "
        "5 and 6 only",
        "SupremeRAID RAID 6 (6) against SupremeRAID RAID 10 (10)"]
    assert page.locator("h3", has_text="Against SupremeRAID RAID 10 (10; has the baseline's RAID level (10))").count() == 1
    page.goto(site_url + "/protocol/")
    open_folds(page)
    assert page.locator(".facet-left-out li").inner_text() == (
        "NFSv3 during tuning (the configuration changes step by step): " + NFS_TUNING)
    page.goto(site_url + "/doublewrite/")
    open_folds(page)
    caveats = page.locator(f'section[data-study="{MEASURED}"] aside.facet-caveats')
    assert "Measured on a small 2-core virtual machine" in caveats.inner_text()
    assert "36 runs compared here" in caveats.inner_text()
    assert page.locator(f'section[data-study="{MEASURED}"] ul.facet-pairs li').count() == 2
    page.goto(site_url + "/array-state/")
    open_folds(page)
    assert "Every system of this study has values outside optimal state." in page.locator("section.facet-study").inner_text()


def test_a_facet_with_more_studies_than_a_page_goes_on_at_its_next_page(tmp_path, monkeypatch):
    """/storage-product/ holds two studies: at one study a page, the second is on /storage-product/2/,
    each page links the other, and facet charts embed with the address of the page they are on."""
    from conftest import copy_project
    from ingest.build.site import build_site, render_site
    from ingest.build.generation import new_generation
    from ingest.publish import facets as facets_module

    monkeypatch.setattr(facets_module, "STUDIES_PER_PAGE", 1)
    project = copy_project(tmp_path / "project")
    build_site(project)
    first = (project.public / "storage-product" / "index.html").read_text(encoding="utf-8")
    second = (project.public / "storage-product" / "2" / "index.html").read_text(encoding="utf-8")
    assert f'data-study="{GRAID}"' in first and 'data-study="seagate-nytro-mysql-2015"' not in first
    assert 'data-study="seagate-nytro-mysql-2015"' in second and f'data-study="{GRAID}"' not in second
    assert "<title>Compare by Storage product (page 2 of 2) · benchdb</title>" in second
    # rendered one page a run, the second page's run without the first: the same pages
    shutil.rmtree(project.cache / "pages")
    generation = new_generation(project.build)
    shutil.copytree(project.build / "current" / "export", generation.export, copy_function=os.link)
    took = render_site(project, generation, facet_pages_per_run=1)
    # 13: one a study at STUDIES_PER_PAGE 1, and /filesystem/, /device-class/, /volume-size/ and
    # /provisioned-iops/, which no study varies yet
    assert "hugo (6 studies rendered, 0 cached, in runs: 1; 13 facet pages rendered, 0 cached), static links and search index" in took
    assert (generation.public / "storage-product" / "2" / "index.html").read_text(encoding="utf-8") == second
    assert (generation.public / "storage-product" / "index.html").read_text(encoding="utf-8") == first
    assert '<a href="/storage-product/2/">2</a>' in first and '<a href="/storage-product/">1</a>' in second
    data = read_facets(project.export / "data")["storage-product"]
    assert data["chunks"] == [{"number": 1, "path": "/storage-product/"}, {"number": 2, "path": "/storage-product/2/"}]
    assert [s["path"] for s in data["studies"]] == ["/storage-product/", "/storage-product/2/"]
    embeds = json.loads((project.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    pages = {e["full_page"].split("#")[0] for e in embeds if e["id"].startswith("facet-storage-product--")}
    assert pages == {"/storage-product/"}  # only the first study draws charts on this facet
