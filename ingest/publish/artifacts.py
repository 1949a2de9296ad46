"""The artifacts behind measured values (sysbench logs, mdstat traces), published as they were loaded:
each file under ``/artifacts/<study>/<artifact>/`` with its SHA-256, and a page that shows it line by
line, so that every ``file:line`` of a measured value links to its line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import duckdb

from .db import rows

MAX_LINES = 20_000  # a longer file is offered whole, without a page of its lines
MAX_PAGE_BYTES = 8 * 2**20  # and so is a larger one (a few very long lines)
CHUNK = 4 * 2**20


class ArtifactChanged(Exception):
    pass


def _copy(source: Path, target: Path) -> tuple[str, int]:
    """Copy ``source`` a piece at a time (a log may be hundreds of MB); its SHA-256 and how many lines
    it has (as str.splitlines counts them in a log: a last line without its newline counts too)."""
    digest, newlines, last = hashlib.sha256(), 0, b"\n"
    with open(source, "rb") as src, open(target, "wb") as out:
        while piece := src.read(CHUNK):
            digest.update(piece)
            newlines += piece.count(b"\n")
            last = piece[-1:]
            out.write(piece)
    return digest.hexdigest(), newlines + (last != b"\n")


def artifact_rows(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """The artifacts to publish, as the database records them."""
    return rows(con, """SELECT a.study, a.artifact, a.format, a.path, a.bytes, a.sha256, st.bundle_path
                        FROM artifacts AS a JOIN studies AS st USING (study) ORDER BY a.study, a.artifact""")


def export_artifacts(artifacts: list[dict], *, static_dir: Path, data_dir: Path, bundles: Path) -> list[dict]:
    """Copy each file artifact beside its page and write ``artifacts.json`` (with the lines to show).
    It reads no database (``artifacts`` come from ``artifact_rows``): the export runs it on a thread of
    its own, beside the rest, as it mostly waits for the disk."""
    entries = []
    for a in artifacts:
        source = (bundles / a.pop("bundle_path")).parent / a["path"]
        if not source.is_file():  # a folder of snapshots: listed, its files not copied one by one
            entries.append({**a, "file": None, "lines": None})
            continue
        folder = static_dir / "artifacts" / a["study"] / a["artifact"]
        folder.mkdir(parents=True, exist_ok=True)
        digest, line_count = _copy(source, folder / source.name)
        if digest != a["sha256"]:
            raise ArtifactChanged(f"{source}: changed since it was loaded (its SHA-256 is no longer {a['sha256']})")
        lines = None
        if line_count <= MAX_LINES and a["bytes"] <= MAX_PAGE_BYTES:
            text = (folder / source.name).read_bytes().decode("utf-8", errors="replace").splitlines()
            line_count = len(text)  # other line breaks than \n count too
            lines = text if line_count <= MAX_LINES else None
        entries.append({**a, "file": source.name, "line_count": line_count, "lines": lines})
    (data_dir / "artifacts.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    return entries
