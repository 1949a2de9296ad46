"""Figures files of JSON Lines, the format before Parquet (schema/figures.py): line 1 the run's figures as
a JSON object, every further line one interval sample. Read here for ``benchdb migrate`` alone, which
rewrites such a file as Parquet (cited.write_figures), with the checks the format always had: every
problem names the file's line and the field, a run of bad lines is reported up to MAX_PROBLEMS and then
counted, and a line longer than MAX_LINE_BYTES is not read into memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.json as pa_json

from ..parsers.sysbench_intervals import INTERVAL_COLUMNS, IntervalColumns, TooManySamples
from ..parsers.sysbench_rows import EXTRA_INTERVAL_COLUMNS
from .cited import MESSAGES, FiguresProblem, Refused, finite, read_header, rechecked, strict_json

SUFFIX = ".jsonl"
MAX_LINE_BYTES = 4 * 2**20  # as large as a bundle.yaml may be (yamlfile.py)
# A file of cited.py's MAX_SAMPLES samples as import wrote them (215 bytes a sample over data/'s 327 files)
# fits
MAX_FILE_BYTES = 256 * 2**20
MAX_PROBLEMS = 50  # of one file; the rest are counted in one more
_INT64 = range(-2**63, 2**63)
_ROW_KEYS = ("line", *INTERVAL_COLUMNS)
_ALLOWED = frozenset(_ROW_KEYS) | frozenset(EXTRA_INTERVAL_COLUMNS)
_READ = pa_json.ReadOptions(block_size=64 * 2**20)


def _header(text: str) -> tuple[dict | None, list[FiguresProblem]]:
    return read_header(text, line=1)


def _row(number: int, text: str, previous: tuple[int, int] | None,
         inside: range | None) -> tuple[dict, list[FiguresProblem]]:
    """One interval sample of line ``number`` of the file: its row, or the problems that refuse it."""
    try:
        row = strict_json(text)
    except Refused as exc:
        return {}, [FiguresProblem(number, "", "figures", str(exc))]
    if not isinstance(row, dict):
        return {}, [FiguresProblem(number, "", "figures", "an interval sample must be a JSON object")]
    problems = [FiguresProblem(number, key, "extra_forbidden", MESSAGES["extra_forbidden"])
                for key in row if key not in _ALLOWED]
    problems += [FiguresProblem(number, key, "missing", MESSAGES["missing"]) for key in _ROW_KEYS if key not in row]
    for key, value in row.items():
        if key not in _ALLOWED:
            continue
        whole = key in ("line", "t_s", "threads")
        if value is None and key not in ("line", "t_s"):
            continue
        if type(value) is int and value not in _INT64:
            problems.append(FiguresProblem(number, key, "figures", f"{value} does not fit in 64 bits"))
        elif type(value) is not int and (whole or type(value) is not float):
            wanted = "a whole number" if whole else "a number or null"
            problems.append(FiguresProblem(number, key, "type", f"Input should be {wanted} (got {value!r})"))
        elif not finite(value):
            problems.append(FiguresProblem(number, key, "figures", f"{value!r} is not a finite number"))
    if problems:
        return {}, problems
    line, t_s = row["line"], row["t_s"]
    if inside is not None and line not in inside:
        problems.append(FiguresProblem(number, "line", "figures",
                                       f"line {line} is outside the run's lines {inside.start}-{inside.stop - 1}"))
    if previous is not None and line <= previous[1]:
        problems.append(FiguresProblem(number, "line", "out-of-order",
                                       f"line {line} does not follow the previous sample's line {previous[1]}"))
    if previous is not None and t_s <= previous[0]:
        problems.append(FiguresProblem(number, "t_s", "out-of-order",
                                       f"the sample at {t_s}s does not follow the previous one at {previous[0]}s"))
    return row, problems


def _lines(path: Path) -> Iterator[tuple[int, str | None, str | None]]:
    """(number, text, why not) of each line of the file, without reading a line longer than MAX_LINE_BYTES."""
    with open(path, "rb") as f:
        number = 0
        while raw := f.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                yield number, None, f"a line longer than {MAX_LINE_BYTES:,} bytes"
                while raw and not raw.endswith(b"\n"):
                    raw = f.readline(MAX_LINE_BYTES + 1)
                continue
            if not raw.endswith(b"\n"):
                yield number, None, "the file does not end with a newline"
                continue
            try:
                yield number, raw[:-1].decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield number, None, f"bytes that are not UTF-8 (at byte {exc.start})"


def _fast_rows(data: bytes, inside: range) -> tuple[pa.Table, np.ndarray] | None:
    """The interval samples of a figures file (its bytes after line 1) read by Arrow at once, when every
    check the line-by-line reading (_row) makes holds; else None, and _row finds what is wrong and where.
    Each key once in every row (counted in the bytes: a valid row holds no text), no blank line, types
    and order as _row wants them."""
    rows = data.count(b"\n")
    if not rows or not data.endswith(b"\n") or any(data.count(b'"%s":' % key.encode()) != rows for key in _ROW_KEYS):
        return None
    try:
        table = pa_json.read_json(pa.py_buffer(data), read_options=_READ)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != rows or not set(table.column_names) <= _ALLOWED:
        return None
    for name in table.column_names:
        column, kind = table.column(name), table.schema.field(name).type
        whole = name in ("line", "t_s", "threads")
        if not (kind == pa.int64() or kind == pa.null() and name not in ("line", "t_s")
                or kind == pa.float64() and not whole):
            return None
        if name in ("line", "t_s") and column.null_count:
            return None
        if kind == pa.float64():  # finite, and not a whole number too large for 64 bits (_row refuses it)
            values = column.drop_null().to_numpy()
            if not np.all(np.isfinite(values)) or np.max(np.abs(values), initial=0) >= 2.0**63:
                return None
    lines, times = (table.column(name).to_numpy() for name in ("line", "t_s"))
    if np.any(np.diff(lines) <= 0) or np.any(np.diff(times) <= 0) or not inside.start <= lines[0] <= lines[-1] < inside.stop:
        return None
    return table.drop_columns(["line"]), lines


def read_figures_lines(path: Path) -> tuple[dict | None, list[FiguresProblem]]:
    """The run a figures file holds (as sysbench_runs.parse_file gives a log's: its intervals an
    IntervalColumns), or None, and every problem found; warnings are the checks of the figures
    (sysbench_recheck.py) that the parser did not record. The samples are read by Arrow at once
    (_fast_rows), or line by line where that finds anything amiss."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return None, [FiguresProblem(None, "", "io", f"cannot read: {exc.strerror or exc}")]
    if size > MAX_FILE_BYTES:
        return None, [FiguresProblem(None, "", "figures", f"{size:,} bytes: more than the {MAX_FILE_BYTES:,} a "
                                                          "figures file of JSON Lines may be")]
    try:
        with open(path, "rb") as f:
            first = f.readline(MAX_LINE_BYTES + 1)
            header, problems = _header(first[:-1].decode("utf-8")) if first.endswith(b"\n") else (None, [])
            fast = _fast_rows(f.read(), range(header["lines"][0], header["lines"][1] + 1)) \
                if header and not problems else None
    except (OSError, UnicodeDecodeError):
        fast = None
    if fast is None:
        return _read_lines(path)
    table, lines = fast
    header["intervals"] = intervals = IntervalColumns()
    try:
        intervals.add_part(table, lines.tolist())
    except TooManySamples as exc:
        return None, [FiguresProblem(None, "", "figures", f"{len(lines):,} samples: {exc}")]
    return rechecked(header, problems, line=1)



def _read_lines(path: Path) -> tuple[dict | None, list[FiguresProblem]]:
    """read_figures, a line at a time: every problem with its line and field."""
    problems: list[FiguresProblem] = []
    run = None
    intervals = IntervalColumns()
    previous: tuple[int, int] | None = None
    inside = None
    more = 0
    try:
        for number, text, why in _lines(path):
            if len(problems) >= MAX_PROBLEMS:
                more += 1
                continue
            if text is None:
                problems.append(FiguresProblem(number, "", "figures", why))
            elif number == 1:
                run, found = _header(text)
                problems += found
                if run is not None:
                    inside = range(run["lines"][0], run["lines"][1] + 1)
            else:
                row, found = _row(number, text, previous, inside)
                problems += found
                if row:
                    previous = (row["t_s"], row["line"])
                    intervals.append({k: v for k, v in row.items() if k != "line"}, line=row["line"])
    except OSError as exc:
        return None, [FiguresProblem(None, "", "io", f"cannot read: {exc.strerror or exc}")]
    except TooManySamples as exc:
        return None, problems + [FiguresProblem(number, "", "figures", str(exc))]
    if more:
        problems.append(FiguresProblem(None, "", "figures", f"{more:,} more lines with problems, not listed"))
    if run is None and not problems:
        problems.append(FiguresProblem(None, "", "figures", "the file is empty: line 1 holds the run's figures"))
    if run is None or any(p.severity == "error" for p in problems):
        return None, problems
    run["intervals"] = intervals
    return rechecked(run, problems, line=1)

