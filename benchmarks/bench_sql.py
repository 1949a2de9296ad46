"""/sql/ in headless Chromium: what a first visit downloads (the page, its script, DuckDB-WASM's module
and worker, and the ranges of the database file a query reads) and the time from navigation to DuckDB
ready and to the query's result, for a query on one study's interval samples, one on the largest
study's, a query that names no table, and each example query. Serves the built site (``public/``, or
--site PUBLIC) as the tests do, under its CSP and with range requests (tests/conftest.py). Prints
figures; asserts nothing.

    .venv/bin/python benchmarks/bench_sql.py [--site PUBLIC] [--runs 3]
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
from ingest.publish.sql_page import FILE, examples  # noqa: E402

QUERIES = {
    "one run's samples (intervals, one study)": (
        "SELECT t_s, threads, tps, qps, latency_ms FROM intervals WHERE study = 'measured-mariadb-2core-vm' "
        "AND artifact = 'dw-off-compressed-oltp-read-write-t1-r1' ORDER BY t_s"),
    "every column of one study's samples": "SELECT * FROM intervals WHERE study = 'measured-mariadb-2core-vm'",
    "every column of a Percona study's samples": (
        "SELECT * FROM intervals WHERE study = 'percona-mysql-checkpoint-io-capacity-ssd-2020'"),
    "the largest study's samples, summed": (
        "SELECT artifact, count(*) AS samples, round(avg(tps), 1) AS tps FROM intervals "
        "WHERE study = 'percona-innodb-ebs-io1-gp2-scaling-2018' GROUP BY artifact ORDER BY artifact"),
    "a query that names no table": "SELECT 6 * 7 AS answer",
    **{f"example {e.id}": e.sql for e in examples()},
}


def _kind(path: str) -> str:
    return ("database" if path == FILE else "wasm" if path.endswith(".wasm") else
            "worker" if path.endswith(".worker.js") else "script" if path.endswith(".js") else "page and CSS")


def first_visit(browser, base: str, public: Path, query: str) -> tuple[dict, int, float, float]:
    """(bytes by kind but the database: raw and gzip, bytes of the database fetched, its requests, ms to
    ready, ms to the result) of one visit with an empty cache."""
    context = browser.new_context()
    page = context.new_page()
    fetched: list[tuple[str, int]] = []
    context.on("requestfinished", lambda r: fetched.append((urllib.parse.urlparse(r.url).path, r.sizes()["responseBodySize"])))
    page.goto(f"{base}/sql/?{urllib.parse.urlencode({'q': query})}")
    page.wait_for_selector("#sql-result:not([hidden]), #sql-error:not([hidden])", timeout=120_000)
    if page.is_visible("#sql-error"):
        raise SystemExit(f"{query}: {page.inner_text('#sql-error')}")
    ready, result = page.evaluate("""() => ['sql-ready', 'sql-first-result']
        .map((name) => performance.getEntriesByName(name)[0].startTime)""")
    context.close()
    sizes: dict[str, list[int]] = {}
    database = [size for path, size in fetched if path == FILE]
    for path in {path for path, _ in fetched if path != FILE}:
        file = public / path.lstrip("/")
        data = (file / "index.html" if file.is_dir() else file).read_bytes()
        raw, zipped = sizes.setdefault(_kind(path), [0, 0])
        sizes[_kind(path)] = [raw + len(data), zipped + len(gzip.compress(data, 6))]
    return sizes, sum(database), len(database), ready, result


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--site", type=Path, default=ROOT / "public")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    public = args.site.resolve()
    server = serve_folder(public)
    base = f"http://127.0.0.1:{server.server_port}"
    whole = (public / FILE.lstrip("/")).stat().st_size
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            runs = {name: [first_visit(browser, base, public, sql) for _ in range(args.runs)] for name, sql in QUERIES.items()}
            browser.close()
    finally:
        server.shutdown()
    sizes = next(iter(runs.values()))[0][0]
    for kind, (raw, zipped) in sorted(sizes.items()):
        print(f"{kind}: {raw / 1024:,.0f} KB ({zipped / 1024:,.0f} KB gzip)")
    ready = [r[3] for visits in runs.values() for r in visits]
    print(f"DuckDB ready (module fetched and compiled, the database attached): median {statistics.median(ready):.0f} ms "
          f"after navigation start, {min(ready):.0f} to {max(ready):.0f} ms over {len(ready)} visits")
    print(f"the database file: {whole / 2**20:.1f} MB; what each query fetched of it (by range requests) and "
          f"its result's time after navigation start, median of {args.runs} visits:")
    for name, visits in runs.items():
        fetched = sorted(r[1] for r in visits)
        result = [r[4] for r in visits]
        print(f"  {name}: {fetched[len(fetched) // 2] / 2**20:.2f} MB in {visits[0][2]} requests"
              f"{'' if fetched[0] == fetched[-1] else f' ({fetched[0] / 2**20:.2f} to {fetched[-1] / 2**20:.2f})'}, "
              f"result at {statistics.median(result):.0f} ms ({min(result):.0f} to {max(result):.0f})")


if __name__ == "__main__":
    main()
