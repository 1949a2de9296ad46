"""Interval samples held as columns: the block reader and the line reader fill the same columns."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest
from click.testing import CliRunner

from ingest.cli import main
from ingest.parsers.sysbench import _Parser
from ingest.parsers.sysbench_runs import parse_text
from ingest.parsers import sysbench_intervals
from ingest.parsers.sysbench_intervals import STORED_COLUMNS, read_block

SHORT_RUN = sysbench_intervals.BLOCK_FROM_LINES  # the parser's own, before every_block sets it to 1
# the block reader reads every run of interval lines here, however short (conftest.every_block)
pytestmark = pytest.mark.usefixtures("every_block")

HEAD = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\nNumber of threads: 8\nReport intermediate results every 1 second(s)\n\n"


def _line(t: int, *, tps: str = "100.50") -> str:
    return (f"[ {t}s ] thds: 8 tps: {tps} qps: 2010.00 (r/w/o: 1407.00/402.00/201.00) lat (ms,95%): 12.30 "
            f"err/s: 0.00 reconn/s: 0.00\n")


def _tps(t: int) -> str:
    return f"{100 + t % 7}.{t % 100:02d}"


def _log(count: int) -> str:
    return HEAD + "".join(_line(t, tps=_tps(t)) for t in range(1, count + 1))


def _line_by_line(text: str, monkeypatch, **kw) -> dict:
    with monkeypatch.context() as m:
        m.setattr(_Parser, "interval_block", lambda self, first_line, block: False)
        return parse_text(text, **kw)


def test_block_and_line_readers_fill_the_same_columns(monkeypatch):
    text = _log(3000)
    slow = _line_by_line(text, monkeypatch)
    for piece_bytes in (None, 4096, 777):  # pieces cut runs of interval lines into several blocks
        fast = parse_text(text, piece_bytes=piece_bytes)
        assert fast == slow
        assert len(fast["intervals"]) == 3000
        assert [t.num_rows for t in fast["intervals"].tables()] != [3000] or piece_bytes is None
    rows = slow["intervals"].to_rows()
    assert rows[0] == {"t_s": 1, "threads": 8, "tps": 101.01, "qps": 2010.0, "reads_s": 1407.0, "writes_s": 402.0,
                       "other_s": 201.0, "latency_pct": 95, "latency_ms": 12.3, "errors_s": 0.0, "reconnects_s": 0.0}
    assert rows[-1]["t_s"] == 3000 and rows[-1]["tps"] == 104.0  # 100 + 3000 % 7, .00
    table = pa.concat_tables(parse_text(text)["intervals"].tables())
    assert table.column_names == list(STORED_COLUMNS)  # a fileio run's columns too, empty here
    assert table.column("fsyncs_s").null_count == 3000
    assert table.column("t_s").type == pa.int64() and table.column("tps").type == pa.float64()
    assert table.column("t_s").to_pylist() == list(range(1, 3001))


def test_an_odd_line_in_a_block_is_read_line_by_line_and_named(monkeypatch):
    lines = _log(50).splitlines(keepends=True)
    odd = lines.index(_line(20, tps=_tps(20)))
    lines[odd] = _line(20, tps="119,20")
    text = "".join(lines)
    taken = []
    reader = _Parser.interval_block
    monkeypatch.setattr(_Parser, "interval_block", lambda self, *a: taken.append(reader(self, *a)) or taken[-1])
    got = parse_text(text)
    monkeypatch.undo()
    assert taken == [False]
    assert got["warnings"][:2] == [
        f"line {odd + 1}: unreadable interval line: {_line(20, tps='119,20')[:80]!r}",
        f"line {odd + 2}: interval at 21s follows 19s: expected a step of 1s"]
    assert len(got["intervals"]) == 49
    assert got == _line_by_line(text, monkeypatch)


def test_a_digit_out_of_place_is_not_read_into_a_number():
    good = _line(1).encode()
    assert read_block(good).column("threads").to_pylist() == [8]
    for damaged in (good.replace(b"thds: 8 tps:", b"thds:  t8ps:"), good.replace(b"[ 1s", b"[1 s"),
                    good.replace(b"err/s", b"err/5s"), good.replace(b"tps: 100.50", b"tps: .50"),
                    good.replace(b"ms,95%", b"ms,%"), good.replace(b"[ 1s", b"[ 99999999999999999999s")):
        assert read_block(damaged) is None, damaged


def test_missing_values_are_nulls_and_integers_stay_integers():
    text = ("sysbench 0.5:  multi-threaded system evaluation benchmark\n\nNumber of threads: 2\n"
            "[   1s] threads: 2, tps: 10.00, reads: 140.00, writes: 40.00, response time: 5.10ms (95%)\n"
            "[   2s] threads: 2, tps: 11, reads: 150.00, writes: 40.00, response time: 5.20ms (95%), "
            "errors: 0.00, reconnects:  0.00\n"
            "[ 3s ] thds: 2 eps: 75.20 lat (ms,99%): 3.30\n")
    got = parse_text(text)
    assert got["warnings"] == ["line 6: the log ends after the interval reports: no final statistics"]
    rows = got["intervals"].to_rows()
    assert rows == [
        {"t_s": 1, "threads": 2, "tps": 10.0, "qps": None, "reads_s": 140.0, "writes_s": 40.0, "other_s": None,
         "latency_pct": 95, "latency_ms": 5.1, "errors_s": None, "reconnects_s": None},
        {"t_s": 2, "threads": 2, "tps": 11, "qps": None, "reads_s": 150.0, "writes_s": 40.0, "other_s": None,
         "latency_pct": 95, "latency_ms": 5.2, "errors_s": 0.0, "reconnects_s": 0.0},
        {"t_s": 3, "threads": 2, "tps": None, "qps": None, "reads_s": None, "writes_s": None, "other_s": None,
         "latency_pct": 99, "latency_ms": 3.3, "errors_s": None, "reconnects_s": None, "eps": 75.2}]
    assert type(rows[1]["tps"]) is int and type(rows[0]["tps"]) is float
    tables = list(got["intervals"].tables())
    assert sum(t.num_rows for t in tables) == 3
    assert all(t.column_names == list(STORED_COLUMNS) for t in tables)
    assert [t.column("errors_s").null_count for t in tables] == [1, 0, 1]
    assert got["interval_tps_cv"] == round((0.5 / 10.5), 4)


def test_cli_prints_samples_as_objects(tmp_path):
    log = tmp_path / "x.log"
    log.write_text(_log(3))
    result = CliRunner().invoke(main, ["parse", "sysbench", str(log)])
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    assert [row["t_s"] for row in printed["intervals"]] == [1, 2, 3]
    assert '"latency_pct": 95,' in result.stdout and '"qps": 2010.0,' in result.stdout


def test_a_file_is_read_in_pieces_of_whole_lines(tmp_path):
    from ingest.parsers import artifact_pieces

    log = tmp_path / "x.log"
    log.write_bytes(_log(200).encode() + b"x" * 900 + b"\nlast line without a newline")
    pieces = list(artifact_pieces(log, kind="a log", size=1000))
    assert b"".join(pieces) == log.read_bytes()
    assert all(p.endswith(b"\n") for p in pieces[:-1]) and pieces[-1] == b"last line without a newline"
    assert max(map(len, pieces)) <= 1000 and len(pieces) > 20


def test_a_line_longer_than_a_piece_stops_the_reading_where_it_starts(tmp_path):
    """A log followed by a gigabyte of zeros was read whole (issue #49): no more than a piece is held."""
    from ingest.parsers import ParseError, artifact_pieces

    log = tmp_path / "x.log"
    text = _log(200).encode()
    log.write_bytes(text + b"\0" * 50_000 + b"\nmore\n")
    reader = artifact_pieces(log, kind="a log", size=1000)
    read = []
    with pytest.raises(ParseError) as caught:
        for piece in reader:
            read.append(piece)
    line = text.count(b"\n") + 1  # the zeros' line
    assert str(caught.value) == f"{log}:{line}: a line longer than 1,000 bytes: not a log"
    assert b"".join(read) == text


def test_short_runs_of_interval_lines_are_read_line_by_line_with_the_same_answer(monkeypatch):
    taken = []
    reader = _Parser.interval_block
    for count in (5, SHORT_RUN - 1, SHORT_RUN, 300):
        text = _log(count)
        blocks = parse_text(text)  # every run read as a block (every_block)
        with monkeypatch.context() as m:
            m.setattr(sysbench_intervals, "BLOCK_FROM_LINES", SHORT_RUN)
            m.setattr(_Parser, "interval_block", lambda self, *a: taken.append((count, reader(self, *a))) or taken[-1][1])
            got = parse_text(text)
        assert got == blocks == _line_by_line(text, monkeypatch)
        assert len(got["intervals"]) == count
    assert SHORT_RUN == 32
    assert taken == [(32, True), (300, True)]
