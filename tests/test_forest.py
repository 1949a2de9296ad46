"""A facet's synthesis as its forest (issue #59) on the facet page, the home page and the evidence embed:
the site of the first six studies built with doublewrite's synthesis replaced by the hand-made one of
tests/fixtures/forest/synthesis.json (made-up studies A to F, their values read by hand below), its
HTML without a script, its embed's CSV, and the drawing in Chromium at 1280 and 375 px."""

from __future__ import annotations

import csv
import html
import io
import json
import re

import pytest

import ingest.publish as publish
from conftest import FIXTURES, copy_project, read_by_keys, serve_folder
from ingest.build.site import build_site

SYNTHESIS = json.loads((FIXTURES / "forest" / "synthesis.json").read_text(encoding="utf-8"))
PAIR = "doublewrite off over doublewrite on"
GRADE_1, GRADE_2 = "⊕⊕⊕⊕ measured, no run-quality rule fails", "⊕⊕⊕◯ figures the source prints"
# the first contrast's rows, as synthesis.json holds them, two places and a percentage
STUDIES = [
    ["Study A 2018, independent", PAIR, "1.27×", "1.21× to 1.33×", "1.22× to 1.34×", "6", "40%", GRADE_1],
    ["Study B 2021, vendor", f"{PAIR} (the study's pair the other way round: 1 / its ratio)", "1.05×", "0.97× to 1.14×",
     "0.96× to 1.16×", "8", "30%", GRADE_2],
    ["Study C 2024, measured here", PAIR, "0.99×", "0.93× to 1.06×", "0.95× to 1.03×", "4", "20%", GRADE_1],
    ["Study D 2010, vendor", PAIR, "1.20×", "1.02× to 1.41× (variance borrowed)", "1.20× to 1.20×", "1", "10%", GRADE_2],
    ["Pooled, 4 studies (DerSimonian-Laird)", PAIR, "1.12×", "1.01× to 1.24×",
     "prediction interval 0.96× to 1.38×; I² 64%; tau² 0.0123"],
]
WITHOUT = [["Without Study A 2018", PAIR, "1.06×", "0.98× to 1.15×", ""],
           ["Without Study B 2021", PAIR, "1.15×", "1.02× to 1.30×", ""]]


@pytest.fixture(scope="module")
def forest_site(tmp_path_factory):
    """The site built with doublewrite's synthesis the hand-made one (the export's evidence_data wrapped:
    the test's path in, as the synthesis of ingest/synthesis/ would put it there)."""
    made = publish.evidence_data

    def with_synthesis(facets):
        evidence = made(facets)
        evidence["doublewrite"]["synthesis"] = SYNTHESIS
        return evidence

    layout = copy_project(tmp_path_factory.mktemp("forest") / "project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(publish, "evidence_data", with_synthesis)
        build_site(layout)
    return layout


@pytest.fixture(scope="module")
def forest_url(forest_site):
    server = serve_folder(forest_site.public)
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def _tables(text: str) -> list[list[list[str]]]:
    """Each forest table of a page (its body's rows), each row its cells' text."""
    tables = re.findall(r'<details class="evidence-table forest-table" open>(.*?)</details>', text, re.S)
    return [[[re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", cell))).strip()
              for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
             for body in re.findall(r"<tbody>(.*?)</tbody>", table, re.S) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]
            for table in tables]


def test_the_facet_page_s_tables_hold_the_forests_rows_without_a_script(forest_site):
    text = (forest_site.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="forest-off-vs-on">doublewrite off over doublewrite on: Transactions per second</h2>' in text
    assert '<summary>RAID 5 over RAID 10: Transactions per second</summary>' in text  # the other contrast, folded
    first, second = _tables(text)
    assert first == STUDIES + WITHOUT
    assert second == [["Optimal"],
                      ["Study E 2023, vendor", "RAID 5 over RAID 10", "0.81×", "0.74× to 0.89×", "0.76× to 0.88×", "5",
                       "not pooled", GRADE_2],
                      ["Not pooled: 1 study"], ["Rebuilding"],
                      ["Study F 2015, independent", "RAID 5 over RAID 10", "0.62×", "no interval", "0.62× to 0.62×", "1",
                       "not pooled", "⊕⊕◯◯ derived or approximate figures"],
                      ["Not pooled: 1 study"]]
    # the table of every pair stays, after the forests
    assert text.index('class="evidence-forest"') < text.index("Every pair, every metric")


def test_the_home_page_draws_the_first_contrast_without_the_leave_one_out_lines(forest_site):
    text = (forest_site.public / "index.html").read_text(encoding="utf-8")
    text = text[text.index('<a href="/doublewrite/">'):]
    text = text[:text.index("</li>")]  # doublewrite's answer (the others draw their own synthesis)
    figures = re.findall(r'<figure class="evidence-plot forest-plot" data-forest="([^"]*)" data-without="(\w+)"', text)
    assert len(figures) == 1 and figures[0][1] == "false"
    assert json.loads(html.unescape(figures[0][0]))["contrast"]["id"] == "off-vs-on"
    assert _tables(text) == [STUDIES]


def test_the_embed_s_csv_holds_a_row_a_study_and_the_pooled_row(forest_site):
    entry = next(c for c in json.loads((forest_site.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
                 if c["id"] == "evidence-doublewrite")
    rows = list(csv.DictReader(io.StringIO((forest_site.public / entry["csv"].lstrip("/")).read_text(encoding="utf-8"))))
    assert entry["rows"] == len(rows) == 5
    assert [(r["row"], r["study"], r["ratio"], r["low"], r["high"], r["weight"], r["grade"]) for r in rows] == [
        ("study", "study-a", "1.27", "1.21", "1.33", "0.4", "measured-passing"),
        ("study", "study-b", "1.05", "0.97", "1.14", "0.3", "printed-exact"),
        ("study", "study-c", "0.99", "0.93", "1.06", "0.2", "measured-passing"),
        ("study", "study-d", "1.2", "1.02", "1.41", "0.1", "printed-exact"),
        ("pooled", "", "1.12", "1.01", "1.24", "", "")]
    assert (rows[-1]["pi_low"], rows[-1]["pi_high"], rows[-1]["i2"], rows[-1]["tau2"], rows[-1]["k"], rows[-1]["method"]) \
        == ("0.96", "1.38", "0.64", "0.0123", "4", "DerSimonian-Laird")
    assert (rows[1]["flipped"], rows[3]["imputed"]) == ("true", "true")
    assert entry["alt"] == ("Transactions per second, doublewrite off over doublewrite on: 4 studies, effects 0.99× to "
                            "1.27×, pooled 1.12× (1.01× to 1.24×), prediction interval 0.96× to 1.38×.")
    svg = (forest_site.public / entry["svg"].lstrip("/")).read_text(encoding="utf-8")
    assert svg.count('aria-label="area"') == 1 and ">Without Study A 2018</text>" in svg  # the page's forest
    page = (forest_site.public / "embed" / "evidence-doublewrite" / "index.html").read_text(encoding="utf-8")
    assert "Turning the made-up switch off: about 12% more" in page  # the contrast's sentence in its alt


@pytest.mark.parametrize("width,height", [(1280, 900), (375, 812)])
def test_the_forest_is_drawn_with_its_diamond_weighted_squares_and_band(browser, forest_url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    try:
        page.goto(f"{forest_url}/doublewrite/")
        first = "section.forest-contrast figure.forest-plot"
        page.wait_for_selector(f"{first}[data-drawn='evidence'] svg")
        svg = page.locator(f"{first} svg")
        assert svg.locator('g[aria-label="area"] path').count() == 1  # the diamond
        assert svg.locator('g[aria-label="rect"] rect').count() == 1  # the band
        squares = svg.locator('g[aria-label="dot"]:not(.forest-hollow) path').evaluate_all(
            "paths => paths.map((p) => p.getBBox().width).filter((w) => w > 0)")
        sides = sorted({round(w, 1) for w in squares[:4]})
        assert len(sides) == 4, squares  # four weights, four sizes: 0.1 to 0.4, sides 6.2 to 12.3 px
        assert sides == [6.2, 8.7, 10.7, 12.3]
        assert page.locator(f"{first} .forest-key li").count() == 5
        table = page.locator("section.forest-contrast details.forest-table")
        assert table.get_attribute("open") is None and table.locator("tbody tr").count() == 7  # drawn: folded
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        box = svg.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        tips = read_by_keys(page, "section.forest-contrast .chart-canvas")
        assert len(tips) == 7 and tips[0].startswith("Study A 2018: Study A: a made-up study")
        assert tips[4].startswith("Pooled, 4 studies (DerSimonian-Laird): 1.12× (1.01 to 1.24)")
        assert tips[6] == "Without Study B 2021: 1.15× (1.02 to 1.30)"
        # the other contrast, folded, is drawn when opened: hollow squares of one size, no diamond
        page.locator("details.forest-contrast > summary").click()
        other = page.locator("details.forest-contrast figure.forest-plot[data-drawn='evidence'] svg")
        other.wait_for()
        assert other.locator('g[aria-label="area"]').count() == 0
        assert other.locator("g.forest-hollow path").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto(f"{forest_url}/")
        home = 'li:has(a[href="/doublewrite/"]) figure.forest-plot'
        page.wait_for_selector(f"{home}[data-drawn='evidence'] svg")
        assert len(read_by_keys(page, f"{home} .chart-canvas")) == 5  # four studies, the pooled row
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert errors == []
    finally:
        context.close()
