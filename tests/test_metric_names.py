"""No metric's key reaches a page (issue #53): every metric the bundle format has a name in
schema/fields.yaml, and Explore writes the name in its filter, its table and its chart captions."""

from __future__ import annotations

import re
import typing

from ingest.bundles.fields import metric_label, registry
from schema.models import Metric


def test_every_metric_has_a_name():
    keys = typing.get_args(Metric)
    assert sorted(m.key for m in registry().metrics) == sorted(keys)
    assert metric_label("tps") == "Transactions per second"
    assert metric_label("rebuild_mb_s") == "Rebuild speed (MB/s)"


def test_explore_writes_names_in_its_filter_and_table(built_site):
    view = (built_site.public / "explore" / "index.html").read_text(encoding="utf-8")
    labels = re.findall(r'<input type="checkbox" name="metric" value="([^"]+)"> ([^<]+)</label>', view)
    assert labels and all(name == metric_label(key) for key, name in labels)
    assert ("tps", "Transactions per second") in labels
    rows = (built_site.public / "explore" / "rows" / "graid-supremeraid-mysql-2023" / "index.html").read_text(encoding="utf-8")
    cells = set(re.findall(r'<tr role="row"[^>]* data-metric-text="([^"]+)".*?<td role="cell">([^<]+)</td>', rows, re.S))
    # the unit once: after a name that does not give it, not after one that does
    assert {text for text, _ in cells} == {"Transactions per second (tx/s)", "Rebuild speed (MB/s)"}


def test_a_chart_s_axis_and_caption_name_the_metric(page, site_url):
    page.goto(site_url + "/explore/?study=graid-supremeraid-mysql-2023&state=optimal")
    page.wait_for_selector("#explore-chart[data-drawn]:not([data-drawn=none])")
    caption = page.inner_text("#explore-chart figcaption")
    assert caption.startswith("Transactions per second (tx/s) in SupremeRAID SR-1010 vs Linux MD RAID")
    axis_label = page.eval_on_selector("#explore-chart svg [aria-label='y-axis label']", "e => e.textContent")
    assert axis_label == "↑ Transactions per second (tx/s)"


def test_the_no_script_pages_of_compare_and_explore_name_the_metric(built_site):
    """A study's series page (/compare/series/<study>/) writes a value's metric by its name, and Explore's
    list of studies its metrics: "Rebuild speed (MB/s)", never rebuild_mb_s."""
    series = (built_site.public / "compare" / "series" / "graid-supremeraid-mysql-2023" / "index.html").read_text(
        encoding="utf-8")
    cells = set(re.findall(r'data-metric="([^"]+)" data-metric-text="([^"]+)".*?</th><td>([^<]+)</td>', series, re.S))
    # the unit once: after a name that does not give it, not after one that does
    assert cells == {("tps", "Transactions per second (tx/s)", "Transactions per second (tx/s)"),
                     ("rebuild_mb_s", "Rebuild speed (MB/s)", "Rebuild speed (MB/s)")}
    view = (built_site.public / "explore" / "index.html").read_text(encoding="utf-8")
    assert "Metric: Rebuild speed (MB/s), Transactions per second</span>" in view
    assert "rebuild_mb_s, tps" not in view
