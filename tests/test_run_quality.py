"""Run-quality grades (schema/run-quality.yaml, ingest/database/sql/quality.sql): hand-checked outcomes on real
logs (the measured bundle, the corpus logs of the fixtures) and on synthetic series built to hit each
rule, then the badges, the About page, Explore's filter and Compare's warning."""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path

import duckdb
import pytest

from ingest.database.load import build_database, create_schema
from ingest.parsers.sysbench_runs import parse_file
from ingest.database.quality import grade_runs, rules
from ingest.bundles.validate import validate_file

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ROOT / "data" / "measured-mariadb-2core-vm"
FIXTURE = ROOT / "tests" / "fixtures" / "bundles" / "sysbench-logs-fixture"


def _database(tmp_path: Path, *folders: Path) -> duckdb.DuckDBPyConnection:
    bundles = []
    for folder in folders:
        loaded, problems = validate_file(folder / "bundle.yaml")
        assert loaded is not None, problems
        bundles.append(loaded)
    path = build_database(bundles, db_path=tmp_path / "q.duckdb")
    return duckdb.connect(str(path), read_only=True)


def _checks(con, artifact: str) -> dict[str, tuple]:
    return {rule: (status, value, reason) for rule, status, value, reason in con.execute(
        "SELECT rule, status, value, reason FROM run_checks WHERE artifact = ?", [artifact]).fetchall()}


def _module_database(folder: Path):
    """A module-wide fixture: the database of one bundle, graded."""
    @pytest.fixture(scope="module")
    def database(tmp_path_factory):
        con = _database(tmp_path_factory.mktemp(folder.name), folder)
        yield con
        con.close()
    return database


measured = _module_database(MEASURED)


def test_the_measured_bundle_fails_the_minimum_length(measured):
    # its 36 runs last 5 s each (the bundle's summary: "3 repetitions of 5 s each")
    assert measured.execute("SELECT grade, count(*) FROM run_grades GROUP BY grade").fetchall() == [("fail", 36)]
    assert measured.execute("SELECT count(*) FROM run_checks WHERE rule = 'duration' AND status = 'fail'"
                            ).fetchone() == (36,)


def test_a_measured_run_checked_by_hand(measured):
    checks = _checks(measured, "dw-on-uncompressed-oltp-read-write-t2-r1")
    # artifacts/dw-on-uncompressed-oltp_read_write-t2-r1.log: "total time: 5.0070s"
    assert checks["duration"] == ("fail", 5.007, "the run lasts 5.0 s; under the 60 s minimum")
    # five samples at 1 s: no 30 s window fits in the run
    assert checks["warmup"][0:2] == ("not known", None)
    # err/s 1.00 in the 4 s sample; TPS 1837.85 + 1998.47 + 1687.01 + 2044.01 + 1698.61 = 9265.95
    assert checks["errors"][0] == "pass"
    assert checks["errors"][1] == pytest.approx(1 / 9265.95)
    # 2 tables x 10000 rows x 230 bytes against innodb_buffer_pool_size 134217728 (the bundle's settings)
    assert checks["buffer_pool"][0:2] == ("warn", pytest.approx(2 * 10000 * 230 / 134217728))
    assert "not a storage test" in checks["buffer_pool"][2]
    # declared buffer_pool_mib 128 and doublewrite true; recorded 134217728 and ON
    assert checks["settings"] == ("pass", 0.0, "as declared: buffer pool (MiB), doublewrite")
    tps = [1837.85, 1998.47, 1687.01, 2044.01, 1698.61]
    grade = measured.execute("SELECT grade, samples, warmup_s, tps_mean_all, tps_mean_steady, cv_all FROM run_grades "
                             "WHERE artifact = 'dw-on-uncompressed-oltp-read-write-t2-r1'").fetchone()
    assert grade[:3] == ("fail", 5, None)
    assert grade[3] == pytest.approx(statistics.mean(tps))
    assert grade[4] is None  # no warm-up could be told apart: nothing is reported without it
    assert grade[5] == pytest.approx(statistics.stdev(tps) / statistics.mean(tps))


def _samples(log: Path) -> list[tuple[int, float]]:
    """(t, tps) of a log's interval lines, read here on their own ('[ 20s ] ... tps: 10.85' or 0.5's '[   5s] ...')."""
    out = []
    for line in log.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"\[\s*(\d+)s\s*\].*?tps: ([\d.]+)", line):
            out.append((int(m.group(1)), float(m.group(2))))
    return out


def _warmup_by_hand(samples: list[tuple[int, float]], step: int) -> int | None:
    """The warm-up rule of run-quality.yaml, written out plainly: the first complete window within the
    band of the second half's mean, starting in the first half (samples: (time, TPS or None))."""
    rule = {r.key: r.thresholds() for r in rules().rules}["warmup"]
    last = samples[-1][0]
    ref = statistics.mean(v for t, v in samples if t > last / 2 and v is not None)
    for t, _ in samples:
        window = [v for u, v in samples if t <= u < t + rule["window_s"] and v is not None]  # no TPS: not counted
        if window and t + rule["window_s"] - step <= last and t - step <= rule["max_share"] * last \
                and abs(statistics.mean(window) - ref) <= rule["band"] * ref:
            return t
    return None


fixture_db = _module_database(FIXTURE)


def test_warm_up_of_real_corpus_logs(fixture_db):
    rw = _samples(FIXTURE / "artifacts" / "rw-64.log")
    # by hand: the second half's mean (160 s to 300 s) is 34.9625; the window at 120 s (29.20, 35.40)
    # has mean 32.30, the first within 10% of it; every earlier one is below 31.47
    assert _warmup_by_hand(rw, 20) == 120
    steady = [v for t, v in rw if t >= 120]
    row = fixture_db.execute("SELECT warmup_s, tps_mean_all, tps_mean_steady, cv_steady, grade FROM run_grades "
                             "WHERE artifact = 'rw-64'").fetchone()
    assert row[0] == 100  # the samples before 120 s: 20 s .. 100 s, i.e. the first 100 s
    assert row[1] == pytest.approx(statistics.mean(v for _, v in rw))
    assert row[2] == pytest.approx(34.43)  # (29.20 + 35.40 + ... + 32.15) / 10
    assert row[3] == pytest.approx(statistics.stdev(steady) / statistics.mean(steady))
    assert row[4] == "warn"  # its CV after warm-up, 0.073, is above 0.05
    ro = _samples(FIXTURE / "artifacts" / "ro-64.log")
    first = _warmup_by_hand(ro, 5)
    assert fixture_db.execute("SELECT warmup_s FROM run_grades WHERE artifact = 'ro-64'").fetchone() == (first - 5,)


def test_unknown_stays_unknown(fixture_db):
    # neither fixture system records a buffer pool; ro-64's 0.5 samples print no err/s
    assert _checks(fixture_db, "rw-64")["buffer_pool"] == ("not known", None, "not known: no buffer pool size is recorded")
    assert _checks(fixture_db, "ro-64")["errors"][0:2] == ("not known", None)
    assert _checks(fixture_db, "ro-64")["settings"] == (
        "not known", None, "not known: no recorded setting or command option to compare")


# -- synthetic series, one rule each ----------------------------------------------------------------

def _synthetic(runs: dict[str, dict]) -> duckdb.DuckDBPyConnection:
    """A database holding one study whose runs have the given samples (``tps``, at ``times``: 1, 2, ... s
    unless given) and settings, graded."""
    con = duckdb.connect()
    create_schema(con)
    con.execute("INSERT INTO studies VALUES ('s', 't', 's', 1, 's/bundle.yaml', NULL, '{}')")
    for name, run in runs.items():
        times = run.get("times", range(1, len(run["tps"]) + 1))
        con.execute("INSERT INTO systems (study, system, position, label, storage_product, storage_vendor, storage_kind, "
                    "protocol, db_engine, doublewrite, buffer_pool_mib) VALUES ('s', ?, 0, ?, 'p', 'v', 'device', "
                    "'local', 'MariaDB', ?, ?)", [name, name, run.get("doublewrite"), run.get("pool_mib")])
        con.execute("INSERT INTO workloads (study, workload, tool, test, tables, rows_per_table, data_gb) "
                    "VALUES ('s', ?, 'sysbench', 'oltp_read_write', ?, ?, ?)",
                    [name, run.get("tables"), run.get("rows"), run.get("data_gb")])
        con.execute("INSERT INTO runs (study, artifact, path, log, system, workload, threads, threads_source, "
                    "complete, report_interval_s, elapsed_s, warnings, started, trace) VALUES ('s', ?, 'x.log', "
                    "'log x.log', ?, ?, ?, ?, true, 1, ?, [], ?, ?)", [name, name, name, run.get("threads", 4), run.get("threads_source", "bundle"),
                                        max(times, default=0), run.get("started"), run.get("trace")])
        for t, tps in zip(times, run["tps"]):
            con.execute("INSERT INTO intervals (study, artifact, t_s, tps, errors_s, reconnects_s) VALUES "
                        "('s', ?, ?, ?, ?, ?)", [name, t, tps, run.get("errors", {}).get(t, 0.0),
                                                 run.get("reconnects", {}).get(t, 0.0)])
        for key, value in run.get("settings", {}).items():
            con.execute("INSERT INTO system_settings VALUES ('s', ?, ?, ?)", [name, key, value])
        for key, value in run.get("options", {}).items():
            con.execute("INSERT INTO run_options VALUES ('s', ?, ?, ?)", [name, key, value])
        for t, time, state in run.get("trace_samples", []):
            con.execute("INSERT INTO trace_samples (study, artifact, array_name, t_s, time, state) VALUES "
                        "('s', ?, 'md0', ?, ?, ?)", [run["trace"], t, time, state])
    grade_runs(con)
    return con


def test_synthetic_warm_up_is_found_where_built():
    # 40 s at 50 TPS then 100 TPS for 560 s: the window from t holds 41 - t samples of 50; its mean is
    # within 10% of 100 (>= 90) once at most 6 are, i.e. from t = 35: warm-up 34 s
    con = _synthetic({"ramp": {"tps": [50.0] * 40 + [100.0] * 560}})
    assert con.execute("SELECT warmup_s, tps_mean_steady FROM run_grades").fetchone() == (
        34, pytest.approx((6 * 50 + 560 * 100) / 566))
    assert _checks(con, "ramp")["warmup"][0] == "pass"
    # with a sample missing near its end, the run is off its grid of 1 s steps: its windows are taken by
    # time (a RANGE frame), not counted in samples (quality.sql), and give the same warm-up
    off = _synthetic({"ramp": {"tps": [50.0] * 40 + [100.0] * 559, "times": [t for t in range(1, 601) if t != 590]}})
    assert off.execute("SELECT warmup_s FROM run_grades").fetchone() == (34,)


def test_synthetic_warm_up_over_gaps_and_missing_tps():
    # every 7th second missing, and the TPS of every 11th: a window's mean is over the TPS it holds.
    # By hand the first window within 10% of the second half's mean (99.89) starts at 60 s: mean 89.99,
    # 89.90 needed (at 59 s: 89.66); the run's step is 1 s, so 59 s of warm-up
    times = [t for t in range(1, 401) if t % 7]
    tps = [None if t % 11 == 0 else round(100 - 60 * math.exp(-t / 40) + 3 * math.sin(t), 2) for t in times]
    assert _warmup_by_hand(list(zip(times, tps)), 1) == 60
    con = _synthetic({"gaps": {"tps": tps, "times": times}})
    assert con.execute("SELECT warmup_s FROM run_grades").fetchone() == (59,)


def test_synthetic_never_settles_and_trends():
    # TPS rising by 1 every second for 600 s: no window is within 10% of the second half's mean early on
    con = _synthetic({"rising": {"tps": [float(t) for t in range(1, 601)]}})
    checks = _checks(con, "rising")
    assert checks["warmup"][0] == "fail"
    # slope 1 TPS/s = 60 per minute over a mean of 300.5: 19.97% per minute
    assert checks["trend"][0:2] == ("fail", pytest.approx(60 / 300.5 * 100))
    assert con.execute("SELECT grade, warmup_s, tps_mean_steady FROM run_grades").fetchone() == ("fail", None, None)


def test_synthetic_stall_is_placed_on_the_trace():
    tps = [100.0] * 600
    tps[299:304] = [10.0] * 5  # t = 300 .. 304 s
    con = _synthetic({"stall": {
        "tps": tps, "started": "2024-05-01T12:00:00+00:00", "trace": "trace",
        "trace_samples": [(0, "2024-05-01T11:59:00+00:00", "optimal"), (310, "2024-05-01T12:04:10+00:00", "rebuilding"),
                          (400, "2024-05-01T12:05:40+00:00", "optimal")]}})
    # 12:00:00 + 300 s = 12:05:00: the trace's latest sample before it says rebuilding (12:04:10)
    assert con.execute("SELECT t_s, tps, median_tps, array_state FROM run_stalls ORDER BY t_s").fetchall() == [
        (t, 10.0, 100.0, "rebuilding") for t in range(300, 305)]
    status, value, reason = _checks(con, "stall")["stalls"]
    assert (status, value) == ("warn", 5)
    assert reason == ("5 samples under 25% of the median TPS (100.0): 10.0 TPS at 300 s (array rebuilding), "
                      "10.0 TPS at 301 s (array rebuilding), 10.0 TPS at 302 s (array rebuilding), "
                      "10.0 TPS at 303 s (array rebuilding), 10.0 TPS at 304 s (array rebuilding)")


def test_a_run_of_many_stalls_lists_the_first_ten_and_counts_the_others():
    """schema/run-quality.yaml's listed_at_most: 12 stalls (t = 300 .. 311 s), 10 listed, 2 counted."""
    tps = [100.0] * 600
    tps[299:311] = [10.0] * 12
    con = _synthetic({"stall": {"tps": tps}})
    assert con.execute("SELECT count(*) FROM run_stalls").fetchone() == (12,)
    status, value, reason = _checks(con, "stall")["stalls"]
    assert (status, value) == ("warn", 12)
    assert reason == ("12 samples under 25% of the median TPS (100.0): "
                      + ", ".join(f"10.0 TPS at {t} s" for t in range(300, 310))
                      + ", and 2 more (every stall is in the table run_stalls)")


def test_synthetic_errors_and_reconnects():
    con = _synthetic({"errors": {"tps": [100.0] * 600, "errors": {t: 3.0 for t in range(1, 601)}},
                      "lost": {"tps": [100.0] * 600, "reconnects": {200: 1.0}}})
    assert _checks(con, "errors")["errors"][0:2] == ("warn", pytest.approx(0.03))
    assert _checks(con, "lost")["errors"][0] == "fail"
    assert _checks(con, "lost")["errors"][2].endswith("a connection was lost")


def test_synthetic_settings_differ_and_data_outgrows_the_pool():
    con = _synthetic({"differs": {
        "tps": [100.0] * 600, "pool_mib": 128, "doublewrite": True, "data_gb": 100.0,
        "settings": {"innodb_buffer_pool_size": "268435456", "innodb_doublewrite": "ON"},
        "options": {"threads": "8"}}})
    checks = _checks(con, "differs")
    assert checks["settings"] == ("warn", 2.0, "differs: buffer pool (MiB) declared 128, recorded 256; "
                                               "threads declared 4, recorded 8")
    # 100 GB against the recorded 256 MiB
    assert checks["buffer_pool"][0:2] == ("pass", pytest.approx(100e9 / 268435456))


def test_a_run_without_samples_is_not_graded():
    con = _synthetic({"none": {"tps": []}})
    assert con.execute("SELECT grade, reasons, samples FROM run_grades").fetchone() == (
        "not graded", "not graded: no interval samples", 0)
    assert con.execute("SELECT count(*) FROM run_checks").fetchone() == (0,)


# -- pages -----------------------------------------------------------------------------------------

def test_study_page_shows_badges_and_reasons(built_site, site_url, page):
    page.goto(f"{site_url}/studies/measured-mariadb-2core-vm/")
    # 36 runs: the runs and their grades are folded (site/hugo.toml fold_rows), their counts shown
    assert page.locator("details.fold:not(.runs-chart) > summary").all_inner_texts() == ["Runs: 36 rows (show)",
                                                                                         "Grades: 36 rows (show)"]
    for summary in page.locator("details.fold:not(.runs-chart) > summary").all():
        summary.click()
    badges = page.locator("table.runs a.grade")
    assert badges.count() == 36
    assert badges.first.inner_text() == "fails a rule"
    assert "the run lasts 5.0 s; under the 60 s minimum" in badges.first.get_attribute("title")
    rows = page.locator("table.quality tbody tr")
    assert rows.count() == 36
    checks = page.locator("details.quality-checks").first
    checks.locator("summary").click()
    assert "Run length: fail. the run lasts" in checks.inner_text()
    assert page.errors == []


def test_grades_page_lists_every_rule_with_its_thresholds(built_site, site_url, page):
    page.goto(f"{site_url}/grades/")
    for rule in rules().rules:
        section = page.locator(f"section[aria-labelledby=rule-{rule.key}]")
        assert section.locator("h3").inner_text() == rule.label
        for name, value in rule.thresholds().items():
            assert section.locator(f"tr:has(code:text-is('{name}')) td").inner_text() == f"{value:g}"
    assert page.locator("a[href='https://fio.readthedocs.io/en/latest/fio_doc.html#steady-state']").count() >= 1


def test_explore_filters_by_grade(built_site, site_url, page):
    page.goto(f"{site_url}/explore/?grade=fail")
    page.wait_for_selector("#explore-table tbody tr", timeout=10_000)
    shown = page.locator("#explore-table tbody tr").evaluate_all(
        "rs => rs.filter(r => !r.hidden).map(r => JSON.parse(r.dataset.facets))")
    keys = [f["param"] for f in json.loads((built_site.export / "data" / "explore.json").read_text())["facets"]]
    assert shown and {dict(zip(keys, facets))["study"] for facets in shown} == {"measured-mariadb-2core-vm"}
    assert {dict(zip(keys, facets))["grade"] for facets in shown} == {"fail"}


def test_compare_warns_when_grades_differ(built_site, site_url, page):
    page.goto(f"{site_url}/compare/?series=measured-mariadb-2core-vm:dw-on-uncompressed,"
              "graid-supremeraid-mysql-2023:mdraid-raid6")
    note = page.locator("#compare-grades")
    note.wait_for(state="visible", timeout=10_000)
    assert "differ in grade" in note.inner_text()
    assert "fail" in note.inner_text() and "not graded" in note.inner_text()
    page.goto(f"{site_url}/compare/?series=measured-mariadb-2core-vm:dw-on-uncompressed,"
              "measured-mariadb-2core-vm:dw-off-uncompressed")
    page.wait_for_selector("#compare-values tbody tr")
    assert page.locator("#compare-grades").is_hidden()


def test_a_real_log_whose_samples_count_no_transactions():
    # mariadbbench-0.5-errors-reconnects-cols.log: 25 samples every 2 s, each "tps: 0.00" and
    # "errors: 0.00, reconnects:  0.00" (a write-only load: "transactions: 0" in its summary)
    run = parse_file(ROOT / "tests" / "fixtures" / "sysbench" / "mariadbbench-0.5-errors-reconnects-cols.log")
    samples = run["intervals"].tables()
    tps = [v for part in samples for v in part.column("tps").to_pylist()]
    assert len(tps) == 25 and set(tps) == {0.0}
    con = _synthetic({"writes": {"tps": tps}})
    checks = _checks(con, "writes")
    for rule in ("warmup", "steady_cv", "trend", "stalls"):
        assert checks[rule] == ("not known", None, "not known: the samples count no transactions (TPS 0 throughout)")
    assert checks["errors"][0] == "not known"
    assert checks["duration"][0] == "fail"  # 25 samples of the synthetic 1 s clock: 25 s
    assert con.execute("SELECT grade, warmup_s, tps_mean_steady FROM run_grades").fetchone() == ("fail", None, None)


long_runs = _module_database(ROOT / "data" / "measured-mariadb-2core-vm-5min")


def test_the_recaptured_bundle_passes_length_data_size_and_settings(long_runs):
    rows = long_runs.execute("SELECT rule, status, count(*) FROM run_checks WHERE rule IN "
                             "('duration', 'buffer_pool', 'settings', 'errors') GROUP BY ALL ORDER BY ALL").fetchall()
    assert rows == [("buffer_pool", "pass", 4), ("duration", "pass", 4), ("errors", "pass", 4), ("settings", "pass", 4)]
    checks = _checks(long_runs, "dw-on-uncompressed-oltp-read-write-t2-r1")
    # artifacts/dw-on-uncompressed-oltp_read_write-t2-r1.log line 668: "total time: 300.0043s"
    assert checks["duration"][1] == 300.0043
    # the log's command: --tables=3 --table-size=250000, x 230 bytes, against 134217728 bytes
    assert checks["buffer_pool"][1] == pytest.approx(3 * 250000 * 230 / 134217728)
    assert checks["settings"][2] == "as declared: buffer pool (MiB), doublewrite, threads, tables, rows per table"


def test_stalls_of_a_recaptured_run_checked_by_hand(long_runs):
    # dw-off-uncompressed: 300 samples with median 988.92 TPS; a quarter of it is 247.23, and the samples
    # under it are 216.91 (96 s, line 109), 154.75 (259 s), 92.94 (260 s) and 169.36 (278 s); the next is 248.00
    assert long_runs.execute("SELECT t_s, tps, round(median_tps, 2), array_state FROM run_stalls ORDER BY t_s").fetchall() == [
        (96, 216.91, 988.92, None), (259, 154.75, 988.92, None), (260, 92.94, 988.92, None), (278, 169.36, 988.92, None)]
