"""Where a build loads its database and exports: in the build's own process, or, for many bundles,
in a process of its own, so that all the memory the two held goes back to the system when it ends,
before Node and Hugo run. Python keeps most of what it frees (its allocators and glibc's), and DuckDB
keeps some of what it used: at 10,000 bundles the build's process still held 1.28 GiB through Hugo
after an export that peaked at 3.04 GiB, and the whole process tree reached 4.51 GiB beside Hugo's two
runs; with the export alone in a process of its own, the build still held 0.64 GiB after the load.

The worker does three things in turn: it starts linking the studies the export's cache holds into the
new export (publish.take_from_cache, on a thread, which then imports what the export's synthesis pools
with), loads the database meanwhile (stage.py), then
exports (publish.export_all) with the records the first step read, which stay on the worker (a process
of its own does not send them back and forth)."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Callable

from ..plumbing import children
from ..plumbing.cache import CacheCounts
from ..plumbing.memory import hand_back_memory
from ..publish import export_all, take_from_cache
from ..database.stage import build_database_from
from ..synthesis.pooling import preload

# From this many bundles on, the load and the export run in a process of their own. At 1,000 bundles
# (bench_build.py, on a machine three times slower than the README's, the export alone apart) the whole
# tree peaked at 0.99 GiB with it and 1.22 without, but after one change the process's start (a second
# of imports beside the load) made the export 5.5 s instead of 4.4: below 2 GiB, speed counts for more.
APART_FROM = 2000

# On the worker: the future of the studies being taken from the cache ("taking"), then their records
# ("taken"), until the export uses them.
_state: dict = {}


class Exporter:
    """The worker that loads and exports for a build of ``bundles`` bundles: this process (the calling
    thread, as an interrupted build stops it then), or a process of its own (children.process_pool:
    killed with the build), which ends with the build's ``with`` block."""

    def __init__(self, *, bundles: int) -> None:
        self.apart = bundles >= APART_FROM
        self.pool = children.process_pool(1) if self.apart else None

    def _run(self, step: Callable, **kwargs):
        return self.pool.submit(step, **kwargs).result() if self.pool else step(**kwargs)

    def take(self, **kwargs) -> None:
        """Start publish.take_from_cache(**kwargs) on a thread of the worker."""
        self._run(_take, **kwargs)

    def load(self, **kwargs) -> None:
        """stage.build_database_from(**kwargs), then wait for ``take``."""
        self._run(_load, **kwargs)

    def export(self, **kwargs) -> CacheCounts:
        """publish.export_all(**kwargs) with the studies ``take`` took, if it ran."""
        return self._run(_export, **kwargs)

    def __enter__(self) -> Exporter:
        return self

    def __exit__(self, kind, *_) -> None:
        if self.pool is None:
            if "taking" in _state:  # a failed build: not while the links are written (its folder goes)
                wait([_state["taking"]])
            _state.clear()
            hand_back_memory()
            return
        if kind is not None:  # an interrupted or failed build: stop what the worker does
            children.kill_workers(self.pool)
        else:  # the worker's own server of workers (the export's) reaped by the worker
            self.pool.submit(children.stop_server).result()
        self.pool.shutdown(wait=True, cancel_futures=True)


def _take(**kwargs) -> None:
    _state.clear()
    side = ThreadPoolExecutor(max_workers=1)
    _state["taking"] = side.submit(take_from_cache, **kwargs)
    side.submit(preload)  # the export's imports, after the links and beside the load
    side.shutdown(wait=False)


def _load(**kwargs) -> None:
    taking: Future = _state["taking"]
    try:
        build_database_from(**kwargs)
    finally:
        wait([taking])
    _state["taken"] = taking.result()
    del _state["taking"]


def _export(**kwargs) -> CacheCounts:
    try:
        return export_all(**kwargs, taken=_state.pop("taken", None))  # (None: export_all takes them)
    finally:
        _state.clear()

