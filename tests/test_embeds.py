"""Chart embeds: standalone SVG rendered at build time (a PNG of it made in the reader's browser), CSV of exactly
the data drawn, index.json."""

from __future__ import annotations

import csv
import hashlib
import http.server
import json
import struct
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import duckdb
import pytest

from ingest.publish.facets import read_facets

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def index(built_site):
    return json.loads((built_site.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]


def test_index_lists_every_chart_with_its_urls_and_hash(index, built_site):
    ids = [c["id"] for c in index]
    assert "graid-supremeraid-mysql-2023--tps-by-users--optimal" in ids
    assert "graid-supremeraid-mysql-2023--tps-by-users--rebuilding" in ids
    for chart in index:
        data = (built_site.public / chart["csv"].lstrip("/")).read_bytes()
        assert chart["sha256"] == hashlib.sha256(data).hexdigest()
        assert (built_site.public / chart["page"].lstrip("/") / "index.html").is_file()
        assert chart["title"]


def test_every_svg_is_valid_standalone_svg(index, built_site):
    for chart in index:
        path = built_site.public / chart["svg"].lstrip("/")
        text = path.read_text(encoding="utf-8")
        assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
        root = ET.fromstring(text.encode("utf-8"))
        assert root.tag == f"{SVG_NS}svg"
        assert root.find(f"{SVG_NS}title").text == chart["title"]
        if chart["kind"] == "by-x":  # one dot per value drawn
            assert len(root.findall(f".//{SVG_NS}circle")) == chart["rows"]
    assert not list((built_site.public / "embed").glob("*.png"))  # PNGs are made by the reader's browser


def test_facet_chart_csvs_match_the_facet_comparison(index, built_site):
    facets = read_facets(built_site.export / "data")
    charts = {g["chart"]["embed_prefix"]: g["chart"] for f in facets.values() for s in f["studies"]
              for g in s["groups"] if g["chart"]}
    facet_embeds = [c for c in index if c["id"].startswith("facet-")]
    assert facet_embeds and {c["id"] for c in facet_embeds} == set(charts)
    for chart in facet_embeds:
        with open(built_site.public / chart["csv"].lstrip("/"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert [(r["series"], int(r["x"]), float(r["value"])) for r in rows] == [
            (p["series"], p["x"], p["y"]) for p in charts[chart["id"]]["points"]]


def test_every_csv_matches_the_database(index, built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    # the published bundles trace no rebuild yet; a facet's evidence plot's CSV: test_evidence_embed.py
    assert {c["kind"] for c in index} == {"by-x", "runs", "evidence"}
    for chart in [c for c in index if c["kind"] == "runs"]:
        with open(built_site.public / chart["csv"].lstrip("/"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == chart["rows"] > 0
        for row in rows:
            log, t_s = row["provenance"].split(", interval report at ")
            db = con.execute(f"SELECT i.{row['metric']} FROM intervals AS i JOIN runs AS r USING (study, artifact) "
                             "WHERE i.study = ? AND r.log = ? AND i.t_s = ?",
                             [chart["study"], log, int(t_s.removesuffix(" s"))]).fetchall()
            assert db == [(float(row["value"]),)]
            assert row["t_s"] == t_s.removesuffix(" s")
    for chart in [c for c in index if c["kind"] == "by-x" and not c["id"].startswith("facet-")]:
        with open(built_site.public / chart["csv"].lstrip("/"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == chart["rows"]
        metric = chart["id"].split("--")[1]
        metric = {"tps-by-users": "tps", "tps-by-threads": "tps", "p95-by-threads": "latency_p95_ms"}[metric]
        for row in rows:
            db = con.execute("SELECT value_text, value, provenance FROM results WHERE study = ? AND system_label = ? "
                             "AND threads = ? AND coalesce(state, '') = ? AND metric = ?",
                             [chart["study"], row["series"], int(row["x"]), row["state"], metric]).fetchall()
            if len(db) == 1:  # a printed value, as it stands
                assert db == [(row["value_text"], float(row["value"]), row["provenance"])]
            else:  # repeated measured runs: their mean, lowest and highest
                values = [v for _, v, _ in db]
                assert float(row["value"]) == pytest.approx(sum(values) / len(values))
                assert (float(row["low"]), float(row["high"])) == (min(values), max(values))


def test_embed_page_renders_inside_an_iframe_from_another_port(page, site_url, index):
    chart = index[0]
    host_html = (f'<!doctype html><title>report</title><iframe id="f" src="{site_url}{chart["page"]}" '
                 f'width="800" height="480"></iframe>').encode()

    class Host(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(host_html)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Host)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/")
        frame = page.frame_locator("#f")
        img = frame.locator("figure.embed-figure img")
        img.wait_for()
        assert img.evaluate("i => i.complete && i.naturalWidth > 0")
        assert frame.get_by_role("link", name="Full page with provenance").get_attribute("target") == "_top"
        assert page.errors == []
    finally:
        server.shutdown()


def test_cite_box_on_the_study_page(page, site_url):
    page.goto(site_url + "/studies/graid-supremeraid-mysql-2023/")
    page.locator("details.cite summary").click()
    snippet = page.locator("details.cite input").first.input_value()
    assert snippet.startswith('<iframe src="') and "/embed/graid-supremeraid-mysql-2023--tps-by-users--optimal/" in snippet
    assert page.locator("details.cite a", has_text="CSV").count() == 2
    assert page.locator("details.cite button", has_text="PNG").count() == 2  # shown by the script


def test_png_button_saves_the_svg_drawn_at_twice_its_size(page, site_url, built_site):
    """The embed page's PNG button (hidden without JavaScript) saves the chart's SVG rasterised by the browser."""
    chart = "graid-supremeraid-mysql-2023--tps-by-users--optimal"
    html = (built_site.public / "embed" / chart / "index.html").read_text(encoding="utf-8")
    assert f'data-png="/embed/{chart}.svg" data-name="{chart}.png" hidden>PNG</button>' in html
    svg = ET.fromstring((built_site.public / "embed" / f"{chart}.svg").read_bytes())
    page.goto(f"{site_url}/embed/{chart}/")
    with page.expect_download() as download:
        page.get_by_role("button", name="PNG").click()
    assert download.value.suggested_filename == f"{chart}.png"
    png = Path(download.value.path()).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    assert (width, height) == (2 * int(svg.get("width")), 2 * int(svg.get("height")))
    assert page.errors == []


def test_a_system_keeps_its_colour_on_every_chart(built_site):
    """SupremeRAID RAID 6 is drawn in one colour on its study page, on every facet page and in the embeds."""
    export = built_site.export / "data"
    study = json.loads((export / "studies" / "graid-supremeraid-mysql-2023.json").read_text(encoding="utf-8"))
    facets = read_facets(export)
    charts = [c for c in study["charts"]] + [g["chart"] for f in facets.values() for s in f["studies"]
                                             if s["study"] == study["id"] for g in s["groups"] if g["chart"]]
    seen: dict[str, set] = {}
    for chart in charts:
        for series, colour in zip(chart["series"], chart["colours"], strict=True):
            seen.setdefault(series, set()).add(colour)
    assert seen["SupremeRAID RAID 6"] == {1}  # the second system of the bundle: the palette's second colour
    assert all(len(colours) == 1 for colours in seen.values())


def test_standalone_images_name_every_series_in_full_with_their_context(index, built_site):
    """No label is cut ("…uncompre…"): every series of a by-x embed is named in full in its legend, and
    the image itself says where its values come from, what kind they are, and its data's hash."""
    for chart in (c for c in index if c["kind"] == "by-x"):
        root = ET.fromstring((built_site.public / chart["svg"].lstrip("/")).read_bytes())
        words = " ".join(t.text or "" for t in root.findall(f"{SVG_NS}text"))  # the frame's own lines
        with open(built_site.public / chart["csv"].lstrip("/"), newline="", encoding="utf-8") as f:
            series = {row["series"] for row in csv.DictReader(f)}
        for name in series:
            assert " ".join(name.split()) in words, (chart["id"], name)
        assert "Source: " in words and "Values: " in words and chart["sha256"][:16] in words
        assert "…" not in words.replace(chart["sha256"][:16] + "…", "")
