"""NetApp TR-3693 (seed 001): printed OET values, the derived iSCSI value, the tuning progression, claims."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest.bundles.validate import validate_paths
from seeds import seed_lines

STUDY = "netapp-tr3693-mysql-2010"
BUNDLE = Path(__file__).resolve().parents[1] / "data" / STUDY
SEED = seed_lines("001")  # tests/fixtures/seeds/: line N is seed 001's line N
UNIT = "new-order transactions/min"


@pytest.fixture(scope="module")
def db(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    yield con
    con.close()


# The report as the bundle records it: publisher, title and, with no web address, its identifier
REPORT = ("NetApp, “TR-3693: MySQL 5.0 Performance Protocol Comparison (Dean Brock and Karthikeyan Nagalingam)” "
          "(NetApp Technical Report TR-3693, June 2010)")


def test_printed_oet_values(db):
    rows = db.execute("SELECT system, value_text, value_kind, unit, provenance, line FROM results WHERE study = ? "
                      "AND result IN ('oet-fcp', 'oet-nfs') ORDER BY result_index", [STUDY]).fetchall()
    # "Fibre Channel was the highest performer in terms of throughput at 13431 OET" (line 109, section 2.3);
    # "the final 11262 OET result for NFS" (line 129, section 2.4)
    assert [r[:4] for r in rows] == [("fcp", "13431", "exact", UNIT), ("nfs", "11262", "exact", UNIT)]
    assert [r[5] for r in rows] == [109, 129]
    assert rows[0][4].startswith(REPORT + ", section 2.3 OLTP Database Results Summary, figure “Figure 1)")
    assert rows[1][4] == REPORT + ", section 2.4 Tuning MySQL for Optimal OET, row NFS (final tuned result), column OET"
    assert "13431 OET" in SEED[109 - 1] and "final 11262 OET result for NFS" in SEED[129 - 1]
    assert (SEED[102 - 1], SEED[127 - 1]) == ("2.3 OLTP DATABASE RESULTS SUMMARY", "2.4 TUNING MYSQL FOR OPTIMAL OET")


def test_oet_is_new_order_transactions_per_minute(db):
    # "the number of completed new order transactions processed per minute ... referred to as ... ("OET")" (line 90)
    assert "completed new order transactions processed per minute" in SEED[90 - 1]
    assert db.execute("SELECT DISTINCT metric, unit FROM results WHERE study = ?", [STUDY]).fetchall() == [
        ("oet", UNIT)]


def test_iscsi_is_derived_from_the_stated_relation(db):
    value, text, kind, provenance, quote, line, protocol, unit = db.execute(
        "SELECT value, value_text, value_kind, provenance, quote, line, protocol, unit FROM results "
        "WHERE study = ? AND result = 'iscsi-oet'", [STUDY]).fetchone()
    # 13431 * 0.91 = 12222.21 (12222.210000000001 in floating point): kept to the unit, like its text
    assert (value, text, kind, protocol, unit) == (12222.0, "12222", "derived", "iscsi", UNIT)
    # the report has no web address: cited by its identifier, the relation quoted as printed on line 111
    assert provenance == REPORT + ", section 2.3 OLTP Database Results Summary"
    assert (quote, line) == ("“iSCSI about 9% lower than FCP”", 111)
    assert "iSCSI about 9% lower than FCP" in SEED[111 - 1]


def test_nfs_tuning_progression(db):
    rows = db.execute("SELECT value_text, line FROM results WHERE study = ? AND result = 'nfs-tuning-steps' "
                      "ORDER BY col_index", [STUDY]).fetchall()
    assert [r[0] for r in rows] == ["4501", "5532", "8097", "8365", "9355", "11262"]
    assert [r[1] for r in rows] == [131, 132, 133, 137, 138, 153]


def test_protocol_facet(db):
    assert dict(db.execute("SELECT system, protocol FROM systems WHERE study = ?", [STUDY]).fetchall()) == {
        "fcp": "fcp", "iscsi": "iscsi", "nfs": "nfs", "nfs-tuning": "nfs"}


@pytest.fixture(scope="module")
def netapp():
    bundles, problems = validate_paths([BUNDLE])
    assert [p for p in problems if p.severity == "error"] == []
    return bundles[0]


def test_claims(netapp):
    assert netapp.derivation.claims["nfs-16-lower"] == pytest.approx((1 - 11262 / 13431) * 100)  # 16.15%: holds
    verdicts = {c.id: c.verdict for c in netapp.bundle.claims}
    assert verdicts["nfs-16-lower"] == "holds"
    assert sorted(k for k, v in verdicts.items() if v == "unverifiable") == [
        "appendix-g-nfs-within-16-percent", "cpu-not-above-85-percent", "direct-io-20-25-percent",
        "iscsi-more-oet-per-cpu", "mount-points-2-to-9-percent", "nfs-7-percent-system-cpu",
        "nfs-operation-mix-after-fsync", "over-250-percent", "storage-under-30-percent",
        "three-to-four-times-workload"]


def _claim(netapp, claim_id):
    return next(c for c in netapp.bundle.claims if c.id == claim_id)


def test_cpu_ceiling_and_storage_headroom_are_unverifiable(netapp):
    cpu, headroom = _claim(netapp, "cpu-not-above-85-percent"), _claim(netapp, "three-to-four-times-workload")
    assert "could not drive CPU usage above 85%" in SEED[121 - 1] and cpu.where.line == 121
    assert (cpu.stated, cpu.relation, cpu.formula) == (85, "at most", None)
    assert "three to four times the workload" in SEED[125 - 1] and headroom.where.line == 125
    assert (headroom.stated, headroom.relation, headroom.formula) == (3, "at least", None)
    assert "more than 3.3x headroom only if utilization grew in proportion" in " ".join(headroom.reason.split())
    assert any('"thread concurrency issues in the host I/O stack" (line 121)' in " ".join(n.split())
               for n in netapp.bundle.notes)


def test_nfs_operation_mix_change(netapp):
    claim = _claim(netapp, "nfs-operation-mix-after-fsync")
    printed = SEED[135 - 1]
    for phrase in ("the NFS reads dropped from 57% down to 17%", "the writes went up from 43% to 48%",
                   'went from 0% to 35%'):
        assert phrase in printed and phrase in claim.text
    assert claim.where.line == 135 and claim.verdict == "unverifiable"
    assert 57 + 43 + 0 == 17 + 48 + 35 == 100
    assert "add up to 100% before (57 + 43 + 0) and after (17 + 48 + 35)" in " ".join(claim.reason.split())
    assert "approximately 57% reads and 43% writes" in SEED[84 - 1]   # the workload's own mix: the "before"
    steps = next(r for r in netapp.bundle.results if r.id == "nfs-tuning-steps")
    assert steps.rows[0].cells()[1:3] == ["5532", "8097"]           # step 3, the fsync change
    assert any("NFS reads on the storage fell from 57% to 17%" in " ".join(n.split()) for n in netapp.bundle.notes)


def test_appendix_g_within_16_percent_is_about_oracle(netapp):
    claim = _claim(netapp, "appendix-g-nfs-within-16-percent")
    assert "running an Oracle OLTP workload, NFSv3 I/O performance is within 16% of Fiber Channel SAN" in SEED[425 - 1]
    assert claim.verdict == "unverifiable" and claim.where.line == 425
    assert netapp.derivation.claims[claim.id] == pytest.approx((1 - 11262 / 13431) * 100)  # this study's own gap, 16.15%
    assert "About an Oracle OLTP workload in NetApp's lab, not this study" in claim.reason


def test_derived_value_on_the_page(page, site_url):
    page.goto(f"{site_url}/studies/{STUDY}/")
    cell = page.locator("#table-derived data.value")
    assert (cell.get_attribute("value"), cell.get_attribute("data-kind")) == ("12222", "derived")
    assert "(derived)" in cell.inner_text()
    assert page.errors == []
