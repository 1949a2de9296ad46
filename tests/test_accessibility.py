"""axe-core (npm) over every kind of page, in light and dark mode: no serious or critical violation."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGES = [
    "/", "/studies/", "/studies/graid-supremeraid-mysql-2023/", "/studies/measured-mariadb-2core-vm/",
    "/explore/", "/explore/?study=graid-supremeraid-mysql-2023&metric=tps", "/compare/", "/raid-level/",
    "/array-state/", "/doublewrite/", "/embed/", "/embed/graid-supremeraid-mysql-2023--tps-by-users--optimal/",
    "/artifacts/", "/artifacts/measured-mariadb-2core-vm-5min/dw-off-uncompressed-oltp-read-write-t2-r1/lines-501/",
    "/about/", "/search/?q=rebuild", "/claims/",
    "/sql/?q=SELECT%20verdict%2C%20count(*)%20AS%20claims%20FROM%20claims%20GROUP%20BY%20verdict", "/grades/",
    "/compare/?series=measured-mariadb-2core-vm:dw-on-uncompressed,graid-supremeraid-mysql-2023:mdraid-raid6",
]


def _serious(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {json.dumps([n['target'] for n in v['nodes']][:5])}"
            for v in results["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_or_critical_violation_on_any_kind_of_page(browser, site_url, scheme):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True)  # axe is injected as an inline script
    page = context.new_page()
    found = {}
    try:
        for path in PAGES:
            page.goto(site_url + path)
            page.wait_for_load_state("networkidle")
            if path.startswith("/sql/?q="):  # the result, its table and chart, are part of the page
                page.wait_for_selector("#sql-result:not([hidden])", timeout=60_000)
            if (violations := _serious(page)):
                found[path] = violations
    finally:
        context.close()
    assert found == {}
