"""The catalogue of studies (/studies/): a row a study with its year, publisher, who stands behind it,
what it varies and what its evidence is made of; sortable and filterable in the browser."""

from __future__ import annotations

import re

from ingest.publish import catalogue

GRAID = "graid-supremeraid-mysql-2023"
NETAPP = "netapp-tr3693-mysql-2010"
MEASURED = "measured-mariadb-2core-vm"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def _rows(built_site) -> dict[str, list[str]]:
    page = (built_site.public / "studies" / "index.html").read_text(encoding="utf-8")
    body = page[page.index("<tbody>"):page.index("</tbody>")]
    rows = {}
    for row in re.findall(r"<tr .*?</tr>", body, flags=re.S):
        study = re.search(r'href="/studies/([^/"]+)/"', row).group(1)
        rows[study] = [_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]
    return rows


def test_an_entry_counts_runs_by_grade_and_takes_the_earliest_original_year():
    doc = {"sources": [{"publisher": "A", "date": "2019-05", "role": "original", "kind": "vendor"},
                       {"publisher": "B", "date": "2017", "role": "original", "kind": "vendor"},
                       {"publisher": "C", "date": "2001", "role": "translation", "kind": "independent"}],
           "runs": [{"quality": {"grade": "fail"}}, {"quality": {"grade": "pass"}}, {"quality": {"grade": "fail"}},
                    {"quality": None}],
           "value_kinds": [{"name": "measured", "count": 4}]}
    # best rank 4: schema/evidence-grades.yaml's fourth grade, runs that fail a rule
    assert catalogue.entry(doc, best_rank=4) == {
        "year": 2017, "publishers": ["A", "B"], "kind": "vendor",
        "runs": [{"name": "fail", "count": 2}, {"name": "not graded", "count": 1}, {"name": "pass", "count": 1}],
        "values": [{"name": "measured", "count": 4}],
        "grade": {"rank": 4, "mark": "⊕◯◯◯", "label": "a run fails a run-quality rule"}}
    assert catalogue.entry(doc, best_rank=None)["grade"] is None


def test_an_entry_says_when_sources_are_of_several_kinds_or_none():
    doc = {"sources": [{"publisher": "A", "role": "original", "kind": "vendor"},
                       {"publisher": "B", "role": "original", "kind": "independent"}], "runs": [], "value_kinds": []}
    assert catalogue.entry(doc, best_rank=None)["kind"] == "mixed"
    assert catalogue.entry({**doc, "sources": [{"publisher": "A"}]}, best_rank=None)["kind"] == "not stated"
    assert catalogue.entry({**doc, "sources": [{"publisher": "A"}]}, best_rank=None)["year"] is None


def test_varies_names_each_facet_page_a_study_is_on():
    facets = {"raid-level": {"title": "RAID level", "studies": [{"study": "s1", "path": "/raid-level/"}]},
              "array-state": {"title": "Array state", "studies": [{"study": "s1", "path": "/array-state/2/"},
                                                                  {"study": "s2", "path": "/array-state/2/"}]}}
    assert catalogue.varies(facets) == {
        "s1": [{"slug": "array-state", "title": "Array state", "path": "/array-state/2/"},
               {"slug": "raid-level", "title": "RAID level", "path": "/raid-level/"}],
        "s2": [{"slug": "array-state", "title": "Array state", "path": "/array-state/2/"}]}


def test_the_catalogue_has_a_row_a_study(built_site):
    rows = _rows(built_site)
    assert sorted(rows) == sorted(p.name for p in built_site.data.iterdir() if (p / "bundle.yaml").exists())
    # data/graid-supremeraid-mysql-2023/bundle.yaml: source graid-en dated 2023-05, kind vendor; 52 printed
    # values; its systems differ in RAID level, product, and state (the facet pages it is on)
    assert rows[GRAID] == [
        "SupremeRAID SR-1010 vs Linux MD RAID: MySQL sysbench OLTP read/write", "2023", "Graid Technology Inc.",
        "vendor", "Array state, RAID level, Storage product", "⊕⊕⊕◯ figures the source prints", "52 exact values", "52"]
    assert rows[NETAPP][1:] == ["2010", "NetApp", "vendor", "Storage protocol", "⊕⊕⊕◯ figures the source prints",
                                "8 exact, 1 derived values", "9"]
    # 36 runs of 5 s, each failing the length rule (schema/run-quality.yaml): its best grade is its only one
    assert rows[MEASURED][1:] == ["2026", "benchdb capture", "measured here", "Compression, InnoDB doublewrite",
                                  "⊕◯◯◯ a run fails a run-quality rule", "36 runs: 36 fails a rule; 144 measured values",
                                  "144"]


def test_the_catalogue_filters_and_sorts(page, site_url):
    page.goto(f"{site_url}/studies/")
    filters = page.locator("[data-catalogue-filters]")
    filters.wait_for()
    total = page.locator(".catalogue-table tbody tr").count()
    page.select_option("[data-catalogue-filters] select[name=facet]", "raid-level")
    assert page.locator(".catalogue-table tbody tr:not([hidden]) td:first-child").all_inner_texts() == [
        "SupremeRAID SR-1010 vs Linux MD RAID: MySQL sysbench OLTP read/write"]
    assert page.locator("output[name=shown]").inner_text() == f"1 of {total} shown"
    page.select_option("[data-catalogue-filters] select[name=facet]", "")
    page.fill("[data-catalogue-filters] input[name=q]", "netapp")
    assert page.locator(".catalogue-table tbody tr:not([hidden]) td:nth-child(3)").all_inner_texts() == ["NetApp"]
    page.fill("[data-catalogue-filters] input[name=q]", "")
    page.get_by_role("button", name="Year").click()
    years = [int(y) if y.isdigit() else 0 for y in page.locator(".catalogue-table tbody td:nth-child(2)").all_inner_texts()]
    assert years == sorted(years)
    assert page.locator("th[aria-sort=ascending]").inner_text().startswith("Year")
    page.get_by_role("button", name="Year").click()
    years = [int(y) if y.isdigit() else 0 for y in page.locator(".catalogue-table tbody td:nth-child(2)").all_inner_texts()]
    assert years == sorted(years, reverse=True)
    assert page.errors == []
