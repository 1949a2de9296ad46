"""Peak memory of validating and loading one big sysbench log (default 200 MB).

Writes a bundle holding one interval-heavy sysbench 1.0 log in a temporary folder, then, in a fresh
Python process, validates it and loads it into DuckDB as a build does (its entry in a cache, then the
database from it, runs graded), and prints the process's peak resident memory (VmHWM) after each
step, with the time taken. Then it builds the site (`benchdb build`, from an
empty cache) from a copy of the project with that bundle added, and prints the build's time and the
peak memory of its largest process. Asserts nothing.

    .venv/bin/python benchmarks/bench_biglog.py [--mb 200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_sysbench import make_log

BUNDLE = """\
schema_version: 2
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

PAGE = os.sysconf("SC_PAGE_SIZE")

# Run in the child: validate, then load, as a build does (stage.py: validate and write the bundle's
# entry; then the database from the entries), reporting peak RSS (VmHWM) after each.
CHILD = """
import json, sys, time
from pathlib import Path
from ingest.database.stage import build_database_from, stage_bundles

def peak_mb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

folder, db = Path(sys.argv[1]), Path(sys.argv[2])
out = {"start_mb": peak_mb()}
start = time.perf_counter()
staged, problems, _ = stage_bundles([folder], cache=db.parent / "cache")
errors = [str(p) for p in problems if p.severity == "error"]
out.update(validate_s=time.perf_counter() - start, validate_mb=peak_mb(), errors=errors)
start = time.perf_counter()
if staged:
    build_database_from(staged, db_path=db)
    import duckdb
    with duckdb.connect(str(db), read_only=True) as con:
        out["samples"] = con.execute("SELECT count(*) FROM intervals").fetchone()[0]
out.update(load_s=time.perf_counter() - start, load_mb=peak_mb())
print(json.dumps(out))
"""


def largest_process(process: subprocess.Popen, *, every: float = 0.02) -> tuple[float, str]:
    """Until ``process`` ends, the resident memory of it and of each of its descendants, sampled every
    ``every`` seconds: the highest (MB) and the command that had it. (Not this process's
    RUSAGE_CHILDREN: a child started while this process was large counts this process's size, as
    its memory was this process's until it started its program.)"""
    highest, command = 0, ""
    while process.poll() is None:
        parents: dict[int, list[int]] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    with open(f"/proc/{entry.name}/stat", "rb") as f:
                        parents.setdefault(int(f.read().rsplit(b")", 1)[1].split()[1]), []).append(int(entry.name))
                except OSError:  # ended meanwhile
                    continue
        todo = [process.pid]
        while todo:
            pid = todo.pop()
            todo.extend(parents.get(pid, ()))
            try:
                with open(f"/proc/{pid}/statm", "rb") as f:
                    resident = int(f.read().split()[1]) * PAGE
                if resident > highest:
                    with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
                        highest, command = resident, f.read().strip()
            except OSError:
                pass
        time.sleep(every)
    return highest / 2**20, command


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
        got.setdefault("samples", None)
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
        build = subprocess.Popen([str(Path(sys.executable).parent / "benchdb"), "build"], cwd=project.root,
                                 stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(root)})  # this checkout's code
        peak, command = largest_process(build)
        if build.returncode:
            raise SystemExit(f"benchdb build failed ({build.returncode})")
        print(f"benchdb build  peak {peak:6.0f} MB  ({time.perf_counter() - start:.1f} s, the project's bundles "
              f"and this one, empty cache; the largest process of the build: {command})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
