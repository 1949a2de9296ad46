"""Embeds that travel: oEmbed discovery and answers read by a real consumer library, the iframe that
takes its content's height through postMessage, and the shields.io badge of each study."""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import threading

import pytest

from conftest import ROOT, copy_project, deployed_at_its_address

CHART = "graid-supremeraid-mysql-2023--tps-by-users--optimal"


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """The site built with its deployment's address (Netlify's URL), served at that address."""
    layout = copy_project(tmp_path_factory.mktemp("oembed"))
    with deployed_at_its_address(layout) as base:
        yield layout, base


def _consume(url: str) -> dict:
    done = subprocess.run(["node", str(ROOT / "tests" / "oembed_consume.mjs"), url], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_chart_s_embed_page_names_its_oembed_answer(deployed):
    layout, base = deployed
    charts = json.loads((layout.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    assert len(charts) > 10
    for chart in charts:
        html = (layout.public / "embed" / chart["id"] / "index.html").read_text(encoding="utf-8")
        link = f'<link rel="alternate" type="application/json+oembed" href="{base}/embed/{chart["id"]}/oembed.json"'
        assert link in html, chart["id"]
        answer = json.loads((layout.public / "embed" / chart["id"] / "oembed.json").read_text(encoding="utf-8"))
        assert answer["data_sha256"] == chart["sha256"]


def test_a_real_consumer_discovers_and_reads_a_chart_s_answer(deployed, page):
    layout, base = deployed
    answer = _consume(f"{base}/embed/{CHART}/")
    assert answer["method"] == "auto-discovery"  # found through the page's link, not a provider list
    assert {k: answer[k] for k in ("version", "type", "width", "height", "provider_name", "provider_url")} == {
        "version": "1.0", "type": "rich", "width": 800, "height": 480, "provider_name": "benchdb",
        "provider_url": base + "/"}
    assert answer["title"] == ("Transactions per second by concurrent users (optimal): SupremeRAID SR-1010 vs "
                               "Linux MD RAID: MySQL sysbench OLTP read/write")
    index = json.loads((layout.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    assert answer["data_sha256"] == next(c["sha256"] for c in index if c["id"] == CHART)
    # the html is the snippet the chart's "Cite / embed" box offers, to the character
    page.goto(f"{base}/studies/graid-supremeraid-mysql-2023/")
    offered = page.eval_on_selector_all("details.cite input[readonly]", "els => els.map((e) => e.value)")
    assert answer["html"] in offered
    assert answer["html"] == (f'<iframe src="{base}/embed/{CHART}/" width="800" height="480" '
                              f'title="{answer["title"]}"></iframe>')


class _Plain(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def test_the_iframe_takes_its_content_s_height_with_the_resize_script(deployed, page, tmp_path):
    layout, base = deployed
    answer = json.loads((layout.public / "embed" / CHART / "oembed.json").read_text(encoding="utf-8"))
    host = f'<!doctype html><html><body>{answer["html"]}<script src="{base}/embed/resize.js"></script></body></html>'
    # served from another origin than the site's, with none of its headers: the embedding page is someone else's
    (tmp_path / "host.html").write_text(host, encoding="utf-8")
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Plain, directory=str(tmp_path)))
    threading.Thread(target=other.serve_forever, daemon=True).start()
    page.goto(f"http://127.0.0.1:{other.server_port}/host.html")
    frame = page.frame_locator("iframe")
    frame.locator("figure.embed-figure img").wait_for()
    # as long as Playwright's default: on a loaded machine the frame's script comes slowly
    page.wait_for_function("document.querySelector('iframe').getAttribute('height') !== '480'", timeout=30_000)
    content = next(f for f in page.frames if f.url.startswith(base)).evaluate(
        "Math.ceil(document.documentElement.getBoundingClientRect().height)")
    assert int(page.get_attribute("iframe", "height")) == max(100, content)
    # a message from anywhere else is ignored
    page.evaluate("window.postMessage({benchdb: 'embed-height', height: 150}, '*')")
    page.wait_for_timeout(100)
    assert int(page.get_attribute("iframe", "height")) == max(100, content)
    other.shutdown()


def test_each_study_has_a_badge_shields_io_reads(deployed):
    layout, _ = deployed
    badges = layout.public / "badges"
    # the Graid ledger by hand (its bundle's claims:): 49 claims, 28 hold, 15 overstated, 1 understated,
    # 2 misstated, 3 unverifiable
    assert json.loads((badges / "graid-supremeraid-mysql-2023.json").read_text(encoding="utf-8")) == {
        "schemaVersion": 1, "label": "claims checked",
        "message": "49: 28 hold, 15 overstated, 1 understated, 2 misstated, 3 unverifiable", "color": "orange"}
    assert json.loads((badges / "netapp-tr3693-mysql-2010.json").read_text(encoding="utf-8"))["color"] == "blue"
    assert json.loads((badges / "measured-mariadb-2core-vm.json").read_text(encoding="utf-8")) == {
        "schemaVersion": 1, "label": "claims checked", "message": "none", "color": "lightgrey"}
    assert sorted(p.stem for p in badges.glob("*.json")) == sorted(p.name for p in layout.data.iterdir() if p.is_dir())
