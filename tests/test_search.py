"""Search: Pagefind's index of the study, facet and prose pages, written at build time
(ingest/build/search_index.py), asked from the /search/ page in the browser; the header's box works without
a script (a plain GET form to /search/)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, copy_project
from ingest.plumbing.cache import CacheCounts
from ingest.bundles.problems import BuildError
from ingest.build.search_index import RUNNER, _keep_used, _pagefind_command, index_search, parts_of

GRAID = "graid-supremeraid-mysql-2023"


def test_the_index_holds_the_study_facet_and_prose_pages_only(built_site):
    index = built_site.public / "pagefind"
    count = lambda part: json.loads((index / part / "pagefind-entry.json").read_text(encoding="utf-8"))[  # noqa: E731
        "languages"]["en"]["page_count"]
    # the main index: the 10 facet pages (storage product, RAID level, protocol, doublewrite, compression,
    # array state, filesystem, device class, cloud volume size, provisioned IOPS) and /about/; not Explore's
    # row pages, embeds, logs or lists
    assert count("") == 10 + 1
    # the 6 study pages in parts by the SHA-256 of their ids modulo 4 (worked out with sha256sum): 1 holds
    # ScaleFlux's and Seagate's, 2 Graid's, 3 the two measured studies and NetApp's
    assert json.loads((index / "parts.json").read_text(encoding="utf-8")) == ["part-1/", "part-2/", "part-3/"]
    assert [count(f"part-{n}") for n in (1, 2, 3)] == [2, 1, 3]
    pages = (built_site.public / "studies" / GRAID / "index.html").read_text(encoding="utf-8")
    assert '<main id="main" data-pagefind-body data-pagefind-meta="kind:Study">' in pages
    assert "data-pagefind-body" not in (built_site.public / "explore" / "index.html").read_text(encoding="utf-8")
    # and the main index's run reads only those pages
    assert parts_of(built_site.public)[""] == [
        "about/index.html", "array-state/index.html", "compression/index.html", "device-class/index.html",
        "doublewrite/index.html", "filesystem/index.html", "protocol/index.html", "provisioned-iops/index.html",
        "raid-level/index.html", "storage-product/index.html", "volume-size/index.html"]


def test_only_the_files_the_search_page_loads_are_published(built_site):
    """Pagefind writes its UI scripts and styles (pagefind-ui, -modular-ui, -component-ui), its
    highlighting script and its WebAssembly for pages of no language into every folder of the index; a
    part's own script, worker and WebAssembly are never loaded either (the main index's do the work)."""
    index = built_site.public / "pagefind"
    meta = lambda part: "pagefind.{}.pf_meta".format(json.loads(  # noqa: E731
        (index / part / "pagefind-entry.json").read_text(encoding="utf-8"))["languages"]["en"]["hash"])
    names = lambda folder: sorted(p.name for p in folder.iterdir())  # noqa: E731
    assert names(index) == sorted(["fragment", "index", "pagefind-entry.json", "pagefind-worker.js", "pagefind.js",
                                   meta(""), "part-1", "part-2", "part-3", "parts.json", "wasm.en.pagefind"])
    for part in ("part-1", "part-2", "part-3"):
        assert names(index / part) == sorted(["fragment", "index", "pagefind-entry.json", meta(part)])


def test_a_search_for_a_word_on_every_page_fetches_every_published_file_of_the_index(page, site_url, built_site):
    """None of the index's files is one that nothing loads: "the" is on all 17 indexed pages, which the
    page lists (20 at most) with their excerpts, so it fetches each part's entry, metadata, index chunk
    and every page's fragment, and the main index's script, worker and WebAssembly. The main index's
    words are in two chunks (the facets' answers on the home page and /facets/ made it outgrow one):
    "the" is in one of them, and searches for "zzz" and "aaa" fetch the last and the first."""
    fetched = set()
    page.on("requestfinished", lambda r: fetched.add(urllib.parse.urlparse(r.url).path))
    page.goto(site_url + "/search/?q=the")
    page.locator("#search-status").filter(has_text="hold").wait_for()
    assert page.inner_text("#search-status") == "17 pages hold “the”."
    page.wait_for_load_state("networkidle")
    for word in ("zzz", "aaa"):  # the last chunk of words, and the first, whichever "the" is in
        page.goto(site_url + f"/search/?q={word}")
        page.locator("#search-status").filter(has_text=word).wait_for()
        page.wait_for_load_state("networkidle")
    public = built_site.public
    published = {"/" + p.relative_to(public).as_posix() for p in (public / "pagefind").rglob("*") if p.is_file()}
    # the main index's entry, metadata, two index chunks, script, worker and WebAssembly, parts.json, each
    # of the 3 parts' entry, metadata and index chunk, and the 17 pages' fragments
    assert len(published) == 7 + 1 + 3 * 3 + 17
    assert {p for p in fetched if p.startswith("/pagefind/")} == published
    assert page.errors == []


@pytest.mark.parametrize("main", [True, False])
def test_what_pagefind_writes_is_cut_to_what_the_page_loads_and_a_missing_file_stops_the_build(tmp_path, main):
    """Each language's metadata and WebAssembly by the names pagefind.js gives them: a language of no
    stemmer of its own has none (null), and its pages are searched with wasm.unknown.pagefind."""
    languages = {"en": {"hash": "en_1", "wasm": "en", "page_count": 2},
                 "xh": {"hash": "xh_2", "wasm": None, "page_count": 1}}
    used = ["fragment/en_a.pf_fragment", "index/en_b.pf_index", "pagefind-entry.json", "pagefind.en_1.pf_meta",
            "pagefind.xh_2.pf_meta"]
    if main:
        used += ["pagefind-worker.js", "pagefind.js", "wasm.en.pagefind", "wasm.unknown.pagefind"]
    for name in ["pagefind-ui.js", "pagefind-ui.css", "pagefind-highlight.js", "pagefind.js", "pagefind-worker.js",
                 "wasm.en.pagefind", "wasm.unknown.pagefind", "wasm.de.pagefind", "pagefind.en_1.pf_meta",
                 "pagefind.xh_2.pf_meta", "fragment/en_a.pf_fragment", "index/en_b.pf_index", "other/x"]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(name, encoding="utf-8")
    entry = {"version": "1.5.2", "languages": languages}
    (tmp_path / "pagefind-entry.json").write_text(json.dumps(entry), encoding="utf-8")
    _keep_used(tmp_path, main=main)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == sorted(used)
    (tmp_path / "pagefind.xh_2.pf_meta").unlink()
    with pytest.raises(BuildError, match="pagefind wrote no pagefind.xh_2.pf_meta into its index"):
        _keep_used(tmp_path, main=main)


def _indexed_text(public: Path, url: str) -> str:
    """The text Pagefind indexed of the page at ``url``: its fragment (gzip of "pagefind_dcd" and JSON)."""
    for file in (public / "pagefind").glob("**/fragment/*.pf_fragment"):
        fragment = json.loads(gzip.decompress(file.read_bytes()).removeprefix(b"pagefind_dcd"))
        if fragment["url"] == url:
            return fragment["content"]
    raise AssertionError(f"no fragment of {url}")


def test_the_reasons_of_a_run_s_grade_are_left_out_of_the_index_as_its_grade_is(built_site):
    """Each graded run's rules and their reasons (eight lines a run, alike from run to run) were a fifth
    of the words indexed at 1,000 bundles."""
    study = "/studies/measured-mariadb-2core-vm-5min/"
    page = (built_site.public / study.strip("/") / "index.html").read_text(encoding="utf-8")
    assert "Trend after warm-up: warn</strong>. " in page and "steeper than 1%" in page
    indexed = _indexed_text(built_site.public, study)
    assert "Run quality" in indexed and "Each run with interval samples is graded" in indexed
    assert "Trend after warm-up" not in indexed and "steeper than" not in indexed
    assert "Why dw-off-compressed-oltp-read-write-t2-r1 is graded" not in indexed


def test_the_header_box_finds_a_claim_s_damaged_words(page, site_url):
    """The Graid ledger quotes a claim as printed, "optimal (hon-degraded)" (seed 000's OCR): searching
    those words from any page's header lands on the search page with the study first."""
    page.goto(site_url + "/raid-level/")
    page.get_by_role("searchbox", name="Search the site").fill("hon-degraded")
    page.get_by_role("searchbox", name="Search the site").press("Enter")
    page.wait_for_url(lambda url: "/search/?q=hon-degraded" in url)
    status = page.locator("#search-status")
    status.filter(has_text="hold").wait_for()
    assert status.inner_text() == "1 page holds “hon-degraded”."
    first = page.locator("#search-results > li").first
    assert first.locator(".search-title a").inner_text() == (
        "SupremeRAID SR-1010 vs Linux MD RAID: MySQL sysbench OLTP read/write")
    assert first.locator(".search-title a").get_attribute("href") == f"/studies/{GRAID}/"
    assert first.locator(".search-kind").inner_text() == "Study"
    assert "hon" in first.locator(".search-excerpt mark").first.inner_text()
    assert page.errors == []


def test_a_search_on_the_page_is_in_the_address_and_back_restores_it(page, site_url):
    page.goto(site_url + "/search/?q=doublewrite")
    page.locator("#search-status").filter(has_text="hold").wait_for()
    found = page.locator("#search-results > li").count()
    assert found >= 2  # the measured study and the doublewrite page at least
    page.locator("#search-q").fill("nytro")
    page.locator("#search-q").press("Enter")
    page.locator("#search-status").filter(has_text="nytro").wait_for()
    assert page.url.endswith("/search/?q=nytro")
    # the study and the facet pages that name it (storage product, filesystem, device class): Pagefind
    # ranks them by its own measure, so the study is found, not necessarily first
    hrefs = page.locator("#search-results .search-title a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert "/studies/seagate-nytro-mysql-2015/" in hrefs and "/storage-product/" in hrefs
    page.go_back()
    page.locator("#search-status").filter(has_text="doublewrite").wait_for()
    assert page.locator("#search-results > li").count() == found
    assert page.errors == []


def test_without_a_script_the_page_says_what_it_needs(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "/")
    page.locator(".site-search input").fill("rebuild")
    page.locator(".site-search button").click()
    page.wait_for_url(lambda url: "/search/?q=rebuild" in url)
    assert page.locator("#search-status").inner_text().startswith(
        "Search runs in your browser and needs JavaScript. Without it, browse the studies")
    context.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_live_server_serves_the_search_index(tmp_path):
    """`benchdb build --serve` (Hugo's server renders in memory) mounts the search index the build wrote."""
    layout = copy_project(tmp_path / "project")
    port = _free_port()
    code = ("from pathlib import Path; from ingest.build.site import Layout, serve; "
            f"serve(Layout(Path({str(layout.root)!r})), port={port})")
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/pagefind/pagefind-entry.json") as response:
                    entry = json.loads(response.read())
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()
                assert time.monotonic() < deadline, "the live server did not serve the index in 3 minutes"
                time.sleep(0.5)
        assert entry["languages"]["en"]["page_count"] == 10 + 1
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/pagefind/part-3/pagefind-entry.json") as response:
            assert json.loads(response.read())["languages"]["en"]["page_count"] == 3
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def test_each_part_of_the_index_is_made_again_only_when_its_pages_changed(built_site, tmp_path):
    public = tmp_path / "public"
    shutil.copytree(built_site.public, public, ignore=shutil.ignore_patterns("pagefind"))
    cache = tmp_path / "cache"
    assert index_search(root=built_site.root, public=public, cache=cache) == CacheCounts(made=4, cached=0, pruned=0)
    first = {p.relative_to(public): p.read_bytes() for p in (public / "pagefind").rglob("*") if p.is_file()}
    shutil.rmtree(public / "pagefind")
    assert index_search(root=built_site.root, public=public, cache=cache) == CacheCounts(made=0, cached=4, pruned=0)
    assert {p.relative_to(public): p.read_bytes() for p in (public / "pagefind").rglob("*") if p.is_file()} == first
    page = public / "studies" / GRAID / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</main>", "<p>zanzibar</p></main>"), encoding="utf-8")
    shutil.rmtree(public / "pagefind")
    assert index_search(root=built_site.root, public=public, cache=cache) == CacheCounts(made=1, cached=3, pruned=0)
    part = json.loads((public / "pagefind" / "part-2" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert part != json.loads(first[Path("pagefind/part-2/pagefind-entry.json")])  # its index names new files


def test_the_study_pages_are_read_where_the_page_cache_keeps_them(built_site, tmp_path):
    """The build indexes the study pages from their page-cache entries while it still links them into
    the site: the same index as from the site."""
    public = tmp_path / "public"
    shutil.copytree(built_site.public, public, ignore=shutil.ignore_patterns("pagefind", "studies"))
    studies = {p.relative_to(built_site.public).as_posix(): p for p in built_site.public.glob("studies/*/index.html")}
    assert len(studies) == 6 and not (public / "studies").exists()
    assert index_search(root=built_site.root, public=public, cache=tmp_path / "cache", studies=studies) == \
        CacheCounts(made=4, cached=0, pruned=0)
    index = lambda site: {p.relative_to(site): p.read_bytes() for p in (site / "pagefind").rglob("*") if p.is_file()}  # noqa: E731
    assert index(public) == index(built_site.public)


def test_pagefind_s_binary_is_run_without_its_node_runner_and_writes_the_same_index(built_site, tmp_path):
    """The build runs the binary of Pagefind's platform package (no Node started for it), which is what
    the package's runner runs: over the same pages both write the same files. Without the platform's
    package, the build runs the runner."""
    binary = _pagefind_command(ROOT)
    assert len(binary) == 1 and Path(binary[0]).parent.parent.parent.name == "@pagefind"
    runner = [shutil.which("node"), str(ROOT / RUNNER)]
    site = tmp_path / "site"
    for page in ("studies/" + GRAID + "/index.html", "raid-level/index.html"):
        (site / page).parent.mkdir(parents=True)
        shutil.copyfile(built_site.public / page, site / page)
    written = []
    for n, command in enumerate((binary, runner)):
        out = tmp_path / f"out-{n}"
        subprocess.run([*command, "--site", str(site), "--glob", "**/index.html", "--output-path", str(out), "--silent"],
                       check=True, capture_output=True)
        written.append({p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert written[0] == written[1] and len(written[0]) > 10
    (tmp_path / "elsewhere" / "node_modules").mkdir(parents=True)
    assert _pagefind_command(tmp_path / "elsewhere")[1:] == [str(tmp_path / "elsewhere" / RUNNER)]
