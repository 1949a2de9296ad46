"""What data/ weighs for what it holds (issue #60's bar: at most 40 bytes an interval sample). Prints
figures; asserts nothing.

Every byte under the folder, by kind (figures files of cited logs, carried logs and traces, bundle.yaml,
the rest), over the interval samples the database loads from it: the folder is validated and loaded into
a temporary database, as a build does.

    .venv/bin/python benchmarks/bench_data_size.py [FOLDER]     (default: data/)
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy's

import duckdb  # noqa: E402

from ingest.bundles.cited import FOLDER as CITED  # noqa: E402
from ingest.bundles.validate import validate_paths  # noqa: E402
from ingest.database.load import build_database  # noqa: E402


def kind(path: Path, folder: Path) -> str:
    parts = path.relative_to(folder).parts
    if path.name == "bundle.yaml":
        return "bundle.yaml"
    if len(parts) > 2 and parts[1] == CITED:
        return f"figures files ({path.suffix})"
    if len(parts) > 2 and parts[1] == "artifacts":
        return "carried logs and traces"
    return "the rest"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data"
    sizes: Counter[str] = Counter()
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            sizes[kind(path, folder)] += path.stat().st_size
    loaded, problems = validate_paths([folder])
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        sys.exit(f"{len(errors)} problems, the first: {errors[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        db = build_database(loaded, db_path=Path(tmp) / "size.duckdb")
        with duckdb.connect(str(db), read_only=True) as con:
            samples = con.execute("SELECT count(*) FROM intervals").fetchone()[0]
    total = sum(sizes.values())
    print(f"{folder}: {len(loaded)} bundles, {samples:,} interval samples loaded")
    for name, size in sizes.most_common():
        print(f"  {name}: {size / 1e6:.1f} MB ({size / max(samples, 1):.1f} bytes a sample)")
    print(f"all of it: {total / 1e6:.1f} MB, {total / max(samples, 1):.1f} bytes a sample (bar: 40)")


if __name__ == "__main__":
    main()
