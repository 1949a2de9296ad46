"""The figures files at 10,000 bundles and more, read as they are (issue #60's plan past one machine:
docs/performance.md, "To 100,000 studies"). Prints figures; asserts nothing.

Lays out the figures files of N bundles in a temporary folder as data/ holds them (<study>/cited/<id>.parquet):
as in bench_build.py, a fifth of the bundles carry logs, here each the figures files of one of data/'s cited
studies in turn, hard links to data/'s own (so the disk holds them once; the reads are DuckDB's
decoding, from the page cache), then times, with DuckDB over the files' glob and no database loaded:

1. every sample of every study: count and mean tps (the scan a site-wide aggregate makes);
2. one study's samples, named by its folder (what a study page or a query on one study reads);
3. the run's figures of every file, from the files' metadata alone (`parquet_kv_metadata`).

    .venv/bin/python benchmarks/bench_figures_scale.py [--bundles 10000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402

from ingest.bundles.cited import FOLDER, SUFFIX  # noqa: E402
from schema.figures import RUN_KEY  # noqa: E402


def lay_out(folder: Path, bundles: int) -> tuple[int, int]:
    """The figures folders of a fifth of N bundles, each the files of one of data/'s cited studies in turn;
    the number of files and their bytes."""
    studies = sorted({p.parent.parent for p in (ROOT / "data").glob(f"*/{FOLDER}/*{SUFFIX}")})
    files = size = 0
    for i in range(4, bundles, 5):
        source = studies[(i // 5) % len(studies)]
        target = folder / f"{source.name}-{i:05d}" / FOLDER
        target.mkdir(parents=True)
        for path in (source / FOLDER).glob(f"*{SUFFIX}"):
            os.link(path, target / path.name)
            files += 1
            size += path.stat().st_size
    return files, size


def timed(con: duckdb.DuckDBPyConnection, sql: str, runs: int) -> tuple[float, tuple]:
    times, row = [], None
    for _ in range(runs):
        t = time.perf_counter()
        row = con.execute(sql).fetchone()
        times.append(time.perf_counter() - t)
    return statistics.median(times), row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundles", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:  # on the project's disk, as a checkout's data/ is
        folder = Path(tmp)
        t = time.perf_counter()
        files, size = lay_out(folder, args.bundles)
        print(f"{args.bundles:,} bundles: {files:,} figures files, {size / 1e9:.2f} GB as written "
              f"(laid out in {time.perf_counter() - t:.1f} s)")
        every = (folder / "*" / FOLDER / f"*{SUFFIX}").as_posix()
        one = sorted(folder.iterdir())[0]
        con = duckdb.connect()
        con.execute(f"SET threads = {os.cpu_count()}")
        seconds, row = timed(con, f"SELECT count(*), avg(tps) FROM read_parquet('{every}')", args.runs)
        print(f"1. every sample: {row[0]:,} samples, mean tps {row[1]:.2f}: {seconds:.2f} s "
              f"({row[0] / seconds / 1e6:.1f} million samples/s), median of {args.runs}")
        path = (one / FOLDER / f"*{SUFFIX}").as_posix()
        seconds, row = timed(con, f"SELECT count(*), avg(tps) FROM read_parquet('{path}')", args.runs)
        print(f"2. one study ({one.name}): {row[0]:,} samples: {seconds * 1000:.1f} ms, median of {args.runs}")
        seconds, row = timed(con, f"SELECT count(*), sum(octet_length(value)) FROM parquet_kv_metadata('{every}') "
                                  f"WHERE key = '{RUN_KEY}'", args.runs)
        print(f"3. the run's figures of every file: {row[0]:,} runs, {row[1] / 1e6:.1f} MB of JSON: "
              f"{seconds:.2f} s, median of {args.runs}")


if __name__ == "__main__":
    main()
