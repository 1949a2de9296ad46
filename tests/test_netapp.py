"""NetApp TR-3693 (seed 001): printed OET values, the derived iSCSI value, the tuning progression, claims."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest.validate import validate_paths

STUDY = "netapp-tr3693-mysql-2010"
BUNDLE = Path(__file__).resolve().parents[1] / "data" / STUDY


@pytest.fixture(scope="module")
def db(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    yield con
    con.close()


def test_printed_oet_values(db):
    rows = db.execute("SELECT system, value_text, value_kind FROM results WHERE study = ? AND result = "
                      "'oet-by-protocol' ORDER BY row_index", [STUDY]).fetchall()
    # "Fibre Channel was the highest performer in terms of throughput at 13431 OET" (line 109);
    # "the final 11262 OET result for NFS" (line 129)
    assert rows == [("fcp", "13431", "exact"), ("nfs", "11262", "exact")]


def test_iscsi_is_derived_from_the_stated_relation(db):
    value, text, kind, provenance, protocol = db.execute(
        "SELECT value, value_text, value_kind, provenance, protocol FROM results "
        "WHERE study = ? AND result = 'iscsi-oet'", [STUDY]).fetchone()
    assert value == pytest.approx(13431 * 0.91)
    assert (text, kind, protocol) == ("12222", "derived", "iscsi")
    assert provenance.endswith("line 111 (from: iSCSI about 9% lower than FCP)")


def test_nfs_tuning_progression(db):
    rows = db.execute("SELECT value_text, provenance FROM results WHERE study = ? AND result = 'nfs-tuning-steps' "
                      "ORDER BY col_index", [STUDY]).fetchall()
    assert [r[0] for r in rows] == ["4501", "5532", "8097", "8365", "9355", "11262"]
    assert [int(r[1].rsplit("line ", 1)[1]) for r in rows] == [131, 132, 133, 137, 138, 153]


def test_protocol_facet(db):
    assert dict(db.execute("SELECT system, protocol FROM systems WHERE study = ?", [STUDY]).fetchall()) == {
        "fcp": "fcp", "iscsi": "iscsi", "nfs": "nfs", "nfs-tuning": "nfs"}


def test_claims():
    bundles, problems = validate_paths([BUNDLE])
    assert [p for p in problems if p.severity == "error"] == []
    assert bundles[0].derivation.claims["nfs-16-lower"] == pytest.approx((1 - 11262 / 13431) * 100)  # 16.15%: holds
    verdicts = {c.id: c.verdict for c in bundles[0].bundle.claims}
    assert verdicts["nfs-16-lower"] == "holds"
    assert sorted(k for k, v in verdicts.items() if v == "unverifiable") == [
        "direct-io-20-25-percent", "iscsi-more-oet-per-cpu", "mount-points-2-to-9-percent",
        "nfs-7-percent-system-cpu", "over-250-percent", "storage-under-30-percent"]


def test_derived_value_on_the_page(page, site_url):
    page.goto(f"{site_url}/studies/{STUDY}/")
    cell = page.locator("#table-derived data.value")
    assert (cell.get_attribute("value"), cell.get_attribute("data-kind")) == ("12222", "derived")
    assert "(derived)" in cell.inner_text()
    assert page.errors == []
