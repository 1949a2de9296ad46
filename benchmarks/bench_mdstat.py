"""Time to parse an mdstat trace of 100,000 snapshots, next to a bare line scan of the same file.

The trace is generated: a RAID 6 array recovering one member plus an optimal RAID 1, one sample
every 5 seconds, as the common capture loop writes it, with figures that keep the kernel's relations
(6 data devices of the recovered size, percent and finish truncated, the bar from the percent). Prints seconds; asserts nothing.

    .venv/bin/python benchmarks/bench_mdstat.py [--snapshots 100000]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's code, not an installed copy's
from ingest.parsers.mdstat_trace import parse_trace  # noqa: E402

SNAPSHOT = """Personalities : [raid1] [raid6] [raid5] [raid4]
md6 : active raid6 nvme7n1[8] nvme6n1[6] nvme5n1[5] nvme4n1[4] nvme3n1[3] nvme2n1[2] nvme1n1[1] nvme0n1[0]
      22503207936 blocks super 1.2 level 6, 4k chunk, algorithm 2 [8/7] [_UUUUUUU]
      [{bar}]  recovery = {pct:4.1f}% ({done}/{total}) finish={finish:.1f}min speed={speed}K/sec
      bitmap: 3/28 pages [12KB], 65536KB chunk

md0 : active raid1 sdb1[1] sda1[0]
      976630464 blocks super 1.2 [2/2] [UU]

unused devices: <none>
"""


def make_trace(path: Path, snapshots: int) -> None:
    total = 3750534656
    start = datetime(2024, 5, 1, 12, 0, 0, tzinfo=timezone.utc)
    speed = max(1, total // (snapshots * 5))
    with path.open("w", encoding="utf-8") as out:
        for i in range(snapshots):
            done = min(total, i * 5 * speed)
            per_milli = done * 1000 // total  # truncated as the kernel's status_resync does, finish too
            bar = "=" * (per_milli // 50) + ">" + "." * (20 - per_milli // 50)
            out.write((start + timedelta(seconds=5 * i)).isoformat() + "\n")
            out.write(SNAPSHOT.format(bar=bar, pct=per_milli / 10, done=done, total=total,
                                      finish=(total - done) // speed // 6 / 10, speed=speed))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--snapshots", type=int, default=100_000)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-mdstat-"))
    try:
        path = folder / "mdstat.trace"
        make_trace(path, args.snapshots)
        size = path.stat().st_size / 1e6
        start = time.perf_counter()
        lines = sum(1 for _ in path.read_text(encoding="utf-8").split("\n"))
        scan = time.perf_counter() - start
        start = time.perf_counter()
        result = parse_trace(path)
        parse = time.perf_counter() - start
        print(f"{args.snapshots} snapshots, {size:.0f} MB, {lines} lines")
        print(f"bare line scan {scan:6.2f} s   parse_trace {parse:6.2f} s   "
              f"({len(result['snapshots'])} snapshots, {len(result['arrays']['md6']['throughput'])} throughput "
              f"samples, {len(result['warnings'])} warnings)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
