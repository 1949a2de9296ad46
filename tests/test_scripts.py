"""The site's scripts as published: Observable Plot (and the d3-array functions it holds) in one bundle,
js/plot.<SHA-256>.js, that the site's drawing modules (js/draw.js) and /sql/'s script import
(site/layouts/_partials/bundle.html). The site's script, js/site.js, imports draw.js and plot.js once a
page has something to draw (tests/test_page_budget.py)."""

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
        "catalogue", "draw", "embed-height", "plot", "png", "search", "site", "sql"]
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


@pytest.mark.parametrize(("path", "scripts", "drawn"), [(STUDY, ("site", "draw"), "figure[data-chart][data-drawn]"),
                                                       ("/sql/", ("sql",), "#sql-status")])
def test_a_study_page_and_sql_load_their_script_and_the_one_plot_file_once(page, site_url, built_site, path, scripts,
                                                                          drawn):
    loaded = _loaded(page, site_url + path)
    plot = _plot_file(built_site.public)
    own = [next(p.name for p in (built_site.public / "js").glob(f"{name}.*.js")) for name in scripts]
    assert sorted(loaded) == sorted([plot, *own])
    page.locator(drawn).first.wait_for()
    # preloaded beside the script that imports it (/sql/'s), or named on the site's script for it to
    # preload once it draws (site.js), and checked as it is
    html = (built_site.public / path.strip("/") / "index.html").read_text(encoding="utf-8").replace("&#43;", "+")
    digest = {name: base64.b64encode(hashlib.sha256((built_site.public / "js" / name).read_bytes()).digest()).decode()
              for name in [plot, *own]}
    if path == "/sql/":
        assert f'<link rel="modulepreload" href="/js/{plot}" integrity="sha256-{digest[plot]}">' in html
    else:
        draw = own[1]
        assert (f'data-draw="/js/{draw}" data-draw-integrity="sha256-{digest[draw]}" '
                f'data-plot="/js/{plot}" data-plot-integrity="sha256-{digest[plot]}"') in html
        links = page.evaluate("[...document.querySelectorAll('link[rel=modulepreload]')].map((l) => [l.href, l.integrity])")
        assert links == [[f"{site_url}/js/{plot}", f"sha256-{digest[plot]}"], [f"{site_url}/js/{draw}", f"sha256-{digest[draw]}"]]
    assert page.errors == []


def test_plot_is_preloaded_or_named_on_exactly_the_pages_whose_scripts_import_it(built_site):
    """/sql/'s script imports Plot and has it preloaded; the site's imports only draw.js, which does, and
    names both on its tag; no other script imports either."""
    public = built_site.public
    plot = _plot_file(public)
    draw = next(p.name for p in (public / "js").glob("draw.*.js"))
    importers = {p.name for p in (public / "js").glob("*.js") if f'from"./{plot}"' in p.read_text(encoding="utf-8")}
    assert sorted(re.sub(r"\..*", "", n) for n in importers) == ["draw", "sql"]
    for html in public.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        scripts = {s.rsplit("/", 1)[1] for s in re.findall(r'<script[^>]+src="([^"]+)"', text)}
        preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)"', text)
        assert preloads == ([f"/js/{plot}"] if scripts & importers else []), html
        named = re.findall(r'data-(?:draw|plot)="([^"]+)"', text)
        assert named == ([f"/js/{draw}", f"/js/{plot}"] if any(s.startswith("site.") for s in scripts) else []), html


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
