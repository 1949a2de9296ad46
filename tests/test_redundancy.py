"""The price of redundancy (the redundancy_price view): derived figures checked by hand against the
Graid bundle (8 drives of 3.84 TB, its printed rebuild speeds and TPS), and shown on its study page."""

from __future__ import annotations

import duckdb
import pytest


@pytest.fixture(scope="module")
def db(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    yield con
    con.close()


def _figure(db, system: str, figure: str) -> tuple:
    return db.execute("SELECT value, unit, inputs FROM redundancy_price WHERE study = 'graid-supremeraid-mysql-2023' "
                      "AND system = ? AND figure = ?", [system, figure]).fetchone()


def test_usable_capacity_and_tps_per_usable_tb(db):
    # RAID 10 keeps half of 8 x 3.84 TB, RAID 6 three quarters
    assert _figure(db, "supremeraid-raid10", "usable capacity")[:2] == (15.36, "TB")
    assert _figure(db, "mdraid-raid6", "usable capacity") == (23.04, "TB", "8 drives x 3.84 TB x 0.75 (RAID 6)")
    # the highest optimal TPS of SupremeRAID RAID 10 is 22048.90 at 512 threads: 22048.90 / 15.36 = 1435.48
    value, unit, inputs = _figure(db, "supremeraid-raid10", "peak TPS per usable TB (optimal)")
    assert (value, unit) == (1435.5, "TPS/TB") and inputs.startswith("22048.90 TPS at 512 threads")


def test_exposure_window_from_the_printed_rebuild_speed(db):
    # 3.84 TB = 3,840,000 MB at the printed 700 MB/s: 5485.7 s = 1.52 h; Linux MD RAID 6 at 340 MB/s: 3.14 h
    assert _figure(db, "supremeraid-raid6", "exposure window of a rebuild")[:2] == (1.52, "h")
    value, _, inputs = _figure(db, "mdraid-raid6", "exposure window of a rebuild")
    assert value == 3.14 and inputs.startswith("3.84 TB = 3840000 MB / 340 MB/s (exact, Graid Technology Inc., “MySQL")


def test_nothing_is_derived_without_a_stated_capacity(db):
    # the measured bundle states no RAID, the NetApp one no drive capacity
    assert db.execute("SELECT DISTINCT study FROM redundancy_price").fetchall() == [("graid-supremeraid-mysql-2023",)]


def test_study_page_shows_formula_and_inputs(site_url, page):
    page.goto(f"{site_url}/studies/graid-supremeraid-mysql-2023/")
    row = page.locator('table.redundancy tr[data-system="supremeraid-raid6"][data-figure="exposure window of a rebuild"]')
    assert row.locator("td").nth(1).inner_text() == "1.52 h derived"
    assert row.locator("td").nth(2).inner_text().startswith("drive capacity / rebuild speed")
    assert page.locator("#redundancy-heading").inner_text() == "The price of redundancy (derived)"
