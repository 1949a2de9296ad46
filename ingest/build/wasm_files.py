"""DuckDB-WASM's WebAssembly modules and workers, served by the site itself under /sql/duckdb/ (no
CDN): put into the generation's export from the installed npm package at every build, never committed.
The site's own script (site/assets/js/sql-db.js) is bundled by Hugo; these files cannot be."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..bundles.problems import BuildError

PACKAGE = Path("@duckdb") / "duckdb-wasm" / "dist"
SERVED = "sql/duckdb"  # under the site's root; the page reads it from its data-duckdb attribute
# the build for WebAssembly with exception handling ("eh", every current browser): its module and worker.
# The fallback without ("mvp") is not served: 38 MB more in every deploy for browsers few readers use.
FILES = ("duckdb-eh.wasm", "duckdb-browser-eh.worker.js")


def export_duckdb_wasm(node_modules: Path, *, static_dir: Path) -> list[Path]:
    """Link (or copy, across file systems) FILES into ``static_dir/sql/duckdb``; returns the paths."""
    source = node_modules / PACKAGE
    missing = [name for name in FILES if not (source / name).is_file()]
    if missing:
        raise BuildError(f"{source}: {', '.join(missing)} missing: run 'make deps' (npm ci) to install @duckdb/duckdb-wasm")
    out = static_dir / SERVED
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in FILES:
        target = out / name
        try:
            os.link(source / name, target)
        except OSError:
            shutil.copyfile(source / name, target)
        written.append(target)
    return written
