"""The interval samples of a sysbench run, held as columns (Arrow arrays), never as a Python object per value.

Runs of sysbench 1.0/1.1 interval lines are checked and typed a block at a time (``read_block``): the
block's shape is checked on its bytes, then pyarrow's CSV reader types every number at once. Lines of
other shapes (0.4/0.5, ``eps:`` lines) and lines the block check declines are appended one by one by
the line reader; they end up in the same columns.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Iterable, Iterator, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

# The columns of an interval sample, in the order sysbench 1.0 prints them: the one list the loader
# and the intervals table (ingest/database/sql/schema.sql, checked by a test) follow.
INTERVAL_COLUMNS = ("t_s", "threads", "tps", "qps", "reads_s", "writes_s", "other_s", "latency_pct", "latency_ms",
                    "errors_s", "reconnects_s")
# What a fileio run's interval lines give besides (1.0+ sb_fileio.c file_report_intermediate: MiB/s read
# and written, fsyncs a second): the intervals table holds INTERVAL_COLUMNS and these, empty for other runs.
FILEIO_COLUMNS = ("read_mib_s", "written_mib_s", "fsyncs_s")
STORED_COLUMNS = INTERVAL_COLUMNS + FILEIO_COLUMNS
# The columns the intervals table holds as INTEGER (32 bits: schema.sql, checked by a test), and the whole
# numbers such a column holds (schema/models.py: INT_MAX). A sample beyond them is refused where it is read
# (validate: a log's line, a figures file's row), not at the load, whose error names no bundle (issue #61).
INTEGER_COLUMNS = ("t_s", "threads")
INTEGER_RANGE = (-2**31, 2**31 - 1)
# The most interval samples of one run, a log's or a figures file's (ingest/bundles/cited.py): 11.6 days of
# 1 s intervals, 46 times data/'s longest run. 1 GB of one interval line repeated took the parser 158 s and
# 2.7 GB (issue #61); a run past it is refused at the line that passes it.
MAX_SAMPLES = 1_000_000


class TooManySamples(Exception):
    """A run's sample past MAX_SAMPLES, at the log's ``line`` (the parser names its file)."""

    def __init__(self, line: int) -> None:
        super().__init__(f"more than {MAX_SAMPLES:,} interval samples in one run: not read further")
        self.line = line

# One 1.0 interval line as sysbench prints it, each number written as digits (with a point where
# sysbench prints one). Everything the block reader checks follows from it:
_TEMPLATE = b"[ 1s ] thds: 1 tps: 1.1 qps: 1.1 (r/w/o: 1.1/1.1/1.1) lat (ms,1%): 1.1 err/s: 1.1 reconn/s: 1.1\n"
_DIGITS = b"0123456789"
# - a block with its digits deleted must be this line repeated (every literal, space and point in place);
BLOCK_SKELETON = _TEMPLATE.translate(None, _DIGITS)
# - every byte that stands next to a number in the template becomes a comma, and every other byte but
#   digits, points and newlines is deleted: each line is then the same row of comma-separated fields,
#   the numbers at fixed places, and a digit anywhere but in a number's place lands in a field that
#   must stay empty (typed null: the CSV reader refuses anything in it);
_NUMBER_BYTES = _DIGITS + b".\n"
_NEXT_TO_NUMBERS = bytes({_TEMPLATE[j] for i, c in enumerate(_TEMPLATE) if c in _DIGITS for j in (i - 1, i + 1)}
                         - set(_NUMBER_BYTES))
_TO_COMMA = bytes(c if c in _NUMBER_BYTES else ord(",") for c in range(256))
_DROP = bytes(c for c in range(256) if c not in _NUMBER_BYTES + _NEXT_TO_NUMBERS)
_TEMPLATE_FIELDS = _TEMPLATE.translate(_TO_COMMA, _DROP).rstrip(b"\n").split(b",")
_FIELD_NAMES = [f"f{i}" for i in range(len(_TEMPLATE_FIELDS))]
_NUMBER_FIELDS = [name for name, text in zip(_FIELD_NAMES, _TEMPLATE_FIELDS) if text]
# - numbers printed without a point are integers, the others doubles.
_FIELD_TYPES = {name: pa.null() if not text else pa.float64() if b"." in text else pa.int64()
                for name, text in zip(_FIELD_NAMES, _TEMPLATE_FIELDS)}
assert len(_NUMBER_FIELDS) == len(INTERVAL_COLUMNS)

_CSV_READ = pa_csv.ReadOptions(column_names=_FIELD_NAMES)
_CSV_PARSE = pa_csv.ParseOptions(delimiter=",", quote_char=False, double_quote=False, escape_char=False)
_CSV_CONVERT = pa_csv.ConvertOptions(column_types=_FIELD_TYPES)


def read_block(raw: bytes) -> pa.Table | None:
    """Whole 1.0 interval lines (each ending in a newline) as a table of INTERVAL_COLUMNS, or None when
    any line is not exactly what the line reader reads from such a line (RE_IVL_10 and _num in
    sysbench.py): then the caller reads the lines one by one, which warns about whatever is odd.

    Passes: the skeleton repeated once per line; no digit outside a number's place; no number starting
    with a point; every number typed by the CSV reader (an integer too large for 64 bits, or an empty
    one, is declined)."""
    skeleton = raw.translate(None, _DIGITS)
    n, rest = divmod(len(skeleton), len(BLOCK_SKELETON))
    if n == 0 or rest or skeleton != BLOCK_SKELETON * n:
        return None
    fields = raw.translate(_TO_COMMA, _DROP)
    del skeleton
    if b",." in fields:  # a number with no digit before its point: not a number RE_IVL_10 reads
        return None
    try:
        table = pa_csv.read_csv(pa.py_buffer(fields), read_options=_CSV_READ, parse_options=_CSV_PARSE,
                                convert_options=_CSV_CONVERT)
    except pa.ArrowInvalid:
        return None
    table = table.select(_NUMBER_FIELDS)
    if table.num_rows != n or any(column.null_count for column in table.columns):
        return None
    return table.rename_columns(list(INTERVAL_COLUMNS))


_ARROW_TYPES = {int: pa.int64(), float: pa.float64(), type(None): pa.null()}
_INT64 = range(-2 ** 63, 2 ** 63)


def storable(row: dict) -> bool:
    """Whether every number of a sample fits its column (integers in 64 bits)."""
    return all(type(v) is not int or v in _INT64 for v in row.values())


# Runs of lines that start like 1.0 interval lines go to the parser's interval_block whole.
RE_BLOCK_START = re.compile(rb"^\[ \d+s \] thds: ", re.M)
RE_BLOCK_END = re.compile(rb"\n(?!\[)")


def feed_lines(parser, first_line: int, data: bytes, *, whole: bool = True) -> int:
    """Feed the lines of ``data`` one by one; ``whole``: it ends in a newline (no empty last line).
    Returns the number of the next line."""
    lines = data.decode("utf-8", errors="surrogateescape").split("\n")  # the parser names bytes that are not UTF-8
    if whole:
        lines.pop()
    for number, line in enumerate(lines, start=first_line):
        parser.feed(number, line)
    return first_line + len(lines)


# Runs of fewer lines than this go line by line all the same: pyarrow's CSV reader costs some 0.4 ms a
# call whatever it reads, and a block read so about 1 ms in all, against 14 µs a line for the line
# reader (a log of 5 interval lines: 1.5 ms a block, 0.6 ms line by line; the two met near 40 lines).
# The answers are the same (the tests read every block of their logs both ways: BLOCK_FROM_LINES = 1).
BLOCK_FROM_LINES = 32


def read_piece(parser, line_no: int, piece: bytes) -> int:
    """Whole lines, to a sysbench _Parser: line by line, except runs of BLOCK_FROM_LINES or more lines
    that start like 1.0 interval reports, which go to its interval_block whole (and line by line when
    it declines them)."""
    pos = 0
    while start := RE_BLOCK_START.search(piece, pos):
        begin = start.start()
        line_no = feed_lines(parser, line_no, piece[pos:begin])
        end = RE_BLOCK_END.search(piece, begin)
        pos = end.end() if end else len(piece)
        block = piece[begin:pos]
        lines = block.count(b"\n")
        if lines >= BLOCK_FROM_LINES and parser.interval_block(line_no, block):
            line_no += lines
        else:
            line_no = feed_lines(parser, line_no, block)
    return feed_lines(parser, line_no, piece[pos:])


class IntervalColumns:
    """The interval samples of one run: a list of Arrow tables ("parts") of INTERVAL_COLUMNS (and
    ``eps`` for the lines that print it), each with the log line of every row.

    Within a part a column has one type: int64 where the log printed the numbers without a decimal
    point, float64 where it printed them with one, null where it printed none; ``to_rows`` gives back
    exactly the values (int or float) the line reader read. Single rows wait in a short list and become
    a part when a block is added or the columns are read."""

    def __init__(self) -> None:
        self._parts: list[tuple[pa.Table, Sequence[int]]] = []
        self._pending: list[tuple[dict, int]] = []
        self._length = 0
        self._last: tuple[int, int] | None = None  # (t_s, line) of the last sample
        self.first_t_s: int | None = None

    def __len__(self) -> int:
        return self._length

    @property
    def last_t_s(self) -> int | None:
        return self._last[0] if self._last else None

    @property
    def last_line(self) -> int | None:
        return self._last[1] if self._last else None

    def append(self, row: dict, *, line: int) -> None:
        """One sample read from log line ``line`` (a dict of INTERVAL_COLUMNS, perhaps with ``eps``)."""
        if self._length >= MAX_SAMPLES:
            raise TooManySamples(line)
        self._pending.append((row, line))
        if not self._length:
            self.first_t_s = row["t_s"]
        self._length += 1
        self._last = (row["t_s"], line)

    def extend(self, table: pa.Table, *, first_line: int) -> None:
        """A block of samples from ``read_block``, read from consecutive lines from ``first_line`` on."""
        self.add_part(table, range(first_line, first_line + table.num_rows))

    def add_part(self, table: pa.Table, lines: Sequence[int]) -> None:
        """Samples read from ``lines`` (one a row of ``table``, in order): a block of a log, or the samples
        of a cited log's figures file (ingest/bundles/cited.py)."""
        if not table.num_rows:
            return
        if self._length + table.num_rows > MAX_SAMPLES:
            raise TooManySamples(lines[MAX_SAMPLES - self._length])
        self._flush()
        self._parts.append((table, lines))
        if not self._length:
            self.first_t_s = table.column("t_s")[0].as_py()
        self._length += table.num_rows
        self._last = (table.column("t_s")[-1].as_py(), lines[-1])

    def _flush(self) -> None:
        """Pending rows become parts: one per run of rows whose values have the same keys and types."""
        pending, self._pending = self._pending, []
        start = 0
        for end in range(1, len(pending) + 1):
            if end < len(pending) and _signature(pending[end][0]) == _signature(pending[start][0]):
                continue
            rows = [row for row, _ in pending[start:end]]
            table = pa.table({key: pa.array([row[key] for row in rows], type=_ARROW_TYPES[type(value)])
                              for key, value in rows[0].items()})
            self._parts.append((table, [line for _, line in pending[start:end]]))
            start = end

    def parts(self) -> list[tuple[pa.Table, Sequence[int]]]:
        self._flush()
        return self._parts

    def tables(self) -> Iterator[pa.Table]:
        """The parts as tables of STORED_COLUMNS alone (a column a part does not have: empty), in order, for
        a bulk insert."""
        for table, _ in self.parts():
            yield pa.table({name: table.column(name) if name in table.column_names else pa.nulls(table.num_rows)
                            for name in STORED_COLUMNS})

    def numbers(self, name: str) -> Iterator[np.ndarray]:
        """The values of one column as doubles, nulls left out, part by part."""
        for table, _ in self.parts():
            column = table.column(name)
            if column.null_count < len(column):
                yield column.drop_null().cast(pa.float64()).to_numpy()

    def first_other(self, name: str, value, *, skip_null: bool = False) -> tuple[object, int] | None:
        """The first value of a column that differs from ``value`` (None included, unless ``skip_null``),
        and its line."""
        for table, lines in self.parts():
            column = table.column(name)
            differs = column.to_numpy(zero_copy_only=False) != value
            if skip_null:
                differs &= column.is_valid().to_numpy(zero_copy_only=False)
            where = np.flatnonzero(differs)
            if len(where):
                return column[int(where[0])].as_py(), lines[int(where[0])]
        return None

    def falling_tail(self, name: str, value) -> int | None:
        """The first line of the samples that end the run below ``value`` in column ``name``, each at
        most the one before (a run's threads finishing one by one in its last reports), or None."""
        start, following = None, 0  # following: the later sample's value
        for table, lines in reversed(self.parts()):
            column = table.column(name)
            for i in range(len(column) - 1, -1, -1):
                v = column[i].as_py()
                if v is None or not v < value or v < following:
                    return start
                start, following = lines[i], v
        return start

    def beyond_integer(self) -> list[tuple[int, str, int]]:
        """Each sample's value of INTEGER_COLUMNS outside INTEGER_RANGE: (its line, the column, the value), in
        the order of the samples."""
        low, high = INTEGER_RANGE
        found = []
        for table, lines in self.parts():
            for name in INTEGER_COLUMNS:
                if name in table.column_names and pa.types.is_integer(table.schema.field(name).type):
                    values = table.column(name).fill_null(0).to_numpy()
                    found += [(lines[i], name, int(values[i])) for i in np.flatnonzero((values < low) | (values > high))]
        return sorted(found, key=lambda f: (f[0], INTEGER_COLUMNS.index(f[1])))

    def to_rows(self) -> list[dict]:
        """One dict a sample, as ``benchdb parse`` prints them."""
        return list(chain.from_iterable(table.to_pylist() for table, _ in self.parts()))

    def _typed(self) -> list:
        lines = list(chain.from_iterable(lines for _, lines in self.parts()))
        return [[(k, type(v), v) for k, v in row.items()] for row in self.to_rows()] + lines

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IntervalColumns):
            return NotImplemented
        return self._typed() == other._typed()

    def __repr__(self) -> str:
        return f"IntervalColumns({self.to_rows()!r})" if len(self) <= 20 else f"IntervalColumns(<{len(self)} rows>)"


def _signature(row: dict) -> tuple:
    return tuple((key, type(value)) for key, value in row.items())


def floats(parts: Iterable[np.ndarray]) -> Iterator[float]:
    """The values of arrays as Python floats, one array at a time (for math.fsum without a list of all)."""
    return chain.from_iterable(part.tolist() for part in parts)
