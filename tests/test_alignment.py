"""Runs meet traces: the state each run really ran in, computed from an mdstat trace by wall-clock time."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from playwright.sync_api import expect

from conftest import build_with_bundle, read_by_keys, serve_folder
from ingest.build.site import Layout
from ingest.bundles.validate import validate_paths

FIXTURE = Path(__file__).parent / "fixtures" / "bundles" / "rebuild-trace-fixture"


def test_validate_flags_a_run_declared_optimal_during_a_rebuild():
    _, problems = validate_paths([FIXTURE])
    assert [(p.severity, p.field, p.message) for p in problems] == [
        ("warning", "results[during].state",
         "declared optimal, but artifacts/mdstat.trace shows md0 recovering during the run"),
        ("warning", "results[after].started", "artifacts/mdstat.trace: the trace ends before the run finished"),
    ]


def test_a_trace_needs_its_array_named_when_ambiguous(tmp_path):
    folder = tmp_path / "rebuild-trace-fixture"
    shutil.copytree(FIXTURE, folder)
    bundle = folder / "bundle.yaml"
    bundle.write_text(bundle.read_text().replace(", array: md0}", ", array: md9}"))
    _, problems = validate_paths([folder])
    assert [p.message for p in problems if p.severity == "error"] == [
        "name the array this trace follows (arrays in artifacts/mdstat.trace: md1, md0)"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Layout:
    return build_with_bundle(tmp_path_factory.mktemp("project"), FIXTURE)


def test_runs_carry_the_state_computed_from_the_trace(site):
    con = duckdb.connect(str(site.database), read_only=True)
    rows = con.execute("SELECT artifact, state, trace, computed_state, state_flag IS NOT NULL FROM runs "
                       "WHERE study = 'rebuild-trace-fixture' ORDER BY artifact").fetchall()
    assert rows == [("after", "optimal", "trace", "optimal", False),
                    ("during", "optimal", "trace", "recovering", True)]


def test_rebuild_speed_and_duration_become_results(site):
    con = duckdb.connect(str(site.database), read_only=True)
    rows = con.execute("SELECT metric, value_text, unit, state, provenance FROM results "
                       "WHERE result = 'trace' ORDER BY col_index").fetchall()
    # recovery samples: 1024 blocks at 0 s, 8448 at 660 s -> 7424 KiB / 660 s = 11.248 KiB/s = 0.01152 MB/s;
    # first recovering sample at 0 s, first optimal one at 1200 s
    assert rows == [
        ("rebuild_mb_s", "0.01152", "MB/s", "rebuilding",
         "trace artifacts/mdstat.trace, lines 9 to 30 (md0, blocks done over time)"),
        ("rebuild_duration_s", "1200.0", "s", "rebuilding",
         "trace artifacts/mdstat.trace, lines 9 to 30 (md0, blocks done over time)"),
    ]
    samples = con.execute("SELECT t_s, state, percent FROM trace_samples WHERE study = 'rebuild-trace-fixture' "
                          "ORDER BY t_s").fetchall()
    assert samples == [(0.0, "recovering", 0.4), (600.0, "recovering", 3.6), (660.0, "recovering", 3.9),
                       (1200.0, "optimal", None)]


def test_page_shows_the_rebuild_and_the_flag(site, browser):
    server = serve_folder(site.public)
    page = browser.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"http://127.0.0.1:{server.server_port}/studies/rebuild-trace-fixture/")
    assert "declared optimal, but artifacts/mdstat.trace shows md0 recovering" in (
        page.locator('tr[data-run="during"]').inner_text())
    figure = page.locator("figure[data-rebuild]")
    expect(figure).to_have_attribute("data-drawn", "rebuild")
    assert page.locator('figure[data-rebuild] g[aria-label="rect"] rect').count() == 4  # 2 runs x 2 charts
    assert page.locator("table[data-trace] tbody tr").count() == 4
    # each run is its own series in the time-series chart, drawn once its fold is opened
    page.locator("details.runs-chart > summary").click()
    page.locator("figure[data-timeseries][data-drawn]").wait_for()
    assert page.locator('figure[data-timeseries] g[aria-label="line"] path').count() == 4
    assert errors == []
    page.close()
    server.shutdown()


def test_the_rebuild_chart_tips_each_sample_from_the_keys(site, browser):
    """md0's progress in mdstat.trace: 0.4% at the first sample, 3.6% 600 s later, 3.9% at 660 s (the
    last, in sync, has no progress line): the keys walk the three, Plot's tip on each."""
    server = serve_folder(site.public)
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{server.server_port}/studies/rebuild-trace-fixture/")
    canvas = 'figure[data-rebuild] .chart-canvas[data-metric="percent"]'
    assert read_by_keys(page, canvas) == [f"Rebuild progress (%): {percent}\nat {t} s (measured: a /proc/mdstat sample)"
                                          for t, percent in [(0, 0.4), (600, 3.6), (660, 3.9)]]
    assert "3.9" in page.locator(f'{canvas} g[aria-label="tip"]').text_content()
    page.close()
    server.shutdown()


def test_rebuild_chart_has_embeds_with_the_samples_and_runs_drawn(site):
    index = json.loads((site.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    prefix = "rebuild-trace-fixture--rebuild-trace"
    assert sorted(c["id"] for c in index if c["kind"] == "rebuild") == [f"{prefix}--percent", f"{prefix}--speed_kib_s"]
    with open(site.public / "embed" / f"{prefix}--percent.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    # md0 in mdstat.trace: 0.4% at 12:00, 3.6% at 12:10, 3.9% at 12:11, in sync (no progress line) at 12:20
    samples = [(float(r["t_s"]), r["value"]) for r in rows if r["element"] == "sample"]
    assert samples == [(0.0, "0.4"), (600.0, "3.6"), (660.0, "3.9")]
    during = next(r for r in rows if r["label"].startswith("during:"))
    assert during["flag"].startswith("declared optimal, but artifacts/mdstat.trace shows md0 recovering")
    assert during["provenance"] == ("log artifacts/during-rebuild.log: started as the bundle "
                                    "states, length from the log's total time")
    first = next(r for r in rows if r["element"] == "sample")
    assert first["provenance"] == "trace artifacts/mdstat.trace, snapshot at 2024-05-01T12:00:00+00:00"
    # the two runs drawn as bands: 'during' started 12:05 (300 s), 'after' 12:20:30 (1230 s)
    assert sorted(float(r["t_s"]) for r in rows if r["element"] == "run") == [300.0, 1230.0]
    with open(site.public / "embed" / f"{prefix}--speed_kib_s.csv", newline="", encoding="utf-8") as f:
        speeds = [(float(r["t_s"]), r["value"]) for r in csv.DictReader(f) if r["element"] == "sample"]
    assert speeds == [(0.0, "12"), (600.0, "12"), (660.0, "12")]  # speed=12K/sec


def test_derive_computes_each_figure_once_for_the_loader():
    """The derive stage holds what the loader maps: the trace's array and rebuild, the alignments."""
    (loaded,), _ = validate_paths([FIXTURE])
    derived = loaded.derivation
    assert derived.traces["trace"].array == "md0"
    assert derived.traces["trace"].rebuild["mb_s"] == 0.01152  # 7424 KiB in 660 s, as in the test above
    assert {run: (trace, a.computed) for run, (trace, a) in derived.alignments.items()} == {
        "during": ("trace", "recovering"), "after": ("trace", "optimal")}
    assert derived.usable == {"host": 0.5}  # RAID 1 on 2 drives
    assert [(f.kind, f.severity) for f in derived.findings] == [("state-mismatch", "warning"), ("trace-gap", "warning")]
