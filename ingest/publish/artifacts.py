"""The artifacts behind measured values (sysbench logs, mdstat traces), published as they were loaded:
each file under ``/artifacts/<study>/<artifact>/`` with its SHA-256, and a page that shows it line by
line, so that every ``file:line`` of a measured value links to its line."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import duckdb

from .db import rows

MAX_LINES = 20_000  # a longer file is offered whole, without a page of its lines


class ArtifactChanged(Exception):
    pass


def export_artifacts(con: duckdb.DuckDBPyConnection, *, static_dir: Path, data_dir: Path, bundles: Path) -> list[dict]:
    """Copy each file artifact beside its page and write ``artifacts.json`` (with the lines to show)."""
    entries = []
    for a in rows(con, """SELECT a.study, a.artifact, a.format, a.path, a.bytes, a.sha256, st.bundle_path
                          FROM artifacts AS a JOIN studies AS st USING (study) ORDER BY a.study, a.artifact"""):
        source = (bundles / a.pop("bundle_path")).parent / a["path"]
        if not source.is_file():  # a folder of snapshots: listed, its files not copied one by one
            entries.append({**a, "file": None, "lines": None})
            continue
        data = source.read_bytes()
        if hashlib.sha256(data).hexdigest() != a["sha256"]:
            raise ArtifactChanged(f"{source}: changed since it was loaded (its SHA-256 is no longer {a['sha256']})")
        folder = static_dir / "artifacts" / a["study"] / a["artifact"]
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, folder / source.name)
        lines = data.decode("utf-8", errors="replace").splitlines()
        entries.append({**a, "file": source.name, "line_count": len(lines),
                        "lines": lines if len(lines) <= MAX_LINES else None})
    (data_dir / "artifacts.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    return entries
