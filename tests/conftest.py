"""Shared fixtures: the project layout, a built site, a static server and Chromium."""

from __future__ import annotations

import contextlib
import fcntl
import fnmatch
import functools
import http.server
import io
import os
import re
import shutil
import threading
import time
import tomllib
from pathlib import Path

import pytest

from ingest.build.site import Layout, build_site
from ingest.build.generation import TRASH
from ingest.parsers import sysbench_intervals

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
# MD RAID 10's summary figure of optimal TPS in the Graid study (seed 000 line 201) is in no cell of its
# per-user table (line 126: 9838.45 to 10556.98): the reason of its flag (schema/evidence-grades.yaml,
# inconsistent) and its cell note, as data/graid-supremeraid-mysql-2023/bundle.yaml records it
INCONSISTENT_REASON = "the figure is in no cell of the source's own per-load table"
MD10_SUMMARY_NOTE = ("15994.38 is in no cell of the per-user optimal table (seed 000 line 126, MD RAID 10: 9838.45 to "
                     "10556.98); the other three rows of this column equal their 512-user cells.")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


# The test files that take longest, longest first: in two runs of `make test` on the 2-core machine,
# the first four took 110 to 190 s each (their tests' durations summed), the last five 25 to 50 s.
# pytest-xdist hands a worker a file at a time (Makefile: --dist loadfile), by default the files of the
# most tests first: a file of two long tests (test_accessibility.py) then started last. With these
# first (--no-loadscope-reorder) the suite took 669 s, against 712 and 731 s.
LONGEST_FIRST = ["test_build_atomic.py", "test_catalogue_build.py", "test_like_for_like.py", "test_units.py", "test_sysbench_rules.py", "test_export_cache.py", "test_accessibility.py",
                 "test_stage.py", "test_embed_safety.py", "test_sql.py", "test_explore.py", "test_shards.py",
                 "test_browser.py", "test_facet_pages.py", "test_search.py", "test_cli.py", "test_runs.py",
                 "test_capture.py"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    gone = [name for name in LONGEST_FIRST if not (ROOT / "tests" / name).is_file()]
    if gone:
        raise pytest.UsageError(f"tests/conftest.py: LONGEST_FIRST names no such file: {', '.join(gone)}")
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file's own order kept


@pytest.fixture(scope="session")
def layout() -> Layout:
    return Layout(ROOT)


def _built_once(tmp_path_factory, name: str, studies: tuple[str, ...] | None) -> Layout:
    """A copy of the project with ``studies`` (None: the whole catalogue), built once per test session
    (validate, load, export, Hugo). With pytest-xdist's workers (``make test``), the first to need it
    builds it and the others wait for that build and use it."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        layout = copy_project(tmp_path_factory.mktemp(name) / "project", studies=studies)
        build_site(layout)
        return layout
    shared = tmp_path_factory.getbasetemp().parent  # the session's folder, the same for every worker
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / f"{name}.done"
        if not done.exists():
            build_site(copy_project(shared / name, studies=studies))
            done.touch()
    return Layout(shared / name)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Layout:
    """The site of the FIRST_SIX studies, built once per test session."""
    return _built_once(tmp_path_factory, "built-site", FIRST_SIX)


@pytest.fixture(scope="session")
def catalogue(tmp_path_factory) -> Layout:
    """The site of every study of data/, built once per test session (tests read it, never change it)."""
    return _built_once(tmp_path_factory, "catalogue", None)


def netlify_headers(path: str) -> dict[str, str]:
    """The headers netlify.toml sets for ``path``, so tests run under the real CSP."""
    config = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    headers: dict[str, str] = {}
    for rule in config.get("headers", []):
        if fnmatch.fnmatch(path, rule["for"]):
            headers.update(rule["values"])
    return headers


def byte_range(header: str, *, size: int) -> tuple[int, int] | None | str:
    """The bytes (first, last) a Range header asks of a file of ``size`` bytes: one range of bytes
    (RFC 9110 14.1.2: ``bytes=0-99``, ``bytes=100-``, the last 100 ``bytes=-100``; a last byte past the
    file's end is its end); "unsatisfiable" where that range starts past the end (or asks for the last 0
    bytes); None for anything else (several ranges, another unit, a first byte after the last), which a
    server may answer with the whole file."""
    match = re.fullmatch(r"bytes=(\d*)-(\d*)", header.strip())
    if not match or match.groups() == ("", ""):
        return None
    first, last = match.groups()
    if not first:  # a suffix: the last ``last`` bytes
        return (max(size - int(last), 0), size - 1) if int(last) and size else "unsatisfiable"
    if last and int(last) < int(first):
        return None
    if int(first) >= size:
        return "unsatisfiable"
    return int(first), min(int(last), size - 1) if last else size - 1


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder as Netlify would: a header netlify.toml sets for the path (e.g. /raw/*'s
    Content-Type) replaces the one the server would send; a file's response says it takes ranges
    (Accept-Ranges), and a request of one range of its bytes gets them (206 with Content-Range, or 416
    where the range starts past its end), as /sql/'s DuckDB-WASM asks of its database (sql-db.js)."""

    def send_head(self):
        self._a_file = False
        path = self.translate_path(self.path)
        if not os.path.isfile(path) or path.endswith("/"):
            return super().send_head()
        self._a_file = True
        size = os.path.getsize(path)
        span = byte_range(self.headers.get("Range", ""), size=size)
        if span is None:
            return super().send_head()
        if span == "unsatisfiable":
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        first, last = span
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Length", str(last - first + 1))
        self.end_headers()
        if self.command == "HEAD":
            return None
        with open(path, "rb") as f:
            f.seek(first)
            return io.BytesIO(f.read(last - first + 1))

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() not in {name.lower() for name in self._rules()}:
            super().send_header(keyword, value)

    def end_headers(self) -> None:
        for name, value in self._rules().items():
            super().send_header(name, value)
        if getattr(self, "_a_file", False):
            super().send_header("Accept-Ranges", "bytes")
        super().end_headers()

    def _rules(self) -> dict[str, str]:
        return netlify_headers(self.path.split("?")[0].split("#")[0])

    def log_message(self, *args) -> None:  # keep test output quiet
        pass


def serve_folder(folder: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(_Handler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="session")
def site_url(built_site: Layout):
    server = serve_folder(built_site.public)
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def catalogue_url(catalogue: Layout):
    """The site of every study of data/, served (tests/test_questions.py)."""
    server = serve_folder(catalogue.public)
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run 'make test', which installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page that records console errors and page errors in ``page.errors``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.errors = []
    pg.on("console", lambda msg: msg.type in ("error", "warning") and pg.errors.append(f"{msg.type}: {msg.text}"))
    pg.on("pageerror", lambda exc: pg.errors.append(f"pageerror: {exc}"))
    yield pg
    context.close()


@pytest.fixture
def every_block(monkeypatch):
    """The sysbench parser's block reader takes every run of interval lines, however short (the
    parser reads short runs line by line: sysbench_intervals.BLOCK_FROM_LINES), so that the tests of
    the block reader reach it with logs of a few lines."""
    monkeypatch.setattr(sysbench_intervals, "BLOCK_FROM_LINES", 1)


@pytest.fixture
def bundle_dir(tmp_path: Path):
    """Make a bundle folder from a YAML text: ``bundle_dir(name, text)``."""

    def make(name: str, text: str) -> Path:
        folder = tmp_path / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "bundle.yaml").write_text(text, encoding="utf-8")
        return folder

    return make


def remove_build(layout: Layout) -> None:
    """Remove the project's build folder, once the process removing the generations its builds
    replaced (generation.remove_stale) is done with them: two removals of one folder would race."""
    trash = layout.build / TRASH
    deadline = time.monotonic() + 60
    while trash.is_dir() and any(trash.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    shutil.rmtree(layout.build)


# The studies the site's tests are written against: what the tests count, hash into shards, search
# for and compare are these six, so a study added to the catalogue changes none of them. The whole
# catalogue is built by tests/test_catalogue_build.py.
FIRST_SIX = ("graid-supremeraid-mysql-2023", "measured-mariadb-2core-vm", "measured-mariadb-2core-vm-5min",
             "netapp-tr3693-mysql-2010", "scaleflux-csd2000-mysql-2020", "seagate-nytro-mysql-2015")


def copy_project(dest: Path, *, studies: tuple[str, ...] | None = FIRST_SIX) -> Layout:
    """A copy of the project (site, content, docs, data) with node_modules linked in; its data/ holds
    ``studies`` only (None: every study of the catalogue)."""
    keep = None if studies is None else set(studies)
    for name in ("site", "content", "docs", "data"):
        ignore = shutil.ignore_patterns("resources", ".hugo_build.lock")
        if name == "data" and keep is not None:
            ignore = lambda folder, names, inner=ignore: [  # noqa: E731
                *inner(folder, names), *(n for n in names if Path(folder) == ROOT / "data" and n not in keep)]
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    return Layout(dest)


@contextlib.contextmanager
def deployed_at_its_address(layout: Layout):
    """Serve ``layout.public`` and build the site with the server's address as its deployment's
    (Netlify's URL), as absolute links need; yields the address."""
    server = serve_folder(layout.public)  # started first: the build is given its address
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with pytest.MonkeyPatch.context() as env:
            env.setenv("URL", base)
            env.delenv("DEPLOY_PRIME_URL", raising=False)
            build_site(layout)
        yield base
    finally:
        server.shutdown()


def build_with_bundle(dest: Path, bundle: Path) -> Layout:
    """Build a copy of the project with one more bundle (a test fixture) in its data/."""
    layout = copy_project(dest)
    shutil.copytree(bundle, layout.data / bundle.name)
    build_site(layout)
    return layout


def open_folds(page) -> None:
    """Open every folded study of a facet page (facet.html), as a reader clicking each would: their
    charts are drawn when opened (js/charts.js)."""
    page.evaluate("document.querySelectorAll('details.facet-fold').forEach((fold) => { fold.open = true; })")


def read_by_keys(page, canvas: str) -> list[str]:
    """What a chart says from the keyboard (site/assets/js/chart-keys.js): focus its canvas (the first
    ``canvas`` matches) and walk it with the right arrow from the first point to the last, reading the
    live region after the canvas at each point."""
    chart = page.locator(canvas).first
    # drawn (its figure's data-drawn), so that its keys are listened to: the drawing modules are imported
    # after the page loads (site.js), and End pressed before them did nothing (a flaky test)
    page.wait_for_function("(c) => c.closest('figure')?.dataset.drawn !== undefined", arg=chart.element_handle())
    chart.focus()
    page.keyboard.press("End")
    last = int(chart.get_attribute("data-point"))
    page.keyboard.press("Home")
    texts = []
    for at in range(last + 1):
        if at:
            page.keyboard.press("ArrowRight")
        assert chart.get_attribute("data-point") == str(at)
        texts.append(chart.evaluate("c => c.nextElementSibling.textContent"))
    return texts
