"""A line link opens at its line, however long the file: an artifact's lines are shown 500 a page
(ingest/database/lines.py), each page of a bounded size, and every line link of the site lands on a page
that holds its line."""

from __future__ import annotations

import gzip
import hashlib
import re

import duckdb

from ingest.database.lines import LINES_A_PAGE, create_line_macro, page_first_line, page_path
from ingest.publish import artifacts

STUDY = "measured-mariadb-2core-vm-5min"
# data/measured-mariadb-2core-vm-5min/artifacts/dw-off-uncompressed-oltp_read_write-t2-r1.log: 59,928 bytes,
# 709 lines (wc -l; its last line is empty), "transactions: 286316 (954.31 per sec.)" on line 690
RUN = "dw-off-uncompressed-oltp-read-write-t2-r1"
LOG = "artifacts/dw-off-uncompressed-oltp_read_write-t2-r1.log"


def test_a_line_is_on_the_page_of_its_500():
    assert LINES_A_PAGE == 500
    assert [page_first_line(n) for n in (1, 500, 501, 1000, 1001, 21619)] == [1, 1, 501, 501, 1001, 21501]
    assert [page_path(f) for f in (1, 501, 21501)] == ["", "lines-501/", "lines-21501/"]
    con = duckdb.connect()
    create_line_macro(con)
    hrefs = con.execute("SELECT artifact_line_href('s', 'a', n) FROM (VALUES (1), (500), (501), (1000), (1001), "
                        "(21619), (NULL)) AS t(n)").fetchall()
    assert [h for (h,) in hrefs] == ["/artifacts/s/a/#L1", "/artifacts/s/a/#L500", "/artifacts/s/a/lines-501/#L501",
                                     "/artifacts/s/a/lines-501/#L1000", "/artifacts/s/a/lines-1001/#L1001",
                                     "/artifacts/s/a/lines-21501/#L21619", "/artifacts/s/a/"]


def test_lines_are_numbered_as_the_parsers_number_them(tmp_path):
    """A line ends at \\n alone (ingest/parsers/reading.py), not at the other breaks str.splitlines knows (a
    form feed, a lone \\r): a page numbered by those would put a value's line below it. The \\r of a \\r\\n
    is left out, bytes that are not UTF-8 are replaced, a last line without its \\n counts."""
    path = tmp_path / "log"
    path.write_bytes(b"ab\r\ncd\x0cef\xffg\n\nh\xc3\xa9\rx\r\nlast")
    assert list(artifacts._lines(path)) == ["ab", "cd\x0cef\ufffdg", "", "h\u00e9\rx", "last"]
    path.write_bytes(b"")
    assert list(artifacts._lines(path)) == []
    path.write_bytes(b"one\n")
    assert list(artifacts._lines(path)) == ["one"]


def test_a_long_file_is_written_a_page_of_500_lines_at_a_time(tmp_path):
    """1,201 lines: pages 1-500, 501-1000 and 1001-1201; line 777, of 300 characters, shows its first 250
    and says how many more the file holds."""
    lines = [f"line {n}" for n in range(1, 1202)]
    lines[776] = "x" * 300
    data = tmp_path / "data" / "s"
    (data / "artifacts").mkdir(parents=True)
    body = ("\n".join(lines) + "\n").encode()
    (data / "artifacts" / "run.log").write_bytes(body)
    row = {"study": "s", "artifact": "run", "format": "sysbench", "path": "artifacts/run.log", "bytes": len(body),
           "sha256": hashlib.sha256(body).hexdigest(), "bundle_path": "s/bundle.yaml"}
    entry = artifacts._publish(dict(row), static_dir=tmp_path / "static", assets_dir=tmp_path / "assets",
                               bundles=tmp_path / "data")
    assert entry["line_count"] == 1201
    held = "lines/s/run/{}.html".format
    assert entry["pages"] == [{"first": 1, "last": 500, "path": "", "lines": held(1)},
                              {"first": 501, "last": 1000, "path": "lines-501/", "lines": held(501)},
                              {"first": 1001, "last": 1201, "path": "lines-1001/", "lines": held(1001)}]
    pages = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "assets" / "lines" / "s" / "run").iterdir()}
    assert sorted(pages) == ["1.html", "1001.html", "501.html"]
    assert pages["501.html"].count('<span class="line"') == 500
    assert pages["501.html"].startswith('<span class="line" id="L501"><a class="ln" href="#L501" aria-label="line 501">'
                                        '501</a>line 501\n</span><span class="line" id="L502">')
    assert ('<span class="line" id="L777"><a class="ln" href="#L777" aria-label="line 777">777</a>' + "x" * 250
            + '<span class="cut"> … 50 more characters, in the file</span>\n</span>') in pages["501.html"]
    assert pages["1001.html"].endswith('aria-label="line 1201">1201</a>line 1201\n</span>')


def test_a_lines_text_is_escaped_never_markup():
    assert artifacts.lines_html(['<script>alert("x")</script> & \'q\''], first=7) == (
        '<span class="line" id="L7"><a class="ln" href="#L7" aria-label="line 7">7</a>'
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;q&#x27;\n</span>')


def _line_links(public):
    """Every link to a line of an artifact in the site's pages: (page, href)."""
    for page in sorted(public.rglob("*.html")):
        for href in re.findall(r'href="([^"#]*/artifacts/[^"#]*#L\d+)"', page.read_text(encoding="utf-8")):
            yield page, href


def test_every_line_link_lands_on_its_line(built_site):
    links = sorted(set(href for _, href in _line_links(built_site.public)))
    # the 709-line log's transactions (line 690): its page of lines 501 to 709
    assert f"/artifacts/{STUDY}/{RUN}/lines-501/#L690" in links
    assert f"/artifacts/measured-mariadb-2core-vm/dw-off-compressed-oltp-read-write-t1-r1/#L23" in links
    beyond = [h for h in links if "/lines-" in h]
    assert len(beyond) >= 4 * 4  # tps, qps, latency avg and p95 of the four 5-minute logs, each after line 500
    for href in links:
        path, line = href.split("#L")
        target = built_site.public / path.strip("/") / "index.html"
        assert target.is_file(), href
        assert f'id="L{line}"' in target.read_text(encoding="utf-8"), href


def test_each_page_of_lines_is_within_its_budget(built_site):
    pages = sorted((built_site.public / "artifacts").rglob("index.html"))
    assert len(pages) == 1 + 40 + 4  # the list, an artifact's page each, and the 5-minute logs' second pages
    for page in pages:
        assert len(gzip.compress(page.read_bytes(), 6)) < 150 * 1024, page


def test_a_value_opens_its_log_at_its_line_beyond_the_first_500(page, site_url):
    page.goto(f"{site_url}/studies/{STUDY}/")
    cell = page.locator(f'tr[data-run="{RUN}"] details.value-prov:has(data[value="954.31"])')
    cell.locator("summary").click()
    cell.locator(".prov-quote a").click()
    assert page.url == f"{site_url}/artifacts/{STUDY}/{RUN}/lines-501/#L690"
    line = page.locator("#L690")
    assert " ".join(line.inner_text().split()) == "690 transactions: 286316 (954.31 per sec.)"
    assert line.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 243, 191)"  # :target
    assert page.locator("h1").inner_text() == f"Lines 501–709 of {LOG}"
    assert " ".join(page.locator("article p").first.inner_text().split()) == (
        f"Of its 709 lines: an artifact of {STUDY}, 60 KB (59,928 bytes). Its page lists its 2 pages of lines; "
        "download the file (served as plain text).")
    assert page.locator("pre.artifact .line").count() == 209
    assert page.locator(".line-near").first.inner_text() == "← lines 1–500"
    page.locator(".line-near a[rel=prev]").first.click()
    assert page.url == f"{site_url}/artifacts/{STUDY}/{RUN}/"
    assert page.locator("pre.artifact .line").count() == 500
    assert page.locator(".line-pages").inner_text().split() == ["1–500", "501–709"]
    assert " ".join(page.locator("article p").nth(1).inner_text().split()) == (
        "709 lines, on 2 pages of 500; this one shows the first.")
    assert page.locator(".line-near a[rel=next]").first.inner_text() == "lines 501–709 →"
    assert page.errors == []


def test_a_studys_pages_of_lines_key_its_own_pages_alone(tmp_path):
    """The page cache keys a study's pages by its own lines files (page_keys._assets), so a log of one study
    changes no other study's key, nor a facet page's."""
    from ingest.build.page_keys import _assets

    for name in ("explore/a.json", "lines/b/log-1/1.json", "lines/b/log-1/501.json", "csv-cells.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    shared, own = _assets(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in shared] == ["csv-cells.json"]
    assert {s: [p.relative_to(tmp_path).as_posix() for p in files] for s, files in own.items()} == {
        "a": ["explore/a.json"], "b": ["lines/b/log-1/1.json", "lines/b/log-1/501.json"]}
