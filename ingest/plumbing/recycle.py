"""A folder of links brought up to date in place: a build's export and site made from the spare
generation (the one the last build replaced, generation.py) instead of from nothing.

After one change at 1,000 bundles a build links about 75,000 files into a new generation (the export's
cached studies, the cached pages, the static files), nearly all of them the files the last build
linked, in 14,000 new folders; on the disk of the README's figures a new folder costs 60 to 146 µs and
a link 9 to 19 µs, and the links were most of such a build. A ``Tree`` over a folder that holds the
spare's files knows each of them (its device and inode, read with the folder's listing, no call a
file); each file the build places there is

- kept, when the spare's file at that path is the very file (the same cache entry's);
- replaced (unlinked, then linked), when it is another;
- linked, when the spare had none;

and ``purge`` removes, at the end, what the spare held that the build placed nowhere (a study gone, a
page renamed) and the folders it leaves empty. Nothing is written in place: every file of these
folders is a hard link into a cache (or a file only this folder holds), so a write over one would
change the cache; a file a build writes itself goes where ``fresh`` has made room (the spare's file
unlinked). Over a folder that does not exist, a Tree places every file by a link, as before.

Threads may place files into one tree at once (the pages' links beside Hugo's runs and the static
files): taking a spare file (and removing it, when it is another) is one step under a lock, so when
two parts of the build place the same path (the scripts every run of Hugo writes), the second finds
the first's file, never the spare's, and compares with it (shards.link_tree).
"""

from __future__ import annotations

import os
import shutil
import threading


def _scan(root: str) -> tuple[dict[str, tuple[int, int]], set[str]]:
    """Every file below ``root`` (by path: its device and inode) and every folder."""
    device = os.stat(root).st_dev
    files: dict[str, tuple[int, int]] = {}
    folders: set[str] = set()
    stack = [root]
    while stack:
        with os.scandir(stack.pop()) as listing:
            for entry in listing:
                if entry.is_dir(follow_symlinks=False):
                    folders.add(entry.path)
                    stack.append(entry.path)
                else:
                    files[entry.path] = (device, entry.inode())
    return files, folders


class Tree:
    """The folder ``root`` as a build places files into it: the spare's files found there, if any
    (None: no folder, every file linked)."""

    def __init__(self, root: os.PathLike | str | None, *, background: bool = False) -> None:
        """``background``: list the spare's files on a thread of their own, which the first call that
        needs them waits for (at 10,000 bundles the site is 430,000 files)."""
        self.root = "" if root is None else os.fspath(root)
        self.recycled = bool(self.root) and os.path.isdir(self.root)
        self.left: dict[str, tuple[int, int]] = {}
        self.folders: set[str] = set()
        self.kept = 0  # files the spare held already
        self._lock = threading.Lock()
        self._listed = threading.Event()
        self._failed: BaseException | None = None
        if not self.recycled:
            self._listed.set()
        elif background:
            threading.Thread(target=self._list, daemon=True).start()
        else:
            self._list()

    def _list(self) -> None:
        try:
            self.left, self.folders = _scan(self.root)
        except BaseException as exc:  # raised where the files are needed
            self._failed = exc
        finally:
            self._listed.set()

    def _ready(self) -> None:
        self._listed.wait()
        if self._failed is not None:
            raise self._failed

    def folder(self, path: str) -> None:
        """Make the folder ``path`` (and those above it), which the build's files go into: the spare's
        folder is kept, a spare file where it goes is removed."""
        self._ready()
        if path in self.folders:
            self.folders.discard(path)
            return
        try:
            os.makedirs(path, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            self._clear_above(path)
            os.makedirs(path, exist_ok=True)

    def keep(self, here: str, there: str) -> bool:
        """Whether the spare's file at ``there`` is the file ``here`` already (nothing to place). When
        the spare held another file (or a folder of its own files only) there, it is removed, and the
        caller links ``here`` in its place as into a new folder."""
        if not self.recycled:
            return False
        self._ready()
        with self._lock:
            was = self.left.pop(there, None)
            if was is None:
                if there in self.folders:
                    self._clear_folder(there)
                return False
            found = os.stat(here)
            if was == (found.st_dev, found.st_ino):
                self.kept += 1
                return True
            os.unlink(there)
            return False

    def fresh(self, there: str) -> None:
        """Make room for a file the build writes itself at ``there``: the spare's file there unlinked."""
        if self.recycled:
            self._ready()
            with self._lock:
                if self.left.pop(there, None) is not None:
                    os.unlink(there)

    def stale(self, there: str) -> bool:
        """Whether ``there`` is a spare's file that no part of this build has placed (so far)."""
        self._ready()
        return there in self.left

    def purge(self) -> int:
        """Remove what the build did not place: the spare's other files, then its folders left empty
        (a folder the build made or kept stays, as in a new one). Returns how many files."""
        self._ready()
        with self._lock:
            gone = list(self.left)
            self.left.clear()
        for path in gone:
            try:
                os.unlink(path)
            except FileNotFoundError:  # removed by someone else meanwhile: gone all the same
                pass
        for path in sorted(self.folders, key=lambda p: p.count("/"), reverse=True):
            try:
                os.rmdir(path)
            except OSError:  # not empty: the build's files are below it
                pass
        self.folders.clear()
        return len(gone)

    def _clear_above(self, path: str) -> None:
        """Remove the spare's files that stand where the folders above ``path`` go."""
        with self._lock:
            above = path
            while len(above) > len(self.root):
                if self.left.pop(above, None) is not None:
                    os.unlink(above)
                above = os.path.dirname(above)

    def _clear_folder(self, path: str) -> None:
        """Remove the spare's folder ``path`` where the build places a file, if only the spare's files
        are below it (otherwise the build placed some there: linking over it fails, as in a new folder)."""
        prefix = path + "/"
        below = [p for p in self.left if p.startswith(prefix)]
        for folder, _, names in os.walk(path):
            if any(f"{folder}/{name}" not in self.left for name in names):
                return
        for p in below:
            del self.left[p]
        # (a copy: folder() takes folders out of the set without the lock)
        self.folders.difference_update([f for f in self.folders.copy() if f == path or f.startswith(prefix)])
        shutil.rmtree(path)


NO_SPARE = Tree(None)  # a folder made anew: every file linked (it holds no state)
