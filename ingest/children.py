"""Child processes of a build (Node, Hugo, and its own Python workers: validation, the load and the
export) that die with it: killed when the build's process dies, however it dies (even ``kill -9``),
through Linux's parent-death signal. Elsewhere they are plain ``subprocess.run`` calls and pools."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Iterator

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


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned Python processes (a fork would copy the threads and DuckDB
    connections of the build) that die with this one."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=die_with_parent)


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's worker processes (ProcessPoolExecutor.kill_workers from Python 3.14 on)."""
    if hasattr(pool, "kill_workers"):
        pool.kill_workers()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()


@contextlib.contextmanager
def workers(count: int) -> Iterator[ProcessPoolExecutor]:
    """process_pool(count) for a ``with`` block: an exception or an interruption in the block kills
    its workers rather than waiting for what they were given."""
    pool = process_pool(count)
    try:
        yield pool
    except BaseException:
        kill_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
