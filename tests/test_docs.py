"""The front door and the documentation (issue #50): a README that is an entrance, and docs/, readable on
GitHub and published by the same build as the site's /docs/, its links resolved to pages."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT, copy_project
from ingest.build.site import build_site
from ingest.bundles.problems import BuildError

DOCS = ROOT / "docs"
PAGES = sorted(p.stem for p in DOCS.glob("*.md") if p.name != "_index.md")


def test_the_readme_is_an_entrance():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 150
    assert "make site" in "\n".join(lines[:20]) and "make test" in "\n".join(lines[:20])
    # every page of docs/ is linked from it, and every file it links exists
    linked = re.findall(r"\]\(([^)#]+)\)", text)
    assert {f"docs/{page}.md" for page in PAGES} <= set(linked)
    assert [path for path in linked if not path.startswith("http") and not (ROOT / path).exists()] == []


def test_every_docs_page_is_published_with_its_links_resolved(built_site):
    published = built_site.public / "docs"
    assert sorted(p.parent.name for p in published.glob("*/index.html")) == PAGES
    for page in ["index.html", *(f"{name}/index.html" for name in PAGES)]:
        html = (published / page).read_text(encoding="utf-8")
        hrefs = re.findall(r'href="([^"]+)"', html)
        assert [h for h in hrefs if h.endswith(".md") or ".md#" in h] == [], page  # a link left unresolved
        for href in hrefs:
            if href.startswith("/") and not href.startswith("//"):
                target = built_site.public / href.split("#")[0].lstrip("/")
                assert target.is_file() or (target / "index.html").is_file(), (page, href)


def test_each_page_has_a_title_and_the_index_lists_them_by_weight(built_site):
    weights = {}
    for name in PAGES:
        head = (DOCS / f"{name}.md").read_text(encoding="utf-8").split("---")[1]
        assert re.search(r"^title: .+$", head, re.M), name
        weights[name] = int(re.search(r"^weight: (\d+)$", head, re.M).group(1))
    index = (built_site.public / "docs" / "index.html").read_text(encoding="utf-8")
    listed = re.findall(r'<ul class="docs-pages">(.*?)</ul>', index, re.S)[0]
    assert re.findall(r'href="/docs/([^/]+)/"', listed) == sorted(PAGES, key=lambda n: (weights[n], n))


@pytest.mark.parametrize("claim", ["url: /claims/", "aliases: [/claims/]", "type: claims"])
def test_a_docs_page_that_says_where_it_is_published_stops_the_build(tmp_path, claim):
    """`url: /claims/` in a docs page's front matter silently replaced the site's /claims/ (issue #61)."""
    layout = copy_project(tmp_path / "project", studies=("scaleflux-csd2000-mysql-2020",))
    (layout.root / "docs" / "hostile.md").write_text(f"---\ntitle: Hostile\n{claim}\n---\nA page.\n", encoding="utf-8")
    with pytest.raises(BuildError) as caught:
        build_site(layout)
    key = claim.split(":")[0]
    assert (f'docs/hostile.md: its front matter gives "{key}", which says where or how the page is published: a docs '
            f'page is published at /docs/ as its file name says (take "{key}" out)') in str(caught.value)


def test_a_content_adapter_in_docs_is_not_read(tmp_path):
    """A docs/_content.gotmpl ran template code at build time (readFile) and added a page at /claims/ in the
    place of the site's (issue #61's second pass): the docs mount takes Markdown only."""
    layout = copy_project(tmp_path / "project", studies=("scaleflux-csd2000-mysql-2020",))
    (layout.root / "docs" / "_content.gotmpl").write_text(
        '{{ $.AddPage (dict "path" "evil" "title" "Evil" "kind" "page" "url" "/claims/" '
        '"content" (dict "mediaType" "text/markdown" "value" "FAKE")) }}', encoding="utf-8")
    build_site(layout)
    claims = (layout.public / "claims" / "index.html").read_text(encoding="utf-8")
    assert "FAKE" not in claims and "Evil" not in claims
    assert not list(layout.public.rglob("evil"))
