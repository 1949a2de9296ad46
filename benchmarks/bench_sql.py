"""/sql/ in headless Chromium: what a first visit downloads (the page, its script, DuckDB-WASM's module
and worker, the tables the query names) and the time from navigation to DuckDB ready and to the first
result of an example query. Serves the built site (``public/``, or --site PUBLIC) as the tests do, under its CSP.
Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_sql.py [--site PUBLIC] [--runs 5]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy's

from conftest import CHROMIUM, CHROMIUM_ARGS, serve_folder  # noqa: E402
from ingest.publish.sql_page import examples  # noqa: E402


def first_visit(browser, base: str, public: Path, query: str) -> tuple[dict, float, float]:
    """(bytes by kind: raw and gzip, ms to ready, ms to first result) of one visit with an empty cache."""
    context = browser.new_context()
    page = context.new_page()
    fetched: list[str] = []
    page.on("requestfinished", lambda r: fetched.append(r.url))
    page.goto(f"{base}/sql/?{urllib.parse.urlencode({'q': query})}")
    page.wait_for_selector("#sql-result:not([hidden])", timeout=120_000)
    ready, result = page.evaluate("""() => ['sql-ready', 'sql-first-result']
        .map((name) => performance.getEntriesByName(name)[0].startTime)""")
    context.close()
    sizes: dict[str, list[int]] = {}
    for url in fetched:
        path = urllib.parse.urlparse(url).path
        file = public / path.lstrip("/")
        if file.is_dir():
            file = file / "index.html"
        kind = ("wasm" if path.endswith(".wasm") else "worker" if path.endswith(".worker.js") else
                "tables" if path.endswith(".arrow") else "script" if path.endswith(".js") else "page and CSS")
        data = file.read_bytes()
        raw, zipped = sizes.setdefault(kind, [0, 0])
        sizes[kind] = [raw + len(data), zipped + len(gzip.compress(data, 6))]
    return sizes, ready, result


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--site", type=Path, default=ROOT / "public")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    public = args.site.resolve()
    server = serve_folder(public)
    base = f"http://127.0.0.1:{server.server_port}"
    query = examples()[0].sql
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            runs = [first_visit(browser, base, public, query) for _ in range(args.runs)]
            browser.close()
    finally:
        server.shutdown()
    sizes = runs[0][0]
    for kind, (raw, zipped) in sorted(sizes.items()):
        print(f"{kind}: {raw / 1024:,.0f} KB ({zipped / 1024:,.0f} KB gzip)")
    total = [sum(v[i] for v in sizes.values()) for i in (0, 1)]
    print(f"total: {total[0] / 1024 / 1024:.1f} MB ({total[1] / 1024 / 1024:.1f} MB gzip)")
    ready = [r[1] for r in runs]
    result = [r[2] for r in runs]
    print(f"DuckDB ready (module fetched and compiled): median {statistics.median(ready):.0f} ms "
          f"after navigation start, {min(ready):.0f} to {max(ready):.0f} ms over {len(runs)} runs")
    print(f"first result of the example '{examples()[0].id}' (its tables fetched and loaded): "
          f"median {statistics.median(result):.0f} ms, "
          f"{min(result):.0f} to {max(result):.0f} ms")


if __name__ == "__main__":
    main()
