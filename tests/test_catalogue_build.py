"""The whole catalogue (every study in data/, not only the six the other site tests are written
against) validates and builds: a page a study, a row a study on /studies/, and every facet page."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT, copy_project
from ingest.build.site import Layout, build_site
from ingest.bundles.fields import facet_pages

STUDIES = sorted(p.name for p in (ROOT / "data").iterdir() if (p / "bundle.yaml").is_file())


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory) -> Layout:
    layout = copy_project(tmp_path_factory.mktemp("catalogue") / "project", studies=None)
    build_site(layout)
    return layout


def test_every_study_has_its_page_and_its_row(catalogue: Layout):
    assert sorted(p.parent.name for p in (catalogue.public / "studies").glob("*/index.html")) == STUDIES
    listing = (catalogue.public / "studies" / "index.html").read_text(encoding="utf-8")
    body = listing[listing.index("<tbody>"):listing.index("</tbody>")]
    assert sorted(re.findall(r'<tr [^>]*>\s*<td><a href="/studies/([^/"]+)/"', body)) == STUDIES
    assert f"<caption>{len(STUDIES)} studies, newest first</caption>" in listing


def test_every_facet_page_is_built(catalogue: Layout):
    for facet in facet_pages():
        assert (catalogue.public / facet.page.slug / "index.html").is_file(), facet.page.slug


GUITARRAPC = "guitarrapc-docker-mysql-doublewrite-2022"


def test_a_doublewrite_pair_shares_its_flush_method_and_each_workload_is_a_comparison(catalogue: Layout):
    """guitarrapc/db-benchmark's four tables (README at c275955): flush method and doublewrite vary
    together, so only the O_DIRECT_NO_FSYNC pair (lines 39-46 against 50-57) differs in doublewrite
    alone; its eight sysbench tests at 8 threads are eight comparisons, not one value averaged."""
    page = (catalogue.public / "doublewrite" / "index.html").read_text(encoding="utf-8")
    start = page.index(f'data-study="{GUITARRAPC}"')
    end = page.find('<section class="facet-study"', start)
    part = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[start:end if end > 0 else None]))
    assert ("Pairs that differ in doublewrite alone: flush O_DIRECT_NO_FSYNC, doublewrite OFF (off) against "
            "flush O_DIRECT_NO_FSYNC, doublewrite ON (on)") in part
    assert ("flush fsync, doublewrite ON: differs from every system of another doublewrite in flush method "
            "(innodb_flush_method) as well") in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    # Select Simple 30001 / 28540 = 1.0512; ReadWrite 2605 / 2538 = 1.0264
    assert ("In numbers: flush O_DIRECT_NO_FSYNC, doublewrite ON: 1.00× at 8 threads; flush O_DIRECT_NO_FSYNC, "
            "doublewrite OFF: 1.05× at 8 threads.") in part
    assert ("In numbers: flush O_DIRECT_NO_FSYNC, doublewrite ON: 1.00× at 8 threads; flush O_DIRECT_NO_FSYNC, "
            "doublewrite OFF: 1.03× at 8 threads.") in part
    assert part.count("relative to flush O_DIRECT_NO_FSYNC, doublewrite ON") == 8


def test_a_study_of_many_long_runs_draws_every_kth_sample(catalogue: Layout):
    """percona-innodb-ebs-io1-gp2-scaling-2018: 55 runs of about an hour at 1 s, 198,035 samples in all
    (its cited/*.jsonl); a page carries about 4,000 (runs.PAGE_SAMPLES), so every 50th is drawn
    (198,035 / 4,000 = 49.5, rounded up), and the page stays near a megabyte instead of 36 MB."""
    page = (catalogue.public / "studies" / "percona-innodb-ebs-io1-gp2-scaling-2018" / "index.html")
    text = page.read_text(encoding="utf-8")
    assert text.count("Every 50th sample of each run is drawn") == 55
    assert 'class="samples"' not in text  # no table of thinned samples
    assert page.stat().st_size < 1_500_000
