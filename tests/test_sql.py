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
    # only the tables the query names are fetched
    assert sorted(p for p in policies if p.startswith("/sql/data/")) == ["/sql/data/results.arrow"]
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
    for table in tables.values():
        assert (built_site.public / table["file"].lstrip("/")).stat().st_size == table["bytes"]


def _reached(js, names: set[str]) -> set[str]:
    """The files of ``js`` (public/js/) that loading ``names`` fetches: them and what they import, on and on."""
    found, todo = set(), set(names)
    while todo:
        name = todo.pop()
        found.add(name)
        todo |= set(re.findall(r'\bfrom"\./([^"]+)"', (js / name).read_text(encoding="utf-8"))) - found
    return found


def test_no_other_page_loads_duckdb(built_site):
    """DuckDB-WASM's code is in js/sql.*.js alone, and no page but /sql/ loads that: neither as its
    script, nor preloaded, nor imported by what it loads (js/plot.*.js, Plot's one bundle, which /sql/
    shares with every page that draws)."""
    public = built_site.public
    js = public / "js"
    with_duckdb = {p.name for p in js.glob("*.js") if "duckdb" in p.read_text(encoding="utf-8").lower()}
    assert len(with_duckdb) == 1 and next(iter(with_duckdb)).startswith("sql.")
    for html in public.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        scripts = re.findall(r'<script[^>]+src="([^"]+)"', text)
        preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)"', text)
        assert all(s.startswith("/js/") for s in scripts + preloads), html
        loaded = _reached(js, {s.removeprefix("/js/") for s in scripts + preloads})
        if html == public / "sql" / "index.html":
            assert len(scripts) == 1 and scripts[0].startswith("/js/sql.")
            assert sorted(name.split(".")[0] for name in loaded) == ["plot", "sql"]
            continue
        assert not loaded & with_duckdb, html


def test_under_a_policy_without_webassembly_the_page_says_duckdb_cannot_start(page, site_url):
    """The site's policy must allow WebAssembly: served under the same policy without
    'wasm-unsafe-eval', WebAssembly is refused and the page says so instead of hanging."""
    strict = netlify_headers("/sql/")["Content-Security-Policy"].replace(" 'wasm-unsafe-eval'", "")
    assert "wasm" not in strict

    def with_site_policy(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": strict})

    page.route(f"{site_url}/sql/**", with_site_policy)
    page.goto(f"{site_url}/sql/?q=SELECT+1")
    page.wait_for_selector("#sql-error:not([hidden])", timeout=60_000)
    assert page.inner_text("#sql-error").startswith("DuckDB could not start in this browser:")
    assert page.is_hidden("#sql-result")


def test_a_query_that_names_no_table_sees_them_all(page, site_url, db):
    page.goto(f"{site_url}/sql/?q=" + urllib.parse.quote("SELECT count(*) AS n FROM information_schema.tables"))
    listed = db.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main'").fetchone()[0]
    assert _result(page) == [[str(listed + 1)]]  # and the facets' evidence rows (ingest/publish/evidence.py)


def test_a_numeric_column_against_another_is_drawn_as_dots_and_three_columns_are_not_drawn(page, site_url, db):
    sql = EXAMPLE["rebuild-tps-by-threads"].sql
    page.goto(f"{site_url}/sql/?{urllib.parse.urlencode({'q': sql})}")
    rows = _result(page)
    assert len(rows) == len(db.execute(sql).fetchall()) == 5  # 64 to 1024 threads, the per-user table
    assert page.eval_on_selector_all("#sql-chart svg circle", "els => els.length") == 5
    assert page.get_attribute("#sql-chart svg", "aria-label") == "tps_rebuilding by threads, 5 points"
    page.goto(f"{site_url}/sql/?{urllib.parse.urlencode({'q': EXAMPLE['doublewrite-off-against-on'].sql})}")
    _result(page)
    assert page.is_hidden("#sql-chart")


def test_every_example_link_carries_its_query_encoded_once_and_runs_it(page, site_url, built_site, db):
    """The links were encoded twice (`?q%3dSELECT%2b...`): they opened the page's default query instead
    (issue #53). Each link's address now gives back its example's SQL, and opening one runs it."""
    import html as html_module

    text = (built_site.public / "sql" / "index.html").read_text(encoding="utf-8")
    hrefs = [html_module.unescape(h) for h in re.findall(r'<a data-example href="([^"]+)"', text)]
    assert [urllib.parse.parse_qs(urllib.parse.urlparse(h).query) for h in hrefs] == [
        {"q": [example.sql]} for example in examples()]
    example = EXAMPLE["tps-kept-during-rebuild"]
    href = next(h for h in hrefs if urllib.parse.parse_qs(urllib.parse.urlparse(h).query)["q"] == [example.sql])
    page.goto(site_url + href)
    assert _result(page) == [[_as_page_writes(v) for v in row] for row in db.execute(example.sql).fetchall()]
    assert page.input_value("#sql-query") == example.sql
