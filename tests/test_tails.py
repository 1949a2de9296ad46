"""Tail latency by array state: sysbench --histogram output kept whole (the histograms table), p95,
p99 and p99.9 from it as sysbench computes its own, and the study page's table and chart."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from playwright.sync_api import expect

from conftest import build_with_bundle, serve_folder
from ingest.database.load import build_database, create_schema
from ingest.parsers.sysbench_runs import parse_file
from ingest.bundles.validate import validate_file

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "bundles" / "histogram-states-fixture"
CPU_HISTOGRAM = ROOT / "tests" / "fixtures" / "sysbench" / "web-1.1.0-cpu-histogram-p99.log"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    loaded, problems = validate_file(FIXTURE / "bundle.yaml")
    assert loaded is not None, problems
    con = duckdb.connect(str(build_database([loaded], db_path=tmp_path_factory.mktemp("tails") / "t.duckdb")),
                         read_only=True)
    yield con
    con.close()


def test_histograms_are_kept_whole_with_their_lines(db):
    rows = db.execute("SELECT position, value_ms, count, line FROM histograms WHERE artifact = 'optimal-t4' "
                      "ORDER BY position").fetchall()
    # artifacts/optimal-t4.log: the rows are lines 36 ("0.576 | 1") to 230 ("25.737 | 1")
    assert rows[0] == (0, 0.576, 1, 36) and rows[1] == (1, 0.587, 11, 37)
    assert rows[-1] == (194, 25.737, 1, 230)
    assert sum(r[2] for r in rows) == 32680  # line 245: "total number of events: 32680"


def test_percentiles_from_the_histogram_match_what_sysbench_printed(db):
    rows = {r[0]: r[1:] for r in db.execute(
        "SELECT artifact, state, p95_ms, p99_ms, p999_ms FROM run_latency ORDER BY artifact").fetchall()}
    # sysbench prints its 95th percentile with two decimals: optimal-t4.log line 251 "3.82",
    # rebuilding-t4.log line 313 "5.47"; the bucket values are printed with three
    assert rows["optimal-t4"][0] == "optimal" and round(rows["optimal-t4"][1], 2) == 3.82
    assert rows["rebuilding-t4"][0] == "rebuilding" and round(rows["rebuilding-t4"][1], 2) == 5.47
    # p99 of optimal-t4: floor(32680 x 0.99 + 0.5) = 32353 events; the rows up to 6.433 ms hold them
    counts = db.execute("SELECT value_ms, count FROM histograms WHERE artifact = 'optimal-t4' ORDER BY position").fetchall()
    running, first = 0, None
    for value, count in counts:
        running += count
        if running >= 32353:
            first = value
            break
    assert rows["optimal-t4"][2] == first == 6.433
    assert rows["optimal-t4"][1] < rows["optimal-t4"][2] < rows["optimal-t4"][3]


def test_p99_of_a_published_histogram():
    # the corpus log prints "99th percentile: 49.21" beside a 34-row histogram of 64822 events
    run = parse_file(CPU_HISTOGRAM)
    con = duckdb.connect()
    create_schema(con)
    con.execute("INSERT INTO studies VALUES ('s', 't', 's', 1, 's/bundle.yaml', NULL, '{}')")
    con.execute("INSERT INTO runs (study, artifact, path, log, system, workload, complete, warnings) "
                "VALUES ('s', 'cpu', 'x.log', 'log x.log', 'x', 'w', true, [])")
    con.executemany("INSERT INTO histograms VALUES ('s', 'cpu', ?, ?, ?, ?)",
                    [(i, r["value_ms"], r["count"], r["line"]) for i, r in enumerate(run["histogram"])])
    events, p99 = con.execute("SELECT events, p99_ms FROM run_latency").fetchone()
    assert events == 64822 and round(p99, 2) == 49.21


def test_by_state_adds_the_runs_of_a_state(db):
    rows = db.execute("SELECT state, runs, events FROM latency_by_state ORDER BY state").fetchall()
    assert rows == [("optimal", 1, 32680), ("rebuilding", 1, 24746)]  # rebuilding-t4.log line 307


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_with_bundle(tmp_path_factory.mktemp("project"), FIXTURE)


def test_page_shows_tails_by_state_and_their_chart(site, page):
    server = serve_folder(site.public)
    page.goto(f"http://127.0.0.1:{server.server_port}/studies/histogram-states-fixture/")
    rows = page.locator("table.tails tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).get_attribute("data-state") == "optimal"
    assert rows.nth(1).locator("td").nth(4).inner_text() == "5.47"
    figure = page.locator("figure[data-latency]")
    expect(figure).to_have_attribute("data-drawn", "latency")
    assert figure.locator('g[aria-label="line"] path').count() == 2  # optimal and rebuilding
    # the chart in words: each state's percentiles from its histogram buckets; the logs print their own
    # 95th percentiles rounded, 3.82 (optimal-t4.log) and 5.47 (rebuilding-t4.log), over 32680 and 24746 events
    words = figure.locator(".chart-alt").inner_text()
    assert words.strip() == ("In numbers: optimal: p95 3.816 ms, p99 6.433 ms, p99.9 13.219 ms over 32680 events; "
                             "rebuilding: p95 5.47 ms, p99 11.041 ms, p99.9 54.828 ms over 24746 events.")
    page.goto(f"http://127.0.0.1:{server.server_port}/studies/measured-mariadb-2core-vm/")
    note = page.locator("section[aria-labelledby=tails-heading]").inner_text()
    assert "No run of this study kept sysbench's --histogram output" in note
    assert page.errors == []
    server.shutdown()
