"""A Parquet file's rows read within a memory bound, for files a bundle brings (its figures files).

A Parquet page's header says how many bytes the page decompresses to, and a reader allocates that much
before it decompresses. Arrow's reader trusts it: a 72 KB figures file whose two pages said 1 GiB each
took validate 2.26 GB, and twelve such columns would take 24 (issue #61's fourth pass), though the
footer, which validation bounds, told the truth. DuckDB's reader allocates within the memory limit of
its connection and says so ("failed to allocate data of size 2.0 GiB"), and reads the catalogue's 327
figures files as the same Arrow tables, faster (1.3 ms a file against Arrow's 1.7)."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pyarrow as pa

# What one file's read may take: a figures file at its bound (1,000,000 samples) takes about 470 MiB
# in Arrow (benchmarks/bench_figures_limit.py)
READ_MEMORY = "1GB"  # DuckDB's: 10^9 bytes
_CONNECTIONS: dict[int, duckdb.DuckDBPyConnection] = {}  # one a process: a connection is not to cross a fork


class ReadRefused(Exception):
    """The file could not be read within READ_MEMORY, or not as Parquet: DuckDB's message, first line."""


def _connection() -> duckdb.DuckDBPyConnection:
    con = _CONNECTIONS.get(os.getpid())
    if con is None:
        _CONNECTIONS.clear()
        con = _CONNECTIONS[os.getpid()] = duckdb.connect(config={"memory_limit": READ_MEMORY, "threads": 1})
    return con


def read_bounded(path: Path, schema: pa.Schema) -> pa.Table:
    """Every row of the Parquet file at ``path``, in its order, as columns of ``schema`` (its footer's,
    checked by the caller), read within READ_MEMORY; ReadRefused says why not."""
    try:
        table = _connection().read_parquet(str(path)).to_arrow_table()
    except duckdb.Error as exc:
        raise ReadRefused(str(exc).strip().splitlines()[0]) from None
    if table.schema != schema:  # a column of nulls DuckDB reads as integers: the footer's type again
        try:
            table = pa.table([c.cast(f.type) if c.type != f.type else c for c, f in zip(table.columns, schema)],
                             schema=schema)
        except (pa.ArrowException, ValueError) as exc:
            raise ReadRefused(f"its columns are not of their footer's types ({exc})") from None
    return table
