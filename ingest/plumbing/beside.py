"""A file written whole or not at all: made beside its place under a name no one can have planted
(``tempfile.mkstemp``: created anew, never through a link), then moved into its place. A name of the
process's id was guessable, and a link planted at it had migrate write through it to a file outside the
bundle and move the link into the bundle (issue #61's eighth pass)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Iterator


@contextlib.contextmanager
def written_beside(path: Path, *, prefix: str, mode: int | None = None) -> Iterator[BinaryIO]:
    """A new file open for writing, in ``path``'s folder, that becomes ``path`` when the block ends
    without an exception (``mode``: its permissions; else those of a new file under the umask)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
    try:
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            yield f
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
