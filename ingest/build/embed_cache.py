"""The cache of drawn embeds: unchanged charts are not drawn again.

An entry is a file ``build/cache/embeds/<key[:2]>/<key>.svg``, the SVG as drawn (a file, not a folder
of one: a build from nothing stores 6,800 of them at 1,000 bundles, and a folder is one more inode to
make and later remove). Its key is the SHA-256 of everything the drawing depends on: the chart's text in
the specs (its line as the exporter wrote it, embed_specs.py), the text of the Node modules that draw it
(site/render/embeds.mjs and every module it imports or starts as a worker, followed through relative
paths), the installed versions of the packages they use, and the width. An entry is a hard link to the
SVG drawn (a link is there whole or not at all), or where links are not allowed a copy made under a
temporary name and renamed into place, so an interrupted build never leaves a half-written SVG under a
key; an entry that is not whole (not closed) is never used.

Bounds: each build marks the entries it uses (their modification time) and then removes those unused for
``cache.MAX_AGE_DAYS``, then the least recently used until the cache holds at most ``MAX_BYTES``, and
temporary files older than a day (left by an interrupted build).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from ..plumbing.cache import TMP, link_or_copy, prune

MAX_BYTES = 2**30  # ~15 times what 1,000 bundles draw (7,400 SVGs of ~9 KB)
PACKAGES = ("@observablehq/plot", "jsdom")  # what the drawing modules import
SUFFIX = ".svg"  # an entry's, after its key (and a drawn chart's, after its id)
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


def chart_key(common: str, text: bytes) -> str:
    """The key of a chart whose text in the specs is ``text`` (as the exporter wrote it: a chart
    written another way is only drawn again, never mistaken for another)."""
    return hashlib.sha256(common.encode() + b"\n" + text).hexdigest()


def _whole(path: str) -> bool:
    """Whether the SVG at ``path`` ends as a written one does (os calls: this runs for every chart)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # missing
        return False
    try:
        size = os.fstat(fd).st_size
        return size >= len(SVG_END) and os.pread(fd, len(SVG_END), size - len(SVG_END)) == SVG_END
    finally:
        os.close(fd)


class EmbedCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._shards: set[str] = set()  # the folders of entries made or seen by store()

    def entry(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}{SUFFIX}"

    def fetch(self, key: str, out_dir: Path, name: str) -> bool:
        """Put the entry's SVG into ``out_dir`` as ``name``.svg; False when it has none."""
        source = os.path.join(self.folder, key[:2], f"{key}{SUFFIX}")  # strings, not Path: this runs for every chart
        if not _whole(source):
            return False
        target = os.path.join(out_dir, f"{name}{SUFFIX}")
        try:
            os.link(source, target)
        except OSError:  # a file there already, or no link allowed
            link_or_copy(Path(source), Path(target))
        os.utime(source)  # used now: kept by prune()
        return True

    def store(self, key: str, out_dir: Path, name: str) -> None:
        """Keep the drawn ``name``.svg of ``out_dir`` under ``key``: linked into place (a link is there
        whole or not at all), or, where that fails (an entry there, not whole; no link allowed), linked
        or copied under a temporary name which then replaces the entry."""
        entry, source = self.entry(key), out_dir / f"{name}{SUFFIX}"
        if key[:2] not in self._shards:
            entry.parent.mkdir(parents=True, exist_ok=True)
            self._shards.add(key[:2])
        try:
            os.link(source, entry)
            return
        except OSError:
            pass
        tmp = self.folder / f"{TMP}{key}-{os.getpid()}{SUFFIX}"
        try:
            link_or_copy(source, tmp)
            os.replace(tmp, entry)
        finally:
            tmp.unlink(missing_ok=True)

    def prune(self, *, now: float | None = None, every: float = 0, keep: frozenset[str] = frozenset()) -> int:
        """Remove what the bounds above say, but the entries of the keys ``keep`` (the running build's);
        returns how many entries were removed."""
        return prune(self.folder, max_bytes=MAX_BYTES, now=now, every=every,
                     keep=frozenset(self.entry(key) for key in keep))
