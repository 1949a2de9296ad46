"""Memory handed back between a build's steps (ingest/plumbing/memory.py)."""

from __future__ import annotations

import gc
from pathlib import Path

import duckdb
import pytest

from ingest.plumbing import children
from ingest.plumbing.memory import COLLECT_AFTER, drop_cached_blocks, fewer_collections


def _held(con: duckdb.DuckDBPyConnection) -> int:
    return con.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchone()[0]


def test_dropping_the_cached_blocks_keeps_the_rows_and_puts_the_memory_limit_back(tmp_path: Path):
    con = duckdb.connect(str(tmp_path / "m.duckdb"))
    limit = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    con.execute("CREATE TABLE t AS SELECT range AS i, hash(range) AS j FROM range(2000000)")
    con.execute("CREATE TEMP TABLE kept AS SELECT range AS i FROM range(100000)")  # in memory alone
    held = _held(con)
    assert held > 10 * 2**20
    drop_cached_blocks(con)
    assert _held(con) < held / 4
    assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] == limit
    assert con.execute("SELECT count(*), sum(i) FROM t").fetchone() == (2000000, 1999999000000)
    assert con.execute("SELECT count(*) FROM kept").fetchone() == (100000,)
    con.close()


def test_a_worker_collects_after_more_allocations_and_leaves_what_it_was_forked_with_out():
    default = gc.get_threshold()
    with children.workers(1) as pool:
        assert pool.submit(gc.get_threshold).result() == (COLLECT_AFTER, *default[1:])
        assert pool.submit(gc.get_freeze_count).result() > 10_000  # the modules the server imported
    assert gc.get_threshold() == default


def test_fewer_collections_in_a_block_then_the_thresholds_as_they_were():
    before = gc.get_threshold()
    with pytest.raises(KeyError):
        with fewer_collections():
            assert gc.get_threshold() == (COLLECT_AFTER, *before[1:])
            raise KeyError("a build failed")
    assert gc.get_threshold() == before
