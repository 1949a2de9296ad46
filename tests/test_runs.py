"""sysbench logs in a bundle: runs, interval samples and measured results, in DuckDB and on the page."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import duckdb
import pytest
from playwright.sync_api import expect

from conftest import build_with_bundle, serve_folder
from ingest.build.site import Layout

FIXTURE = Path(__file__).parent / "fixtures" / "bundles" / "sysbench-logs-fixture"
PAGE = "/studies/sysbench-logs-fixture/"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Layout:
    return build_with_bundle(tmp_path_factory.mktemp("project"), FIXTURE)


@pytest.fixture(scope="module")
def db(site):
    con = duckdb.connect(str(site.database), read_only=True)
    yield con
    con.close()


def test_runs_are_loaded_with_their_status(db):
    rows = db.execute("SELECT artifact, threads, threads_source, complete, report_interval_s, sysbench_version "
                      "FROM runs WHERE study = 'sysbench-logs-fixture' ORDER BY artifact").fetchall()
    assert rows == [
        ("ro-64", 64, "header", True, 5, "0.5"),
        ("rw-64", 64, "header", True, 20, "1.0.20"),
        ("rw-64-cut", 64, "header", False, 20, "1.0.20"),
    ]


def test_interval_samples_go_to_the_time_series_table(db):
    counts = dict(db.execute("SELECT artifact, count(*) FROM intervals WHERE study = 'sysbench-logs-fixture' "
                             "GROUP BY artifact").fetchall())
    assert counts == {"ro-64": 60, "rw-64": 15, "rw-64-cut": 15}
    # "[ 300s ] thds: 64 tps: 32.15 qps: 641.59 (r/w/o: 449.30/128.00/64.30) lat (ms,95%): 2362.72"
    assert db.execute("SELECT tps, qps, latency_ms, latency_pct FROM intervals "
                      "WHERE study = 'sysbench-logs-fixture' AND artifact = 'rw-64' AND t_s = 300").fetchone() == (
        32.15, 641.59, 2362.72, 95.0)


def test_finished_runs_give_measured_results_citing_log_lines(db):
    rows = db.execute("SELECT result, metric, value_text, value_kind, provenance FROM results "
                      "WHERE study = 'sysbench-logs-fixture' ORDER BY result_index, col_index").fetchall()
    assert rows == [
        ("rw-64", "tps", "30.99", "measured", "log artifacts/rw-64.log, line 35"),
        ("rw-64", "qps", "619.85", "measured", "log artifacts/rw-64.log, line 36"),
        ("rw-64", "latency_avg_ms", "2064.81", "measured", "log artifacts/rw-64.log, line 46"),
        ("rw-64", "latency_p95_ms", "3706.08", "measured", "log artifacts/rw-64.log, line 48"),
        ("ro-64", "tps", "14715.47", "measured", "log artifacts/ro-64.log, line 77"),
        ("ro-64", "latency_avg_ms", "4.35", "measured", "log artifacts/ro-64.log, line 88"),
        ("ro-64", "latency_p95_ms", "6.4", "measured", "log artifacts/ro-64.log, line 90"),
    ]


def test_unfinished_run_gives_no_results(db):
    assert db.execute("SELECT count(*) FROM results WHERE result = 'rw-64-cut'").fetchone() == (0,)


def test_spread_is_exported_as_a_column(site):
    header, *rows = (site.public / "data" / "results.csv").read_text().splitlines()
    assert "spread_cv" in header.split(",")
    con = duckdb.connect()
    cv = con.execute(f"SELECT spread_cv FROM '{site.public / 'data' / 'results.csv'}' "
                     "WHERE result = 'rw-64' AND metric = 'tps'").fetchone()[0]
    assert cv == 0.2213


def test_page_shows_runs_and_their_samples_over_time(site, browser):
    server = serve_folder(site.public)
    page = browser.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"http://127.0.0.1:{server.server_port}{PAGE}")
    runs = page.locator("table.runs tbody tr")
    assert runs.count() == 3
    cut = page.locator('tr[data-run="rw-64-cut"]')
    assert "unfinished: no final statistics" in cut.inner_text()
    tps = page.locator('tr[data-run="rw-64"] data.value').first
    assert tps.get_attribute("data-provenance") == "log artifacts/rw-64.log, line 35"
    # rw-64.log line 35, as the log prints it
    assert tps.get_attribute("data-quote") == "“transactions: 9328 (30.99 per sec.)”"
    figure = page.locator("figure[data-timeseries]")
    # folded: its samples are fetched and drawn once it is opened, from the run's row or its summary
    fold = page.locator("details.runs-chart")
    assert fold.locator("> summary").inner_text() == "Interval samples over time: 3 runs (show chart)"
    assert figure.get_attribute("data-timeseries") == "/data/studies/sysbench-logs-fixture/runs-over-time.json"
    assert figure.get_attribute("data-drawn") is None and not fold.get_attribute("open")
    fetched = []
    page.on("requestfinished", lambda r: fetched.append(r.url.split("/", 3)[3]))
    page.locator('tr[data-run="rw-64"] a.run-chart').click()
    page.locator("figure[data-timeseries][data-drawn]").wait_for()
    assert fold.get_attribute("open") == ""
    assert [f for f in fetched if f.endswith(".json")] == ["data/studies/sysbench-logs-fixture/runs-over-time.json"]
    expect(figure).to_have_attribute("data-drawn", "runs")
    # three runs in each of the two charts: finished runs solid, the unfinished one dashed
    assert page.locator('figure[data-timeseries] g[aria-label="line"] path').count() == 6
    assert page.locator('figure[data-timeseries] g[aria-label="line"][stroke-dasharray] path').count() == 2
    assert errors == []
    page.close()
    server.shutdown()


def _embed_csv(site, chart_id):
    with open(site.public / "embed" / f"{chart_id}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_runs_over_time_have_embeds_per_panel(site):
    index = json.loads((site.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    mine = {c["id"]: c for c in index if c["kind"] == "runs" and c["study"] == "sysbench-logs-fixture"}
    prefix = "sysbench-logs-fixture--runs-over-time"
    assert sorted(mine) == [f"{prefix}--latency_ms", f"{prefix}--tps"]
    assert mine[f"{prefix}--tps"]["full_page"] == f"{PAGE}#runs-over-time"
    rows = _embed_csv(site, f"{prefix}--tps")
    # 15 + 15 + 60 interval lines in rw-64.log, rw-64-cut.log and ro-64.log
    assert len(rows) == mine[f"{prefix}--tps"]["rows"] == 90
    # rw-64.log line 14: "[ 20s ] thds: 64 tps: 10.85 ... lat (ms,95%): 8638.96"
    first = next(r for r in rows if r["run"].startswith("rw-64:"))
    assert (first["t_s"], first["value"], first["status"]) == ("20", "10.85", "finished")
    assert first["provenance"] == "log artifacts/rw-64.log, interval report at 20 s"
    assert {r["status"] for r in rows if r["run"].startswith("rw-64-cut:")} == {"unfinished"}
    latency = next(r for r in _embed_csv(site, f"{prefix}--latency_ms") if r["run"].startswith("rw-64:"))
    assert (latency["value"], latency["latency_pct"]) == ("8638.96", "95.0")
    root = ET.fromstring((site.public / "embed" / f"{prefix}--tps.svg").read_bytes())
    lines = root.findall('.//{http://www.w3.org/2000/svg}g[@aria-label="line"]/{http://www.w3.org/2000/svg}path')
    assert len(lines) == 3  # one per run, the unfinished one dashed


MEASURED = "measured-mariadb-2core-vm"


def test_many_runs_are_drawn_one_chart_per_system_coloured_by_threads(built_site, browser):
    # 36 runs (4 variants x 3 thread counts x 3 runs): too many lines for one chart, so one chart
    # per variant, its 9 runs coloured by thread count
    index = json.loads((built_site.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    mine = sorted(c["id"] for c in index if c["kind"] == "runs" and c["study"] == MEASURED)
    assert mine == [f"{MEASURED}--runs-over-time-{v}--{m}" for v in (
        "dw-off-compressed", "dw-off-uncompressed", "dw-on-compressed", "dw-on-uncompressed")
        for m in ("latency_ms", "tps")]
    rows = _embed_csv(built_site, f"{MEASURED}--runs-over-time-dw-off-uncompressed--tps")
    # 4+5+5+5+5+4+5+5+5 interval lines in the nine dw-off-uncompressed-*.log files
    assert len(rows) == 43
    # dw-off-uncompressed-oltp_read_write-t2-r1.log line 15: "[ 3s ] thds: 2 tps: 2606.15 ..."
    log = "log artifacts/dw-off-uncompressed-oltp_read_write-t2-r1.log"
    row = next(r for r in rows if r["provenance"] == f"{log}, interval report at 3 s")
    assert row["value"] == "2606.15"
    server = serve_folder(built_site.public)
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{server.server_port}/studies/{MEASURED}/")
    figure = page.locator("#runs-over-time-dw-off-uncompressed")
    page.locator("#runs-over-time-dw-off-uncompressed-fold > summary").click()
    page.locator("#runs-over-time-dw-off-uncompressed[data-drawn]").wait_for()
    expect(figure).to_have_attribute("data-drawn", "runs")
    assert figure.locator('g[aria-label="line"] path').count() == 18  # 9 runs in each of two panels
    legend = figure.locator(".chart-canvas").first.inner_text()
    assert "1 thread" in legend and "2 threads" in legend and "4 threads" in legend
    assert "coloured by thread count" in figure.locator("figcaption").inner_text()
    page.close()
    server.shutdown()


def test_a_run_with_more_samples_than_a_page_shows_is_named_not_drawn(site, tmp_path, monkeypatch):
    """A run over runs.MAX_SAMPLES_SHOWN (lowered here below ro-64's 60 samples) is left out of the
    chart, and the study's data says so with its count."""
    from ingest.publish import export_all, runs

    monkeypatch.setattr(runs, "MAX_SAMPLES_SHOWN", 59)
    export_all(db_path=site.database, out_dir=tmp_path, bundles=site.data)
    doc = json.loads((tmp_path / "data" / "studies" / "sysbench-logs-fixture.json").read_text(encoding="utf-8"))
    by_run = {r["artifact"]: r for r in doc["runs"]}
    assert (by_run["ro-64"]["interval_count"], by_run["ro-64"]["intervals"]) == (60, [])
    assert by_run["ro-64"]["intervals_withheld"] == "60 interval samples, more than the 59 a study page draws"
    assert by_run["rw-64"]["intervals_withheld"] is None and len(by_run["rw-64"]["intervals"]) == 15
    assert by_run["rw-64"]["latency_pct"] == 95.0
    drawn = {r["artifact"] for chart in doc["runs_charts"] for r in chart["runs"]}
    assert drawn == {"rw-64", "rw-64-cut"}


def test_the_study_page_names_a_run_it_does_not_draw(tmp_path, monkeypatch):
    from ingest.publish import runs

    monkeypatch.setattr(runs, "MAX_SAMPLES_SHOWN", 59)
    built = build_with_bundle(tmp_path, FIXTURE)
    page = (built.public / "studies" / "sysbench-logs-fixture" / "index.html").read_text(encoding="utf-8")
    assert ('<p class="meta" data-withheld="ro-64">Not drawn: <code>artifacts/ro-64.log</code> has '
            "60 interval samples, more than the 59 a study page draws; every sample is in") in page
    assert page.count("data-withheld=") == 1
    chart = json.loads((built.public / "data" / "studies" / "sysbench-logs-fixture" / "runs-over-time.json")
                       .read_text(encoding="utf-8"))
    assert [r["artifact"] for r in chart["runs"]] == ["rw-64", "rw-64-cut"]
    assert len(chart["runs"][0]["intervals"]) == 15
