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
import html
import itertools
import json
from pathlib import Path

import duckdb

from ..database.lines import LINES_A_PAGE, page_path
from .db import rows

CHUNK = 4 * 2**20
# A line of more characters than this shows its first ones and how many more the file holds (a page of
# 500 such lines is 125,000 characters, within the 150 KB of gzip a page may be, whatever the bytes).
SHOWN_CHARACTERS = 250


class ArtifactChanged(Exception):
    pass


def _copy(source: Path, target: Path) -> str:
    """Copy ``source`` a piece at a time (a log may be hundreds of MB); its SHA-256."""
    digest = hashlib.sha256()
    with open(source, "rb") as src, open(target, "wb") as out:
        while piece := src.read(CHUNK):
            digest.update(piece)
            out.write(piece)
    return digest.hexdigest()


def artifact_rows(con: duckdb.DuckDBPyConnection, *, where: str = "TRUE") -> list[dict]:
    """The artifacts to publish, as the database records them (of the studies ``where`` selects)."""
    return rows(con, f"""SELECT * FROM (SELECT a.study, a.artifact, a.format, a.path, a.bytes, a.sha256, st.bundle_path
                                       FROM artifacts AS a JOIN studies AS st USING (study))
                         WHERE {where} ORDER BY study, artifact""")


LOGS = "artifacts"  # the folder of the exported data holding each study's artifacts with their pages
LINES = "lines"  # the export's assets holding each page's lines: lines/<study>/<artifact>/<first line>.html
RAW = "raw"  # the site's folder of the artifacts' bytes, each served as text (netlify.toml: /raw/*)


def published_path(study: str, artifact: str) -> str:
    """Where the site serves an artifact's bytes (under the site's root; ids are slugs, so the path needs
    no escaping in a URL, and its extension makes any host serve it as text)."""
    return f"{RAW}/{study}/{artifact}.txt"


def export_artifacts(artifacts: list[dict], *, static_dir: Path, data_dir: Path, assets_dir: Path,
                     bundles: Path) -> dict[str, list[dict]]:
    """Copy each file artifact beside its page, write its lines a page at a time (``assets_dir``'s
    lines/<study>/<artifact>/<first>.html, each page reading its own: Hugo loads all of data/ at start,
    and a log may be hundreds of MB) and each study's ``artifacts/<study>.json`` (its artifacts and the
    first and last line of each of their pages), a study at a time. Returns each study's artifacts (what
    the list of logs and the study's cache entry read). It reads no database (``artifacts`` come from
    ``artifact_rows``): the export runs it on a thread of its own, beside the rest, as it mostly waits
    for the disk."""
    listed: dict[str, list[dict]] = {}
    (data_dir / LOGS).mkdir(parents=True, exist_ok=True)
    for study, group in itertools.groupby(artifacts, key=lambda a: a["study"]):
        entries = [_publish(a, static_dir=static_dir, assets_dir=assets_dir, bundles=bundles) for a in group]
        (data_dir / LOGS / f"{study}.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
        listed[study] = entries
    return listed


def lines_path(study: str, artifact: str, first: int) -> str:
    """The file of the lines of an artifact's page from line ``first`` (under the export's assets)."""
    return f"{LINES}/{study}/{artifact}/{first}.html"


def _publish(a: dict, *, static_dir: Path, assets_dir: Path, bundles: Path) -> dict:
    """Copy one artifact beside its page and write its pages' lines; its entry, with its pages."""
    source = (bundles / a.pop("bundle_path")).parent / a["path"]
    if not source.is_file():  # a folder of snapshots: listed, its files not copied one by one
        return {**a, "file": None, "name": None, "line_count": None, "pages": []}
    published = static_dir / published_path(a["study"], a["artifact"])
    published.parent.mkdir(parents=True, exist_ok=True)
    digest = _copy(source, published)
    if digest != a["sha256"]:
        raise ArtifactChanged(f"{source}: changed since it was loaded (its SHA-256 is no longer {a['sha256']})")
    pages, count = [], 0
    folder = assets_dir / LINES / a["study"] / a["artifact"]
    folder.mkdir(parents=True, exist_ok=True)
    lines = _lines(published)
    while page := list(itertools.islice(lines, LINES_A_PAGE)):
        first = count + 1
        count += len(page)
        held = lines_path(a["study"], a["artifact"], first)
        (assets_dir / held).write_text(lines_html(page, first=first), encoding="utf-8")
        pages.append({"first": first, "last": count, "path": page_path(first), "lines": held})
    return {**a, "file": published_path(a["study"], a["artifact"]), "name": source.name, "line_count": count,
            "pages": pages}


def lines_html(lines: list[str], *, first: int) -> str:
    """A page's lines as the markup its page holds inside its <pre> (artifacts/page.html): each line, its
    text escaped (never markup), a span with its anchor (#L<n>), marked by :target; a line of more than
    SHOWN_CHARACTERS, its first ones and how many more the file holds. Written here, in one pass, not by
    Hugo a line at a time: a 50 MB log's 379,665 lines took Hugo 20 s of templates, this 1 s."""
    out = []
    for n, line in enumerate(lines, start=first):
        text = html.escape(line[:SHOWN_CHARACTERS], quote=True)
        if len(line) > SHOWN_CHARACTERS:
            text += f'<span class="cut"> … {len(line) - SHOWN_CHARACTERS:,} more characters, in the file</span>'
        out.append(f'<span class="line" id="L{n}"><a class="ln" href="#L{n}" aria-label="line {n}">{n}</a>{text}\n</span>')
    return "".join(out)


def _lines(path: Path):
    """The file's lines as the parsers number them (ingest/parsers/reading.py: a line ends at each \\n and
    nowhere else; a last line without its \\n counts too), the \\r of a \\r\\n left out and bytes that are
    not UTF-8 replaced, a line at a time."""
    with open(path, "rb") as f:
        for raw in f:  # a binary file's lines end at b"\n" alone
            line = raw.decode("utf-8", errors="replace")
            yield line[:-2] if line.endswith("\r\n") else line.rstrip("\n")


def write_artifact_list(listed: list[dict], *, data_dir: Path) -> None:
    """``artifact_list.json``: every study's artifacts without their pages, in the order of the list of
    logs (/artifacts/): by path, then study. The page lists them in this order: ordering them in Hugo's
    template (a slice grown by ``append``, then ``sort``) took 35.7 s of its run at 10,000 bundles."""
    ordered = sorted(({k: v for k, v in a.items() if k != "pages"} for a in listed), key=lambda a: (a["path"], a["study"]))
    (data_dir / "artifact_list.json").write_text(json.dumps(ordered, ensure_ascii=False), encoding="utf-8")
