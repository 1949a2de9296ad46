"""/sql/: the database in the reader's browser (DuckDB-WASM over the site's own files), its example
queries, its Content-Security-Policy, and the page without JavaScript."""

from __future__ import annotations

import json
import re
import urllib.parse

import duckdb
import pytest

from conftest import netlify_headers
from ingest.bundles.fields import field
from ingest.publish.sql_page import examples

EXAMPLE = {e.id: e for e in examples()}


@pytest.fixture(scope="module")
def db(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    yield con
    con.close()


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.id)
def test_every_example_runs_on_the_built_database(db, example):
    rows = db.execute(example.sql).fetchall()
    assert rows, f"schema/sql-examples.yaml: {example.id} returns no row"


def test_the_rebuild_example_gives_what_the_white_paper_prints(db):
    """Linux MD RAID 6 in the Graid paper: rebuilding / optimal TPS at each of 5 thread counts, lowest at
    128 threads (484.88 / 9872.39 = 4.9%) and highest at 1024 (973.79 / 8046.76 = 12.1%), by hand."""
    rows = {r[0]: r[1:] for r in db.execute(EXAMPLE["tps-kept-during-rebuild"].sql).fetchall()}
    assert rows["Linux MD RAID 6"] == (4.9, 12.1, 5)
    assert len(rows) == 4


def _result(page) -> list[list[str]]:
    page.wait_for_selector("#sql-result:not([hidden]), #sql-error:not([hidden])", timeout=60_000)
    assert page.is_hidden("#sql-error"), page.inner_text("#sql-error")
    return page.eval_on_selector_all("#sql-table tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))")


def _as_page_writes(value) -> str:
    """A value as the page's table writes it (JavaScript's String() of a number: 12 for 12.0)."""
    if value is None:
        return "NULL"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@pytest.mark.parametrize("example_id", ["tps-kept-during-rebuild", "one-storage-product"])
def test_the_page_runs_an_example_under_its_csp_and_gets_the_database_s_rows(page, site_url, db, example_id):
    sql = EXAMPLE[example_id].sql
    policies = {}
    page.on("response", lambda r: policies.__setitem__(urllib.parse.urlparse(r.url).path,
                                                      r.headers.get("content-security-policy")))
    page.goto(f"{site_url}/sql/?{urllib.parse.urlencode({'q': sql})}")
    shown = _result(page)
    # the page and the worker that compiles the module arrived under /sql/*'s policy, the module from the site
    sql_policy = netlify_headers("/sql/")["Content-Security-Policy"]
    assert policies["/sql/"] == sql_policy
    assert policies["/sql/duckdb/duckdb-browser-eh.worker.js"] == sql_policy
    assert "/sql/duckdb/duckdb-eh.wasm" in policies
    # the one database file, and nothing else of /sql/data/, read by ranges (sql-db.js: never whole)
    assert sorted(p for p in policies if p.startswith("/sql/data/")) == ["/sql/data/sql.duckdb"]
    expected = [[_as_page_writes(v) for v in row] for row in db.execute(sql).fetchall()]
    assert shown == expected
    assert page.input_value("#sql-query") == sql
    assert page.errors == []  # a CSP refusal would be reported here


def test_a_query_typed_goes_into_the_address_and_a_chart_sorting_and_csv_follow(page, site_url, db):
    page.goto(f"{site_url}/sql/")
    page.wait_for_selector("#sql-form button[type=submit]:not([disabled])", timeout=60_000)
    sql = EXAMPLE["claims-by-verdict"].sql
    page.fill("#sql-query", sql)
    page.click("#sql-form button[type=submit]")
    shown = _result(page)
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query) == {"q": [sql.strip()]}
    counts = db.execute("SELECT verdict, count(*) FROM claims GROUP BY verdict").fetchall()
    assert sorted(shown) == sorted([v, str(n)] for v, n in counts)
    assert page.is_visible("#sql-chart svg")  # one numeric column against a categorical one: bars
    assert page.eval_on_selector_all("#sql-chart svg rect", "els => els.length") >= len(counts)
    page.click("#sql-table thead th:nth-child(2) button")
    ascending = [int(r[1]) for r in _result(page)]
    assert ascending == sorted(n for _, n in counts)
    assert page.get_attribute("#sql-table thead th:nth-child(2)", "aria-sort") == "ascending"
    with page.expect_download() as download:
        page.click("#sql-csv")
    text = open(download.value.path(), encoding="utf-8").read()
    assert text.splitlines()[0] == "verdict,claims"
    assert sorted(text.splitlines()[1:]) == sorted(f"{v},{n}" for v, n in counts)
    assert page.errors == []


def test_a_wrong_query_says_why(page, site_url):
    page.goto(f"{site_url}/sql/?q=SELECT+nothing+FROM+nowhere")
    page.wait_for_selector("#sql-error:not([hidden])", timeout=60_000)
    assert "nowhere" in page.inner_text("#sql-error")


def test_the_csv_defuses_formula_text_by_the_site_s_rule(page, site_url):
    page.goto(f"{site_url}/sql/?q=" + urllib.parse.quote("SELECT '=1+1' AS a, -12.5 AS b"))
    _result(page)
    with page.expect_download() as download:
        page.click("#sql-csv")
    assert open(download.value.path(), encoding="utf-8").read().splitlines() == ["a,b", "'=1+1,-12.5"]


def test_without_javascript_the_page_says_what_it_needs_and_links_the_downloads(browser, site_url, built_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{site_url}/sql/")
        note = page.inner_text(".sql-noscript")
        assert "needs JavaScript and WebAssembly" in note
        links = page.eval_on_selector_all(".sql-noscript a", "els => els.map((a) => a.getAttribute('href'))")
        assert links == ["/data/benchmarks.duckdb", "/data/results.parquet", "/data/results.csv", "/data/claims.csv"]
        for link in links:
            assert (built_site.public / link.lstrip("/")).is_file()
        assert page.is_hidden("#sql-form button")  # nothing to press that would do nothing
        assert page.inner_text(".sql-examples").count("Run this query") == len(examples())
    finally:
        context.close()


def test_the_schema_s_meanings_come_from_the_field_registry(built_site):
    data = json.loads((built_site.export / "data" / "sql.json").read_text(encoding="utf-8"))
    tables = {t["name"]: t for t in data["tables"]}
    assert set(tables) >= {"studies", "systems", "measurements", "claims", "results", "coordinates", "values_at"}
    column = {(t, c["name"]): c for t in tables for c in tables[t]["columns"]}
    assert column[("systems", "raid_level")]["label"] == field("raid_level").label
    assert column[("systems", "raid_level")]["bundle"] == field("raid_level").bundle
    assert column[("results", "storage_product")]["label"] == field("storage_product").label
    assert "label" not in column[("systems", "mount_options")]  # not a published field: no meaning invented
    assert tables["results"]["kind"] == "view" and tables["systems"]["kind"] == "table"
    assert data["file"] == "/sql/data/sql.duckdb"
    assert (built_site.public / "sql" / "data" / "sql.duckdb").stat().st_size == data["bytes"]
    for table in tables.values():  # its blocks of 256 KiB, none where it has no rows (origins here)
        assert table["bytes"] % 262144 == 0 and (table["bytes"] == 0) == (table["rows"] == 0), table["name"]


def test_the_database_file_holds_every_table_and_view_as_a_table_sorted_by_study(built_site, db):
    """The file DuckDB-WASM 1.4.3 attaches: storage version v1.4.0, each table and view of the database
    a table of its rows (JSON as text) in the order of all its columns, the study first, and the facets'
    evidence rows."""
    con = duckdb.connect()
    con.execute(f"ATTACH '{built_site.public / 'sql' / 'data' / 'sql.duckdb'}' AS f (READ_ONLY)")
    try:
        assert con.execute("SELECT tags['storage_version'] FROM duckdb_databases() WHERE database_name = 'f'").fetchone() == ("v1.4.0+",)
        stored = [n for (n,) in con.execute("SELECT table_name FROM information_schema.tables WHERE table_catalog = 'f' "
                                            "AND table_type = 'BASE TABLE' ORDER BY 1").fetchall()]
        listed = [n for (n,) in db.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
                                           "ORDER BY 1").fetchall()]
        assert stored == sorted([*listed, "evidence"])
        for name in ("results", "intervals", "runs"):
            kept = con.execute(f'SELECT * FROM f."{name}"').fetchall()
            original = db.execute(f'SELECT * FROM "{name}"').fetchall()
            assert len(kept) == len(original) > 0 and kept == sorted(kept, key=lambda r: r[0]), name
        (json_type,) = db.execute("SELECT data_type FROM information_schema.columns WHERE table_name = 'studies' "
                                  "AND column_name = 'setup'").fetchone()
        assert json_type == "JSON"
        assert con.execute("SELECT data_type FROM information_schema.columns WHERE table_catalog = 'f' "
                           "AND table_name = 'studies' AND column_name = 'setup'").fetchone() == ("VARCHAR",)
    finally:
        con.close()


def _fetched(page) -> list[tuple[str, int, str | None, int]]:
    """Every request of /sql/data/ the page and its worker make from now on: (method, status, Range, body bytes)."""
    seen = []

    def finished(request):
        if "/sql/data/" in request.url:
            seen.append((request.method, request.response().status, request.headers.get("range"),
                         request.sizes()["responseBodySize"]))

    page.context.on("requestfinished", finished)
    return seen


def test_a_query_on_one_study_s_intervals_fetches_its_part_of_the_file(page, catalogue_url):
    """On the whole catalogue (intervals: 711,000 samples of 17 studies, 12 MB of the file's 21), a
    query on one run's samples reads the file's header, catalogue and the row groups that hold that
    study: at most 5 MB, by range requests alone. The samples are those of the run's log
    (data/measured-mariadb-2core-vm/artifacts/dw-off-compressed-oltp_read_write-t1-r1.log, lines 13 to 16)."""
    seen = _fetched(page)
    sql = ("SELECT t_s, threads, tps, qps, latency_ms FROM intervals WHERE study = 'measured-mariadb-2core-vm' "
           "AND artifact = 'dw-off-compressed-oltp-read-write-t1-r1' ORDER BY t_s")
    page.goto(f"{catalogue_url}/sql/?{urllib.parse.urlencode({'q': sql})}")
    assert _result(page) == [["1", "1", "243.57", "4886.4", "5.57"], ["2", "1", "232.04", "4644.84", "5.57"],
                             ["3", "1", "236.08", "4716.55", "5.67"], ["4", "1", "262.99", "5264.85", "4.49"]]
    assert seen and all(status == 206 and (rng or "").startswith("bytes=") for _, status, rng, _ in seen), seen
    assert sum(size for *_, size in seen) <= 5 * 2**20
    assert page.errors == []


def test_a_query_that_names_no_table_fetches_the_catalogue_alone_and_says_so(page, site_url, built_site):
    """SELECT 1 reads the file's header and catalogue (as DuckDB opens it), none of a table's rows; before
    a query runs the page says what it reads at most."""
    seen = _fetched(page)
    page.goto(f"{site_url}/sql/?q=" + urllib.parse.quote("SELECT 6 * 7 AS answer"))
    assert _result(page) == [["42"]]
    fetched = sum(size for *_, size in seen)
    assert 0 < fetched <= 512 * 1024
    data = json.loads((built_site.export / "data" / "sql.json").read_text(encoding="utf-8"))
    most = {t["name"]: t["bytes"] for t in data["tables"]}["intervals"]
    # a query that runs long enough to read the page while it does (stopped by the reader)
    page.fill("#sql-query", "SELECT count(*) FROM intervals, range(200000000000) AS t(a) WHERE a % 7 = 3")
    page.click("#sql-form button[type=submit]")
    page.wait_for_selector("#sql-stop:not([hidden])", timeout=60_000)
    said = page.inner_text("#sql-status")
    page.click("#sql-stop")
    words = page.get_attribute('.sql-table[data-table="intervals"]', "data-size")  # the size partial's
    assert re.fullmatch(r"[0-9]+(\.[0-9])? (KB|MB)", words) and most > 0  # words (tests/test_sizes.py)
    assert said == (f"Running the query, which reads intervals (up to {words}), less where it keeps to some "
                    "studies (stopped after 10 s at the most)…")
