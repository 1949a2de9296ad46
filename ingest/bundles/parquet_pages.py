"""A Parquet file's pages checked against its footer before Arrow reads them.

Arrow sizes what it decompresses a page into by the page's own header, not by the footer: a page whose
header says 1 GiB, of zstd that really decompresses to 1 GiB, made a figures file of 72 KB take 2.26 GB,
and a dictionary page likewise 2.2 GB for 59 KB (issue #61's sixth pass). So every page header of every
column chunk is read here (Apache Thrift's compact protocol, the format's own), as Arrow walks them: from
the chunk's first page until it has its values. The pages must lie inside their chunk, chunks must not
overlap one another, a chunk's pages must decompress to no more than its footer says (the footer's sizes
are bounded by the caller) and hold no more values than it says; each page is of a kind that holds values,
and the file's pages and their headers' bytes are bounded, each bound checked at every page.
"""

from __future__ import annotations

import io
import struct

import pyarrow.parquet as pq
from thrift.protocol.TCompactProtocol import TCompactProtocol
from thrift.Thrift import TException, TType
from thrift.transport.TTransport import TFileObjectTransport

# A page header as written is about 20 bytes (no statistics: cited._WRITE), and one of another writer's,
# with statistics of two numbers, well under a KiB. The headers are read in Python, about 44 us a header
# and 2 us a byte of fields skipped: 9.5 million empty headers of one chunk took validate 252 s, 1,030
# headers of 65 KB 131 s, before these bounds were checked at each page (issue #61's seventh pass).
MAX_HEADER_BYTES = 1024
MAX_HEADERS_BYTES = 2 * 2**20  # of a file's headers together: 1.1 MB in the file of 57,000 pages below
# Pages of a file: one a column of a row group as written; a file of 1,000,000 samples in row groups of 300
# has 3,334 row groups and about 57,000 pages, read in about 2.5 s
MAX_PAGES = 100_000
# PageHeader's fields (parquet.thrift): what Arrow allocates and reads by
_TYPE, _UNCOMPRESSED, _COMPRESSED = 1, 2, 3
_DATA, _DICTIONARY, _DATA_V2 = 5, 7, 8  # the page kinds' own headers, each with num_values as field 1
_KINDS = {0: _DATA, 2: _DICTIONARY, 3: _DATA_V2}  # PageType: DATA_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2


class _Compact(TCompactProtocol):
    """The compact protocol with Thrift's strings read as bytes: Parquet's are binary (a page's
    statistics), which the library's skip would decode as UTF-8."""

    def readString(self) -> bytes:
        return self.readBinary()


class PageProblem(Exception):
    """What is wrong with a file's pages, in words (its column named by the caller)."""

    def __init__(self, message: str, *, column: int):
        super().__init__(message)
        self.column = column


def check_pages(data: bytes, meta: pq.FileMetaData) -> None:
    """Raise PageProblem unless every column chunk of ``data`` (the whole file, ``meta`` its footer) is
    within its footer's sizes, as the module's docstring says."""
    body_end = len(data) - 8 - int.from_bytes(data[-8:-4], "little")  # where the footer starts
    budget = _Budget()
    spans = []
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for i in range(group.num_columns):
            chunk = group.column(i)
            start = chunk.data_page_offset
            if chunk.has_dictionary_page and chunk.dictionary_page_offset and 0 < chunk.dictionary_page_offset < start:
                start = chunk.dictionary_page_offset
            end = start + chunk.total_compressed_size
            empty = chunk.num_values == 0  # (a file of no samples, as written: a chunk at offset 0, Arrow reads none)
            if start < (0 if empty else 4) or chunk.total_compressed_size < 0 or end > body_end:
                raise PageProblem(f"its pages at bytes {start:,} to {end:,} are outside the file's "
                                  f"{body_end:,} bytes of pages", column=i)
            if empty:
                continue
            spans.append((start, end, i))
            _walk(data, start=start, end=end, chunk=chunk, column=i, budget=budget)
    spans.sort()
    for (_, end, _), (start, _, i) in zip(spans, spans[1:]):
        if start < end:
            raise PageProblem("its pages overlap another column's: each column's pages are its own", column=i)


class _Budget:
    """The pages and header bytes a file's walk has read so far, checked at each page."""

    def __init__(self) -> None:
        self.pages = self.header_bytes = 0

    def spend(self, length: int, *, column: int) -> None:
        self.pages += 1
        self.header_bytes += length
        if self.pages > MAX_PAGES:
            raise PageProblem(f"more than the {MAX_PAGES:,} pages a figures file may have", column=column)
        if self.header_bytes > MAX_HEADERS_BYTES:
            raise PageProblem(f"its page headers take more than the {MAX_HEADERS_BYTES:,} bytes a figures file's may",
                              column=column)


def _walk(data: bytes, *, start: int, end: int, chunk: pq.ColumnChunkMetaData, column: int, budget: _Budget) -> None:
    """One column chunk's pages, read as Arrow reads them; PageProblem at the first that is not within the
    chunk's bytes, decompressed size and values, or past the file's ``budget``."""
    position, values, decompressed = start, 0, 0
    while values < chunk.num_values:
        if position >= end:
            raise PageProblem(f"its pages end at byte {position:,} with {values:,} of the {chunk.num_values:,} "
                              "values its footer says", column=column)
        at = position
        header, length = _header(data[position:min(end, position + MAX_HEADER_BYTES)], column=column)
        budget.spend(length, column=column)
        compressed, size = header.get(_COMPRESSED, -1), header.get(_UNCOMPRESSED, -1)
        if compressed < 0 or size < 0:
            raise PageProblem(f"the page at byte {at:,} has no size, or a negative one", column=column)
        position += length + compressed
        decompressed += length + size
        if position > end:
            raise PageProblem(f"a page ends at byte {position:,}, past its column's pages (to {end:,})", column=column)
        if decompressed > chunk.total_uncompressed_size:
            raise PageProblem(f"its pages decompress to more than the {chunk.total_uncompressed_size:,} bytes its "
                              f"footer says ({decompressed:,} by the page at byte {at:,})", column=column)
        kind = _KINDS.get(header.get(_TYPE))
        if kind is None:  # an index page, or a kind of none: Arrow skips it, and a walk of such pages never ends
            raise PageProblem(f"the page at byte {at:,} is of a kind a figures file does not hold "
                              f"({header.get(_TYPE, 'none')})", column=column)
        count = header.get(kind, -1)
        if count < 0 or count == 0 and kind != _DICTIONARY:
            raise PageProblem(f"the page at byte {at:,} does not say how many values it holds, or holds none",
                              column=column)
        if kind == _DICTIONARY:
            if count > chunk.num_values:
                raise PageProblem(f"a dictionary of {count:,} values, more than the {chunk.num_values:,} values "
                                  "of its column", column=column)
        else:
            values += count
    if values > chunk.num_values:
        raise PageProblem(f"its pages hold {values:,} values, more than the {chunk.num_values:,} its footer says",
                          column=column)


def _header(raw: bytes, *, column: int) -> tuple[dict[int, int], int]:
    """A page header's sizes and type {field: value}, and for its kind's own header the number of values
    (as {_DATA or _DICTIONARY or _DATA_V2: num_values}); and the header's length in bytes."""
    buffer = io.BytesIO(raw)
    protocol = _Compact(TFileObjectTransport(buffer), string_length_limit=len(raw), container_length_limit=len(raw))
    fields: dict[int, int] = {}
    try:
        protocol.readStructBegin()
        while True:
            _, kind, number = protocol.readFieldBegin()
            if kind == TType.STOP:
                break
            if number in (_TYPE, _UNCOMPRESSED, _COMPRESSED) and kind == TType.I32:
                fields[number] = protocol.readI32()
            elif number in (_DATA, _DICTIONARY, _DATA_V2) and kind == TType.STRUCT:
                fields[number] = _values(protocol)
            else:
                protocol.skip(kind, max_depth=16)
            protocol.readFieldEnd()
        protocol.readStructEnd()
    except (TException, EOFError, struct.error, ValueError, KeyError, IndexError, AssertionError) as exc:  # (the last: the library's own state checks)
        raise PageProblem(f"a page header that cannot be read ({type(exc).__name__})", column=column) from None
    return fields, buffer.tell()


def _values(protocol: TCompactProtocol) -> int:
    """num_values (field 1, i32) of a page kind's own header, the rest skipped; -1 where it is missing."""
    count = -1
    protocol.readStructBegin()
    while True:
        _, kind, number = protocol.readFieldBegin()
        if kind == TType.STOP:
            break
        if number == 1 and kind == TType.I32:
            count = protocol.readI32()
        else:
            protocol.skip(kind, max_depth=16)
        protocol.readFieldEnd()
    protocol.readStructEnd()
    return count
