"""Peak memory of validating and loading one big sysbench log (default 200 MB).

Writes a bundle holding one interval-heavy sysbench 1.0 log in a temporary folder, then, in a fresh
Python process, validates it and loads it into DuckDB, and prints the process's peak resident memory
(VmHWM) after each step, with the time taken. Then it builds the site (`benchdb build`, from an
empty cache) from a copy of the project with that bundle added, and prints the build's time and the
peak memory of its largest process. Asserts nothing.

    .venv/bin/python benchmarks/bench_biglog.py [--mb 200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_sysbench import make_log

BUNDLE = """\
schema_version: 1
id: big-log
title: "One big sysbench log"
summary: A generated interval-heavy sysbench 1.0 log, for measuring memory.
sources:
  - {id: gen, publisher: benchmarks/bench_biglog.py, title: generated, language: en, identifier: generated}
systems:
  - id: box
    label: Box
    storage: {product: not described, vendor: not described, kind: device}
    protocol: local
    database: {engine: MariaDB, version: not described}
    host: {cpu: not described}
workloads:
  - {id: oltp, tool: sysbench, test: oltp_read_write}
results:
  - {type: artifact, id: big-run, format: sysbench, path: artifacts/big.log, system: box, state: optimal}
"""

# Run in the child: validate, then load, reporting peak RSS (VmHWM) after each.
CHILD = """
import json, sys, time
from pathlib import Path
from ingest.load import build_database
from ingest.validate import validate_paths

def peak_mb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

folder, db = Path(sys.argv[1]), Path(sys.argv[2])
out = {"start_mb": peak_mb()}
start = time.perf_counter()
bundles, problems = validate_paths([folder])
errors = [str(p) for p in problems if p.severity == "error"]
out.update(validate_s=time.perf_counter() - start, validate_mb=peak_mb(), errors=errors,
           samples=len(bundles[0].artifacts["big-run"]["intervals"]) if bundles else None)
start = time.perf_counter()
if bundles:
    build_database(bundles, db_path=db)
out.update(load_s=time.perf_counter() - start, load_mb=peak_mb())
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=200, help="size of the log (MB)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-biglog-"))
    try:
        bundle = folder / "big-log"
        (bundle / "artifacts").mkdir(parents=True)
        (bundle / "bundle.yaml").write_text(BUNDLE, encoding="utf-8")
        log = bundle / "artifacts" / "big.log"
        make_log(log, target_bytes=args.mb * 1_000_000, rng=random.Random(7))
        root = Path(__file__).resolve().parents[1]
        done = subprocess.run([sys.executable, "-c", CHILD, str(bundle), str(folder / "big.duckdb")], cwd=root,
                              capture_output=True, text=True, check=True)
        got = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"log {log.stat().st_size / 1e6:.0f} MB, {got['samples']} interval samples; "
              f"errors: {got['errors'] or 'none'}")
        print(f"after imports  peak {got['start_mb']:6.0f} MB")
        print(f"validate       peak {got['validate_mb']:6.0f} MB  ({got['validate_s']:.1f} s)")
        print(f"validate+load  peak {got['load_mb']:6.0f} MB  ({got['load_s']:.1f} s load)")
        sys.path.insert(0, str(root / "tests"))
        from conftest import copy_project

        project = copy_project(folder / "project")
        shutil.copytree(bundle, project.data / bundle.name)
        start = time.perf_counter()
        subprocess.run([str(Path(sys.executable).parent / "benchdb"), "build"], cwd=project.root, check=True,
                       capture_output=True, env={**os.environ, "PYTHONPATH": str(root)})  # this checkout's code
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"benchdb build  peak {peak:6.0f} MB  ({time.perf_counter() - start:.1f} s, the project's bundles "
              "and this one, empty cache; the largest process of the build)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
