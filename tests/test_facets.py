"""Facets derived from configuration: usable capacity and buffer-pool-to-data ratio."""

from __future__ import annotations

import duckdb
import pytest

from ingest.bundles.claims import usable_fraction


@pytest.mark.parametrize("level,drives,group,fraction", [
    ("6", 8, None, 6 / 8),          # "RAID 6 on 8 drives keeps 6/8"
    ("10", 8, None, 4 / 8),
    ("6", 16, None, 14 / 16),
    ("raid-dp", 107, 16, 93 / 107),  # 7 groups of at most 16 disks, 2 parity disks each
    ("5", 4, None, 3 / 4),
])
def test_usable_fraction(level, drives, group, fraction):
    assert usable_fraction(level, drives, group) == pytest.approx(fraction)


def test_facets_in_results(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    rows = dict(con.execute("SELECT system, usable_capacity FROM results WHERE study = "
                            "'graid-supremeraid-mysql-2023' GROUP BY ALL").fetchall())
    assert rows == {"supremeraid-raid10": 0.5, "supremeraid-raid6": 0.75, "mdraid-raid10": 0.5, "mdraid-raid6": 0.75}
    # 32000 MiB buffer pool over the 100GB data set: the paper says "about 32% of data cached"
    ratio = con.execute("SELECT DISTINCT buffer_pool_to_data FROM results "
                        "WHERE study = 'graid-supremeraid-mysql-2023'").fetchall()
    assert ratio == [(0.3125,)]
    netapp = con.execute("SELECT DISTINCT usable_capacity, filesystem, db_version FROM results "
                         "WHERE study = 'netapp-tr3693-mysql-2010' AND system = 'nfs'").fetchall()
    assert netapp == [(0.8692, "nfs", "5.0.56")]


def test_capacity_shown_where_the_study_claims_it(page, site_url):
    page.goto(f"{site_url}/studies/graid-supremeraid-mysql-2023/")
    row = page.locator("table.setup tr", has_text="Usable capacity")
    assert row.locator("td").all_inner_texts() == ["≈ 50.0% of raw", "≈ 75.0% of raw", "≈ 50.0% of raw",
                                                   "≈ 75.0% of raw"]
    assert "≈ 31% (derived from the buffer pool and data sizes)" in page.locator("dl.workload").inner_text()
