"""A facet's evidence plot as an embed (ingest/publish/evidence_embed.py), made as a chart's is: its embed
page with the SVG drawn at build time and its context, the CSV of exactly the rows plotted (with a
synthesis, the forest of its first contrast: a row a study, a row a pooled estimate), its oEmbed answer,
the facet page's "Cite / embed" box under the plot, and the query of /sql/ that gives the evidence rows
behind it in the browser."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
import urllib.parse
import xml.etree.ElementTree as ET

import pytest

from ingest.publish.evidence_embed import COLUMNS, FOREST_COLUMNS

SVG_NS = "{http://www.w3.org/2000/svg}"
# the measured study of 300 s runs, its compressed pair (data/measured-mariadb-2core-vm-5min): the sysbench
# logs print 243.81 transactions a second with doublewrite off (dw-off-compressed-oltp_read_write-t2-r1.log,
# line 604) and 240.19 with it on (dw-on-...-t2-r1.log, line 602): 243.81 / 240.19 = 1.0151, one load
FIRST = {"study": "measured-mariadb-2core-vm-5min",
         "title": "Measured: sysbench oltp_read_write on MariaDB, 300 s runs, doublewrite and compression variants",
         "systems": "doublewrite off, compressed (ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8) over doublewrite on, "
                    "compressed (ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8)",
         "workload": "sysbench oltp_read_write", "metric": "tps", "state": "", "median": "1.0151", "low": "1.0151",
         "high": "1.0151", "grade": "measured-passing", "year": "2026", "source_kind": "measured here"}


@pytest.fixture(scope="module")
def evidence(built_site) -> dict[str, dict]:
    facets = json.loads((built_site.export / "data" / "facets.json").read_text(encoding="utf-8"))
    return {slug: facet["evidence"] for slug, facet in facets.items()}


@pytest.fixture(scope="module")
def plots(built_site) -> dict[str, dict]:
    """The evidence plots' entries of /embed/index.json, by facet."""
    charts = json.loads((built_site.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    return {c["facet"]: c for c in charts if c["kind"] == "evidence"}


def _csv(built_site, entry) -> list[dict]:
    return list(csv.DictReader(io.StringIO((built_site.public / entry["csv"].lstrip("/")).read_text(encoding="utf-8"))))


def _svg(built_site, entry) -> ET.Element:
    return ET.fromstring((built_site.public / entry["svg"].lstrip("/")).read_bytes())


def _forest_on_the_page(built_site, slug) -> dict:
    """The first contrast the facet page hands its forest's script (its first figure's data-forest)."""
    text = (built_site.public / slug / "index.html").read_text(encoding="utf-8")
    return json.loads(html.unescape(re.search(r'data-forest="([^"]*)"', text).group(1)))["contrast"]


def test_every_facet_s_plot_has_an_embed_page_an_svg_of_its_rows_and_their_csv(built_site, evidence, plots):
    assert set(plots) == {slug for slug, e in evidence.items() if e["synthesis"]["contrasts"]}
    assert {"doublewrite", "raid-level", "protocol", "array-state"} <= set(plots)
    assert "filesystem" not in plots  # no pair in the six studies: no contrast, no embed
    for slug, entry in plots.items():
        assert entry["id"] == f"evidence-{slug}" and entry["page"] == f"/embed/evidence-{slug}/"
        assert entry["full_page"] == f"/{slug}/" and evidence[slug]["embed"] == entry
        assert (built_site.public / "embed" / f"evidence-{slug}" / "index.html").is_file()
        data = (built_site.public / entry["csv"].lstrip("/")).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        rows = _csv(built_site, entry)
        svg = _svg(built_site, entry)
        assert svg.find(f"{SVG_NS}title").text == entry["title"] == f"Evidence: {evidence[slug]['question']}"
        # one point (its tip's) a row drawn, the leave-one-out rows too: the image, the CSV, the index and the
        # facet page's own forest agree
        groups = evidence[slug]["synthesis"]["contrasts"][0]["groups"]
        assert len(rows) == entry["rows"] == sum(len(g["studies"]) + (g["pooled"] is not None) for g in groups)
        assert len(svg.findall(f".//{SVG_NS}circle")) == len(rows) + sum(len(g["without"]) for g in groups if g["pooled"])
        number = lambda text: float(text) if text else None  # noqa: E731
        assert [(s["study"], s["ratio"], s["low"], s["high"]) for g in _forest_on_the_page(built_site, slug)["groups"]
                for s in g["studies"]] == [(r["study"], float(r["ratio"]), number(r["low"]), number(r["high"]))
                                           for r in rows if r["row"] == "study"]


def test_the_doublewrite_csv_holds_the_forest_s_studies(built_site, plots):
    rows = _csv(built_site, plots["doublewrite"])
    text = (built_site.public / plots["doublewrite"]["csv"].lstrip("/")).read_text(encoding="utf-8")
    assert text.splitlines()[0] == ("contrast,group,row,study,title,year,source_kind,grade,pairs,loads,ratio,low,high,"
                                    "min,max,weight,imputed,flipped,pi_low,pi_high,i2,tau2,k,method") == ",".join(FOREST_COLUMNS)
    # two studies, not pooled. The 60 s study's effect is the median of its six ratios of runs that fail a
    # rule (tests/test_evidence_pages.py: 1.2202, 1.2435, 1.7509 and 1.2134, 1.3371, 1.3376), (1.2435 +
    # 1.3371) / 2 = 1.2903; the 300 s study's its one ratio of passing runs, FIRST's 1.0151
    assert [(r["row"], r["study"], r["ratio"], r["min"], r["max"], r["loads"], r["grade"], r["weight"], r["imputed"])
            for r in rows] == [
        ("study", "measured-mariadb-2core-vm", "1.2903", "1.2134", "1.7509", "6", "failing-runs", "", "false"),
        ("study", FIRST["study"], FIRST["median"], FIRST["low"], FIRST["high"], "1", FIRST["grade"], "", "true")]
    assert rows[1]["title"] == FIRST["title"] and (rows[1]["year"], rows[1]["source_kind"]) == (FIRST["year"], FIRST["source_kind"])


def test_on_array_state_each_system_is_over_itself_in_optimal_state(built_site, plots, evidence):
    rows = _csv(built_site, plots["array-state"])
    assert rows and all(r["contrast"] == "rebuilding-vs-optimal" for r in rows)
    first = evidence["array-state"]["synthesis"]["contrasts"][0]
    assert (first["other"], first["reference"]) == ("rebuilding", "optimal")


def test_the_image_carries_the_question_answer_grades_in_words_and_sources(built_site, plots, evidence):
    svg = _svg(built_site, plots["doublewrite"])
    words = " ".join(t.text for t in svg.iter(f"{SVG_NS}text") if t.text)  # the frame's wrapped lines
    assert "Evidence: What does turning InnoDB doublewrite off change?" in words
    assert evidence["doublewrite"]["synthesis"]["contrasts"][0]["sentence"] in words
    assert ("⊕⊕⊕⊕ measured, no run-quality rule fails: measured runs whose logs pass the run-quality rules" in words
            and "⊕◯◯◯ a run fails a run-quality rule: measured runs of which" in words)
    assert "Sources: benchdb 2026a (measured here); benchdb 2026b (measured here)" in words
    assert "□ A hollow square, all of one size: a study not pooled (its size says nothing)." in words  # its key
    assert "/embed/evidence-doublewrite/ · the question: /doublewrite/ · data SHA-256" in words
    assert "⊕⊕⊕◯" not in words  # no row of that grade: its words are not given


def test_the_embed_page_shows_the_image_without_a_script_and_links_back(built_site, plots, evidence):
    entry = plots["doublewrite"]
    text = (built_site.public / "embed" / "evidence-doublewrite" / "index.html").read_text(encoding="utf-8")
    flat = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", text)))
    assert f'<img src="/embed/evidence-doublewrite.svg" alt="{html.escape(entry["title"])} ' in text
    assert ('<link rel="alternate" type="application/json+oembed" href="/embed/evidence-doublewrite/oembed.json"'
            in text)
    assert '<a href="/doublewrite/" target="_top">What does turning InnoDB doublewrite off change?</a>' in text
    assert '<a href="/" target="_top">benchdb</a>' in text and '<a href="/embed/evidence-doublewrite.csv">' in text
    assert "⊕⊕⊕⊕ measured, no run-quality rule fails: measured runs whose logs pass the run-quality rules" in flat
    assert f"Sources: {'; '.join(entry['sources'])}." in flat
    assert ('cite as <code>benchdb-evidence-doublewrite</code> in <a href="/embed/evidence-doublewrite.bib">BibTeX</a>'
            in text)
    bib = (built_site.public / "embed" / "evidence-doublewrite.bib").read_text(encoding="utf-8")
    assert bib.startswith("@misc{benchdb-evidence-doublewrite,\n  title = {Evidence: What does turning InnoDB "
                          "doublewrite off change?},\n")
    assert f"Data SHA-256 {entry['sha256']}. The evidence of the facet page /doublewrite/; values from: benchdb" in bib
    assert entry["sources"] == ["benchdb 2026a (measured here)", "benchdb 2026b (measured here)"]


def test_the_oembed_answer(built_site, plots):
    entry = plots["doublewrite"]
    answer = json.loads((built_site.public / "embed" / "evidence-doublewrite" / "oembed.json").read_text(encoding="utf-8"))
    title = "Evidence: What does turning InnoDB doublewrite off change?"
    assert answer == {
        "version": "1.0", "type": "rich", "title": title, "width": 800, "height": 480,
        "html": f'<iframe src="/embed/evidence-doublewrite/" width="800" height="480" title="{title}"></iframe>',
        "provider_name": "benchdb", "provider_url": "/", "data_sha256": entry["sha256"],
        "data_csv": "/embed/evidence-doublewrite.csv"}


def test_the_facet_page_offers_the_snippet_csv_and_query_under_the_plot(built_site, plots):
    entry = plots["doublewrite"]
    text = (built_site.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    box = text[text.index('<details class="cite"'):text.index("</details>", text.index('<details class="cite"'))]
    assert text.index("data-forest=") < text.index('class="evidence-table forest-table"') \
        < text.index('<details class="cite"') < text.index('class="evidence-table"')
    assert "<summary>Cite / embed this forest plot</summary>" in box
    assert f'<a href="{entry["csv"]}">CSV</a>' in box and f'<a href="{entry["svg"]}">SVG</a>' in box
    snippet = html.unescape(re.search(r'<input type="text" readonly size="60" value="([^"]*)"', box).group(1))
    answer = json.loads((built_site.public / "embed" / "evidence-doublewrite" / "oembed.json").read_text(encoding="utf-8"))
    assert snippet == answer["html"]
    # the query in the link is encoded once (a /sql/?q= link encoded twice opened the default query)
    href = html.unescape(re.search(r'<a href="(/sql/\?q=[^"]*)"', box).group(1))
    assert urllib.parse.parse_qs(urllib.parse.urlparse(href).query) == {"q": [entry["sql"]]}


def test_the_query_gives_the_evidence_rows_behind_the_forest_in_the_browser(page, site_url, built_site, plots):
    entry = plots["doublewrite"]
    text = (built_site.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    href = html.unescape(re.search(r'<a href="(/sql/\?q=[^"]*)"', text).group(1))
    page.goto(site_url + href)
    page.wait_for_selector("#sql-result:not([hidden]), #sql-error:not([hidden])", timeout=60_000)
    assert page.is_hidden("#sql-error"), page.inner_text("#sql-error")
    heads = page.eval_on_selector_all("#sql-table thead th", "cells => cells.map((c) => c.textContent)")
    shown = page.eval_on_selector_all("#sql-table tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))")
    assert heads == COLUMNS
    # /sql/ holds no synthesis: the query gives the ratios of the forest's metric its studies' effects are
    # taken from (tests/test_evidence_pages.py's four: the 300 s study's two, then the 5 s runs' medians)
    assert [(row[0], row[6], row[9]) for row in shown] == [
        (FIRST["study"], "1.0151", "measured-passing"), (FIRST["study"], "0.8812", "failing-runs"),
        ("measured-mariadb-2core-vm", "1.2435", "failing-runs"), ("measured-mariadb-2core-vm", "1.3371", "failing-runs")]
    assert shown[0] == [FIRST[c] or "NULL" for c in COLUMNS]
    assert page.errors == []
