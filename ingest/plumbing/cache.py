"""What the build caches share: entries in ``<cache>/<key[:2]>/<key>/`` folders (or files, the embed
cache's), written under a temporary name and renamed into place, and the bounds that keep a cache from
growing without end."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

MAX_AGE_DAYS = 14  # entries no build has used for this long are removed
# a build prunes a cache at most this often (seconds): pruning reads the size of every file of every
# entry, about 0.8 s for the five caches at 1,000 bundles, on every build
PRUNE_EVERY = 3600
PRUNED = ".{}.pruned"  # beside a cache's folder: the file whose time is its last pruning
TMP = ".tmp-"  # the prefix of an entry being written (one left by an interrupted build goes after a day)


@dataclass(frozen=True)
class CacheCounts:
    """What a cached step did: items made (drawn, validated), items found in the cache, old entries removed."""
    made: int
    cached: int
    pruned: int


def _size(folder: Path | str) -> int:
    """The bytes of the files below ``folder`` (an entry of the page cache holds folders)."""
    with os.scandir(folder) as items:
        return sum(_size(i.path) if i.is_dir(follow_symlinks=False) else i.stat(follow_symlinks=False).st_size
                   for i in items)


def link_or_copy(source: Path | str, target: Path | str) -> None:
    """Put ``source`` at ``target`` as a hard link (no bytes written again), or a copy where the file
    system does not allow one; what was at ``target`` is replaced, not written through. (Linked first,
    and unlinked only when something is there: after one change at 1,000 bundles the export's cached
    studies and charts are 32,000 links, nearly all into new folders.)"""
    try:
        os.link(source, target)
        return
    except FileExistsError:  # a file left there, or this very file linked there before
        os.unlink(target)
    except OSError:  # another file system, or links not allowed
        pass
    try:
        os.link(source, target)
    except OSError:
        if os.path.lexists(target):
            os.unlink(target)
        shutil.copyfile(source, target)


def make_entry(entry: Path, fill: Callable[[Path], None]) -> None:
    """Make a folder entry: ``fill(tmp)`` writes it under a temporary name beside the cache's entries,
    which is then renamed to ``entry`` (an interrupted build leaves no half-written entry; one that a
    concurrent build stored first is kept). The temporary folder is removed whatever happens."""
    tmp = entry.parent.parent / f"{TMP}{entry.name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        fill(tmp)
        entry.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp, entry)
    except OSError:
        if not entry.is_dir():
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _remove(entry: os.PathLike) -> None:
    """Remove an entry, or a temporary one: a folder and what it holds, or a file."""
    if os.path.isdir(entry) and not os.path.islink(entry):
        shutil.rmtree(entry, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(entry)


def prune(folder: Path, *, max_bytes: int, now: float | None = None, every: float = 0,
          keep: frozenset[Path] = frozenset()) -> int:
    """Remove the entries unused for MAX_AGE_DAYS, then the least recently used (an entry's
    modification time, which a build touches when it uses the entry) until the rest hold at most
    ``max_bytes``, and temporary ones older than a day; returns how many entries were removed.
    The entries of ``keep`` (those the running build uses) stay whatever their size: a build whose
    entries outgrow the bound would otherwise remove some of its own and make them again next time.
    With ``every``, only if the folder was not pruned in the last ``every`` seconds (else 0)."""
    now = time.time() if now is None else now
    if not folder.is_dir():
        return 0
    marker = folder.with_name(PRUNED.format(folder.name))
    if every and marker.is_file() and now - marker.stat().st_mtime < every:
        return 0
    marker.touch()
    entries = []
    with os.scandir(folder) as shards:
        for shard in shards:
            if shard.name.startswith(TMP):
                if now - shard.stat(follow_symlinks=False).st_mtime > 86400:
                    _remove(shard)
                continue
            if not shard.is_dir(follow_symlinks=False):
                continue
            with os.scandir(shard.path) as items:
                for item in items:
                    found = item.stat(follow_symlinks=False)
                    size = _size(item.path) if item.is_dir(follow_symlinks=False) else found.st_size
                    entries.append((found.st_mtime, size, Path(item.path)))
    entries.sort(reverse=True)  # most recently used first
    kept, removed = 0, 0
    for used, size, entry in entries:
        if entry in keep:
            kept += size
        elif now - used > MAX_AGE_DAYS * 86400 or kept + size > max_bytes:
            _remove(entry)
            removed += 1
        else:
            kept += size
    return removed
