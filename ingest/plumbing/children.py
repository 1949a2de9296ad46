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
from multiprocessing import forkserver, get_context
from typing import Iterator

from .memory import collect_less

PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h): the signal a process gets when its parent dies


def die_with_parent() -> None:
    """Have the calling process killed when its parent dies (run first thing in a child); on Linux
    only (elsewhere there is no prctl: as the initializer of a pool's workers, it broke the pool)."""
    if sys.platform.startswith("linux"):
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


# What the server that forks the workers imports once, before it forks the first (multiprocessing's
# forkserver): the main script (which a worker runs again otherwise) and the modules of the workers'
# steps. Spawned, each worker imported them itself: 0.6 s of CPU a worker, four of them in a build of
# 1,000 bundles (two pools of two: 2.3 to 2.6 s of CPU and 1.2 to 1.4 s, against 0.65 s and 0.55 s).
PRELOAD = ["__main__", "ingest.database.stage", "ingest.publish", "ingest.build.exporter"]


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` Python processes that die with this one, forked from a server process
    that has imported nothing but the build's code (started with the first pool; a fork of the build
    itself would copy its threads and DuckDB connections). The server ends when this process does,
    even killed (it reads EOF from its end of a pipe), and its children with it (die_with_parent).
    A worker has the environment of the moment the server started."""
    context = get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)  # (once the server runs, this changes nothing)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_starts)


def _worker_starts() -> None:
    """First thing in a worker: die with the server it was forked from, and let go of the copy the
    server handed it of the build's end of the pipe whose EOF ends that server (a worker that makes a
    pool of its own starts a server of its own, with a pipe of its own): held, it kept a killed build's
    server and workers alive. Then its garbage collector runs less often (memory.collect_less)."""
    die_with_parent()
    server = forkserver._forkserver  # (multiprocessing's private attributes: Python 3.11's, and later ones')
    if server._forkserver_alive_fd is not None:
        os.close(server._forkserver_alive_fd)
        server._forkserver_alive_fd = None
    collect_less()


def stop_server() -> None:
    """End the server this process forks its workers from (process_pool), if it started one, and wait
    for it: a worker that made a pool of its own (the export's, on the worker of a large build) reaps
    its server before it ends, so that the server and its workers are counted in the worker's children's
    CPU time (bench_build.py), not left to the system. (A private method of multiprocessing's.)"""
    forkserver._forkserver._stop()


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
