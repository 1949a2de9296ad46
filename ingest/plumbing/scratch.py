"""A command's scratch folder that does not outlive it: removed when the command ends, however it ends
but by SIGKILL (SIGTERM is turned into an exit, so that the removal runs); and one that a killed command
left (its process gone) is removed by the next command that makes one. ``benchdb compare`` left its
temporary bundle and database behind when it was killed (issue #61's fifth pass)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
from pathlib import Path
from typing import Iterator


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A new folder ``<tmp>/<prefix><pid>-<random>``, removed on the way out; first, every such folder of
    a process that no longer runs."""
    base = Path(tempfile.gettempdir())
    _remove_orphans(base, prefix)
    folder = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=base))
    try:
        with terminate_as_exit():
            yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _remove_orphans(base: Path, prefix: str) -> None:
    for folder in base.glob(f"{prefix}*-*"):
        pid = folder.name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and folder.is_dir() and not folder.is_symlink() and not _runs(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


@contextlib.contextmanager
def terminate_as_exit() -> Iterator[None]:
    """SIGTERM raises SystemExit(143) while inside (in the main thread only: elsewhere a handler cannot be set)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def exit_(signum, frame):
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, exit_)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
