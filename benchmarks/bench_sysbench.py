"""Parse speed of the sysbench ingestor against a bare line scan of the same files.

Generates interval-heavy sysbench 1.0 logs (default 1 GiB in total, in a temporary folder),
then in the same run times (a) a bare scan that reads and splits every line, and (b) the
parser, at two input sizes to show whether time grows linearly. Prints MB/s; asserts nothing.

    .venv/bin/python benchmarks/bench_sysbench.py [--mb 1024] [--file-mb 16]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's code, not an installed copy's
from ingest.parsers.sysbench_runs import parse_file  # noqa: E402

HEADER = """sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 64
Report intermediate results every 1 second(s)
Initializing random number generator from current time


Initializing worker threads...

Threads started!

"""
FOOTER = """SQL statistics:
    queries performed:
        read:                            {r}
        write:                           {w}
        other:                           {o}
        total:                           {q}
    transactions:                        {tx}   ({tps:.2f} per sec.)
    queries:                             {q} ({qps:.2f} per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          {t:.4f}s
    total number of events:              {tx}

Latency (ms):
         min:                                    1.10
         avg:                                   {avg:.2f}
         max:                                  250.10
         95th percentile:                       12.08
         sum:                             {sum:.2f}

Threads fairness:
    events (avg/stddev):           {ea:.4f}/3.03
    execution time (avg/stddev):   {t:.4f}/0.11
"""


def make_log(path: Path, *, target_bytes: int, rng: random.Random) -> None:
    lines = [HEADER]
    size, t = len(HEADER), 0
    while size < target_bytes:
        t += 1
        tps = rng.uniform(5000, 6000)
        r, w, o = tps * 14, tps * 4, tps * 2
        line = (f"[ {t}s ] thds: 64 tps: {tps:.2f} qps: {r + w + o:.2f} (r/w/o: {r:.2f}/{w:.2f}/{o:.2f}) "
                f"lat (ms,95%): {rng.uniform(10, 14):.2f} err/s: 0.00 reconn/s: 0.00\n")
        lines.append(line)
        size += len(line)
    tx = int(5500 * t)
    avg = 64 / 5500 * 1000
    lines.append(FOOTER.format(r=tx * 14, w=tx * 4, o=tx * 2, q=tx * 20, tx=tx, tps=tx / t, qps=tx * 20 / t,
                               t=float(t), avg=avg, sum=avg * tx, ea=tx / 64))
    path.write_text("".join(lines), encoding="utf-8")


def bare_scan(files: list[Path]) -> int:
    count = 0
    for f in files:
        for _ in f.read_bytes().decode("utf-8").split("\n"):
            count += 1
    return count


def timed(fn, files):
    start = time.perf_counter()
    result = fn(files)
    return time.perf_counter() - start, result


def parse_all(files: list[Path]) -> int:
    return sum(table.num_rows for f in files for table in parse_file(f)["intervals"].tables())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=1024, help="total size of the generated logs (MiB)")
    ap.add_argument("--file-mb", type=int, default=16, help="size of each log (MiB)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-sysbench-"))
    try:
        rng = random.Random(42)
        count = max(2, args.mb // args.file_mb)
        files = []
        for i in range(count):
            path = folder / f"run-{i:04d}.log"
            make_log(path, target_bytes=args.file_mb * 1024 * 1024, rng=rng)
            files.append(path)
        total = sum(f.stat().st_size for f in files) / 1e6
        print(f"generated {len(files)} logs, {total:.0f} MB in {folder}")
        for share in (0.5, 1.0):
            subset = files[: max(1, int(len(files) * share))]
            size = sum(f.stat().st_size for f in subset) / 1e6
            scan_s, lines = timed(bare_scan, subset)
            parse_s, samples = timed(parse_all, subset)
            print(f"{size:8.0f} MB  bare line scan {size / scan_s:7.1f} MB/s ({scan_s:6.2f} s, {lines} lines)  "
                  f"parser {size / parse_s:6.1f} MB/s ({parse_s:6.2f} s, {samples} interval samples)  "
                  f"ratio {scan_s / parse_s:.3f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
