"""A large file that is not of the kind a parser reads is refused from its first piece (ingest/parsers/
reading.py: SNIFF_FROM), not read to its end: 1 GB that was not a log took `benchdb import` 7 min 20 s
and 7.3 GB to skip, and `benchdb parse sysbench` 325 s (issue #61). Here the bound is lowered to 1,000
bytes so that small files stand for large ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.parsers import reading
from ingest.parsers.mdstat import parse_file as parse_mdstat
from ingest.parsers.mdstat_trace import parse_trace
from ingest.parsers.reading import ParseError
from ingest.parsers.sysbench_runs import parse_runs

FIXTURES = Path(__file__).parent / "fixtures"
LOG = FIXTURES / "cited-repo" / "runs" / "ro 16#" / "sysbench.log"
NOT_A_LOG = "2026-12-01 12:00:00 INFO request served in 12 ms from cache\n" * 100  # 6,000 bytes


@pytest.fixture(autouse=True)
def small_bound(monkeypatch):
    monkeypatch.setattr(reading, "SNIFF_FROM", 1000)


@pytest.mark.parametrize("parse, kind, markers", [
    (parse_runs, "a sysbench log", "'sysbench', 'thds:', 'threads:', 'transactions:'"),
    (parse_mdstat, "/proc/mdstat", "'Personalities :', 'unused devices:', ' : active ', ' : inactive '"),
    (parse_trace, "/proc/mdstat", "'Personalities :', 'unused devices:', ' : active ', ' : inactive '"),
])
def test_a_large_file_that_is_not_of_its_kind_is_refused_from_its_first_piece(tmp_path, parse, kind, markers):
    path = tmp_path / "app.log"
    path.write_text(NOT_A_LOG, encoding="utf-8")
    with pytest.raises(ParseError) as caught:
        parse(path)
    assert str(caught.value) == (f"{path}: not {kind}: 6,000 bytes, and its first 6,000 hold nothing {kind} "
                                 f"prints ({markers}); not read further")


def test_a_large_file_of_its_kind_is_read_whole(tmp_path):
    assert LOG.stat().st_size > 1000
    (run,) = parse_runs(LOG)
    assert (run["lines"], len(run["intervals"])) == ([1, 43], 3)
    snapshot = next(p for p in sorted((FIXTURES / "mdstat").glob("*.txt")) if p.stat().st_size > 1000)
    assert parse_mdstat(snapshot)["arrays"]


def test_a_run_of_more_samples_than_a_run_may_hold_is_refused_at_the_line_that_passes_it(monkeypatch):
    """1 GB of one interval line took the parser 158 s and 2.7 GB (issue #61): a run holds at most
    1,000,000 samples (sysbench_intervals.py), here 2, the fixture's third sample on line 16."""
    from ingest.parsers import sysbench_intervals
    monkeypatch.setattr(sysbench_intervals, "MAX_SAMPLES", 2)
    with pytest.raises(ParseError) as caught:
        parse_runs(LOG)
    assert str(caught.value) == f"{LOG}:16: more than 2 interval samples in one run: not read further"


def test_a_file_of_json_lines_of_more_samples_than_a_run_may_hold_is_refused(monkeypatch):
    from ingest.bundles.cited_lines import read_figures_lines
    from ingest.parsers import sysbench_intervals
    monkeypatch.setattr(sysbench_intervals, "MAX_SAMPLES", 2)
    run, problems = read_figures_lines(FIXTURES / "figures-jsonl" / "ro-16.jsonl")
    assert run is None
    assert [p.message for p in problems] == ["3 samples: more than 2 interval samples in one run: not read further"]


def test_a_log_whose_lines_end_in_cr_alone_is_named_so(tmp_path):
    """It was refused as "not a sysbench log (no sysbench header...)" (issue #61's third pass)."""
    path = tmp_path / "mac.log"
    path.write_bytes(LOG.read_bytes().replace(b"\n", b"\r"))
    with pytest.raises(ParseError) as caught:
        parse_runs(path)
    assert str(caught.value) == (f"{path}: not a sysbench log as it is: its lines end in CR alone (the old Mac way); "
                                 "convert them to LF or CRLF")
