"""A figures file at the limit of its samples (ingest/bundles/cited.py: MAX_SAMPLES), read as validate reads
it. Prints figures; asserts nothing.

Writes, with ``write_figures``, the run of tests/fixtures/cited-repo/runs/ro 16#/sysbench.log with N
interval samples (10 s apart, tps drawn around 2,400 from a seeded generator: numbers that compress as a
real log's do, about 11 bytes a sample), then reads it with ``read_figures`` in a fresh process for each
of --runs, printing the file's size, the CPU time of the read and the process's peak resident memory.

    .venv/bin/python benchmarks/bench_figures_limit.py [--samples N] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy's

from ingest.bundles.cited import MAX_SAMPLES  # noqa: E402

LOG = ROOT / "tests" / "fixtures" / "cited-repo" / "runs" / "ro 16#" / "sysbench.log"
ORIGIN = {"result": "limit", "sha256": "0" * 64}  # what the file says it is of, and is read as
# the process's peak resident memory: VmHWM, which starts anew at exec (ru_maxrss keeps the parent's)
READ = """
import json, re, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from ingest.bundles.cited import read_figures
def peak():
    with open("/proc/self/status") as f:
        return int(re.search(r"VmHWM:\\s+(\\d+) kB", f.read()).group(1)) / 1024
before = peak()
start = time.process_time()
run, problems = read_figures(Path(sys.argv[2]), origin=json.loads(sys.argv[3]))
print(json.dumps({"cpu_s": time.process_time() - start, "peak_mib": peak(), "imports_mib": before,
                  "read": run is not None, "problems": [p.message for p in problems]}))
"""


def write(path: Path, samples: int) -> None:
    import numpy as np
    import pyarrow as pa

    from ingest.bundles.cited import write_figures
    from ingest.parsers.sysbench_intervals import IntervalColumns
    from ingest.parsers.sysbench_runs import parse_file

    run = parse_file(LOG)
    first = run["lines"][0] + 13
    step = np.arange(1, samples + 1, dtype=np.int64)
    tps = np.round(2400 + np.random.default_rng(1).normal(0, 20, samples), 2)
    table = pa.table({"t_s": step * 10, "threads": np.full(samples, 16), "tps": tps, "qps": tps * 16,
                      "reads_s": tps * 14, "writes_s": np.zeros(samples), "other_s": tps * 2,
                      "latency_pct": np.full(samples, 95), "latency_ms": np.full(samples, 8.3),
                      "errors_s": np.zeros(samples), "reconnects_s": np.zeros(samples)})
    run["intervals"] = intervals = IntervalColumns()
    intervals.add_part(table, range(first, first + samples))
    run["lines"] = [run["lines"][0], first + samples]
    run["source_lines"] = {k: 0 for k in run["source_lines"]}
    run["histogram"] = []
    run["interval_tps_cv"] = round(float(np.std(tps) / np.mean(tps)), 4)
    write_figures(run, path, origin=ORIGIN)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=MAX_SAMPLES)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-figures-limit-", dir=ROOT) as tmp:
        path = Path(tmp) / "limit.parquet"
        write(path, args.samples)
        size = path.stat().st_size
        reads = [json.loads(subprocess.run([sys.executable, "-c", READ, str(ROOT), str(path), json.dumps(ORIGIN)], check=True,
                                           capture_output=True, text=True).stdout) for _ in range(args.runs)]
    cpu = [r["cpu_s"] for r in reads]
    peak = [r["peak_mib"] for r in reads]
    print(f"{args.samples:,} samples, {size / 1e6:.1f} MB ({size / args.samples:.1f} bytes a sample); read "
          f"{'whole' if all(r['read'] for r in reads) else 'refused: ' + '; '.join(reads[0]['problems'])}")
    print(f"read_figures over {args.runs} runs: CPU median {statistics.median(cpu):.2f} s ({min(cpu):.2f} to "
          f"{max(cpu):.2f}); peak resident memory median {statistics.median(peak):.0f} MiB (imports alone "
          f"{reads[0]['imports_mib']:.0f} MiB)")


if __name__ == "__main__":
    main()
