"""Cited logs: the figures file of a ``type: cited`` result (its format: schema/figures.py), written from a
parsed run by ``benchdb import --cite`` and read back as the same run, so that validation, derivation and
the loader take a cited log as they take a parsed one.

The file is Parquet: its interval samples a column each, read by Arrow at once, and the run's figures in
its key-value metadata (RUN_KEY). It is hostile input like any other: before anything is read, its size,
its footer's and the decompressed columns' sizes are bounded (MAX_*) and every page's header is checked
against the footer (parquet_pages.py); Arrow then reads the bytes that were checked. Every problem names
the field and, for a sample, its row; a run of bad rows is reported up to MAX_PROBLEMS and then counted. A figures file
of JSON Lines (the format before Parquet) is read by cited_lines.py, for ``benchdb migrate`` only.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import ValidationError

from schema.figures import ORIGIN_KEY, RUN_KEY, FiguresOrigin, FiguresRun

from ..parsers.sysbench_intervals import INTEGER_COLUMNS, INTEGER_RANGE, INTERVAL_COLUMNS, IntervalColumns
from ..parsers.sysbench_intervals import MAX_SAMPLES as RUN_SAMPLES
from ..parsers.sysbench_recheck import unrecorded
from ..parsers.sysbench_rows import EXTRA_INTERVAL_COLUMNS
from ..plumbing.beside import written_beside
from ..plumbing.text import printable
from .parquet_pages import PageProblem, check_pages

FOLDER = "cited"  # where import writes a bundle's figures files: cited/<id>.parquet
SUFFIX = ".parquet"
MAX_FILE_BYTES = 64 * 2**20  # ~3 million samples as written; the largest of data/ is 0.2 MB
MAX_FOOTER_BYTES = 4 * 2**20  # the run's figures and the columns' layout; as large as a bundle.yaml may be
# Samples of one file (11.6 days of 1 s intervals; data/'s largest holds 21,630) and of a bundle's figures
# files together (its largest 198,035): a file at the limit is read in about 1.3 s of CPU and 467 MiB
# (benchmarks/bench_figures_limit.py; HISTORY.md, issue #61), where one of 5 million took 1.7 GB.
MAX_SAMPLES = RUN_SAMPLES  # a run's, as the parser bounds a log's (sysbench_intervals.py)
MAX_BUNDLE_SAMPLES = 2_000_000
MAX_COLUMN_BYTES = 8 * MAX_SAMPLES + 2**20  # a column's decompressed size: 8 bytes a sample and its pages' own
# and GROUP_BYTES a row group, for its pages' headers and statistics: about 390 bytes of a row group of 300 samples
# (a valid file of 1,000,000 samples in row groups of 300 was refused: issue #61's fourth pass); the
# footer's bound (MAX_FOOTER_BYTES) bounds the row groups
GROUP_BYTES = 1024
MAX_PROBLEMS = 50  # of one file; the rest are counted in one more
_ROW_KEYS = ("line", *INTERVAL_COLUMNS)
_ORDER = (*_ROW_KEYS, *EXTRA_INTERVAL_COLUMNS)
_WHOLE = ("line", "t_s", "threads")  # whole numbers always; the others as the log prints them
MESSAGES = {"missing": "missing required field", "extra_forbidden": "unknown key (not part of a figures file)"}
# How a figures file is written: 19 bytes a sample over data/'s cited logs (benchmarks/HISTORY.md, issue #60):
# the lines and times, which mostly step by one, delta-coded; whole-number columns (threads, the latency
# percentile, errors) dictionary-coded, as they hardly change; every page zstd-compressed.
_WRITE = dict(compression="zstd", compression_level=9, write_statistics=False, store_schema=False,
              column_encoding={"line": "DELTA_BINARY_PACKED", "t_s": "DELTA_BINARY_PACKED"})


@dataclass(frozen=True)
class FiguresProblem:
    line: int | None
    field: str
    kind: str
    message: str
    severity: str = "error"


def figures_path(result_id: str) -> str:
    """Where import writes a cited result's figures file, inside its bundle."""
    return f"{FOLDER}/{result_id}{SUFFIX}"


# --- writing ------------------------------------------------------------------------------------


def figures_table(run: dict) -> pa.Table:
    """``run``'s interval samples (``run``: one run as sysbench_runs.parse_runs gives it) as one table: the
    log's line of each, then its columns in _ORDER; a column a part lacks is null there."""
    parts = run["intervals"].parts()
    types: dict[str, pa.DataType] = {name: pa.int64() for name in _ROW_KEYS[:3]}
    for table, _ in parts:
        for field in table.schema:
            known = types.get(field.name, pa.null())
            if known != field.type and pa.null() not in (known, field.type):
                raise ValueError(f"interval column {field.name} is {known} in one part and {field.type} in another: "
                                 "a figures file holds one type a column")
            types[field.name] = field.type if known == pa.null() else known
    names = [name for name in _ORDER if name in types or name in _ROW_KEYS]
    columns = {name: [] for name in names}
    for table, lines in parts:
        for name in names:
            kind = types.get(name, pa.null())
            if name == "line":
                columns[name].append(pa.array(lines, pa.int64()))
            elif name in table.column_names:
                columns[name].append(table.column(name).cast(kind))
            else:
                columns[name].append(pa.nulls(table.num_rows, kind))
    schema = pa.schema([(name, types.get(name, pa.null())) for name in names])
    return pa.table({name: pa.chunked_array(columns[name], schema.field(name).type) for name in names},
                    schema=schema)


def write_figures(run: dict, path: Path, *, origin: dict) -> None:
    """Write ``run``'s figures file at ``path`` (a temporary file renamed into place: never half written),
    tied to ``origin`` (FiguresOrigin: the result that names it and its log's SHA-256)."""
    header = json.dumps({k: v for k, v in run.items() if k != "intervals"}, ensure_ascii=False, allow_nan=False)
    _write(figures_table(run), path, header=header, origin=origin)


def tie_figures(path: Path, *, origin: dict, sha256: str) -> None:
    """Write a figures file of before ORIGIN_KEY again with it (``benchdb migrate``): its samples and its
    run's figures as they are, from the bytes whose SHA-256 is ``sha256``, those read_figures checked (a
    file swapped after the check was tied as it then was: issue #61's fifth pass); Refused otherwise."""
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise Refused("the file changed after it was checked: run migrate again")
    source = pa.BufferReader(data)
    header = pq.read_metadata(source).metadata[RUN_KEY.encode()].decode("utf-8")
    _write(pq.read_table(pa.BufferReader(data), use_threads=False), path, header=header, origin=origin)


def _write(table: pa.Table, path: Path, *, header: str, origin: dict) -> None:
    tie = json.dumps(FiguresOrigin.model_validate(origin).model_dump(), ensure_ascii=False)
    coded = [f.name for f in table.schema if f.name not in ("line", "t_s") and pa.types.is_integer(f.type)]
    path.parent.mkdir(parents=True, exist_ok=True)
    # (a short name: one of 250 bytes is a legal figures file's)
    with written_beside(path, prefix=".figures-") as f, \
            pq.ParquetWriter(f, table.schema, use_dictionary=coded, **_WRITE) as writer:
        writer.write_table(table)
        writer.add_key_value_metadata({RUN_KEY: header, ORIGIN_KEY: tie})


# --- the run's figures (shared with cited_lines.py) -------------------------------------------------


class Refused(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict:
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise Refused(f"key {key!r} is given twice")
        seen[key] = value
    return seen


def _constant(name: str) -> float:
    raise Refused(f"{name} is not a number a figure may be")


MAX_DEPTH = 16  # of a run's figures' objects and lists within each other (the format's: 4)
# what JSON nests by: a string whole (its brackets are text), or a bracket
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _depth(text: str) -> int:
    """How deep ``text``'s objects and lists go, read without parsing it (a parser recurses: about 1,000
    levels of ``[`` end Python's json in a RecursionError, issue #61)."""
    depth = deepest = 0
    for token in _NESTING.findall(text):
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def strict_json(text: str) -> Any:
    if _depth(text) > MAX_DEPTH:
        raise Refused(f"objects and lists nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except Refused:
        raise
    except ValueError as exc:
        raise Refused(f"not JSON: {exc}") from None


def _where(loc: tuple) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else ("." if name else "") + str(part)
    return name


def read_header(text: str, *, line: int | None, prefix: str = "") -> tuple[dict | None, list[FiguresProblem]]:
    """The run's figures from their JSON text (a JSON Lines file's line 1, a Parquet file's RUN_KEY), with
    problems at ``line`` and their fields under ``prefix``."""
    try:
        data = strict_json(text)
    except Refused as exc:
        return None, [FiguresProblem(line, prefix.rstrip("."), "figures", str(exc))]
    if not isinstance(data, dict):
        return None, [FiguresProblem(line, prefix.rstrip("."), "figures", "the run's figures must be a JSON object")]
    try:
        FiguresRun.model_validate(data)
    except ValidationError as exc:
        return None, [FiguresProblem(line, prefix + p.field if p.field else prefix.rstrip("."), p.kind, p.message)
                      for p in _model_problems(exc, line)]
    if not all(finite(v) for v in _numbers(data)):
        return None, [FiguresProblem(line, prefix.rstrip("."), "figures", "a figure is not a finite number")]
    return data, [FiguresProblem(line, prefix + p.field, p.kind, p.message) for p in _header_lines(data, line)]


_TYPES = {"int_type": "a whole number", "float_type": "a number", "string_type": "text", "bool_type": "true or false",
          "none_required": "null", "dict_type": "an object", "list_type": "a list"}


def _model_problems(exc: ValidationError, line: int | None) -> list[FiguresProblem]:
    """One problem a field: the members of a union the value is none of are named together."""
    found: dict[str, list[dict]] = {}
    for err in exc.errors():
        found.setdefault(_where(tuple(p for p in err["loc"] if not _union_tag(p))), []).append(err)
    problems = []
    for field, errors in found.items():
        kinds = [e["type"] for e in errors]
        if len(errors) > 1 and all(k in _TYPES for k in kinds):
            wanted = [_TYPES[k] for k in dict.fromkeys(kinds) if not (k == "int_type" and "float_type" in kinds)]
            message = "Input should be " + (", ".join(wanted[:-1]) + " or " if len(wanted) > 1 else "") + wanted[-1]
            errors = [{**errors[0], "type": "type", "msg": message}]
        for err in errors:
            message = MESSAGES.get(err["type"]) or err["msg"].removeprefix("Value error, ")
            if err["type"] not in MESSAGES and not isinstance(err.get("input"), (dict, list, type(None))):
                message = f"{message} (got {err['input']!r})"
            problems.append(FiguresProblem(line, field, err["type"], message))
    return problems


def _union_tag(part: Any) -> bool:
    return isinstance(part, str) and (part in ("int", "float", "str", "constrained-int", "constrained-str")
                                      or part.startswith("function-") or part.startswith("tuple["))


def _numbers(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _numbers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _numbers(value)
    else:
        yield node


def finite(value: Any) -> bool:
    return not isinstance(value, float) or math.isfinite(value)


def _header_lines(run: dict, line: int | None) -> list[FiguresProblem]:
    """The lines the figures name lie inside the run's lines (a figure of the run as a whole: line 0)."""
    first, last = run["lines"]
    problems = []
    if first > last:
        problems.append(FiguresProblem(line, "lines", "figures", f"the run's lines {first}-{last} end before they begin"))
    inside = range(first, last + 1)
    for key, at in run["source_lines"].items():
        if at and at not in inside:
            problems.append(FiguresProblem(line, f"source_lines.{key}", "figures",
                                           f"line {at} is outside the run's lines {first}-{last}"))
    for i, row in enumerate(run["histogram"]):
        if row["line"] not in inside:
            problems.append(FiguresProblem(line, f"histogram[{i}].line", "figures",
                                           f"line {row['line']} is outside the run's lines {first}-{last}"))
    return problems


def rechecked(run: dict, problems: list[FiguresProblem], *, line: int | None,
              prefix: str = "") -> tuple[dict | None, list[FiguresProblem]]:
    """The run, unless its interval samples contradict its figures; the checks of the figures
    (sysbench_recheck.py) that the parser did not record become warnings."""
    extra, cv = unrecorded(run)
    if cv != run["interval_tps_cv"]:
        problems.append(FiguresProblem(line, f"{prefix}interval_tps_cv", "figures",
                                       f"the interval samples' tps give a CV of {cv}, not {run['interval_tps_cv']}"))
        return None, problems
    problems += [FiguresProblem(None, "", "figures-check",
                                f"the figures give a warning the parser did not record: {w}", "warning")
                 for w in extra]
    return run, problems


# The kinds of pydantic's errors of a number beyond its bounds
_RANGES = ("less_than_equal", "less_than", "greater_than_equal", "greater_than")


def stored_problems(run: dict) -> list[FiguresProblem]:
    """What the database could not store of a run parsed from a log (a carried one): each of its whole
    numbers within the range FiguresRun gives it (a figures file's, whose bounds are the database
    columns'), and each interval sample's INTEGER_COLUMNS within INTEGER_RANGE, at the log's line. A
    figures file's own are checked as it is read (read_header, _rows)."""
    try:
        FiguresRun.model_validate({k: v for k, v in run.items() if k != "intervals"})
        problems = []
    except ValidationError as exc:
        problems = [p for p in _model_problems(exc, None) if p.kind in _RANGES]
    low, high = INTEGER_RANGE
    beyond = run["intervals"].beyond_integer()
    problems += [FiguresProblem(line, name, "out-of-range",
                                f"{value:,} is beyond the whole numbers the database stores here ({low:,} to {high:,})")
                 for line, name, value in beyond[:MAX_PROBLEMS]]
    if len(beyond) > MAX_PROBLEMS:
        problems.append(FiguresProblem(None, "", "out-of-range", f"{len(beyond) - MAX_PROBLEMS:,} more samples beyond it"))
    return problems


# --- reading ------------------------------------------------------------------------------------


def _bounded(path: Path, most: int) -> tuple[pq.FileMetaData | None, bytes, list[FiguresProblem]]:
    """The file's Parquet metadata and its bytes, read once (what is checked is what Arrow then reads),
    when the file, its footer, its samples (at most ``most``), its columns and its pages are within bounds."""
    def refused(message: str, field: str = "") -> tuple[None, bytes, list[FiguresProblem]]:
        return None, b"", [FiguresProblem(None, field, "figures", message)]

    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_FILE_BYTES:
                return refused(f"{size:,} bytes: more than the {MAX_FILE_BYTES:,} a figures file may be")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return refused(f"cannot read: {exc.strerror or exc}")
    size, head, tail = len(data), data[:4], data[-8:]
    if size > MAX_FILE_BYTES:
        return refused(f"more than the {MAX_FILE_BYTES:,} bytes a figures file may be")
    if head != b"PAR1" or tail[4:] != b"PAR1" or size < 12:
        return refused("not a Parquet file (a figures file in JSON Lines, the format before: `benchdb migrate "
                       "--write` rewrites it)" if head[:1] == b"{" else "not a Parquet file")
    footer = int.from_bytes(tail[:4], "little")
    if footer > MAX_FOOTER_BYTES or footer > size - 12:
        return refused(f"its footer of {footer:,} bytes is larger than " + (
            f"the {MAX_FOOTER_BYTES:,} a figures file's may be" if footer > MAX_FOOTER_BYTES else "the file"))
    try:
        meta = pq.read_metadata(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as exc:
        return refused(f"not a Parquet file Arrow reads: {printable(str(exc))}")
    # Arrow reads as many rows as each row group says it has, whatever the file's own count says (a
    # footer of 100 rows over a row group of 20 million read 2.4 GB: issue #61's fourth pass)
    rows = sum(meta.row_group(g).num_rows for g in range(meta.num_row_groups))
    if rows != meta.num_rows:
        return refused(f"its footer says {meta.num_rows:,} samples and its row groups hold {rows:,}")
    groups = [meta.row_group(g) for g in range(meta.num_row_groups)]
    # no row group of none, nor one of a negative count or size (10,000 empty groups took 9.5 s; one of -2^40
    # bytes let another chunk say +2^40 and a page of 2 GiB pass: issue #61's eighth pass)
    if any(g.num_rows < 0 or g.num_rows == 0 and rows for g in groups) or not rows and len(groups) > 1:
        return refused("a row group of no samples (or fewer): a figures file's row groups each hold samples")
    if any(min(c.total_uncompressed_size, c.total_compressed_size, c.num_values) < 0
           for g in groups for c in (g.column(i) for i in range(g.num_columns))):
        return refused("a column chunk of a negative size or count of values")
    if rows > MAX_SAMPLES:
        return refused(f"{rows:,} samples: more than the {MAX_SAMPLES:,} a figures file may hold")
    if rows > most:
        return refused(f"{rows:,} samples: more than the {max(most, 0):,} left of the {MAX_BUNDLE_SAMPLES:,} "
                       "a bundle's figures files may hold together")
    for i in range(meta.num_columns):
        name = meta.schema.column(i).name
        if meta.schema.column(i).max_repetition_level or any(
                meta.row_group(g).column(i).num_values > meta.row_group(g).num_rows for g in range(meta.num_row_groups)):
            return refused("a column of lists, or of more values than the file has rows: a figures file's columns hold "
                           "one number a sample", _shown_name(meta.schema.column(i).path))
        stored = sum(meta.row_group(g).column(i).total_uncompressed_size for g in range(meta.num_row_groups))
        if stored > MAX_COLUMN_BYTES + GROUP_BYTES * meta.num_row_groups:
            return refused(f"{stored:,} bytes decompressed: more than a column of {meta.num_rows:,} samples needs",
                           _shown_name(name))
    try:
        check_pages(data, meta)
    except PageProblem as exc:
        return refused(str(exc), _shown_name(meta.schema.column(exc.column).name))
    return meta, data, []


def _columns(schema: pa.Schema) -> list[FiguresProblem]:
    """Each column one the file may hold, of a type it may have, none missing: read from the file's
    footer, before any column is (400 unknown columns of a 3 MB file took 5 GB to read, a list column of
    a 4 KB file 7 GB: issue #61). At most MAX_PROBLEMS of them, the rest counted."""
    problems = [FiguresProblem(None, _shown_name(name), "extra_forbidden", MESSAGES["extra_forbidden"])
                for name in schema.names if name not in _ORDER]
    problems += [FiguresProblem(None, name, "missing", MESSAGES["missing"])
                 for name in _ROW_KEYS if name not in schema.names]
    if len(set(schema.names)) < len(schema.names):
        problems.append(FiguresProblem(None, "", "figures", "a column is given twice"))
    for field in schema:
        allowed = (pa.int64(),) if field.name in ("line", "t_s") else (pa.int64(), pa.null()) \
            if field.name in _WHOLE else (pa.int64(), pa.float64(), pa.null())
        if field.name in _ORDER and field.type not in allowed:
            wanted = "whole numbers" if field.name in _WHOLE else "numbers"
            problems.append(FiguresProblem(None, field.name, "type",
                                           f"the column should hold {wanted} (64-bit), not {field.type}"))
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        problems = problems[:MAX_PROBLEMS] + [FiguresProblem(None, "", "figures", f"{more:,} more column problems, not listed")]
    return problems


def _rows(table: pa.Table, inside: range) -> list[FiguresProblem]:
    """Every sample's values finite, its line inside the run's lines, lines and times in order."""
    problems = []

    def at(rows: np.ndarray, name: str, message, kind: str = "figures") -> None:
        problems.extend(FiguresProblem(None, name, kind, f"row {i + 1}: {message(i)}")
                        for i in rows[:MAX_PROBLEMS].tolist())

    for name in ("line", "t_s"):
        if table.column(name).null_count:
            at(np.flatnonzero(table.column(name).is_null().to_numpy(zero_copy_only=False)), name,
               lambda i: "no value (each sample has its line and time)")
    if problems:
        return problems
    lines, times = (table.column(name).to_numpy() for name in ("line", "t_s"))
    for name in table.column_names:
        if table.schema.field(name).type == pa.float64():
            values = table.column(name).fill_null(0.0).to_numpy()
            at(np.flatnonzero(~np.isfinite(values)), name, lambda i, v=values: f"{float(v[i])!r} is not a finite number")
    low, high = INTEGER_RANGE
    for name in INTEGER_COLUMNS:
        column = table.column(name)  # a column of nulls (of type null, which the format allows) holds none
        if column.type == pa.null():
            continue
        values = column.fill_null(0).to_numpy()
        at(np.flatnonzero((values < low) | (values > high)), name,
           lambda i, v=values: f"{int(v[i]):,} is beyond the whole numbers the database stores here ({low:,} to {high:,})")
    at(np.flatnonzero((lines < inside.start) | (lines >= inside.stop)), "line",
       lambda i: f"line {lines[i]} is outside the run's lines {inside.start}-{inside.stop - 1}")
    at(np.flatnonzero(np.diff(lines) <= 0) + 1, "line",
       lambda i: f"line {lines[i]} does not follow the previous sample's line {lines[i - 1]}", "out-of-order")
    at(np.flatnonzero(np.diff(times) <= 0) + 1, "t_s",
       lambda i: f"the sample at {times[i]}s does not follow the previous one at {times[i - 1]}s", "out-of-order")
    return problems


def read_figures(path: Path, *, origin: dict, most: int = MAX_SAMPLES) -> tuple[dict | None, list[FiguresProblem]]:
    """The run a figures file holds (as sysbench_runs.parse_file gives a log's: its intervals an
    IntervalColumns), or None, and every problem found. ``origin``: what the file must be the figures of
    (FiguresOrigin's fields: the result that names it, its origin's SHA-256). A file of more than ``most``
    samples (what is left of its bundle's MAX_BUNDLE_SAMPLES) is refused before its samples are read."""
    meta, data, problems = _bounded(path, most)
    if meta is None:
        return None, problems
    stored = meta.metadata or {}
    prefix = RUN_KEY + "."
    problems = [FiguresProblem(None, _shown_key(key), "extra_forbidden",
                               "unknown key of the file's metadata (not part of a figures file)")
                for key in stored if key not in (RUN_KEY.encode(), ORIGIN_KEY.encode())][:MAX_PROBLEMS]
    problems += tied(stored.get(ORIGIN_KEY.encode()), origin)
    if RUN_KEY.encode() not in stored:
        return None, problems + [FiguresProblem(None, RUN_KEY, "missing", "missing required field: the run's figures")]
    try:
        text = stored[RUN_KEY.encode()].decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, problems + [FiguresProblem(None, RUN_KEY, "figures", f"bytes that are not UTF-8 (at byte {exc.start})")]
    run, found = read_header(text, line=None, prefix=prefix)
    problems += found
    try:
        columns = _columns(meta.schema.to_arrow_schema())
    except (pa.ArrowException, ValueError) as exc:
        return None, problems + [FiguresProblem(None, "", "figures", f"its columns cannot be read: {printable(str(exc))}")]
    problems += columns
    if run is None or columns:
        return None, problems
    try:  # by Arrow, which the footer was read by: DuckDB's reader read a figures path as a glob, decoded a
        # column of two types otherwise and took a false null count for none (issue #61's sixth pass)
        table = pq.read_table(pa.BufferReader(data), use_threads=False)
    except (pa.ArrowException, OSError) as exc:
        return None, problems + [FiguresProblem(None, "", "figures", f"its samples cannot be read: {printable(str(exc))}")]
    problems += _rows(table, range(run["lines"][0], run["lines"][1] + 1))
    if len([p for p in problems if p.severity == "error"]) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        problems = problems[:MAX_PROBLEMS] + [FiguresProblem(None, "", "figures", f"{more:,} more problems, not listed")]
    if any(p.severity == "error" for p in problems):
        return None, problems
    run["intervals"] = intervals = IntervalColumns()
    intervals.add_part(_as_read(table.drop_columns(["line"])), table.column("line").to_numpy().tolist())
    return rechecked(run, problems, line=None, prefix=prefix)


def _shown_name(name: str) -> str:
    """A column's name as a problem names it: as _shown_key a metadata key (a newline in a column's name
    forged a line of validate's output, an ESC reached the terminal: issue #61's fourth pass)."""
    return _shown_key(name.encode("utf-8", "surrogatepass"))


def _shown_key(key: bytes) -> str:
    """A metadata key of the file as a problem names it: what is not printable escaped (a newline in a key
    forged a line of validate's output), and at most 80 characters (a key of 3 MB was one line of 3 MB)."""
    text = printable(key[:400].decode("utf-8", "replace"))
    return text if len(text) <= 80 and len(key) <= 400 else text[:80] + f"… ({len(key):,} bytes)"


def stored_origin(path: Path) -> dict | None:
    """What a figures file says it is of (its ORIGIN_KEY, as JSON), or None where it says nothing (a file
    written before: benchdb migrate ties it). A file out of bounds (_bounded) is Refused."""
    meta, _, problems = _bounded(path, MAX_SAMPLES)
    if meta is None:
        raise Refused(problems[0].message)
    text = (meta.metadata or {}).get(ORIGIN_KEY.encode())
    return None if text is None else strict_json(text.decode("utf-8"))


def tied(text: bytes | None, origin: dict) -> list[FiguresProblem]:
    """The problems of a file's ORIGIN_KEY (``text``) against the ``origin`` it must name."""
    if text is None:
        return [FiguresProblem(None, ORIGIN_KEY, "missing", "missing required field: the result and the SHA-256 of "
                               "the log the figures were read from (`benchdb migrate --write` adds them from the "
                               "bundle, for a file written before)")]
    try:
        data = FiguresOrigin.model_validate(strict_json(text.decode("utf-8")))
    except (Refused, UnicodeDecodeError) as exc:
        return [FiguresProblem(None, ORIGIN_KEY, "figures", str(exc))]
    except ValidationError as exc:
        return [FiguresProblem(None, f"{ORIGIN_KEY}.{p.field}" if p.field else ORIGIN_KEY, p.kind, p.message)
                for p in _model_problems(exc, None)]
    problems = []
    if data.result != origin["result"]:
        problems.append(FiguresProblem(None, f"{ORIGIN_KEY}.result", "figures-origin",
                                       f"the figures of result {data.result!r}, not of {origin['result']!r}, which "
                                       "names the file: a file is the figures of one result"))
    if data.sha256 != origin["sha256"]:
        problems.append(FiguresProblem(None, f"{ORIGIN_KEY}.sha256", "figures-origin",
                                       f"read from the log of SHA-256 {data.sha256}, not from the one the result's "
                                       f"origin names ({origin['sha256']})"))
    return problems


def _as_read(table: pa.Table) -> pa.Table:
    """The samples as the parser gives them: a column the log printed nowhere (null throughout) left out,
    but for INTERVAL_COLUMNS, which every sample has."""
    keep = [name for name in table.column_names if name in INTERVAL_COLUMNS or table.column(name).null_count < len(table)]
    return table.select(keep).combine_chunks()
