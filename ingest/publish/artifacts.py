"""The artifacts behind measured values (sysbench logs, mdstat traces), published as they were loaded:
each file's bytes as ``/raw/<study>/<artifact>.txt`` with its SHA-256, and a page
``/artifacts/<study>/<artifact>/`` that shows it line by line, so that every ``file:line`` of a
measured value links to its line.

A bundle names its files as it likes (``evil.html``, ``run.svg``, ``q?x=1#frag.log``): the published
name is never the bundle's. It is the artifact's id (``schema/models.py``: ``Id``, letters, digits and
hyphens) with the extension ``.txt``, under a folder of its own, so that a host serves every artifact as
plain text (netlify.toml's rule for ``/raw/*`` says so as well, with ``nosniff`` for every path): a
browser never runs one as script, markup or SVG, and every download link is a plain path. The original
name is kept for the download (the link's ``download`` attribute) and on the artifact's page."""

from __future__ import annotations

import hashlib
import itertools
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


def artifact_rows(con: duckdb.DuckDBPyConnection, *, where: str = "TRUE") -> list[dict]:
    """The artifacts to publish, as the database records them (of the studies ``where`` selects)."""
    return rows(con, f"""SELECT * FROM (SELECT a.study, a.artifact, a.format, a.path, a.bytes, a.sha256, st.bundle_path
                                       FROM artifacts AS a JOIN studies AS st USING (study))
                         WHERE {where} ORDER BY study, artifact""")


LOGS = "artifacts"  # the folder of the exported data holding each study's artifacts with their lines
RAW = "raw"  # the site's folder of the artifacts' bytes, each served as text (netlify.toml: /raw/*)


def published_path(study: str, artifact: str) -> str:
    """Where the site serves an artifact's bytes (under the site's root; ids are slugs, so the path needs
    no escaping in a URL, and its extension makes any host serve it as text)."""
    return f"{RAW}/{study}/{artifact}.txt"


def export_artifacts(artifacts: list[dict], *, static_dir: Path, data_dir: Path, bundles: Path) -> dict[str, list[dict]]:
    """Copy each file artifact beside its page and write each study's ``artifacts/<study>.json`` (with
    the lines its pages show), a study at a time (at 10,000 bundles all the lines are 300 MB of JSON).
    Returns each study's artifacts without their lines (what the list of logs reads). It reads no
    database (``artifacts`` come from ``artifact_rows``): the export runs it on a thread of its own,
    beside the rest, as it mostly waits for the disk."""
    listed: dict[str, list[dict]] = {}
    (data_dir / LOGS).mkdir(parents=True, exist_ok=True)
    for study, group in itertools.groupby(artifacts, key=lambda a: a["study"]):
        entries = [_publish(a, static_dir=static_dir, bundles=bundles) for a in group]
        (data_dir / LOGS / f"{study}.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
        listed[study] = [{k: v for k, v in e.items() if k != "lines"} for e in entries]
    return listed


def _publish(a: dict, *, static_dir: Path, bundles: Path) -> dict:
    """Copy one artifact beside its page; its entry, with its lines when a page can show them."""
    source = (bundles / a.pop("bundle_path")).parent / a["path"]
    if not source.is_file():  # a folder of snapshots: listed, its files not copied one by one
        return {**a, "file": None, "name": None, "lines": None}
    published = static_dir / published_path(a["study"], a["artifact"])
    published.parent.mkdir(parents=True, exist_ok=True)
    digest, line_count = _copy(source, published)
    if digest != a["sha256"]:
        raise ArtifactChanged(f"{source}: changed since it was loaded (its SHA-256 is no longer {a['sha256']})")
    lines = None
    if line_count <= MAX_LINES and a["bytes"] <= MAX_PAGE_BYTES:
        text = published.read_bytes().decode("utf-8", errors="replace").splitlines()
        line_count = len(text)  # other line breaks than \n count too
        lines = text if line_count <= MAX_LINES else None
    return {**a, "file": published_path(a["study"], a["artifact"]), "name": source.name, "line_count": line_count,
            "lines": lines}


def write_artifact_list(listed: list[dict], *, data_dir: Path) -> None:
    """``artifact_list.json``: every study's artifacts without their lines, in the order of the list of
    logs (/artifacts/): by path, then study. The page lists them in this order: ordering them in Hugo's
    template (a slice grown by ``append``, then ``sort``) took 35.7 s of its run at 10,000 bundles."""
    ordered = sorted(listed, key=lambda a: (a["path"], a["study"]))
    (data_dir / "artifact_list.json").write_text(json.dumps(ordered, ensure_ascii=False), encoding="utf-8")
