"""Child processes of a build (Node, Hugo) that die with it: killed when the build's process dies,
however it dies (even ``kill -9``), through Linux's parent-death signal. Elsewhere they are plain
``subprocess.run`` calls."""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys

PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h): the signal a process gets when its parent dies


def die_with_parent() -> None:
    """Have the calling process killed when its parent dies (run first thing in a child)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, **kwargs)`` for a child that must not outlive this process."""
    if sys.platform.startswith("linux"):
        kwargs["preexec_fn"] = die_with_parent
    return subprocess.run(cmd, **kwargs)
