"""The data of the /sql/ page: every table and view of the database as an Arrow IPC stream
(``/sql/data/<name>.arrow``), which DuckDB-WASM loads in the reader's browser, and ``sql.json`` for
Hugo: the tables and views with their columns (type, and meaning from the field registry) and the
example queries of ``schema/sql-examples.yaml``.

Why not the published ``benchmarks.duckdb`` or Parquet: the Python duckdb of requirements.lock (2.0)
writes storage version 2.0, which DuckDB-WASM 1.32.0 (DuckDB 1.4.3) refuses ("database file with
version number 999"); and that DuckDB-WASM reads Parquet and JSON only through extensions it fetches
from DuckDB's extension site, which the page's Content-Security-Policy (and the rule of no CDN) rules
out. Arrow streams are read by DuckDB-WASM's own code, with their types. JSON columns travel as text.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Annotated, Iterator

import duckdb
import pyarrow as pa
import yaml
from pydantic import BaseModel, ConfigDict, StringConstraints

from ..fields import fields
from ..load import SQL_DIR

EXAMPLES = Path(__file__).resolve().parents[2] / "schema" / "sql-examples.yaml"
DATA_PATH = "/sql/data/"  # where the page fetches the tables from


class Example(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
    title: str
    question: str
    sql: str


class Examples(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    examples: tuple[Example, ...]


@functools.cache
def examples() -> tuple[Example, ...]:
    return Examples.model_validate(yaml.safe_load(EXAMPLES.read_text(encoding="utf-8"))).examples


def _aliases() -> dict[str, str]:
    """Each alias of the results view's FROM clause (``JOIN systems AS s``) -> its table: the field
    registry's SQL names columns through them (``s.raid_level``)."""
    text = (SQL_DIR / "results.sql").read_text(encoding="utf-8")
    return {alias: table for table, alias in re.findall(r"(?:FROM|JOIN)\s+(\w+)\s+AS\s+(\w+)", text)}


def meanings() -> dict[tuple[str, str], dict]:
    """(table or view, column) -> the registry field it publishes: a table's column where a field's SQL
    is that column alone (``s.raid_level``: systems.raid_level), a view's where its name is the field's key."""
    tables = _aliases()
    found: dict[tuple[str, str], dict] = {}
    for f in fields():
        entry = {"label": f.label, "bundle": f.bundle}
        if (m := re.fullmatch(r"(\w+)\.(\w+)", f.sql)) and m.group(1) in tables:
            found[(tables[m.group(1)], m.group(2))] = entry
        found[("*view*", f.key)] = entry
    return found


def _arrow_select(con: duckdb.DuckDBPyConnection, name: str) -> tuple[str, list[tuple[str, str]]]:
    """The select that writes ``name`` (JSON columns as text), and its columns' names and types."""
    columns = [(c, t) for c, t, *_ in con.execute(f'DESCRIBE "{name}"').fetchall()]
    parts = [f'CAST("{c}" AS VARCHAR) AS "{c}"' if t == "JSON" else f'"{c}"' for c, t in columns]
    # in the order of all its columns: a view has no order of its own, and the file is the same every build
    return f'SELECT {", ".join(parts)} FROM "{name}" ORDER BY ALL', [(c, "VARCHAR" if t == "JSON" else t) for c, t in columns]


# Rows a record batch of a table's file: the tables are written a batch at a time, so that the rows of
# the largest (the intervals at 10,000 bundles) are never all in memory at once, nor their NULLs' columns
# as Python values; a table smaller than this is one batch, as the page has always read it.
ROWS_PER_BATCH = 1_000_000


def _defined(table: pa.Table) -> pa.Table:
    """``table`` with every byte defined, in one chunk a column: DuckDB's Arrow leaves what is under a NULL
    as it finds it in memory, and the file must be the same every build (tests/test_stage.py compares
    builds byte by byte). A column holding a NULL is rebuilt by pyarrow from its values; the others are
    only joined into one chunk. (Rebuilding every column from rows took 3.0 s at 1,000 bundles, this 0.2 s,
    and writes the same bytes for all 27 tables and views.)"""
    columns = [c.combine_chunks() if c.null_count == 0 else pa.array(c.to_pylist(), type=c.type) for c in table.columns]
    return pa.Table.from_arrays(columns, schema=table.schema)


def _batches(reader: pa.RecordBatchReader) -> Iterator[pa.Table]:
    """The reader's rows ROWS_PER_BATCH at a time (the last fewer): DuckDB's own batches end where its
    threads happened to, which differ between builds."""
    pending: list[pa.RecordBatch] = []
    count = 0
    for batch in reader:
        pending.append(batch)
        count += batch.num_rows
        while count >= ROWS_PER_BATCH:
            rows = pa.Table.from_batches(pending, schema=reader.schema)
            yield rows.slice(0, ROWS_PER_BATCH)
            rest = rows.slice(ROWS_PER_BATCH)
            pending, count = rest.to_batches(), rest.num_rows
    if count or not pending:
        yield pa.Table.from_batches(pending, schema=reader.schema)


def export_sql(con: duckdb.DuckDBPyConnection, *, static_dir: Path) -> dict:
    """Write each table and view as ``static_dir/sql/data/<name>.arrow``; returns what ``sql.json`` holds."""
    out = static_dir / "sql" / "data"
    out.mkdir(parents=True, exist_ok=True)
    known = meanings()
    listed = con.execute("SELECT table_name, table_type FROM information_schema.tables "
                         "WHERE table_catalog = current_database() AND table_schema = 'main' "
                         "ORDER BY table_type, table_name").fetchall()
    tables = []
    for name, kind in listed:
        select, columns = _arrow_select(con, name)
        reader = con.sql(select).to_arrow_reader(ROWS_PER_BATCH)
        path = out / f"{name}.arrow"
        rows = 0
        with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, reader.schema) as writer:
            for batch in _batches(reader):
                writer.write_table(_defined(batch))
                rows += batch.num_rows
        is_view = kind == "VIEW"
        tables.append({
            "name": name, "kind": "view" if is_view else "table", "rows": rows,
            "file": f"{DATA_PATH}{name}.arrow", "bytes": path.stat().st_size,
            "columns": [{"name": c, "type": t, **(known.get(("*view*" if is_view else name, c)) or {})}
                        for c, t in columns],
        })
    return {"tables": tables, "bytes": sum(t["bytes"] for t in tables),
            "examples": [e.model_dump() for e in examples()]}
