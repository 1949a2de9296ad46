"""Seagate Nytro (seed 003): its four printed results and the two claims beside them."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ingest.bundles.validate import validate_paths

STUDY = "seagate-nytro-mysql-2015"
BUNDLE = Path(__file__).resolve().parents[1] / "data" / STUDY


def test_values_equal_the_seed(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    rows = con.execute("SELECT system, metric, unit, value_text, value_kind, line FROM results "
                       "WHERE study = ? ORDER BY result_index, row_index", [STUDY]).fetchall()
    # seed 003 lines 219-220 (competitor) and 226-227 (Nytro)
    assert [r[:5] for r in rows] == [
        ("competitor", "tps", "tx/s", "412.33", "exact"),
        ("nytro", "tps", "tx/s", "1328.06", "exact"),
        ("competitor", "latency_avg_s", "s", "0.242", "exact"),
        ("nytro", "latency_avg_s", "s", "0.075", "exact"),
    ]
    assert [r[5] for r in rows] == [219, 226, 220, 227]


def test_claims():
    bundles, problems = validate_paths([BUNDLE])
    assert [p for p in problems if p.severity == "error"] == []
    computed = bundles[0].derivation.claims
    assert computed["more-than-3x-tps"] == pytest.approx(1328.06 / 412.33)              # 3.22x: holds
    assert computed["thirty-percent-less-latency"] == pytest.approx((1 - 0.075 / 0.242) * 100)  # 69% less
    verdicts = {c.id: c.verdict for c in bundles[0].bundle.claims}
    assert verdicts == {"more-than-3x-tps": "holds", "thirty-percent-less-latency": "misstated"}


def test_unstated_hardware_is_left_empty():
    bundles, _ = validate_paths([BUNDLE])
    for system in bundles[0].bundle.systems:
        assert system.host.cpu is None and system.database.version is None
