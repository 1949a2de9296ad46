"""The data of the /sql/ page: every table and view of the database in one DuckDB database file
(``/sql/data/sql.duckdb``, FILE), which DuckDB-WASM in the reader's browser attaches over HTTP and reads
by range requests (site/assets/js/sql-db.js), and ``sql.json`` for Hugo: the tables and views with their
columns (type, and meaning from the field registry), the bytes a query reads of each at most, and the
example queries of ``schema/sql-examples.yaml``.

The file is written by the Python duckdb of requirements.lock (2.0) in storage version v1.4.0
(STORAGE_VERSION), the newest DuckDB-WASM 1.32.0 (DuckDB 1.4.3) reads: it refuses 2.0's own ("database
file with version number 999"), which is why the download ``/data/benchmarks.duckdb`` cannot be it. Each
view is stored as a table of its rows (the page's DuckDB has no JSON extension: JSON columns are text),
and every table in the order of all its columns, the study first (IN_ORDER's tables as the load stored
them), so that a query on one study skips the row groups whose zone maps (min and max of the study)
leave it out, and reads of the rest only the columns it names. A text zone map keeps the first 8 bytes
of its min and max: the row groups of studies whose ids share their first 8 bytes (the 14 ``percona-``
ones) are not told apart, and a query on one of them reads all of theirs (of its columns; an ENUM study
column would keep whole values, but DuckDB 1.4.3 compares it as text and skips nothing). The whole file
is written every build: 1.3 to 1.5 s for the 32 studies of data/ at a load average of 6 (3.7 to 5.0 s
at 10), 21.5 MiB, against the per-study Arrow streams it replaced (139 MiB, put together from a cache of
each study's record batches); it is not byte for byte the same from one build to the next (DuckDB's
blocks and checksums), its tables' rows are.

Why not Parquet: that DuckDB-WASM reads Parquet only through its parquet extension, which it does not
link statically and fetches from DuckDB's extension site, which the page's Content-Security-Policy (and
the rule of no CDN) rules out, and which @duckdb/duckdb-wasm's npm package does not carry.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Annotated

import duckdb
import pyarrow as pa
import yaml
from pydantic import BaseModel, ConfigDict, StringConstraints

from ..bundles.fields import fields
from ..database.load import IN_ORDER, SQL_DIR

EXAMPLES = Path(__file__).resolve().parents[2] / "schema" / "sql-examples.yaml"
FILE = "/sql/data/sql.duckdb"  # where the page reads the tables from, under the site's root
STORAGE_VERSION = "v1.4.0"  # the newest DuckDB-WASM 1.32.0 (DuckDB 1.4.3) reads
# Rows a row group at most: the unit a query's zone maps skip or read. A quarter of DuckDB's default
# (122,880): on the 32 studies of data/, one run's samples of intervals read 1.3 MiB of the file (2.3
# to 6.8 MiB at the default, whose blocks DuckDB-WASM may fetch in reads growing to 4 MiB; 2.3 MiB at
# 10,240, whose catalogue is larger), for a file of 21.5 MiB (21.0; 22.3): benchmarks/HISTORY.md
ROW_GROUP_SIZE = 30_720


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


def _published_select(con: duckdb.DuckDBPyConnection, name: str) -> tuple[str, list[tuple[str, str]]]:
    """The select that stores ``name`` in FILE (JSON columns as text; its rows in the order of all its
    columns: a view has no order of its own, and the file is the same every build), and its columns'
    names and types."""
    columns = [(c, t) for c, t, *_ in con.execute(f'DESCRIBE "{name}"').fetchall()]
    parts = [f'CAST("{c}" AS VARCHAR) AS "{c}"' if t == "JSON" else f'"{c}"' for c, t in columns]
    # a table stored in that order needs no sort (load.IN_ORDER; DuckDB keeps the order rows went in)
    order = "" if name in IN_ORDER else " ORDER BY ALL"
    return (f'SELECT {", ".join(parts)} FROM "{name}"{order}',
            [(c, "VARCHAR" if t == "JSON" else t) for c, t in columns])


def table_bytes(con: duckdb.DuckDBPyConnection, *, catalog: str, name: str) -> int:
    """The bytes a query reads of table ``name`` of the attached FILE ``catalog`` at most: its blocks
    (of the file's block size; a block another table shares counted whole), which DuckDB-WASM fetches."""
    size = con.execute("SELECT block_size FROM pragma_database_size() WHERE database_name = ?", [catalog]).fetchone()[0]
    blocks = con.execute(f"SELECT count(DISTINCT block_id) FROM pragma_storage_info('{catalog}.\"{name}\"') "
                         "WHERE block_id >= 0").fetchone()[0]
    return blocks * size


def _quoted(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def _attached(path: Path) -> duckdb.DuckDBPyConnection:
    """A connection of its own with FILE at ``path`` attached as ``published``, in its storage version."""
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(f"ATTACH {_quoted(path)} AS published (STORAGE_VERSION '{STORAGE_VERSION}', ROW_GROUP_SIZE {ROW_GROUP_SIZE})")
    return con


def export_sql(con: duckdb.DuckDBPyConnection, *, db_path: Path, static_dir: Path) -> dict:
    """Write every table and view of the database ``db_path`` (``con`` reads it) as a table of FILE
    under ``static_dir``, written anew; returns what ``sql.json`` holds."""
    path = static_dir / FILE.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    known = meanings()
    listed = con.execute("SELECT table_name, table_type FROM information_schema.tables "
                         "WHERE table_catalog = current_database() AND table_schema = 'main' "
                         "ORDER BY table_type, table_name").fetchall()
    writer = _attached(path)
    listing = []
    try:
        writer.execute(f"ATTACH {_quoted(db_path)} AS source (READ_ONLY)")
        writer.execute("USE source")  # the views' own tables
        for name, kind in listed:
            select, columns = _published_select(writer, name)
            writer.execute(f'CREATE TABLE published."{name}" AS {select}')
            is_view = kind == "VIEW"
            listing.append({
                "name": name, "kind": "view" if is_view else "table",
                "rows": writer.execute(f'SELECT count(*) FROM published."{name}"').fetchone()[0],
                "columns": [{"name": c, "type": t, **(known.get(("*view*" if is_view else name, c)) or {})}
                            for c, t in columns],
            })
        writer.execute("CHECKPOINT published")
        for table in listing:
            table["bytes"] = table_bytes(writer, catalog="published", name=table["name"])
    finally:
        writer.close()
    return {"file": FILE, "bytes": path.stat().st_size, "tables": listing,
            "examples": [e.model_dump() for e in examples()]}


def add_table(table: pa.Table, *, name: str, labels: dict[str, str], types: dict, static_dir: Path,
              sql_json: Path) -> None:
    """Store ``table`` (pyarrow's) as table ``name`` of FILE under ``static_dir`` and list it in
    ``sql_json`` (export_sql's), its columns' meanings ``labels`` and types ``types`` (DuckDB's, by
    pyarrow type)."""
    path = static_dir / FILE.lstrip("/")
    writer = _attached(path)
    try:
        writer.register("rows", table)
        writer.execute(f'CREATE TABLE published."{name}" AS SELECT * FROM rows')
        writer.execute("CHECKPOINT published")
        size = table_bytes(writer, catalog="published", name=name)
    finally:
        writer.close()
    doc = json.loads(sql_json.read_text(encoding="utf-8"))
    doc["tables"].append({"name": name, "kind": "table", "rows": table.num_rows, "bytes": size,
                          "columns": [{"name": f.name, "type": str(types[f.type]),
                                       **({"label": labels[f.name]} if f.name in labels else {})} for f in table.schema]})
    doc["bytes"] = path.stat().st_size
    sql_json.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
