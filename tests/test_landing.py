"""benchdb compare (issue #62): a public log that is not in the catalogue, set against it.

The log is tests/fixtures/sysbench/web-1.0.20-oltp-rw-ivl20-shell-prompt.log (PROVENANCE.md there): a
sysbench 1.0.20 oltp_read_write run at 64 threads whose summary prints "transactions: 9328 (30.99 per
sec.)" (its line 35). The Graid study prints its 64-thread oltp_read_write TPS in its table (graid-en):
Linux MD RAID 10 9838.45, SupremeRAID RAID 10 8476.39, Linux MD RAID 6 8305.7, SupremeRAID RAID 6
7669.51 in optimal state, all on NVMe drives."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import expect

from conftest import ROOT
from ingest.bundles.validate import validate_paths
from ingest.cli import main
from ingest.database.load import build_database
from ingest.landing.comparable import land
from ingest.landing.your_run import CompareFailed, load_your_run

LOG = ROOT / "tests" / "fixtures" / "sysbench" / "web-1.0.20-oltp-rw-ivl20-shell-prompt.log"
STUDIES = ("graid-supremeraid-mysql-2023", "hgxl64-series06-percona55-flushing-ssd-2012", "measured-mariadb-2core-vm")
FACTS = {"product": "Samsung PM9A3", "vendor": "Samsung", "device_class": "nvme-ssd", "raid_level": "none",
         "protocol": "local", "engine": "MySQL 8.0 (InnoDB)"}
GRAID = {"Linux MD RAID 10": 9838.45, "SupremeRAID RAID 10": 8476.39, "Linux MD RAID 6": 8305.7,
         "SupremeRAID RAID 6": 7669.51}


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    loaded, problems = validate_paths([ROOT / "data" / s for s in STUDIES])
    assert not [p for p in problems if p.severity == "error"]
    return build_database(loaded, db_path=tmp_path_factory.mktemp("catalogue") / "benchmarks.duckdb")


def _landing(tmp_path: Path, database: Path, facts: dict = FACTS, log: Path = LOG):
    return land(load_your_run(log, facts=facts, work=tmp_path), catalogue=database, facts=facts)


def test_a_public_log_lands_below_the_graid_nvme_systems(tmp_path, database):
    landing = _landing(tmp_path, database)
    assert (landing.run["tps"], landing.run["threads"], landing.run["workload_test"]) == (30.99, 64, "oltp_read_write")
    assert landing.run["grade"] == "warn"  # steady-state CV 0.073 over 10 samples, above 0.05 (run-quality.yaml)
    assert (landing.test, landing.engine) == ("oltp_read_write", "innodb")
    graid = {s.system_label: s.tps for s in landing.series if s.study == STUDIES[0]}
    assert graid == GRAID
    assert all(s.threads == 64 for s in landing.series if s.study != STUDIES[2])
    # the 2-core VM measured oltp_read_write at 1, 2 and 4 threads: 4 is its nearest to 64
    assert {s.threads for s in landing.series if s.study == STUDIES[2]} == {4}
    assert len(landing.series) == 12  # 4 systems of each study
    assert landing.percentile == 0.0  # 30.99 is under every published series
    # nearest: the four NVMe systems of Graid's study, local and at 64 threads as yours; by TPS nearest yours
    assert [s.system_label for s in landing.nearest[:4]] == ["SupremeRAID RAID 6", "Linux MD RAID 6",
                                                             "SupremeRAID RAID 10", "Linux MD RAID 10"]
    first = landing.nearest[0]
    assert round(first.ratio, 5) == round(30.99 / 7669.51, 5)
    assert [(d.label, d.values) for d in first.differs] == [
        ("Storage", ("Samsung PM9A3 (Samsung)", "SupremeRAID SR-1010 (SR-BUN-1010-12-FD32) (Graid Technology)")),
        ("RAID level", ("none", "6")),
        ("Database", ("MySQL 8.0 (InnoDB) (version not stated)", "MySQL 8.0.30-0ubuntu0.20.04.2")),
        ("Benchmark", ("sysbench oltp_read_write", "sysbench oltp_read_write (OLTP_RW-trx.lua)"))]
    # the log's options (--tables=3 --table-size=10000000 --time=300) that Graid's table does not state
    assert first.unknown == ("sysbench option --table-size", "sysbench option --tables", "sysbench option --time")


def test_no_engine_is_nothing_comparable_with_what_would_make_it(tmp_path, database):
    landing = _landing(tmp_path, database, facts={k: v for k, v in FACTS.items() if k != "engine"})
    assert landing.series == [] and landing.engine is None
    assert landing.why_none == ("your run states no database engine the catalogue knows: give --engine "
                                "(e.g. 'MySQL 8.0 (InnoDB)')")


def test_an_engine_without_the_test_names_the_tests_it_has(tmp_path, database):
    landing = _landing(tmp_path, database, facts={**FACTS, "engine": "Percona Server for MySQL (TokuDB 7.5.8)"})
    assert landing.why_none == ("no published system runs oltp_read_write on TokuDB (the catalogue's TokuDB runs "
                                "by test: none): a run of one of those tests would be compared")


@pytest.mark.parametrize(("name", "text", "message"), [
    ("fileio.log", (ROOT / "tests/fixtures/sysbench/web-1.0.20-fileio-rndrw.log").read_text(),
     "a sysbench fileio run: the catalogue compares database runs (oltp_* and tpcc) by transactions per second"),
    ("notes.txt", "no benchmark here\n" * 100, "not a sysbench log, /proc/mdstat output, variables dump, my.cnf, "
     "mdadm --detail or lsblk output (not a sysbench log (no sysbench header, interval or statistics line))"),
    ("cut.log", "".join(LOG.read_text().splitlines(keepends=True)[:20]),
     "the run is cut before its summary (no transactions per second to compare)"),
])
def test_a_log_compare_cannot_take_is_named(tmp_path, name, text, message):
    log = tmp_path / name
    log.write_text(text)
    (tmp_path / "work").mkdir()
    with pytest.raises(CompareFailed) as caught:
        load_your_run(log, facts=FACTS, work=tmp_path / "work")
    assert str(caught.value) == f"{log}: {message}"


def test_the_command_prints_where_it_lands_and_the_next_step(database):
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in FACTS.items()]
    result = CliRunner().invoke(main, ["compare", str(LOG), "--database", str(database), *flags])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"Your run ({LOG}): sysbench 1.0.20 oltp_read_write, 64 threads, 30.99 transactions a second over 300.975 s"
    assert "It lands at percentile 0: above 0 of them, below 12." in lines
    assert "  1. SupremeRAID RAID 6 (graid-supremeraid-mysql-2023), 64 threads: 7,669.51 tx/s, exact; yours is 0.004x" in lines
    assert "  3. benchdb validate data/<id>" in lines
    assert ("On the site, your run among the published series: /compare/yours/#test=oltp_read_write&engine=innodb&"
            "threads=64&tps=30.99&grade=warn") in lines  # warn: a CV of 0.073 over its 10 steady samples (line 2)
    missing = CliRunner().invoke(main, ["compare", str(LOG), "--database", str(database.with_name("none.duckdb"))])
    assert missing.exit_code == 1
    assert missing.output == f"Error: no catalogue database at {database.with_name('none.duckdb')}: run benchdb build first\n"


def test_the_page_lists_the_same_series_as_the_command(tmp_path, built_site, site_url, page):
    """The link benchdb compare prints opens the site's page on the same comparison: the same series
    (study, system, workload, TPS) and percentile, by the same SQL (database/sql/comparable.sql), run by
    DuckDB-WASM over /sql/'s database file; your run among them, under the Graid study's four NVMe systems."""
    landing = _landing(tmp_path, built_site.database)
    page.goto(site_url + landing.as_data()["page"])
    expect(page.locator("#landing")).to_have_attribute("data-compared", str(len(landing.series)), timeout=60_000)
    rows = page.locator("#landing-table tbody tr:not([data-yours])")
    shown = [(r.get_attribute("data-study"), r.get_attribute("data-system"), r.get_attribute("data-workload"),
              float(r.get_attribute("data-tps"))) for r in rows.all()]
    assert shown == [(s.study, s.system, s.workload, s.tps) for s in landing.series]
    assert {s.study for s in landing.series} == {"graid-supremeraid-mysql-2023", "measured-mariadb-2core-vm",
                                                   "measured-mariadb-2core-vm-5min"}
    assert float(page.locator("#landing-summary").get_attribute("data-percentile")) == landing.percentile == 0.0
    cells = page.locator("#landing-table tbody tr").first.locator("td")
    assert [cells.nth(i).inner_text() for i in (0, 1, 3, 4)] == ["9,838.45", "Linux MD RAID 10", "64", "0.003×"]
    assert page.locator("#landing-table tbody tr").last.get_attribute("data-yours") == ""  # under all of them
    assert page.locator("input[name=threads]").input_value() == "64"
    chart = page.locator("#landing-chart")  # the same series drawn, a dot each, and your run's line
    expect(chart).to_have_attribute("data-drawn", str(len(landing.series)))
    assert chart.locator("svg circle").count() == len(landing.series) == 12
    assert chart.locator("svg text", has_text="your run").count() == 1
    assert page.locator("#landing-grade").inner_text() == ("Its quality by the run-quality rules, as the link says "
                                                           "benchdb compare graded the log: with warnings.")


def test_a_forged_fragment_is_named_and_runs_nothing(site_url, page):
    page.goto(site_url + "/compare/yours/#test=x%27%3B%20DROP%20TABLE%20results--&engine=innodb&threads=6.5&tps=1")
    expect(page.locator("#landing-error")).to_have_text(
        "The address gives no run to compare: test (a sysbench test's name, such as oltp_read_write); "
        "threads (a whole number from 1 to 100,000).")
    assert page.locator("#landing").get_attribute("data-compared") is None
    assert page.locator("#landing-result").is_hidden()
    page.goto(site_url + "/compare/yours/#test=oltp_read_write&engine=innodb&threads=64&tps=1&grade=%3Cb%3Egood")
    expect(page.locator("#landing-error")).to_have_text(
        "The address gives no run to compare: grade (fail, warn, partial, pass, not graded).")


def test_a_fact_the_format_refuses_is_named_by_its_field(tmp_path):
    """--drives 1,000 was named by a line of the temporary bundle.yaml, removed by then (the fifth pass)."""
    with pytest.raises(CompareFailed) as caught:
        load_your_run(LOG, facts={**FACTS, "raid_level": "10", "drives": "1,000"}, work=tmp_path)
    assert str(caught.value) == ("the facts given do not make a valid system:\n  systems[system].raid.drives: Input "
                                 "should be a valid integer (got '1,000'): thousands separators are not allowed: write "
                                 "the digits together (12345, not 12,345)")
