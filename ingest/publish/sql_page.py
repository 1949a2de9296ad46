"""The data of the /sql/ page: every table and view of the database as an Arrow IPC stream
(``/sql/data/<name>.arrow``), which DuckDB-WASM loads in the reader's browser, and ``sql.json`` for
Hugo: the tables and views with their columns (type, and meaning from the field registry) and the
example queries of ``schema/sql-examples.yaml``. A file holds a batch a study (sql_batches.py), so that
after one change the study's rows alone are computed, the others' bytes copied from the export's cache.

Why not the published ``benchmarks.duckdb`` or Parquet: the Python duckdb of requirements.lock (2.0)
writes storage version 2.0, which DuckDB-WASM 1.32.0 (DuckDB 1.4.3) refuses ("database file with
version number 999"); and that DuckDB-WASM reads Parquet and JSON only through extensions it fetches
from DuckDB's extension site, which the page's Content-Security-Policy (and the rule of no CDN) rules
out. Arrow streams are read by DuckDB-WASM's own code, with their types. JSON columns travel as text.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Annotated

import duckdb
import pyarrow as pa
import yaml
from pydantic import BaseModel, ConfigDict, StringConstraints

from ..bundles.fields import fields
from ..database.load import IN_ORDER, SQL_DIR
from .db import in_studies
from .sql_batches import ROWS_PER_BATCH, Computed, batches_file, copy, fresh, offsets, write_studies

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


def _arrow_select(con: duckdb.DuckDBPyConnection, name: str, *, where: str = "TRUE") -> tuple[str, list[tuple[str, str]]]:
    """The select that writes ``name`` (JSON columns as text; of a table of studies, the rows ``where``
    holds for), and its columns' names and types."""
    columns = [(c, t) for c, t, *_ in con.execute(f'DESCRIBE "{name}"').fetchall()]
    where = where if columns[0][0] == "study" else "TRUE"
    parts = [f'CAST("{c}" AS VARCHAR) AS "{c}"' if t == "JSON" else f'"{c}"' for c, t in columns]
    # in the order of all its columns: a view has no order of its own, and the file is the same every build
    # (a table stored in that order needs no sort: load.IN_ORDER)
    order = "" if name in IN_ORDER else " ORDER BY ALL"
    return (f'SELECT {", ".join(parts)} FROM "{name}" WHERE {where}{order}',
            [(c, "VARCHAR" if t == "JSON" else t) for c, t in columns])


def _write_whole(con: duckdb.DuckDBPyConnection, select: str, path: Path) -> int:
    """A table without a study column, computed every build (quality_rules: the code's). Returns its rows."""
    reader = con.sql(select).to_arrow_reader(ROWS_PER_BATCH)
    rows = reader.read_all().combine_chunks()  # in batches of ROWS_PER_BATCH, wherever DuckDB's ended
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, reader.schema) as writer:
        for batch in rows.to_batches(max_chunksize=ROWS_PER_BATCH):
            writer.write_batch(fresh(batch))
    return rows.num_rows


def _computed_of(computed: dict[str, Computed], study: str) -> list[tuple[str, int, int, int]]:
    """A study's batches this build computed: (table, where they are in its ``.computed`` file, bytes,
    rows), table by table."""
    return [(name, *done.spans[study]) for name, done in computed.items() if study in done.spans]


def _put_together(paths: dict[str, Path], *, computed: dict[str, Computed],
                  studies: list[str], cached: dict[str, list[list]], batches: Path) -> dict[str, int]:
    """Write each table's file (``paths``: the per-study tables') from the batches of the studies this
    build computed (``computed``: by table, where each study's are in ``<path>.computed``) and those of
    the ``cached`` studies' files of batches, in the order of ``studies``. Returns each table's rows."""
    rows = dict.fromkeys(paths, 0)
    sources = {name: os.open(f"{path}.computed", os.O_RDONLY) for name, path in paths.items()}
    targets = {name: os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644) for name, path in paths.items()}
    try:
        for name, path in paths.items():
            os.write(targets[name], computed[name].head)
        for study in studies:
            if study in cached:
                source = os.open(batches_file(batches, study), os.O_RDONLY)
                try:
                    for name, (at, size, count) in offsets(cached[study]).items():
                        copy(source, targets[name], offset=at, length=size)
                        rows[name] += count
                finally:
                    os.close(source)
                continue
            for name, at, size, count in _computed_of(computed, study):
                copy(sources[name], targets[name], offset=at, length=size)
                rows[name] += count
        for name, path in paths.items():
            os.write(targets[name], computed[name].end)
    finally:
        for fd in (*sources.values(), *targets.values()):
            os.close(fd)
    return rows


def _write_batches(paths: dict[str, Path], *, computed: dict[str, Computed],
                   studies: list[str], batches: Path) -> dict[str, list[list]]:
    """Each computed study's file of batches (its batches of every table, from ``<path>.computed``);
    returns their lengths."""
    batches.mkdir(parents=True, exist_ok=True)
    sources = {name: os.open(f"{path}.computed", os.O_RDONLY) for name, path in paths.items()}
    made = {}
    try:
        for study in studies:
            lengths = []
            target = os.open(batches_file(batches, study), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                for name, at, size, count in _computed_of(computed, study):
                    copy(sources[name], target, offset=at, length=size)
                    lengths.append([name, size, count])
            finally:
                os.close(target)
            made[study] = lengths
    finally:
        for fd in sources.values():
            os.close(fd)
    return made


def export_sql(con: duckdb.DuckDBPyConnection, *, static_dir: Path, batches: Path,
               cached: dict[str, list[list]] | None = None) -> tuple[dict, dict[str, list[list]]]:
    """Write each table and view as ``static_dir/sql/data/<name>.arrow`` (sql_batches.py): the rows of
    the studies ``cached`` (by study, the lengths of its file of batches in ``batches``) from there, the
    others' computed, each given its file of batches too. Returns what ``sql.json`` holds and the lengths
    of the computed studies' files."""
    cached = cached or {}
    out = static_dir / "sql" / "data"
    out.mkdir(parents=True, exist_ok=True)
    known = meanings()
    studies = [s for (s,) in con.execute("SELECT study FROM studies ORDER BY study").fetchall()]
    where = in_studies([s for s in studies if s not in cached]) if cached else "TRUE"
    listed = con.execute("SELECT table_name, table_type FROM information_schema.tables "
                         "WHERE table_catalog = current_database() AND table_schema = 'main' "
                         "ORDER BY table_type, table_name").fetchall()
    tables, rows, paths, computed = [], {}, {}, {}
    try:
        for name, kind in listed:
            path = out / f"{name}.arrow"
            select, columns = _arrow_select(con, name, where=where)
            if columns[0][0] != "study":
                rows[name] = _write_whole(con, select, path)
            else:
                paths[name] = path
                computed[name] = write_studies(con.sql(select).to_arrow_reader(ROWS_PER_BATCH), Path(f"{path}.computed"))
            tables.append((name, kind, columns, path))
        made = _write_batches(paths, computed=computed, studies=[s for s in studies if s not in cached], batches=batches)
        if cached:
            rows.update(_put_together(paths, computed=computed, studies=studies, cached=cached, batches=batches))
        else:  # every study computed: the files are those written
            for name, path in paths.items():
                os.replace(f"{path}.computed", path)
                rows[name] = sum(count for _, _, count in computed[name].spans.values())
    finally:
        for path in paths.values():
            Path(f"{path}.computed").unlink(missing_ok=True)
    listing = []
    for name, kind, columns, path in tables:
        is_view = kind == "VIEW"
        listing.append({
            "name": name, "kind": "view" if is_view else "table", "rows": rows[name],
            "file": f"{DATA_PATH}{name}.arrow", "bytes": path.stat().st_size,
            "columns": [{"name": c, "type": t, **(known.get(("*view*" if is_view else name, c)) or {})}
                        for c, t in columns],
        })
    doc = {"tables": listing, "bytes": sum(t["bytes"] for t in listing),
           "examples": [e.model_dump() for e in examples()]}
    return doc, made
