"""Embed snippets and standalone SVGs are safe to paste into another site, whatever a bundle's titles hold.

Every bundle of the site gets a hostile study title, table titles and system labels; the site is built
from them, every iframe snippet it offers (study, facet, Explore and Compare pages, with a hostile query
too) is pasted into a page of its own, and so is every standalone SVG. None may fire a dialog or carry a
live event-handler attribute, and each must still say its title as text.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
import yaml

from conftest import copy_project, deployed_at_its_address

PAYLOAD = ("""'" onload="alert(1)"></iframe><img src=x onerror=alert(2)><svg onload=alert(3)>&amp; """
           """</script><script>alert(5)</script>\u2028 =HYPERLINK("http://example.com","x") """)
BUNDLES = ["graid-supremeraid-mysql-2023", "measured-mariadb-2core-vm", "netapp-tr3693-mysql-2010"]


def _poison(path) -> None:
    bundle = yaml.safe_load(path.read_text(encoding="utf-8"))
    bundle["title"] = PAYLOAD + bundle["title"]
    bundle.pop("anchors", None)  # its aliases are already resolved in the loaded data
    for result in bundle["results"]:
        if "title" in result:
            result["title"] = PAYLOAD + result["title"]
    for system in bundle["systems"]:
        system["label"] = PAYLOAD + system["label"]
    path.write_text(yaml.safe_dump(bundle, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    layout = copy_project(tmp_path_factory.mktemp("hostile"))
    for folder in layout.data.iterdir():
        if folder.name in BUNDLES:
            _poison(folder / "bundle.yaml")
        else:
            shutil.rmtree(folder)
    with deployed_at_its_address(layout) as base:
        yield layout, base


def _paste(page, markup: str) -> dict:
    """Put ``markup`` into a plain page of its own (no CSP); count dialogs and live on* attributes."""
    dialogs = []
    page.goto("about:blank")

    def dialog(d) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.set_content(f"<!doctype html><html><body>{markup}</body></html>")
    page.wait_for_timeout(50)
    page.remove_listener("dialog", dialog)
    handlers = page.evaluate("""() => [...document.querySelectorAll('*')]
        .flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`))""")
    return {"dialogs": dialogs, "handlers": handlers}


def _snippets(page, url: str) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page.eval_on_selector_all("details.cite input[readonly]", "els => els.map((e) => e.value)")


def test_every_snippet_pastes_as_an_iframe_and_nothing_else(hostile_site, page):
    layout, base = hostile_site
    paths = ["/compare/", "/compare/?series=%22%3E%3Cimg%20src=x%20onerror=alert(3)%3E",
             "/explore/", "/explore/?study=%22%3E%3Cimg%20src=x%20onerror=alert(4)%3E&metric=tps"]
    paths += [f"/studies/{name}/" for name in BUNDLES]
    paths += [f"/{facet}/" for facet in ("raid-level", "protocol", "doublewrite", "compression", "array-state")]
    offered = {path: _snippets(page, base + path) for path in paths}
    assert {path for path, snippets in offered.items() if snippets} >= {
        "/studies/graid-supremeraid-mysql-2023/", "/studies/measured-mariadb-2core-vm/", "/raid-level/",
        "/doublewrite/", "/explore/", "/compare/"}
    for path, snippets in offered.items():
        for snippet in snippets:
            result = _paste(page, snippet)
            assert result == {"dialogs": [], "handlers": []}, (path, snippet)
            assert page.eval_on_selector_all("body > *", "els => els.map((e) => e.tagName)") == ["IFRAME"], snippet
            title = page.get_attribute("iframe", "title")
            src = page.get_attribute("iframe", "src")
            # a view's title, or a facet's evidence plot's (its question: the site's words), has no study's
            evidence = src.startswith(base + "/embed/evidence-")
            assert path.startswith(("/explore", "/compare")) or PAYLOAD in title or evidence, (path, title)
            assert src.startswith(base + "/embed/")
            if "onerror" in path:  # the view's query is carried into the snippet, as text
                assert src.startswith(base + "/embed/explore/?study=") or src == base + "/embed/compare/", src


def test_citation_links_carry_the_deployment_s_address(hostile_site, page):
    """Built with Netlify's URL, the cite boxes' links (images, CSV, embed pages) are absolute, like the snippets."""
    _, base = hostile_site
    for path in ("/studies/graid-supremeraid-mysql-2023/", "/explore/", "/compare/"):
        page.goto(base + path)
        hrefs = page.eval_on_selector_all("details.cite a[href]", "els => els.map((a) => a.getAttribute('href'))")
        assert hrefs and all(h.startswith(base + "/") for h in hrefs), (path, hrefs)


def test_the_deploy_preview_s_address_wins_over_the_site_s(monkeypatch):
    from ingest.build.site import site_url

    monkeypatch.setenv("URL", "https://benchdb.example")
    monkeypatch.delenv("DEPLOY_PRIME_URL", raising=False)
    assert site_url() == "https://benchdb.example"
    monkeypatch.setenv("DEPLOY_PRIME_URL", "https://deploy-preview-7--benchdb.example")
    assert site_url() == "https://deploy-preview-7--benchdb.example"


def test_every_standalone_svg_pastes_inline_without_live_markup(hostile_site, page):
    layout, _ = hostile_site
    charts = json.loads((layout.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    assert len(charts) > 10
    for chart in charts:
        svg = (layout.public / chart["svg"].lstrip("/")).read_text(encoding="utf-8")
        result = _paste(page, re.sub(r"^<\?xml[^>]*\?>", "", svg))
        assert result == {"dialogs": [], "handlers": []}, chart["id"]
        assert page.text_content("svg > title") == chart["title"]
        assert PAYLOAD in chart["title"] or chart["kind"] == "evidence"  # a facet's question: the site's words


def test_search_results_show_hostile_titles_as_text(hostile_site, page):
    """The search page rebuilds each excerpt as text and <mark>s: a title holding markup is found, and shown
    as the text it is."""
    _, base = hostile_site
    page.goto(f"{base}/search/?q=onerror")
    page.locator("#search-status").filter(has_text="hold").wait_for()
    results = page.locator("#search-results")
    assert results.locator("> li").count() >= 3  # the three poisoned studies at least
    assert results.locator("img, script, svg, iframe").count() == 0
    assert page.evaluate("""() => [...document.querySelectorAll('#search-results *')]
        .flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name))""") == []
    assert "<img src=x onerror=alert(2)>" in results.inner_text()
    assert page.errors == []


def test_every_oembed_answer_s_html_pastes_as_an_iframe_and_nothing_else(hostile_site, page):
    """What an oEmbed consumer inserts into its page (the answer's html) is the same safe snippet."""
    layout, base = hostile_site
    charts = json.loads((layout.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    for chart in charts:
        answer = json.loads((layout.public / "embed" / chart["id"] / "oembed.json").read_text(encoding="utf-8"))
        assert answer["title"] == chart["title"] and (PAYLOAD in answer["title"] or chart["kind"] == "evidence")
        result = _paste(page, answer["html"])
        assert result == {"dialogs": [], "handlers": []}, chart["id"]
        assert page.eval_on_selector_all("body > *", "els => els.map((e) => e.tagName)") == ["IFRAME"]
        assert page.get_attribute("iframe", "title") == chart["title"]
        assert page.get_attribute("iframe", "src") == f"{base}/embed/{chart['id']}/"
