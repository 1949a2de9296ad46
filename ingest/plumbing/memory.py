"""Handing freed memory back to the system: glibc keeps what Python frees for its next allocations,
and pyarrow's allocator (mimalloc) what Arrow frees, and the build runs Node and Hugo next, which need
it. And Python's cyclic garbage collector run less often while a build makes and drops many objects."""

from __future__ import annotations

import contextlib
import ctypes
import gc
from typing import Iterator

import duckdb
import pyarrow as pa


def hand_back_memory() -> None:
    """Give the memory glibc and pyarrow keep after they free it back to the system (at 1,000 bundles the
    build still held 0.33 GiB of the export's peak of 0.81 after it, 0.27 once handed back; after staging
    a 200 MB log it held 385 MB, 193 MB once handed back, 164 MB of it by pyarrow)."""
    pa.default_memory_pool().release_unused()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):  # not glibc
        pass


# Python collects its youngest objects after 700 more allocations than frees (its default); a build's
# Python makes millions of small objects, nearly all freed by their reference counts, and the collector
# walked them again and again. A worker validating the 1,000 bundles of bench_build.py
# (stage._make_entries) took 13.2 to 13.8 ms of CPU a bundle by default, 11.0 to 11.4 ms with
# collect_less (three runs each way, in turn); an export worker took as long either way (13.6 to 15.3 ms
# a study). What a collection finds is cycles, and the build makes few, so the memory they hold between
# collections grows little.
COLLECT_AFTER = 50_000


def collect_less() -> None:
    """For the rest of this process (a worker of the build's): collections after COLLECT_AFTER
    allocations, and the objects it has now (the modules its server imported before forking it) left
    out of every collection (``gc.freeze``), so that they are neither walked nor copied on write."""
    gc.freeze()
    gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Collections after COLLECT_AFTER allocations inside the block (the build's own process), the
    thresholds as they were after it."""
    before = gc.get_threshold()
    gc.set_threshold(COLLECT_AFTER, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def drop_cached_blocks(con: duckdb.DuckDBPyConnection) -> None:
    """Let go of the blocks DuckDB keeps in memory once written or read (every one is in the database
    file after a checkpoint): it keeps them up to its memory limit, 80% of the machine's memory. A
    limit lowered makes it drop them, and the default is then put back. After loading a 200 MB log's
    1.5 million samples the process held 319 to 324 MB, 142 MB once they were dropped; the grading that
    follows then peaked at 366 to 373 MB instead of 489 to 501 MB."""
    con.execute("CHECKPOINT")
    try:
        con.execute("SET memory_limit = '1MB'")
    except duckdb.OutOfMemoryException:  # what it cannot drop (a temporary table it cannot write out) stays
        pass
    finally:
        con.execute("RESET memory_limit")
