"""A figures file's pages checked against its footer before Arrow reads them (ingest/bundles/parquet_pages.py).

Arrow sized a page's buffer by the page's own header: a page of zstd that decompresses to 1 GiB, its
header saying so, made a figures file of 72 KB take 2.26 GB, and a dictionary page likewise (issue #61's
sixth pass). Files are the cited fixture's (test_cited.py: 3 samples), their pages forged."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from parquet_footer import I32, columns, join_file, replace_page, split_file
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
    assert _problems(cited) == [AT + "t_s: its pages decompress to 1,073,741,849 bytes, more than the 35 its "
                                "footer says", REFUSED]


def test_a_dictionary_page_that_decompresses_past_its_footer_is_refused(cited):
    _forge(cited, column="threads", dictionary=True, payload=_zeros(GIB), header=lambda f: f.__setitem__(2, (I32, GIB)))
    problems = _problems(cited)
    assert problems[0].startswith(AT + "threads: its pages decompress to 1,073,741,")
    assert problems[0].endswith("bytes, more than the 50 its footer says") and problems[1:] == [REFUSED]


def test_a_dictionary_larger_than_its_column_is_refused(cited):
    _forge(cited, column="threads", dictionary=True, header=lambda f: f[7][1].__setitem__(1, (I32, 200_000_000)))
    assert _problems(cited) == [AT + "threads: a dictionary of 200,000,000 values, more than the 3 values of its "
                                "column", REFUSED]


def test_pages_of_more_values_than_the_footer_says_are_refused(cited):
    _forge(cited, column="t_s", header=lambda f: f[5][1].__setitem__(1, (I32, 2**31 - 1)))
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
