"""The Arrow files of /sql/ (sql_page.py) made study by study, so that a build after one change
computes that study's rows alone and copies the others' bytes from the export's cache.

Each file is an Arrow IPC stream: the table's schema, then each study's rows (in the order of
``studies``, each ordered by all its columns: as ``ORDER BY ALL`` over the whole table, the study being
every table's first column) as record batches of their own (of at most ROWS_PER_BATCH rows), then the
stream's end. A study's batches are the same bytes whichever build computed them (``fresh``,
``of_study``), so the export keeps them: ``<export>/sql-batches/<study>.arrows`` (FOLDER, SUFFIX; not
published) holds the study's batches of every table, one table after the other, and its cache entry
(study_cache.py) lists each table's bytes and rows (``[[table, bytes, rows], ...]``: a study's *lengths*). A file is put
together from the two by ``copy_file_range`` (no bytes through Python), and a study the build computed
gets its own file of batches from the build's.

At 1,000 bundles the files hold 10% more bytes than as a few batches of a million rows (the batches'
headers: 187 MB against 170 MB), and writing them after one change took 1.5 s against 3.0 s (benchmarks/HISTORY.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pyarrow as pa
import pyarrow.compute as pc

FOLDER = "sql-batches"  # in the export: each study's batches of every table (not published)
SUFFIX = ".arrows"
# Rows a record batch at most, and a batch DuckDB hands over: the rows of the largest study (a 200 MB
# log: 1.5 million intervals) are never all in memory at once, nor a batch's NULLs' columns as Python
# values (their bytes made again: fresh)
ROWS_PER_BATCH = 100_000


def batches_file(folder: Path, study: str) -> Path:
    """A study's file of batches in ``folder`` (the export's FOLDER)."""
    return folder / f"{study}{SUFFIX}"


def batches_name(study: str) -> str:
    """A study's file of batches, by its path in the export."""
    return batches_file(Path(FOLDER), study).as_posix()


def _rebuilt(column: pa.Array) -> bool:
    return column.null_count > 0 or pa.types.is_boolean(column.type) or pa.types.is_list(column.type)


def _unmasked(column: pa.Array) -> pa.Array:
    """``column`` (of numbers or text, no NULL) without its validity bitmap (DuckDB gives one to every
    column), which the writer would write."""
    if column.buffers()[0] is None:
        return column
    return pa.Array.from_buffers(column.type, len(column), [None, *column.buffers()[1:]], null_count=0,
                                 offset=column.offset)


def fresh(batch: pa.RecordBatch) -> pa.RecordBatch:
    """``batch`` (as DuckDB gave it) with every byte defined by its values alone: DuckDB's Arrow leaves
    what is under a NULL as it finds it in memory, and so the bits of a bitmap (a boolean column, a
    list's items) past its last row. Such columns are built again by pyarrow from their values; the
    others (numbers and text without a NULL) are kept, without their validity bitmap. Each study's rows
    are then copied out of it (of_study)."""
    columns = [pa.array(c.to_pylist(), type=c.type) if _rebuilt(c) else _unmasked(c) for c in batch.columns]
    return pa.RecordBatch.from_arrays(columns, schema=batch.schema)


def of_study(batch: pa.RecordBatch, *, nulls: list[int]) -> pa.RecordBatch:
    """A study's rows, a slice of a fresh batch, as the bytes of its rows alone: its own copy (the
    writer would write a slice's text with up to 64 bytes of the rows after it), without the validity
    bitmap of a column of ``nulls`` (the batch's columns with a NULL) where the study has none."""
    bare = [i for i in nulls if batch.column(i).null_count == 0]
    if bare:
        columns = list(batch.columns)
        for i in bare:
            column = columns[i]
            columns[i] = pa.array(column.to_pylist(), type=column.type) if pa.types.is_list(column.type) else _unmasked(column)
        batch = pa.RecordBatch.from_arrays(columns, schema=batch.schema)
    return pa.concat_batches([batch])


def by_study(reader: pa.RecordBatchReader) -> Iterator[tuple[str, pa.RecordBatch]]:
    """Each study's rows of the reader's (ordered by study first) in batches (fresh, of_study) of
    ROWS_PER_BATCH rows counted from the study's first row, its last one shorter: the same batches
    wherever DuckDB's ended, and never more than a batch's rows held (a 200 MB log's 1.5 million
    intervals once made 1.1 GB of Python and Arrow at once)."""
    current, pending, held = None, [], 0

    def joined() -> pa.RecordBatch:  # (a batch whose rows two of DuckDB's batches hold: rare)
        if len(pending) == 1:
            return pending[0]
        whole, nulls = _fresh(pa.concat_batches(pending))
        return of_study(whole, nulls=nulls)

    for batch in reader:
        if not batch.num_rows:
            continue
        batch, nulls = _fresh(batch)
        runs = pc.run_end_encode(batch.column(0))
        start = 0
        for end, name in zip(runs.run_ends.to_pylist(), runs.values.to_pylist()):
            if name != current and pending:
                yield current, joined()
                pending, held = [], 0
            current = name
            while start < end:
                take = min(end - start, ROWS_PER_BATCH - held)
                pending.append(of_study(batch.slice(start, take), nulls=nulls))
                held += take
                start += take
                if held == ROWS_PER_BATCH:
                    yield current, joined()
                    pending, held = [], 0
        # what the batch's copies took, given back before the next: pyarrow's allocator keeps freed
        # memory for itself (writing a 200 MB log's samples peaked at 327 MB, and at 288 MB with it given back)
        pa.default_memory_pool().release_unused()
    if pending:
        yield current, joined()


def _fresh(batch: pa.RecordBatch) -> tuple[pa.RecordBatch, list[int]]:
    """fresh(batch), and its columns that hold a NULL."""
    made = fresh(batch)
    return made, [i for i, c in enumerate(made.columns) if c.null_count]


def head_and_end(schema: pa.Schema) -> tuple[bytes, bytes]:
    """The bytes a stream of ``schema`` starts with (its schema) and ends with."""
    sink = pa.BufferOutputStream()
    pa.ipc.new_stream(sink, schema).close()
    empty = sink.getvalue().to_pybytes()
    return empty[:-8], empty[-8:]


@dataclass(frozen=True)
class Computed:
    """A stream write_studies wrote: its first bytes (the schema), its last (the end), and where each
    study's batches are in it: (offset, bytes, rows)."""
    head: bytes
    end: bytes
    spans: dict[str, tuple[int, int, int]]


def write_studies(reader: pa.RecordBatchReader, path: Path) -> Computed:
    """Write the reader's rows (ordered by study first) to ``path`` as a stream, each study's in batches
    of its own: the stream's head, each batch's IPC message (``serialize``: the bytes a stream writer
    writes for it, in half the time for a batch a study: 76 against 160 µs a batch of 47 columns), its end."""
    spans: dict[str, tuple[int, int, int]] = {}
    head, end = head_and_end(reader.schema)
    with open(path, "wb") as out:
        out.write(head)
        at = len(head)
        for study, rows in by_study(reader):
            start, size, count = spans.get(study, (at, 0, 0))
            message = rows.serialize()
            out.write(message)
            at += message.size
            spans[study] = (start, size + message.size, count + rows.num_rows)
        out.write(end)
    return Computed(head=head, end=end, spans=spans)


def copy(source: int, target: int, *, offset: int, length: int) -> None:
    """Append ``length`` bytes of the file ``source`` from ``offset`` to the file ``target`` (descriptors)."""
    while length:
        try:
            done = os.copy_file_range(source, target, length, offset)
        except (AttributeError, OSError):  # no copy_file_range here (or not between these files)
            done = os.write(target, os.pread(source, min(length, 1 << 24), offset))
        if not done:
            raise OSError(f"the file of descriptor {source} ends before byte {offset + length}")
        offset += done
        length -= done


def offsets(lengths: list[list]) -> dict[str, tuple[int, int, int]]:
    """A study's lengths ([[table, bytes, rows], ...]) as where each table's batches are in its file."""
    found, at = {}, 0
    for table, size, rows in lengths:
        found[table] = (at, size, rows)
        at += size
    return found
