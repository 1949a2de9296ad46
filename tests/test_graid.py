"""Graid SupremeRAID vs MD RAID (seeds 000 and 002): the figures of issue #14, each against the seed text."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from ingest.bundles.validate import validate_paths
from seeds import seed_lines

STUDY = "graid-supremeraid-mysql-2023"
BUNDLE = Path(__file__).resolve().parents[1] / "data" / STUDY
EN, ZH = seed_lines("000"), seed_lines("002")  # tests/fixtures/seeds/: line N is the seed's line N


@pytest.fixture(scope="module")
def graid():
    bundles, problems = validate_paths([BUNDLE])
    assert [p for p in problems if p.severity == "error"] == []
    return bundles[0]


@pytest.fixture(scope="module")
def db(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    yield con
    con.close()


def _claim(graid, claim_id):
    return next(c for c in graid.bundle.claims if c.id == claim_id)


def _table(graid, table_id):
    return next(r for r in graid.bundle.results if r.id == table_id)


def test_damaged_claim_text_is_quoted_as_printed_with_its_reading(graid, db, page, site_url):
    claim = _claim(graid, "exec-more-tps-optimal")
    assert "during optimal (hon-degraded) and recovery (degraded)" in EN[6 - 1]
    assert "optimal (hon-degraded) [...] states" in claim.text
    assert claim.reading == ("SupremeRAID RAID 6 delivering more transactions per second than Linux MD RAID 10 "
                             "during optimal (non-degraded) states")
    assert db.execute("SELECT reading, language FROM claims WHERE study = ? AND claim = ?",
                      [STUDY, claim.id]).fetchone() == (claim.reading, "en")
    page.goto(f"{site_url}/studies/{STUDY}/#claim-exec-more-tps-optimal")  # a link to a row opens its fold
    row = page.locator("#claim-exec-more-tps-optimal")
    assert row.is_visible()
    assert "(hon-degraded)" in row.locator(".claim-text").inner_text()
    assert row.locator(".claim-reading").inner_text() == f"Read as: “{claim.reading}”"
    assert page.errors == []


def test_md_raid_tuning_is_recorded_per_system(graid):
    systems = {s.id: s for s in graid.bundle.systems}
    # seed 000 lines 328-330 (MD RAID 6) and 414-416 (MD RAID 10), underscores lost by OCR
    assert [EN[n - 1] for n in (328, 329, 330)] == [
        "$ echo 8 | sudo tee /sys/block/md6/md/group thread cnt",
        "$ sysctl -w dev.raid.speed limit min=600000", "$ sysctl -w dev.raid.speed limit max=600000"]
    assert (EN[414 - 1], EN[416 - 1]) == ("$ sysctl -w dev.raid.speed limit min=600000",
                                          "$ sysctl -w dev.raid.speed limit max=600000")
    # seed 002 lines 152-154 print the names with their underscores
    assert [ZH[n - 1].strip() for n in (152, 153, 154)] == [
        "$ echo 8 | sudo tee /sys/block/md6/md/group_thread_cnt",
        "$ sysctl -w dev.raid.speed_limit_min=600000", "$ sysctl -w dev.raid.speed_limit_max=600000"]
    assert systems["mdraid-raid6"].host.tuning == {
        "/sys/block/md6/md/group_thread_cnt": 8, "dev.raid.speed_limit_min": 600000, "dev.raid.speed_limit_max": 600000}
    assert systems["mdraid-raid10"].host.tuning == {"dev.raid.speed_limit_min": 600000, "dev.raid.speed_limit_max": 600000}
    assert systems["supremeraid-raid6"].host.tuning == {} and systems["supremeraid-raid10"].host.tuning == {}
    assert any("group_thread_cnt" in n and "rebuild-speed comparison" in n for n in graid.bundle.notes)


def test_tuning_placement_and_specification_on_the_page(page, site_url):
    page.goto(f"{site_url}/studies/{STUDY}/")
    tuning = page.locator("details.host-tuning")
    assert tuning.count() == 2
    assert tuning.nth(1).locator("summary").inner_text() == "Operating-system and block-layer settings of Linux MD RAID 6"
    assert page.locator("details.host-tuning dt code").all_text_contents() == [
        "dev.raid.speed_limit_max", "dev.raid.speed_limit_min",
        "/sys/block/md6/md/group_thread_cnt", "dev.raid.speed_limit_max", "dev.raid.speed_limit_min"]
    assert page.locator("p.placement").inner_text().startswith(
        "Device placement (as the source states it): Four Intel SSD D7-P5510 at CPU0, four Intel SSD D7-P5510 at "
        "CPU1, and the SupremeRAID SR-1010 at CPU1")
    specs = page.locator(".specifications li")
    assert specs.count() == 1
    assert "“A single SupremeRAID™ card delivers up to 19M IOPS and 110GB/s and supports up to 32 native NVMe drives”" \
        in specs.inner_text()
    assert page.errors == []


def test_placement_and_firmware_as_printed(graid):
    host = graid.bundle.systems[0].host
    assert [EN[n - 1] for n in (53, 54, 55)] == ["o FourIntel® SSD D7-P5510 located at CPUO",
                                                 "o FourlIntel® SSD D7-P5510 located at CPU1",
                                                 "o One SupremeRAID™ SR-1010 located at CPU1"]
    assert host.placement.startswith("Four Intel SSD D7-P5510 at CPU0, four Intel SSD D7-P5510 at CPU1, and the "
                                     "SupremeRAID SR-1010 at CPU1")
    assert (EN[48 - 1], EN[50 - 1]) == ("o MADT Core Enumeration: Linear", "e | ogical Processor: Enabled")
    assert host.firmware == {"MADT Core Enumeration": "Linear", "Logical Processor": "Enabled"}
    assert all(s.host.placement == host.placement for s in graid.bundle.systems)


def test_vendor_specification_is_not_a_result(graid, db):
    spec, = graid.bundle.systems[0].storage.specifications
    assert spec.text in " ".join(EN[626 - 1:627])
    assert (spec.where.source, spec.where.line) == ("graid-en", 626)
    assert db.execute("SELECT count(*) FROM results WHERE study = ?", [STUDY]).fetchone()[0] == 52
    assert db.execute("SELECT count(*) FROM results WHERE study = ? AND value IN (19, 110, 32)",
                      [STUDY]).fetchone()[0] == 0


def test_summary_figures_matching_no_per_user_cell_carry_the_flag(graid, db):
    summary, optimal, rebuilding = (_table(graid, t) for t in ("rebuild-summary", "tps-optimal", "tps-rebuilding"))
    per_user = {Decimal(x) for t in (optimal, rebuilding) for row in t.rows for x in row.cells()}
    flagged = {(n.row, n.column) for n in summary.cell_notes if n.flag == "matches-no-per-user-cell"}
    assert flagged == {("mdraid-raid10", "Transaction/Sec in Optimal State"),
                       ("mdraid-raid10", "Transactions/Sec in Recovery State")}
    # the flag is exactly the TPS cells of the summary that no per-user cell holds
    labels = [c.label for c in summary.columns]
    unmatched = {(row.system, labels[i]) for row in summary.rows for i, x in enumerate(row.cells())
                 if labels[i] != "SSD Rebuild Speed (MB/s)" and Decimal(x) not in per_user}
    assert unmatched == flagged
    notes = {n.column: n.note for n in summary.cell_notes if n.flag == "matches-no-per-user-cell"}
    assert notes["Transaction/Sec in Optimal State"].startswith("15994.38 is in no cell of the per-user optimal table")
    assert notes["Transactions/Sec in Recovery State"].startswith("10108.93 is in no cell of the per-user rebuilding")
    # carried with each value (the flag and note columns of results, results.csv and the pages)
    values = db.execute("SELECT column_label, value_text, flag, note FROM results WHERE study = ? "
                        "AND result = 'rebuild-summary' AND system = 'mdraid-raid10' AND metric = 'tps' "
                        "ORDER BY col_index", [STUDY]).fetchall()
    assert [v[:3] for v in values] == [("Transaction/Sec in Optimal State", "15994.38", "matches-no-per-user-cell"),
                                       ("Transactions/Sec in Recovery State", "10108.93", "matches-no-per-user-cell")]
    assert [v[3] for v in values] == [notes["Transaction/Sec in Optimal State"],
                                      notes["Transactions/Sec in Recovery State"]]


def test_the_text_ties_summary_figures_to_512_users(graid):
    # "12,953 transactions per second and 700Mb/s ... at 512 users. However, MD RAID 6 at 512 users
    # supported just 598 transactions per second and 340Mb/s" (seed 000 lines 189-191)
    text = " ".join(EN[189 - 1:191])
    assert "12,953 transactions per second and 700Mb/s" in text and "at 512 users. However, MD RAID 6 at 512 users" in text
    summary = _table(graid, "rebuild-summary")
    at_512 = {(n.row, n.column) for n in summary.cell_notes if n.flag == "at-512-users"}
    assert at_512 == {(s, c) for s in ("supremeraid-raid6", "mdraid-raid6")
                      for c in ("Transactions/Sec in Recovery State", "SSD Rebuild Speed (MB/s)")}
    computed = {c: graid.derivation.claims[c] for c in ("supremeraid-raid6-12953-tps-at-512", "mdraid-raid6-598-tps-at-512",
                                            "supremeraid-raid6-700-at-512", "mdraid-raid6-340-at-512")}
    assert computed == {"supremeraid-raid6-12953-tps-at-512": 12953.34, "mdraid-raid6-598-tps-at-512": 598.75,
                        "supremeraid-raid6-700-at-512": 700.0, "mdraid-raid6-340-at-512": 340.0}
    assert all(_claim(graid, c).verdict == "holds" for c in computed)


def test_supremeraid_raid10_faster_while_rebuilding_at_1024_users(graid):
    assert EN[123 - 1].split()[-1] == "14729.23" and EN[177 - 1].split()[-1] == "14875.35"  # the 1024-user column
    claim = _claim(graid, "supremeraid-raid10-faster-while-rebuilding")
    assert claim.kind == "inconsistency" and claim.verdict == "unverifiable"
    assert graid.derivation.claims[claim.id] == pytest.approx(14875.35 / 14729.23)  # 1.0099: 1.0% faster while rebuilding
    assert "RAID performance declines during rebuilds" in EN[168 - 1]
    assert any(n.startswith("SupremeRAID RAID 10 at 1024 users is faster while rebuilding (14875.35 TPS, line 177)")
               for n in graid.bundle.notes)


def test_more_than_twice_md6_is_overstated_at_1024_users(graid):
    claim = _claim(graid, "more-than-twice-md6-high-users")
    assert (claim.verdict, claim.relation, claim.stated) == ("overstated", "at least", 2)
    assert graid.derivation.claims[claim.id] == pytest.approx(13807.17 / 8046.76)  # 1.72x at 1024 users
    for figure in ("18878.61 / 8455.82 = 2.23x", "13807.17 / 8046.76 = 1.72x", "2.13x (18813.23 / 8826.24)"):
        assert figure in " ".join(claim.reason.split())
    assert round(18878.61 / 8455.82, 2) == 2.23 and round(18813.23 / 8826.24, 2) == 2.13


def test_85_and_28_percent_name_the_tables_they_rest_on(graid):
    r85, r28 = (" ".join(_claim(graid, c).reason.split()) for c in ("optimal-up-to-85", "recovery-up-to-28"))
    assert r85.startswith("Rests on the per-user optimal table (lines 123-128): 18878.61 / 10221.50 at 512 users")
    assert r28.startswith("Rests on the summary table (lines 199-202), unlike the 85% beside it")
    assert 'v("rebuild-summary"' in _claim(graid, "recovery-up-to-28").formula
    assert 'row("tps-optimal"' in _claim(graid, "optimal-up-to-85").formula


def test_chinese_claims_are_quoted_in_chinese_with_a_reading(graid, db):
    zh = [c for c in graid.bundle.claims if c.where.source == "dayingke-zh"]
    assert len(zh) == 23 and all(c.reading for c in zh)
    assert {c.where.line for c in zh} == {7, 9, 63, 69, 73, 80, 84, 86, 87, 88, 89, 90}
    assert db.execute("SELECT count(*) FROM claims WHERE study = ? AND language = 'zh'", [STUDY]).fetchone()[0] == 23


@pytest.mark.parametrize("english,chinese,printed", [
    # "similar to 9x higher ... for all test cases" -> a flat 9x in all test cases
    ("rebuilding-9x-md10", "zh-9x-all-test-cases", "然而,在所有测试用例中,为RAID 6配置的SupremeRAID™性能仍然比为RAID 10配置的MD RAID高9倍"),
    # "typically higher performance" -> "higher performance"
    ("typically-higher-than-md10", "zh-higher-than-md10", "提供比Linux MD RAID 10更高的性能"),
    # "Up to 85% faster" -> "85% faster"
    ("optimal-up-to-85", "zh-optimal-85", "在RAID最佳状态下,每秒事务处理速度提高85%"),
    # "declined up to 87%" -> "declined 87%"
    ("decline-mdraid-raid10", "zh-decline-mdraid-raid10", "为RAID 10 配置的MD RAID 性能下降了87%"),
])
def test_the_translation_strengthens_a_claim_the_numbers_then_contradict(graid, english, chinese, printed):
    en, zh = _claim(graid, english), _claim(graid, chinese)
    assert printed in " ".join(ZH[zh.where.line - 1].split())
    assert zh.text in printed
    assert en.verdict == "holds" and zh.verdict == "overstated"
    assert zh.relation == "at least" and "min(" in zh.formula


def test_flat_9x_is_contradicted_at_64_users(graid):
    assert graid.derivation.claims["zh-9x-all-test-cases"] == pytest.approx(3793.36 / 3308.86)  # 1.15x, not 9x
    assert graid.derivation.claims["rebuilding-9x-md10"] == pytest.approx(12953.34 / 1370.23)  # "similar to 9x": up to 9.45x
    assert _claim(graid, "zh-9x-all-test-cases").reading == (
        "in all test cases, SupremeRAID configured for RAID 6 still performed 9x higher than MD RAID configured for "
        "RAID 10")


def test_chinese_claim_on_the_page(page, site_url):
    page.goto(f"{site_url}/studies/{STUDY}/#claim-zh-9x-all-test-cases")
    row = page.locator("#claim-zh-9x-all-test-cases")
    assert row.is_visible()
    assert row.locator(".claim-text").get_attribute("lang") == "zh"
    assert row.locator(".claim-text").inner_text().endswith("比为RAID 10配置的MD RAID高9倍")
    assert row.locator(".claim-reading").inner_text().startswith("Read as: “in all test cases, SupremeRAID")
    assert row.locator(".verdict").inner_text() == "overstated"
    # source dayingke-zh of the bundle: no web address recorded, named by its identifier
    assert row.locator("td.meta").inner_text() == (
        "武汉大盈科技有限公司 (Wuhan Dayingke Technology), “在组成RAID的环境下 MySQL的性能测试 - SupremeRAID™ versus Linux "
        "MD RAID” (Chinese web page of Wuhan Dayingke Technology republishing the Graid white paper), section "
        "重建状态下的每秒事务数 (TPS in Rebuilding State)")
    assert page.errors == []
