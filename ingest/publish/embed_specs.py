"""``embed-specs/<study>.json``: the charts the exporter lists for their standalone embeds, a file a
study (publish/embeds.py writes them, each kept with its study in the export's cache; embed_render.py
reads them all, FOLDER). Each is JSON, ``{"charts": [...]}``, written one chart a line, so
that the renderer takes each chart's text as it is (its cache key is a hash of that text, embed_cache.py)
and parses none of the charts it finds in its cache. A chart's text is ``json.dumps`` of an object with
an ``"id"`` (read without parsing the rest when it is the first key, as the exporter writes it); JSON text
holds no raw line break (it escapes them in strings).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from ..bundles.problems import BuildError

FOLDER = "embed-specs"  # in the export
HEAD = b'{"charts": ['
TAIL = b"]}"
ID = re.compile(rb'\{"id": "([^"\\]*)"')  # an id without escapes; any other is parsed as JSON


def write(path: Path, texts: list[str]) -> None:
    """Write the charts' texts (``json.dumps`` of each chart) one a line."""
    path.write_bytes(HEAD + b"\n" + ",\n".join(texts).encode("utf-8") + b"\n" + TAIL + b"\n")


def read(path: Path) -> list[tuple[str, bytes]]:
    """Each chart's id and text (UTF-8 JSON of one object), in the file's order."""
    lines = path.read_bytes().split(b"\n")  # bytes: U+2028 and its kind, which JSON leaves raw, split no line
    if lines[0] != HEAD or lines[-2:] != [TAIL, b""]:
        raise BuildError(f"{path}: not a list of charts one a line, as ingest/publish/embed_specs.py writes it")
    texts = [line[:-1] if line.endswith(b",") else line for line in lines[1:-2]]
    return [(_id(text, path=path), text) for text in texts if text]


def read_each(folder: Path) -> Iterator[tuple[str, bytes]]:
    """Each chart of every file of ``folder`` (a study's, as ``write`` wrote it), by file name, a file
    read at a time."""
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        yield from read(path)


def _id(text: bytes, *, path: Path) -> str:
    plain = ID.match(text)
    if plain:
        return plain.group(1).decode("utf-8")
    try:
        return json.loads(text)["id"]
    except (ValueError, KeyError, TypeError):
        raise BuildError(f"{path}: a line is not a chart with an id: {text[:200].decode('utf-8', 'replace')}") from None
