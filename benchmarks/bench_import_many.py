"""`benchdb import` of a folder of many small logs, the shape of a sweep (res_iops<N>.log, one system a
file). Prints figures; asserts nothing.

Writes N copies of tests/fixtures/cited-repo/runs/ro 16#/sysbench.log named res_iops0.log ... into a
temporary folder of the project, then times each step import takes on them in this process: the scan
(every file parsed), the grouping into systems, the bundle's document and its YAML text. At 20,000 logs
the text passes the 4 MiB a bundle.yaml may be, which import says before it writes the file.

    .venv/bin/python benchmarks/bench_import_many.py [--logs 20000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy's

from ingest.contribute import importer  # noqa: E402
from ingest.contribute.bundle_writer import dump  # noqa: E402

LOG = ROOT / "tests" / "fixtures" / "cited-repo" / "runs" / "ro 16#" / "sysbench.log"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=20_000)
    args = parser.parse_args()
    data = LOG.read_bytes()
    with tempfile.TemporaryDirectory(prefix="bench-import-many-", dir=ROOT) as tmp:
        folder = Path(tmp) / "runs"
        folder.mkdir()
        for i in range(args.logs):
            (folder / f"res_iops{i}.log").write_bytes(data)
        times = {}
        start = time.perf_counter()
        found = importer.scan(folder)
        times["scan"] = time.perf_counter() - start
        start = time.perf_counter()
        grouping = importer.group(runs=found.runs, reads=found.settings, root=folder)
        times["grouping"] = time.perf_counter() - start
        start = time.perf_counter()
        doc = importer.bundle_doc(found, bundle_id="many", folder_name=folder.name, answers={}, grouping=grouping)
        times["document"] = time.perf_counter() - start
        start = time.perf_counter()
        text = dump(doc)
        times["YAML text"] = time.perf_counter() - start
    print(f"{args.logs:,} logs, {len(found.runs):,} runs in {len(grouping.systems):,} systems, bundle.yaml "
          f"{len(text.encode()):,} bytes: " + "; ".join(f"{k} {v:.1f} s" for k, v in times.items())
          + f"; {sum(times.values()):.1f} s in all")


if __name__ == "__main__":
    main()
