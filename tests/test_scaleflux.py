"""ScaleFlux (seed 004): throughput only as graphs, so the bundle carries no number the article never printed."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

STUDY = "scaleflux-csd2000-mysql-2020"
SEED_004 = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "004_e72d32b55c12a403.txt"


@pytest.fixture(scope="module")
def rows(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    return con.execute("SELECT metric, unit, value_text, value_kind, provenance FROM results WHERE study = ?",
                       [STUDY]).fetchall()


def test_only_the_two_stated_figures_are_values(rows):
    assert sorted((m, u, v, k) for m, u, v, k, _ in rows) == [
        ("compression_ratio", "x", "2", "approximate"),   # "the data can compress around 2x"
        ("space_used_tb", "T", "1.4", "approximate"),      # "only takes up around 1.4T space"
    ]


def test_no_throughput_or_latency_numbers(rows):
    assert not [r for r in rows if r[0] in ("tps", "qps", "latency_avg_ms", "latency_p95_ms", "latency_p99_ms")]


def test_every_value_is_printed_on_its_provenance_line(rows):
    if not SEED_004.is_file():
        pytest.skip(f"{SEED_004} not present (shared/ sits beside the project on CI)")
    seed = SEED_004.read_text(encoding="utf-8").splitlines()
    for _, _, text, _, provenance in rows:
        line = int(re.search(r"line (\d+)$", provenance).group(1))
        assert re.search(rf"around {re.escape(text)}(x|T)\b", seed[line - 1]), (text, seed[line - 1])


def test_page_says_the_results_are_graphs_only(page, site_url):
    page.goto(f"{site_url}/studies/{STUDY}/")
    section = page.locator("#graphs-only")
    assert "The source prints these results only as graphs, with no numbers." in section.inner_text()
    assert section.locator("li").count() == 8
    assert page.locator("figure[data-chart]").count() == 0
    assert page.locator('#claim-twice-the-write-operations .verdict').inner_text() == "unverifiable"
    assert page.errors == []


def test_claims_with_their_formulas():
    from ingest.validate import validate_paths

    bundles, problems = validate_paths([Path(__file__).resolve().parents[1] / "data" / STUDY])
    assert [p for p in problems if p.severity == "error"] == []
    computed, verdicts = bundles[0].derivation.claims, {c.id: c.verdict for c in bundles[0].bundle.claims}
    assert computed["less-than-half-capacity"] == pytest.approx(1.4 / 3.2)   # 0.44 of the stated 3.2T
    assert computed["compresses-around-2x"] == pytest.approx(2.5 / 1.4)      # 1.79x, "around 2x"
    assert verdicts == {"less-than-half-capacity": "holds", "compresses-around-2x": "holds",
                        "twice-the-write-operations": "unverifiable", "intel-lead-small-data": "unverifiable",
                        "capacity-stated-twice": "unverifiable"}
