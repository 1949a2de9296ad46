"""/sql/ runs whatever query its address carries, so a link can start one: before any of them the
database is cut off from everything outside it and its configuration locked, and a query that runs too
long is stopped (issue #49, hole 6). These hold without the page's Content-Security-Policy: the browser
here ignores it (bypass_csp), and a second origin on this machine counts what reaches it."""

from __future__ import annotations

import functools
import http.server
import threading
import urllib.parse

import pytest

from conftest import ROOT

LIMIT = "site/hugo.toml: params.sql_limit_seconds"
LONG = "SELECT count(*) FROM range(200000000000) AS t(a) WHERE a % 7 = 3"  # minutes of work in the browser


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """Another origin (another port) with a CSV to read, recording every request that reaches it."""
    folder = tmp_path_factory.mktemp("elsewhere")
    (folder / "secret.csv").write_text("a,b\n1,2\n")
    seen: list[str] = []

    class Recording(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            seen.append(self.path)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Recording, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", seen
    server.shutdown()


@pytest.fixture
def no_csp_page(browser):
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    yield page
    context.close()


def _outcome(page) -> tuple[str, str]:
    page.wait_for_selector("#sql-result:not([hidden]), #sql-error:not([hidden])", timeout=60_000)
    if page.is_visible("#sql-error"):
        return "error", page.inner_text("#sql-error")
    return "rows", page.eval_on_selector_all("#sql-table tbody tr", "rows => rows.map(r => r.innerText).join('\\n')")


def _open(page, site_url: str, sql: str) -> tuple[str, str]:
    page.goto(f"{site_url}/sql/?{urllib.parse.urlencode({'q': sql})}")
    return _outcome(page)


@pytest.mark.parametrize(("sql", "refused"), [
    ("SET enable_external_access = true", 'Cannot change configuration option "enable_external_access" - the '
                                          "configuration has been locked"),
    ("SET autoload_known_extensions = true", 'Cannot change configuration option "autoload_known_extensions"'),
    ("RESET lock_configuration", 'Cannot change configuration option "lock_configuration"'),
    ("SELECT * FROM read_csv('{elsewhere}/secret.csv')", "file system operations are disabled by configuration"),
    ("COPY (SELECT 1 AS a) TO '{elsewhere}/out.csv'", "file system operations are disabled by configuration"),
    ("ATTACH '{elsewhere}/db.duckdb' AS other", "file system operations are disabled by configuration"),
    ("LOAD httpfs", "Loading external extensions is disabled through configuration"),
])
def test_a_link_can_only_read_the_published_tables(no_csp_page, site_url, elsewhere, sql, refused):
    address, seen = elsewhere
    kind, shown = _open(no_csp_page, site_url, sql.format(elsewhere=address))
    assert kind == "error" and refused in shown
    assert seen == []
    # the published tables still read as before
    assert _open(no_csp_page, site_url, "SELECT count(*) > 0 AS some FROM results") == ("rows", "true")


def test_the_settings_are_locked_before_the_first_query(no_csp_page, site_url):
    sql = ("SELECT name, value FROM duckdb_settings() WHERE name IN ('enable_external_access', "
           "'lock_configuration', 'autoload_known_extensions', 'autoinstall_known_extensions') ORDER BY name")
    assert _open(no_csp_page, site_url, sql) == ("rows", "autoinstall_known_extensions\tfalse\n"
                                                         "autoload_known_extensions\tfalse\n"
                                                         "enable_external_access\tfalse\n"
                                                         "lock_configuration\ttrue")


def _with_limit(page, site_url: str, seconds: str) -> None:
    """Serve /sql/ with its limit set to ``seconds`` (the built page says 10, from site/hugo.toml)."""
    def shorter(route):
        response = route.fetch()
        body = response.text()
        assert 'data-limit-seconds="10"' in body, LIMIT
        route.fulfill(response=response, body=body.replace('data-limit-seconds="10"', f'data-limit-seconds="{seconds}"'))

    page.route(f"{site_url}/sql/?*", shorter)


def test_a_query_past_the_limit_is_stopped_and_the_next_one_runs(no_csp_page, site_url):
    page = no_csp_page
    _with_limit(page, site_url, "1.5")
    assert _open(page, site_url, LONG) == ("error", "The query ran past the page's limit of 1.5 s and was stopped.")
    assert page.is_hidden("#sql-stop")
    page.wait_for_selector("#sql-form button[type=submit]:not([disabled])", timeout=60_000)
    page.fill("#sql-query", "SELECT 6 * 7 AS answer")
    page.click("#sql-form button[type=submit]")
    page.wait_for_selector("#sql-result:not([hidden])", timeout=60_000)
    assert _outcome(page) == ("rows", "42")
    assert page.errors == []


def test_the_reader_can_stop_a_query(no_csp_page, site_url):
    page = no_csp_page
    page.goto(f"{site_url}/sql/?{urllib.parse.urlencode({'q': LONG})}")
    page.wait_for_selector("#sql-stop:not([hidden])", timeout=60_000)
    page.click("#sql-stop")
    assert _outcome(page) == ("error", "The query was stopped.")
    page.wait_for_selector("#sql-form button[type=submit]:not([disabled])", timeout=60_000)
    page.fill("#sql-query", "SELECT count(*) > 0 AS some FROM claims")
    page.click("#sql-form button[type=submit]")
    page.wait_for_selector("#sql-result:not([hidden])", timeout=60_000)
    assert _outcome(page) == ("rows", "true")


def test_the_limit_is_set_in_one_place():
    text = (ROOT / "site" / "hugo.toml").read_text(encoding="utf-8")
    assert "  sql_limit_seconds = 10\n" in text, LIMIT
