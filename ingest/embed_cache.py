"""The cache of drawn embeds: unchanged charts are not drawn again.

An entry is a folder ``build/cache/embeds/<key[:2]>/<key>/`` holding ``chart.svg``.
Its key is the SHA-256 of everything the drawing depends on: the chart's entry in the specs (as
canonical JSON), the text of the Node modules that draw it (site/render/embeds.mjs and every module
it imports or starts as a worker, followed through relative paths), the installed versions of the
packages they use, and the width. An entry is written into a temporary folder and renamed
into place, so an interrupted build never leaves a half-written entry under a key; an entry whose files
are not whole (an SVG not closed) is never used.

Bounds: each build marks the entries it uses (the folder's modification time) and then removes those
unused for ``cache.MAX_AGE_DAYS``, then the least recently used until the cache holds at most ``MAX_BYTES``,
and temporary folders older than a day (left by an interrupted build).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

from .cache import TMP, link_or_copy, prune

MAX_BYTES = 2**30  # ~15 times what 1,000 bundles draw (7,400 SVGs of ~9 KB)
PACKAGES = ("@observablehq/plot", "jsdom")  # what the drawing modules import
FILES = {"svg": "chart.svg"}
SVG_END = b"</svg>\n"
# a static import, or a module named by its URL (a worker thread's): `new URL("./x.mjs", import.meta.url)`
IMPORT = re.compile(r"""(?:(?:^|\s)(?:import|from)\s*|new URL\(\s*)["'](\.\.?/[^"']+)["']""", re.M)


def code_files(entry: Path) -> list[Path]:
    """``entry`` and every module it imports through relative paths, in a stable order."""
    seen: dict[Path, None] = {}
    todo = [Path(os.path.abspath(entry))]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen[path] = None
        for target in IMPORT.findall(path.read_text(encoding="utf-8")):
            todo.append(Path(os.path.normpath(path.parent / target)))
    return sorted(seen)


def package_versions(root: Path) -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        manifest = root / "node_modules" / name / "package.json"
        versions[name] = json.loads(manifest.read_text(encoding="utf-8"))["version"] if manifest.is_file() else ""
    return versions


def drawing_digest(root: Path, entries: list[Path], *, width: int) -> str:
    """The part of every chart's key that is the same for all charts of a build."""
    digest = hashlib.sha256()
    for path in sorted({p for entry in entries for p in code_files(entry)}):
        digest.update(f"{path.relative_to(os.path.abspath(root))}\n".encode())
        digest.update(path.read_bytes())
    digest.update(json.dumps([package_versions(root), width], sort_keys=True).encode())
    return digest.hexdigest()


def chart_key(common: str, chart: dict) -> str:
    text = json.dumps(chart, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{common}\n{text}".encode()).hexdigest()


def _whole(folder: Path) -> bool:
    try:
        with open(folder / FILES["svg"], "rb") as svg:
            svg.seek(-len(SVG_END), os.SEEK_END)
            return svg.read() == SVG_END
    except OSError:  # missing, or shorter than its end mark
        return False


class EmbedCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def entry(self, key: str) -> Path:
        return self.folder / key[:2] / key

    def fetch(self, key: str, out_dir: Path, name: str) -> bool:
        """Put the entry's SVG into ``out_dir`` as ``name``.svg; False when it has none."""
        folder = self.entry(key)
        if not _whole(folder):
            return False
        for kind, file_name in FILES.items():
            link_or_copy(folder / file_name, out_dir / f"{name}.{kind}")
        os.utime(folder)  # used now: kept by prune()
        return True

    def store(self, key: str, out_dir: Path, name: str) -> None:
        """Keep the drawn ``name``.svg of ``out_dir`` under ``key``."""
        folder = self.entry(key)
        tmp = self.folder / f"{TMP}{key}-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        try:
            for kind, file_name in FILES.items():
                link_or_copy(out_dir / f"{name}.{kind}", tmp / file_name)
            folder.parent.mkdir(exist_ok=True)
            shutil.rmtree(folder, ignore_errors=True)  # a damaged entry under this key
            os.replace(tmp, folder)
        except OSError:
            if not _whole(folder):  # unless a concurrent build stored it first
                raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def prune(self, *, now: float | None = None) -> int:
        """Remove what the bounds above say; returns how many entries were removed."""
        return prune(self.folder, max_bytes=MAX_BYTES, now=now)
