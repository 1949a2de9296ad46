"""Where a build's export runs: in the build's own process, or, for many bundles, in a process of
its own, so that all the memory it held goes back to the system when it ends, before Node and Hugo
run. Python keeps most of what it frees (its allocators and glibc's): at 10,000 bundles the build's
process still held 1.28 GiB through Hugo after an export that peaked at 3.04 GiB, and the whole
process tree reached 4.51 GiB beside Hugo's two runs.

The exporter works in two steps, both on its one worker: the studies the export's cache holds are
linked into the new export while the build loads its database (publish.take_from_cache), then the
export proper (publish.export_all) runs once the database is whole, with the records the first step
read, which stay on the worker (a process of its own does not send them back and forth)."""

from __future__ import annotations

import ctypes
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from . import children
from .cache import CacheCounts
from .publish import export_all, take_from_cache

# From this many bundles on, the export runs in a process of its own. At 1,000 bundles (bench_build.py,
# on a machine three times slower than the README's) the whole tree peaked at 0.99 GiB with it and 1.22
# without, but after one change its start (a second of imports beside the load) made the export 5.5 s
# instead of 4.4: below 2 GiB, the change's speed counts for more.
APART_FROM = 2000

# The records of the studies taken from the cache, on the exporter's worker, until the export uses them.
_taken: dict[str, dict] = {}


class Exporter:
    """The export's worker for a build of ``bundles`` bundles: a thread of this process, or a process of
    its own (spawned, killed with the build), which ends with the build's ``with`` block."""

    def __init__(self, *, bundles: int) -> None:
        self.apart = bundles >= APART_FROM
        self.pool: Executor = (ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"),
                                                   initializer=children.die_with_parent)
                               if self.apart else ThreadPoolExecutor(max_workers=1))

    def take(self, *, out_dir: Path, cache: Path, bundle_keys: dict[str, str], site_url: str) -> Future:
        """Start linking the cached studies into ``out_dir`` on the worker; the future of how many."""
        return self.pool.submit(_take, out_dir=out_dir, cache=cache, bundle_keys=bundle_keys, site_url=site_url)

    def export(self, **kwargs) -> CacheCounts:
        """publish.export_all(**kwargs) with the studies ``take`` took: on the worker if it is a process
        (in this thread otherwise, as an interrupted build stops it then)."""
        return self.pool.submit(_export, **kwargs).result() if self.apart else _export(**kwargs)

    def __enter__(self) -> Exporter:
        return self

    def __exit__(self, kind, *_) -> None:
        if kind is not None and self.apart:  # an interrupted or failed build: stop what the worker does
            _kill(self.pool)
        self.pool.shutdown(wait=True, cancel_futures=True)
        if not self.apart:
            _taken.clear()
            hand_back_memory()


def _kill(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's worker processes (ProcessPoolExecutor.kill_workers from Python 3.14 on)."""
    if hasattr(pool, "kill_workers"):
        pool.kill_workers()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()


def _take(**kwargs) -> int:
    _taken.clear()
    _taken.update(take_from_cache(**kwargs))
    return len(_taken)


def _export(**kwargs) -> CacheCounts:
    try:
        return export_all(**kwargs, taken=_taken)
    finally:
        _taken.clear()


def hand_back_memory() -> None:
    """Give the memory glibc keeps after Python frees it back to the system (at 1,000 bundles the build
    still held 0.33 GiB of the export's peak of 0.81 after it, 0.27 once handed back)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):  # not glibc
        pass
