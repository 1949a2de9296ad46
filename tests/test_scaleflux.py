"""ScaleFlux (seed 004): throughput only as graphs, so the bundle carries no number the article never printed."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

from ingest.bundles.validate import validate_paths
from seeds import seed_lines

STUDY = "scaleflux-csd2000-mysql-2020"
SEED_004 = seed_lines("004")  # tests/fixtures/seeds/004_e72d32b55c12a403.txt: the lines of seed 004 the tests read


@pytest.fixture(scope="module")
def rows(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    return con.execute("SELECT metric, unit, value_text, value_kind, line FROM results WHERE study = ?",
                       [STUDY]).fetchall()


@pytest.fixture(scope="module")
def bundle():
    bundles, problems = validate_paths([Path(__file__).resolve().parents[1] / "data" / STUDY])
    assert [p for p in problems if p.severity == "error"] == []
    return bundles[0]


def test_only_the_two_stated_figures_are_values(rows):
    assert sorted((m, u, v, k) for m, u, v, k, _ in rows) == [
        ("compression_ratio", "x", "2", "approximate"),   # "the data can compress around 2x"
        ("space_used_tb", "TB", "1.4", "approximate"),     # "only takes up around 1.4T space" (the registry's TB)
    ]


def test_no_throughput_or_latency_numbers(rows):
    assert not [r for r in rows if r[0] in ("tps", "qps", "latency_avg_ms", "latency_p95_ms", "latency_p99_ms")]


def test_every_value_is_printed_on_its_provenance_line(rows):
    for _, _, text, _, line in rows:
        assert re.search(rf"around {re.escape(text)}(x|T)\b", SEED_004[line - 1]), (text, SEED_004[line - 1])


def test_page_says_the_results_are_graphs_only(page, site_url):
    page.goto(f"{site_url}/studies/{STUDY}/")
    section = page.locator("#graphs-only")
    assert "The source prints these results only as graphs, with no numbers." in section.inner_text()
    assert section.locator("li").count() == 9   # the CPU usage section shows one graph per drive (lines 102, 106)
    assert page.locator("figure[data-chart]").count() == 0
    assert page.locator('#claim-twice-the-write-operations .verdict').inner_text() == "unverifiable"
    assert page.errors == []


def test_claims_with_their_formulas(bundle):
    computed, verdicts = bundle.derivation.claims, {c.id: c.verdict for c in bundle.bundle.claims}
    assert computed["less-than-half-capacity"] == pytest.approx(1.4 / 3.2)   # 0.44 of the stated 3.2T
    assert computed["compresses-around-2x"] == pytest.approx(2.5 / 1.4)      # 1.79x, "around 2x"
    assert verdicts == {"less-than-half-capacity": "holds", "compresses-around-2x": "holds",
                        "twice-the-write-operations": "unverifiable", "intel-lead-small-data": "unverifiable",
                        "clearly-better-when-compressible": "unverifiable",
                        "better-with-doublewrite-both-ways": "unverifiable", "better-at-2-5t": "unverifiable",
                        "intel-advantage-slight-or-clear": "unverifiable", "capacity-stated-twice": "unverifiable"}


def test_stated_figures_name_no_doublewrite_setting(bundle, built_site):
    """Lines 47 and 91 tie "around 2x" and "around 1.4T" to the data, not to a doublewrite setting."""
    systems = {s.id: s for s in bundle.bundle.systems}
    table = next(r for r in bundle.bundle.results if r.id == "stated-figures")
    assert [row.system for row in table.rows] == ["scaleflux"]
    assert systems["scaleflux"].database.doublewrite is None
    assert systems["scaleflux"].storage.product == "CSD 2000 4TB"
    con = duckdb.connect(str(built_site.database), read_only=True)
    assert con.execute("SELECT DISTINCT system, doublewrite FROM results WHERE study = ?", [STUDY]).fetchall() == [
        ("scaleflux", None)]


def test_graphs_are_described_without_a_metric_the_post_never_names(bundle):
    """The post speaks of QPS (line 114) and never of TPS: no graph is described as TPS."""
    assert "QPS" in SEED_004[114 - 1] and not any("TPS" in line for line in SEED_004)
    for graph in bundle.bundle.graph_only:
        assert "TPS" not in graph.shows, graph.title
    shows = {g.where.line: g.shows for g in bundle.bundle.graph_only}
    assert shows[65].startswith("throughput by threads") and "QPS only, line 114" in shows[65]


def test_headline_claims_and_the_contradiction_are_in_the_ledger(bundle):
    claims = {c.id: c for c in bundle.bundle.claims}
    assert {cid: claims[cid].where.line for cid in (
        "clearly-better-when-compressible", "better-with-doublewrite-both-ways", "better-at-2-5t",
        "intel-advantage-slight-or-clear")} == {
        "clearly-better-when-compressible": 79, "better-with-doublewrite-both-ways": 83, "better-at-2-5t": 89,
        "intel-advantage-slight-or-clear": 126}
    contradiction = claims["intel-advantage-slight-or-clear"]
    assert contradiction.kind == "inconsistency"
    assert "the Intel drive has a clear advantage" in SEED_004[126 - 1]
    assert "slightly better on the Intel drive" in SEED_004[69 - 1]
    assert '"MySQL actually performs slightly better on the Intel drive' in contradiction.reason


def test_application_server_is_recorded_as_the_benchmark_client(bundle, page, site_url):
    # lines 24-26: "Application server: Supermicro; SYS-6019U-TN4RT", "48xIntel(R) Xeon(R) Gold 6126 CPU @ 2.60GHz", "190G RAM"
    for workload in bundle.bundle.workloads:
        client = workload.client
        assert (client.model, client.cpu, client.memory_gib, client.memory_detail) == (
            "Supermicro; SYS-6019U-TN4RT", "48xIntel(R) Xeon(R) Gold 6126 CPU @ 2.60GHz", 190, "190G RAM")
    assert [SEED_004[n - 1].strip() for n in (24, 25, 26)] == [
        "• Application server: Supermicro; SYS-6019U-TN4RT", "• 48xIntel(R) Xeon(R) Gold 6126 CPU @ 2.60GHz",
        "• 190G RAM"]
    page.goto(f"{site_url}/studies/{STUDY}/")
    client = page.locator("#workload-modified-2-5t dd.client")
    assert client.inner_text().startswith("Supermicro; SYS-6019U-TN4RT: 48xIntel(R) Xeon(R) Gold 6126 CPU @ 2.60GHz, 190G RAM")
    assert page.errors == []
