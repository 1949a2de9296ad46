"""Build time and memory at community scale. Prints figures; asserts nothing.

Makes N bundles in a temporary copy of the project by copying the project's own bundles under new ids
(so a fifth of them carry sysbench logs, as data/ does today), builds the site from them phase by
phase (validate and derive, load, export, embeds in Node, Hugo) and prints each phase's wall time and
the peak memory so far of this process and of its largest child (Node, Hugo), with the growth from the
smallest N to the largest.

    .venv/bin/python benchmarks/bench_build.py [--sizes 100,1000]
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from conftest import copy_project  # noqa: E402
from ingest.build import Layout, render_embeds, run_hugo  # noqa: E402
from ingest.load import build_database  # noqa: E402
from ingest.publish import export_all  # noqa: E402
from ingest.validate import validate_paths  # noqa: E402


def _peaks() -> tuple[float, float]:
    """Peak resident memory so far, in GiB: this process, and its largest finished child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    return own, child


def make_bundles(layout: Layout, n: int) -> None:
    """Replace data/ with n bundles: the project's own, copied round-robin under new ids."""
    originals = sorted(p for p in layout.data.iterdir() if (p / "bundle.yaml").is_file())
    staging = layout.root / "originals"
    shutil.move(layout.data, staging)
    layout.data.mkdir()
    for i in range(n):
        source = staging / originals[i % len(originals)].name
        new_id = f"{source.name}-{i:05d}"
        target = layout.data / new_id
        shutil.copytree(source, target)
        text = (target / "bundle.yaml").read_text(encoding="utf-8")
        (target / "bundle.yaml").write_text(re.sub(r"(?m)^id: .*$", f"id: {new_id}", text, count=1),
                                            encoding="utf-8")
    shutil.rmtree(staging)


def build_in_phases(layout: Layout) -> list[tuple[str, float]]:
    times = []
    t = time.perf_counter()
    bundles, problems = validate_paths([layout.data])
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise SystemExit(f"{len(errors)} errors, first: {errors[0]}")
    times.append(("validate and derive", time.perf_counter() - t))
    t = time.perf_counter()
    build_database(bundles, db_path=layout.database)
    times.append(("load", time.perf_counter() - t))
    t = time.perf_counter()
    export_all(db_path=layout.database, out_dir=layout.export)
    times.append(("export", time.perf_counter() - t))
    t = time.perf_counter()
    render_embeds(layout, export_dir=layout.export)
    times.append(("embeds (node)", time.perf_counter() - t))
    t = time.perf_counter()
    done = run_hugo(layout, "--destination", str(layout.public))
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    times.append(("hugo", time.perf_counter() - t))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000", help="bundle counts, comma-separated")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    totals = {}
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
            layout = copy_project(Path(tmp) / "project")
            make_bundles(layout, n)
            start = time.perf_counter()
            phases = build_in_phases(layout)
            totals[n] = time.perf_counter() - start
            own, child = _peaks()
            print(f"{n:6d} bundles: {totals[n]:7.1f} s in all; " +
                  "; ".join(f"{name} {seconds:.1f} s" for name, seconds in phases) +
                  f"; peak memory so far: this process {own:.2f} GiB, largest child {child:.2f} GiB", flush=True)
    if len(sizes) > 1:
        low, high = min(sizes), max(sizes)
        print(f"growth from {low} to {high} bundles: {totals[high] / totals[low]:.1f}x for {high / low:.0f}x the bundles")


if __name__ == "__main__":
    main()
