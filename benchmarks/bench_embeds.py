"""The embed renderer alone: charts a second cold (empty cache) and warm (every chart cached), with the
Node process's peak memory and CPU time. Prints figures; asserts nothing.

The charts come from the specs an export wrote (build/export/embed-specs/, or one file of it), or from an export of
N bundles made as bench_build.py makes them. Each run is a process of its own, so that the peak memory
said is that run's Node process (with its worker threads).

    .venv/bin/python benchmarks/bench_embeds.py --specs build/export/embed-specs [--first 150]
    .venv/bin/python benchmarks/bench_embeds.py --bundles 200
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy's

from ingest.publish import embed_specs  # noqa: E402
from ingest.build.site import Layout  # noqa: E402
from ingest.build.embed_render import render_embeds  # noqa: E402


def one_run(root: Path, name: str) -> dict:
    """Render the specs in root/<name>/ into it with root/build/cache (run in a process of its own)."""
    start = time.perf_counter()
    counts = render_embeds(Layout(root), export_dir=root / name, quiet=True)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"seconds": seconds, "drawn": counts.made, "cached": counts.cached,
            "node_peak_mib": usage.ru_maxrss / 1024, "node_cpu_s": usage.ru_utime + usage.ru_stime}


def specs_of_bundles(n: int, tmp: Path) -> Path:
    """An export of n bundles, as bench_build.py builds it; returns its folder of specs."""
    from bench_build import make_bundles
    from conftest import copy_project
    from ingest.database.load import build_database
    from ingest.publish import export_all
    from ingest.bundles.validate import validate_paths

    layout = copy_project(tmp / "project")
    make_bundles(layout, n)
    bundles, _ = validate_paths([layout.data])
    build_database(bundles, db_path=layout.database)
    export_all(db_path=layout.database, out_dir=layout.export, bundles=layout.data)
    return layout.export / embed_specs.FOLDER


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--specs", type=Path, help="an export's embed-specs folder, or a file of it (read, never changed)")
    source.add_argument("--bundles", type=int, help="make an export of this many bundles")
    parser.add_argument("--first", type=int, help="only the first this many charts")
    parser.add_argument("--one", nargs=2, metavar=("ROOT", "NAME"), help=argparse.SUPPRESS)
    if "--one" in sys.argv:  # a run in its own process: print its figures as JSON
        root, name = sys.argv[sys.argv.index("--one") + 1:][:2]
        print(json.dumps(one_run(Path(root), name)))
        return
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-embeds-") as tmp:
        root = Path(tmp)
        specs = args.specs or specs_of_bundles(args.bundles, root)
        read = embed_specs.read_each if specs.is_dir() else embed_specs.read
        charts = [text.decode("utf-8") for _, text in read(specs)][:args.first]
        for name in ("site", "node_modules"):
            (root / name).symlink_to(ROOT / name)
        for run in ("cold", "warm"):
            (root / run / embed_specs.FOLDER).mkdir(parents=True)
            embed_specs.write(root / run / embed_specs.FOLDER / "charts.json", charts)
            done = subprocess.run([sys.executable, __file__, "--one", str(root), run], capture_output=True,
                                  text=True, check=False)
            if done.returncode != 0:
                raise SystemExit(done.stderr[-2000:])
            figures = json.loads(done.stdout.splitlines()[-1])
            node = (f"Node: peak {figures['node_peak_mib']:.0f} MiB, CPU {1000 * figures['node_cpu_s'] / len(charts):.1f} "
                    "ms a chart" if figures["drawn"] else "Node not started")
            print(f"{run}: {len(charts)} charts ({figures['drawn']} drawn, {figures['cached']} cached) in "
                  f"{figures['seconds']:.2f} s: {len(charts) / figures['seconds']:.1f} charts/s, "
                  f"{1000 * figures['seconds'] / len(charts):.2f} ms a chart; {node}", flush=True)


if __name__ == "__main__":
    main()
