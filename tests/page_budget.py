"""What a first visit to a page of a built site loads, and the budgets it is held to (issue #60): every
page at most 150 KB of gzip (level 6, as a server would send it) with all it loads on a first visit
(HTML, CSS, JS, the JSON its scripts fetch, favicon); a study page at most 25,000 px tall at 1280 px.

Weighed without a browser (``linked``): the HTML, and what it links outside <noscript> (stylesheets,
icon, preloaded modules, scripts, images, frames), and the drawing modules js/site.js names on its tag
(data-draw, data-plot) where it imports them at once: where something they act on is outside a closed
<details> (``draws_at_once``, as site.js decides; test_page_budget.py checks the two agree). Pages whose scripts fetch on a first visit
(``fetches``: Explore's row pages, Compare's, /sql/'s tables, the search index) are weighed in
Chromium (``visited``). Read by benchmarks/bench_pages.py (--all) and tests/test_page_budget.py."""

from __future__ import annotations

import gzip
import html
import re
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

BUDGET = 150 * 1024  # bytes of gzip, level 6
STUDY_HEIGHT = 25_000  # px, at 1280 px wide

# What marks a page whose script fetches more on a first visit (site.js, sql.js, search.js)
FETCHES = ('id="explore-table"', 'id="compare-form"', 'id="sql-form"', 'data-bundle="')
# What js/site.js's AT_ONCE and ACTED_ON select (tag, attribute)
AT_ONCE = ("explore-table", "compare-form")  # AT_ONCE's ids
ACTED_ON = (("figure", "data-chart"), ("figure", "data-timeseries"), ("figure", "data-rebuild"), ("figure", "data-latency"),
            ("figure", "data-evidence"), ("figure", "data-forest"), ("button", "data-png"), ("details", "data-detail"))
_NOSCRIPT = re.compile(r"<noscript\b.*?</noscript>", re.S)
_LINKS = re.compile(r'<(?:link|script|img|iframe)\b[^>]*?\b(?:href|src)="([^"]+)"[^>]*>')


def file_of(public: Path, path: str) -> Path:
    """The file a site path (``/studies/x/``, ``/css/a.css``) is served from."""
    path = urllib.parse.unquote(path.split("#")[0].split("?")[0])
    return public / (path.lstrip("/") + ("index.html" if path.endswith("/") else ""))


def pages(public: Path) -> list[str]:
    """Every page of the site (an index.html), by its path."""
    return sorted("/" + f.parent.relative_to(public).as_posix().removeprefix(".") + "/"
                  for f in public.rglob("index.html"))


def linked(public: Path, path: str) -> list[str]:
    """The site paths a page's HTML loads outside <noscript>, itself first (not stylesheets' or scripts'
    own imports: the site's CSS imports nothing, and site.js imports only draw.js and plot.js, which its
    tag names)."""
    text = _NOSCRIPT.sub("", file_of(public, path).read_text(encoding="utf-8"))
    out = [path]
    for tag in _LINKS.finditer(text):
        if "data-draw=" in tag.group(0) and draws_at_once(text):
            out += [html.unescape(v) for v in re.findall(r'\bdata-(?:plot|draw)="([^"]+)"', tag.group(0))]
        href = html.unescape(tag.group(1))
        if re.search(r'\brel="(?:canonical|alternate|next|prev)"', tag.group(0)) or not href.startswith("/"):
            continue  # a link to another page, not something loaded
        if href.startswith("//"):
            continue
        out.append(href.split("#")[0])
    return list(dict.fromkeys(out))


class _Acted(HTMLParser):
    """Whether an element of AT_ONCE is on the page, or one of ACTED_ON outside every closed <details>."""

    def __init__(self) -> None:
        super().__init__()
        self.closed: list[bool] = []  # the open <details> around, each: closed?
        self.at_once = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        acted = any(want == tag and mark in names for want, mark in ACTED_ON)
        if names.get("id") in AT_ONCE or (acted and not any(self.closed)):
            self.at_once = True
        if tag == "details":
            self.closed.append("open" not in names)

    def handle_endtag(self, tag):
        if tag == "details" and self.closed:
            self.closed.pop()


def draws_at_once(text: str) -> bool:
    """Whether js/site.js imports the drawing modules on load (else when a fold is first opened)."""
    parser = _Acted()
    parser.feed(_NOSCRIPT.sub("", text))
    return parser.at_once


def fetches(public: Path, path: str) -> bool:
    """Whether the page's script fetches more than it links on a first visit."""
    text = file_of(public, path).read_text(encoding="utf-8")
    return any(mark in text for mark in FETCHES)


def weights(public: Path, paths: list[str], _cache: dict | None = None) -> dict[str, int]:
    """Each file's gzip size (level 6), by its site path."""
    cache = {} if _cache is None else _cache
    out = {}
    for p in paths:
        if p not in cache:
            cache[p] = len(gzip.compress(file_of(public, p).read_bytes(), 6))
        out[p] = cache[p]
    return out


def visited(browser, base: str, public: Path, path: str, *, ready: str | None = None) -> list[str]:
    """The site paths a first visit to ``path`` in Chromium loads once the network is idle (and
    ``ready`` matches, if given), with what its HTML links (its icon, which Chromium may ask for later)."""
    page = browser.new_page()
    fetched: list[str] = []
    page.on("requestfinished", lambda r: fetched.append(urllib.parse.urlparse(r.url).path))
    try:
        page.goto(base + path)
        if ready:
            page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
    finally:
        page.close()
    return list(dict.fromkeys([*linked(public, path), *fetched]))


def height(browser, base: str, path: str, *, width: int) -> int:
    """A page's height in px at ``width`` once loaded and its first charts drawn."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        return page.evaluate("document.documentElement.scrollHeight")
    finally:
        context.close()
