"""A figures file's pages checked against its footer before Arrow reads them (ingest/bundles/parquet_pages.py).

Arrow sized a page's buffer by the page's own header: a page of zstd that decompresses to 1 GiB, its
header saying so, made a figures file of 72 KB take 2.26 GB, and a dictionary page likewise (issue #61's
sixth pass). Files are the cited fixture's (test_cited.py: 3 samples), their pages forged."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from parquet_footer import I32, I64, LIST, columns, join_file, replace_page, split_file, write_struct
from test_cited import AT, REFUSED, _problems, cited  # noqa: F401 (a fixture)

GIB = 2**30


def _forge(folder, **edit):
    path = folder / "cited" / "ro-16.parquet"
    path.write_bytes(replace_page(path.read_bytes(), **edit))
    return path


def _zeros(n):
    return pa.Codec("zstd").compress(bytes(n), asbytes=True)


def test_a_page_that_decompresses_past_its_footer_is_refused_before_arrow_reads_it(cited):
    bomb = _zeros(GIB)
    path = _forge(cited, column="t_s", payload=bomb, header=lambda f: f.__setitem__(2, (I32, GIB)))
    assert path.stat().st_size < 60_000  # 1 GiB of zeros is 32 KB of zstd
    meta = pq.read_metadata(path).row_group(0).column(pq.read_schema(path).names.index("t_s"))
    assert meta.total_uncompressed_size == 35  # what the footer says: the header (19) and 2 bytes a sample
    assert _problems(cited) == [AT + "t_s: its pages decompress to more than the 35 bytes its footer says "
                                "(1,073,741,849 by the page at byte 48)", REFUSED]


def test_a_dictionary_page_that_decompresses_past_its_footer_is_refused(cited):
    _forge(cited, column="threads", dictionary=True, payload=_zeros(GIB), header=lambda f: f.__setitem__(2, (I32, GIB)))
    problems = _problems(cited)
    assert problems == [AT + "threads: its pages decompress to more than the 50 bytes its footer says (1,073,741,844 "
                        "by the page at byte 92)", REFUSED]


def test_a_dictionary_larger_than_its_column_is_refused(cited):
    _forge(cited, column="threads", dictionary=True, header=lambda f: f[7][1].__setitem__(1, (I32, 200_000_000)))
    assert _problems(cited) == [AT + "threads: a dictionary of 200,000,000 values, more than the 3 values of its "
                                "column", REFUSED]


def test_pages_of_more_values_than_the_footer_says_are_refused(cited):
    def more(fields):  # (the header 4 bytes longer, its page's size 4 less: the same decompressed bytes)
        fields[5][1][1] = (I32, 2**31 - 1)
        fields[2] = (I32, fields[2][1] - 4)
    _forge(cited, column="t_s", header=more)
    assert _problems(cited) == [AT + "t_s: its pages hold 2,147,483,647 values, more than the 3 its footer says",
                                REFUSED]


def test_a_page_header_that_cannot_be_read_is_refused(cited):
    path = cited / "cited" / "ro-16.parquet"
    data = bytearray(path.read_bytes())
    body, footer = split_file(bytes(data))
    at = next(md for _, _, _, md, name in columns(footer) if name == "t_s")[9][1]
    data[at] = 0x1E  # a field of Thrift type 14, which no Thrift type is
    path.write_bytes(bytes(data))
    assert _problems(cited) == [AT + "t_s: a page header that cannot be read (KeyError)", REFUSED]


def test_two_columns_on_the_same_pages_are_refused(cited):
    """Each column chunk's pages are its own: reads_s pointed at qps's bytes (both of 3 numbers) would be
    read as a second copy of them."""
    path = cited / "cited" / "ro-16.parquet"
    body, footer = split_file(path.read_bytes())
    chunks = {name: md for _, _, _, md, name in columns(footer)}
    assert 11 not in chunks["qps"] and 11 not in chunks["reads_s"]  # (no dictionary page)
    for key in (6, 7, 9):  # the sizes, and where the pages start
        chunks["reads_s"][key] = chunks["qps"][key]
    path.write_bytes(join_file(body, footer))
    assert _problems(cited) == [AT + "reads_s: its pages overlap another column's: each column's pages are its own",
                                REFUSED]


def test_the_catalogue_s_figures_files_are_within_their_pages(cited):
    """The files as import writes them pass (a file of no samples has no pages at all)."""
    assert _problems(cited) == []


def _insert_before(folder, column, pages: bytes):
    """``pages`` put before ``column``'s own first page, the footer's offsets and sizes moved to match."""
    path = folder / "cited" / "ro-16.parquet"
    body, footer = split_file(path.read_bytes())
    md = next(md for _, _, _, md, name in columns(footer) if name == column)
    at = md[9][1]
    for _, _, cc, other, _ in columns(footer):
        for f in (9, 10, 11):
            if f in other and other[f][1] >= at and other is not md:
                other[f] = (I64, other[f][1] + len(pages))
    md[7] = (I64, md[7][1] + len(pages))
    path.write_bytes(join_file(body[:at] + pages + body[at:], footer))
    return path


def test_pages_of_no_values_are_refused_at_the_first(cited):
    """9.5 million index pages of 7 bytes, no values and no data, in one chunk (a file of 64 MB, 98 KB
    gzipped) took validate 252 s before the walk refused them (issue #61's seventh pass, H1)."""
    empty = write_struct({1: (I32, 1), 2: (I32, 0), 3: (I32, 0)})  # PageType INDEX_PAGE
    _insert_before(cited, "line", empty * 200_000)
    assert _problems(cited) == [AT + "line: the page at byte 4 is of a kind a figures file does not hold (1)", REFUSED]


def test_a_page_header_past_its_bound_is_refused(cited):
    """1,030 headers of 65 KB (a list of empty structs in an unknown field) took 131 s (H1)."""
    header = write_struct({1: (I32, 0), 2: (I32, 0), 3: (I32, 0), 100: (LIST, (12, [{}] * 2000))})
    _insert_before(cited, "line", header)
    assert _problems(cited) == [AT + "line: a page header that cannot be read (TTransportException)", REFUSED]


def test_the_pages_and_header_bytes_of_a_file_are_bounded_as_they_are_read(cited, monkeypatch):
    from ingest.bundles import parquet_pages
    monkeypatch.setattr(parquet_pages, "MAX_PAGES", 5)  # (the file's 12 columns have a page or two each)
    assert _problems(cited)[0] == AT + "qps: more than the 5 pages a figures file may have"
    monkeypatch.setattr(parquet_pages, "MAX_PAGES", 100)
    monkeypatch.setattr(parquet_pages, "MAX_HEADERS_BYTES", 100)
    assert _problems(cited)[0] == AT + "qps: its page headers take more than the 100 bytes a figures file's may"
