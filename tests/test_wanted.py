"""Evidence wanted (issue #63): a facet that rests on fewer studies than a pooled answer takes (three,
schema/synthesis.yaml) says what is missing and the command that measures it (ingest/publish/wanted.py)."""

from __future__ import annotations

import html as html_module

from ingest.bundles.fields import facet_pages
from ingest.publish.wanted import wanted

PAGES = {f.page.slug: f.page for f in facet_pages()}


def _contrast(other: str, studies: int) -> dict:
    return {"other": other, "studies": studies}


def test_a_thin_facet_says_what_is_missing_and_a_full_one_nothing():
    said = wanted(PAGES["protocol"], answer={"studies": 1}, synthesis=None)
    assert said == {"sentence": "One study varies only the protocol the same storage is reached by, where a pooled "
                                "answer takes three studies.",
                    "command": "benchdb capture --plan protocol --local DEV --nfs HOST:/EXPORT --dry-run",
                    "studies": 1, "groups": []}
    assert wanted(PAGES["protocol"], answer={"studies": 3}, synthesis=None) is None


def test_a_subgroup_short_of_studies_is_wanted_though_the_facet_is_not():
    page = PAGES["array-state"]
    full = {"contrasts": [_contrast("degraded", 3), _contrast("rebuilding", 4)]}
    assert wanted(page, answer={"studies": 4}, synthesis=full) is None
    said = wanted(page, answer={"studies": 4}, synthesis={"contrasts": [_contrast("rebuilding", 4)]})
    assert said["sentence"] == ("Four studies vary an array's state against its own optimal state (degraded: no "
                                "studies; rebuilding: four studies), where a pooled answer takes three studies.")
    assert said["groups"] == [{"name": "degraded", "studies": 0}, {"name": "rebuilding", "studies": 4}]


def test_the_array_state_page_and_the_facets_index_show_it(built_site):
    """The six studies' one study of array state (Graid's) measures rebuilding, never degraded."""
    page = html_module.unescape((built_site.public / "array-state" / "index.html").read_text(encoding="utf-8"))
    assert ("<strong>Evidence wanted.</strong> One study varies an array's state against its own optimal state "
            "(degraded: no studies; rebuilding: one study), where a pooled answer takes three studies.") in page
    assert ("<pre><code>benchdb capture --plan array-state --level 10 --device DEV --device DEV --device DEV --device "
            "DEV --dry-run</code></pre>") in page
    index = html_module.unescape((built_site.public / "facets" / "index.html").read_text(encoding="utf-8"))
    assert '<a href="/array-state/">Array state</a>: One study varies an array' in index
