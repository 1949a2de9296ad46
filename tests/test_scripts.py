"""The site's scripts as published: Observable Plot (and the d3-array functions it holds) in one bundle,
js/plot.<SHA-256>.js, that the site's drawing modules (js/draw.js) and /sql/'s engine (js/sql-engine.js)
import (site/layouts/_partials/bundle.html). The site's script, js/site.js, imports draw.js and plot.js once a
page has something to draw, and /sql/'s, js/sql.js, sql-engine.js and plot.js for the first query
(tests/test_page_budget.py)."""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
import urllib.parse
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPTS = ROOT / "site" / "assets" / "js"
SHARED = ("@observablehq/plot", "d3-array")  # bundle.html's $shared: only js/plot.js bundles them
PLOT_CODE = '"plot-d6a7b5"'  # Plot's own class name for what it draws (its src/style.js), in every bundle of Plot
STUDY = "/studies/graid-supremeraid-mysql-2023/"


def _named_imports(text: str, package: str) -> set[str]:
    """The names a module imports from ``package`` (``import {a, b as c} from "package"``: a and b); a
    namespace or default import of it fails: js/plot.js gives named exports only."""
    pattern = re.compile(r'import\s*\{([^}]*)\}\s*from\s*"' + re.escape(package) + '"')
    found = pattern.findall(text)
    assert len(found) == text.count(f'"{package}"'), f"an import of {package} that is not of names"
    return {name.split(" as ")[0].strip() for names in found for name in names.split(",") if name.strip()}


def test_plot_js_exports_what_every_script_imports_from_plot_and_d3_array():
    """The scripts are bundled with these packages left out and their imports pointed at js/plot.js:
    a name it does not export would stop the importing script at load in the reader's browser."""
    plot_js = (SCRIPTS / "plot.js").read_text(encoding="utf-8")
    exported = {p: set(re.findall(r"\w+", m)) for p in SHARED
                for m in re.findall(r'export\s*\{([^}]*)\}\s*from\s*"' + re.escape(p) + '"', plot_js)}
    imported = {p: set() for p in SHARED}
    for script in sorted(SCRIPTS.glob("*.js")):
        if script.name != "plot.js":
            for package in SHARED:
                imported[package] |= _named_imports(script.read_text(encoding="utf-8"), package)
    assert imported["@observablehq/plot"] == {"areaX", "axisX", "barX", "dot", "line", "plot", "pointer", "rect", "rectX",
                                                "ruleX", "ruleY", "text", "tip"}
    assert imported["d3-array"] == {"extent", "greatest", "least", "max", "min"}
    assert exported == imported  # each name once, none that no script uses (Plot's unused code is left out)


def test_plot_s_code_is_in_one_file_and_no_other_script_names_its_packages(built_site):
    js = built_site.public / "js"
    names = sorted(p.name for p in js.glob("*.js"))
    assert [re.sub(r"\.[0-9a-f]{64}\.js$", "", n) for n in names] == [
        "catalogue", "draw", "embed-height", "landing", "plot", "png", "search", "site", "sql-engine", "sql"]
    assert [n for n in names if PLOT_CODE in (js / n).read_text(encoding="utf-8")] == [
        next(n for n in names if n.startswith("plot."))]
    for name in names:
        text = (js / name).read_text(encoding="utf-8")
        assert not [p for p in SHARED if f'"{p}"' in text], name


def _loaded(page, url: str) -> list[str]:
    """The site's scripts (under /js/) a first visit to ``url`` fetched, in order, once the network is
    idle (its module scripts and what they import have run by then)."""
    fetched: list[str] = []
    page.on("requestfinished", lambda r: fetched.append(r.url))
    page.goto(url)
    page.wait_for_load_state("networkidle")  # site.js imports draw.js as it runs
    return [re.sub(r"^.*/js/", "", u) for u in fetched if "/js/" in u]


def _plot_file(public: Path) -> str:
    return next(p.name for p in (public / "js").glob("plot.*.js"))


@pytest.mark.parametrize(("path", "scripts", "named", "drawn"), [
    (STUDY, ("site", "draw"), "draw", "figure[data-chart][data-drawn]"),
    ("/sql/?q=SELECT%2042%20AS%20answer", ("sql", "sql-engine"), "engine", "#sql-table td"),
])
def test_a_study_page_and_sql_load_their_script_and_the_one_plot_file_once(page, site_url, built_site, path, scripts,
                                                                          named, drawn):
    """Each page's script preloads and imports, once it has something to do (a chart to draw, a query
    to run), the bundle it names on its tag and Plot's, each checked against its integrity."""
    loaded = _loaded(page, site_url + path)
    page.locator(drawn).first.wait_for()
    plot = _plot_file(built_site.public)
    own = [next(p.name for p in (built_site.public / "js").glob(f"{name}.*.js")) for name in scripts]
    assert sorted(loaded) == sorted([plot, *own])
    folder = path.split("?")[0].strip("/")
    html = (built_site.public / folder / "index.html").read_text(encoding="utf-8").replace("&#43;", "+")
    digest = {name: base64.b64encode(hashlib.sha256((built_site.public / "js" / name).read_bytes()).digest()).decode()
              for name in [plot, *own]}
    bundle = own[1]
    assert (f'data-{named}="/js/{bundle}" data-{named}-integrity="sha256-{digest[bundle]}" '
            f'data-plot="/js/{plot}" data-plot-integrity="sha256-{digest[plot]}"') in html
    links = page.evaluate("[...document.querySelectorAll('link[rel=modulepreload]')].map((l) => [l.href, l.integrity])")
    assert links == [[f"{site_url}/js/{plot}", f"sha256-{digest[plot]}"], [f"{site_url}/js/{bundle}", f"sha256-{digest[bundle]}"]]
    assert page.errors == []


def test_sql_loads_its_script_alone_until_a_query_runs(page, site_url, built_site):
    """A visit to /sql/ that runs nothing fetches neither DuckDB-WASM's JavaScript nor Plot."""
    sql = next(p.name for p in (built_site.public / "js").glob("sql.*.js"))
    assert _loaded(page, site_url + "/sql/") == [sql]
    assert page.locator("link[rel=modulepreload]").count() == 0
    assert page.errors == []


def test_plot_is_named_on_exactly_the_pages_whose_scripts_import_it(built_site):
    """Plot is imported by the drawing modules' bundle (draw.js) and /sql/'s engine (sql-engine.js) alone;
    the scripts that import those (site.js; sql.js, and landing.js of /compare/yours/, which runs its SQL
    with the same engine) name both on their tags; no page preloads either."""
    public = built_site.public
    plot = _plot_file(public)
    bundle = {name: next(p.name for p in (public / "js").glob(f"{name}.*.js")) for name in ("draw", "sql-engine")}
    importers = {p.name for p in (public / "js").glob("*.js") if f'from"./{plot}"' in p.read_text(encoding="utf-8")}
    assert sorted(importers) == sorted(bundle.values())
    for html in public.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        scripts = {s.rsplit("/", 1)[1].split(".")[0] for s in re.findall(r'<script[^>]+src="([^"]+)"', text)}
        assert re.findall(r'<link rel="modulepreload"', text) == [], html
        named = re.findall(r'data-(?:draw|engine|plot)="([^"]+)"', text)
        expected = ([f"/js/{bundle['draw']}", f"/js/{plot}"] if "site" in scripts
                    else [f"/js/{bundle['sql-engine']}", f"/js/{plot}"] if {"sql", "landing"} & scripts else [])
        assert named == expected, html


def test_the_study_page_with_all_it_loads_is_under_its_150_kb_budget(page, site_url, built_site):
    """benchmarks/bench_pages.py's first figure: the Graid study page, its CSS, scripts and icon, each
    gzip-compressed as a server would send it. 120.7 KB with Plot in js/plot.js, against 131.4 KB when
    site.js held Plot among its lazily run modules."""
    fetched: list[str] = []
    page.on("requestfinished", lambda r: fetched.append(urllib.parse.urlparse(r.url).path))
    page.goto(site_url + STUDY)
    page.wait_for_load_state("networkidle")
    files = [built_site.public / (p.lstrip("/") + ("index.html" if p.endswith("/") else "")) for p in fetched]
    assert sorted(re.sub(r"\.[0-9a-f]{64}", "", f.name) for f in files) == [
        "draw.js", "favicon.svg", "index.html", "plot.js", "site.js", "site.min.css"]
    assert sum(len(gzip.compress(f.read_bytes(), 6)) for f in files) < 150 * 1024
