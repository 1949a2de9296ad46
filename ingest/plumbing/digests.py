"""The SHA-256 of files, remembered from one build to the next by each file's identity.

A build hashes what its caches are keyed by, every time: the bundles' files (79 MB at 1,000 bundles),
the data and assets each run of Hugo reads (116 MB) and the pages each part of the search index reads
(150 MB), 1.5 s or more of a build after one bundle changed. Most of them are the very files of the
last build: the bundles a contributor did not touch, and what the build links from its caches (a
cached study's export, a cached shard's pages) rather than writes again.

So a file's digest is kept, in a JSON file of the cache, under its identity: its device, inode, size
and modification time to the nanosecond, and for a file the build did not write (a bundle's, the
site's sources), its change time too, which no tool can set: what git's index compares to tell that
a file did not change. A file written again has a new modification time, one replaced has a new
inode. (The files the build writes are never written again in place; the build links them, which
changes their change time, so theirs is left out.) A file modified in the last two seconds is
hashed but not remembered, as a change within the same tick of the clock would keep its times. Only
the digests a build used are kept for the next.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

RECENT_NS = 2 * 10**9  # a file modified this recently is not remembered (the clock's tick is coarser than ns)


class Digests:
    """The digests of files, remembered in ``file`` (a JSON file, written by ``save``; None: nowhere)."""

    def __init__(self, file: Path | None):
        self.file = file
        try:
            self.known: dict[str, str] = json.loads(file.read_text(encoding="utf-8")) if file else {}
        except (OSError, ValueError):
            self.known = {}
        self.used: dict[str, str] = {}

    def of(self, path: Path | str, *, written_by_build: bool = False, st: os.stat_result | None = None) -> str:
        """The SHA-256 of the file at ``path`` (hex); ``st``: its stat, if the caller has it."""
        st = st or os.stat(path)
        identity = f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"
        if not written_by_build:
            identity += f":{st.st_ctime_ns}"
        found = self.known.get(identity)
        if found is None:
            digest = hashlib.sha256()
            with open(path, "rb") as f:
                while piece := f.read(2**22):  # a piece at a time: a log may be hundreds of MB
                    digest.update(piece)
            found = digest.hexdigest()
            changed = st.st_mtime_ns if written_by_build else max(st.st_mtime_ns, st.st_ctime_ns)
            if time.time_ns() - changed < RECENT_NS:
                return found
        self.used[identity] = found
        return found

    def save(self) -> None:
        """Keep the digests used since this object was made (under a temporary name, then renamed)."""
        if self.file is None:
            return
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_name(f".{self.file.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.used), encoding="utf-8")
        os.replace(tmp, self.file)
