"""Bad and doubtful sysbench input: clean errors, warnings, never a wrong number in silence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.cli import main
from ingest.parsers import ParseError
from ingest.parsers.sysbench import _Parser
from ingest.parsers.sysbench_runs import parse_file, parse_text

# the block reader reads every run of interval lines here, however short (conftest.every_block)
pytestmark = pytest.mark.usefixtures("every_block")

FIXTURES = Path(__file__).parent / "fixtures" / "sysbench"
SHELL_LOG = FIXTURES / "web-1.0.20-oltp-rw-ivl20-shell-prompt.log"
REAL_OLTP = [
    "mariadbbench-0.4.12-oltp-ro-1thr.log",
    "mariadbbench-0.5-errors-reconnects-cols.log",
    "web-1.0-oltp-rw-events-limited-no-version-header.log",
    "web-1.0.20-oltp-rw-ivl20-shell-prompt.log",
]

FAILED_RUN = """\
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 16
Initializing random number generator from current time


Initializing worker threads...

FATAL: unable to connect to MySQL server on socket '/var/run/mysqld/mysqld.sock', aborting...
FATAL: error 2002: Can't connect to local MySQL server through socket '/var/run/mysqld/mysqld.sock' (2)
FATAL: `thread_init' function failed: /usr/share/sysbench/oltp_common.lua:349: connection creation failed
"""


def _lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").split("\n")


def test_failed_run_is_an_error_naming_the_first_fatal_line(tmp_path):
    log = tmp_path / "failed.log"
    log.write_text(FAILED_RUN)
    with pytest.raises(ParseError) as err:
        parse_file(log)
    assert str(err.value) == (f"{log}:10: run failed: FATAL: unable to connect to MySQL server on socket "
                              "'/var/run/mysqld/mysqld.sock', aborting...")


def test_cli_failed_run_exits_1_with_the_message(tmp_path):
    log = tmp_path / "failed.log"
    log.write_text(FAILED_RUN)
    result = CliRunner().invoke(main, ["parse", "sysbench", str(log)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{log}:10: run failed: FATAL: unable to connect")
    assert result.stdout == ""


@pytest.mark.parametrize("text", ["", "hello world\n", "Personalities : [raid1]\nunused devices: <none>\n",
                                  "\x00\x01binary", "[not an interval]\n"])
def test_not_a_sysbench_log(tmp_path, text):
    log = tmp_path / "x.log"
    log.write_text(text)
    with pytest.raises(ParseError, match=r"not a sysbench log"):
        parse_file(log)


def test_cli_never_shows_a_traceback(tmp_path):
    log = tmp_path / "x.log"
    log.write_bytes(b"\xff\xfe\x00garbage")
    result = CliRunner().invoke(main, ["parse", "sysbench", str(log)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"{log}: not a sysbench log (binary data)"
    missing = CliRunner().invoke(main, ["parse", "sysbench", str(tmp_path / "nope.log")])
    assert missing.exit_code == 1
    assert "Traceback" not in missing.output
    assert f"{tmp_path / 'nope.log'}: cannot read: No such file or directory" in missing.stderr


def test_truncated_log_is_incomplete_with_a_warning():
    lines = _lines(SHELL_LOG.name)
    cut = "\n".join(lines[: lines.index("SQL statistics:")])
    got = parse_text(cut, name="cut.log")
    assert got["complete"] is False
    assert len(got["intervals"]) == 15
    assert got["totals"]["tps"] is None
    assert got["warnings"] == ["line 28: the log ends after the interval reports: no final statistics"]


def test_crlf_and_trailing_blank_lines_give_the_same_result():
    text = SHELL_LOG.read_text(encoding="utf-8")
    plain = parse_text(text)
    assert parse_text(text.replace("\n", "\r\n") + "\r\n\r\n   \r\n") == plain


def test_threads_from_the_command_then_the_intervals_when_the_header_is_missing():
    text = SHELL_LOG.read_text(encoding="utf-8").replace("Number of threads: 64\n", "")
    got = parse_text(text)
    # the command line (line 1) says --threads=64
    assert (got["threads"], got["threads_source"]) == (64, "command")
    got = parse_text(text.replace("--threads=64 ", ""))
    # every interval line says "thds: 64"
    assert (got["threads"], got["threads_source"]) == (64, "intervals")


def test_threads_inferred_from_fairness_when_the_header_is_missing():
    text = (FIXTURES / "web-0.4.12-oltp-ro-2thr-lastmsg-repeated.log").read_text(encoding="utf-8")
    got = parse_text(text.replace("Number of threads: 2\n", ""))
    # 461658 events / 230829.0000 events per thread = 2.0
    assert (got["threads"], got["threads_source"]) == (2, "inferred")


def test_threads_inferred_from_latency_sum_without_fairness():
    lines = [ln for ln in _lines("web-1.0-cpu-no-version-header.log")
             if not ln.startswith("Number of threads") and "avg/stddev" not in ln]
    got = parse_text("\n".join(lines))
    # latency sum 9991.08 ms / 1000 / 10.0002 s = 0.999 -> 1 thread
    assert (got["threads"], got["threads_source"]) == (1, "inferred")


def test_cross_checks_warn():
    text = SHELL_LOG.read_text(encoding="utf-8")
    tampered = (text.replace("transactions:                        9328   (30.99 per sec.)",
                             "transactions:                        9328   (40.99 per sec.)")
                .replace("read:                            130592", "read:                            130593")
                .replace("[ 40s ] thds: 64 tps:", "[ 40s ] thds: 32 tps:"))
    warnings = parse_text(tampered)["warnings"]
    assert "line 29: transactions / time = 30.99 per second, but the log prints tps 40.99" in warnings
    assert "line 29: mean interval tps 30.88 is more than 10% from the total tps 40.99" in warnings
    assert "line 29: reads + writes + other = 186561, but total queries = 186560" in warnings
    assert "line 15: interval reports 32 threads, the header 64" in warnings


def test_littles_law_warns_when_threads_do_not_fit():
    text = SHELL_LOG.read_text(encoding="utf-8").replace("Number of threads: 64", "Number of threads: 16")
    warnings = parse_text(text)["warnings"]
    assert "line 29: Little's law: events/s x avg latency = 63.99 busy threads, but the run has 16" in warnings


def test_unknown_lines_are_named():
    text = "garbage before\n" + SHELL_LOG.read_text(encoding="utf-8")
    assert parse_text(text)["warnings"] == ["line 1: skipped a line that is not sysbench output: 'garbage before'"]


# --- mutations over real logs ----------------------------------------------------------------


def _flat(result: dict) -> dict:
    out = {}
    for key in ("sysbench_version", "test", "kind", "threads", "report_interval_s"):
        out[key] = result[key]
    for group in ("totals", "fairness"):
        for k, v in result[group].items():
            out[f"{group}.{k}"] = v
    for k, v in result["latency_ms"].items():
        if k != "percentiles":
            out[f"latency.{k}"] = v
    for k, v in result["latency_ms"]["percentiles"].items():
        out[f"latency.p{k}"] = v
    for row in result["intervals"].to_rows():
        for k, v in row.items():
            out[f"interval@{row['t_s']}.{k}"] = v
    return out


def _check(original: dict, mutated_text: str, what: str) -> None:
    try:
        got = parse_text(mutated_text)
    except ParseError:
        return  # a clean error is an acceptable answer
    if set(got["warnings"]) - set(original["warnings"]):
        return  # the damage was reported
    before, after = _flat(original), _flat(got)
    for key, value in after.items():
        if value is None:
            continue
        assert before.get(key) == value, f"{what}: {key} = {value!r} (was {before.get(key)!r}) with no warning"


@pytest.mark.parametrize("name", REAL_OLTP)
def test_dropping_or_duplicating_any_line(name):
    lines = _lines(name)
    original = parse_text("\n".join(lines))
    for i in range(len(lines)):
        _check(original, "\n".join(lines[:i] + lines[i + 1:]), f"drop line {i + 1}")
        _check(original, "\n".join(lines[: i + 1] + lines[i:]), f"duplicate line {i + 1}")


GARBLES = [("0", "O"), ("1", "l"), (".", ","), ("5", "S")]


@pytest.mark.parametrize("name", REAL_OLTP)
def test_ocr_style_garbles_of_every_number(name):
    lines = _lines(name)
    original = parse_text("\n".join(lines))
    for i, line in enumerate(lines):
        for m in re.finditer(r"\d+(?:\.\d+)?", line):
            for old, new in GARBLES:
                token = m.group(0)
                if old not in token:
                    continue
                damaged = line[: m.start()] + token.replace(old, new, 1) + line[m.end():]
                _check(original, "\n".join(lines[:i] + [damaged] + lines[i + 1:]), f"line {i + 1}: {damaged!r}")


CROSS_CHECKED = ["transactions:", "read:", "write:", "other:", "total:", "total time:", "avg:"]


@pytest.mark.parametrize("name", REAL_OLTP)
def test_changed_digits_in_cross_checked_figures_warn(name):
    lines = _lines(name)
    original = parse_text("\n".join(lines))
    for i, line in enumerate(lines):
        if not any(line.strip().startswith(k) for k in CROSS_CHECKED):
            continue
        m = re.search(r"\d+(?:\.\d+)?", line)
        token = m.group(0)
        lead = str((int(token[0]) + 4) % 9 + 1)  # a different, non-zero leading digit
        damaged = line[: m.start()] + lead + token[1:] + line[m.end():]
        got = parse_text("\n".join(lines[:i] + [damaged] + lines[i + 1:]))
        assert set(got["warnings"]) - set(original["warnings"]), f"line {i + 1}: {damaged!r} passed silently"


# Runs of 1.0 interval lines are read a block at a time; anything the block reader declines goes
# line by line. Both must give the same answer, warnings included, for any input.
BLOCK_LOGS = sorted([FIXTURES / "web-1.0.20-oltp-rw-ivl20-shell-prompt.log",
                     FIXTURES / "web-1.0-oltp-rw-events-limited-no-version-header.log",
                     *Path(__file__).parent.glob("fixtures/bundles/*/artifacts/*.log"),
                     *(Path(__file__).parents[1] / "data").glob("*/artifacts/*-t4-r1.log")])


def _line_by_line(text: str, monkeypatch) -> dict:
    with monkeypatch.context() as m:
        m.setattr(_Parser, "interval_block", lambda self, first_line, block: False)
        return parse_text(text)


def _both(text: str, monkeypatch):
    """The block reader's answer (or error) and the line reader's are the same. Where the block reader
    took no block (it stores nothing when it declines one), the lines were read one by one all the same:
    the two readings are one, and the text is read once (the mutations of every line, below: 59 s, against
    80 s with every text read twice)."""
    taken = []
    reader = _Parser.interval_block
    with monkeypatch.context() as m:
        m.setattr(_Parser, "interval_block", lambda self, *a: taken.append(reader(self, *a)) or taken[-1])
        try:
            fast = parse_text(text)
        except ParseError as exc:
            fast = exc
    if not any(taken):
        return
    if isinstance(fast, ParseError):
        with pytest.raises(ParseError) as slow:
            _line_by_line(text, monkeypatch)
        assert str(slow.value) == str(fast)
        return
    assert fast == _line_by_line(text, monkeypatch)


def test_block_reader_reads_the_interval_logs(monkeypatch):
    reader = _Parser.interval_block
    for path in BLOCK_LOGS:
        taken = []
        monkeypatch.setattr(_Parser, "interval_block", lambda self, *a: taken.append(reader(self, *a)) or taken[-1])
        parse_file(path)
        # ro-64.log and after-rebuild.log print 0.5 interval lines: read line by line
        assert taken == ([] if path.name in ("ro-64.log", "after-rebuild.log") else [True]), path.name


@pytest.mark.parametrize("path", BLOCK_LOGS, ids=lambda p: p.name)
def test_block_reader_agrees_with_the_line_reader(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    variants = [text, text.replace("\n", "\r\n"), text.rstrip("\n"), text.replace("[ 1", "[  1"),
                text.replace("err/s: ", "err/s "), text.replace(" thds: 4 ", " thds: 8 ", 1),
                text.replace("s ] thds", "s ] thds", 1).replace(" tps: ", " tps: .", 1),
                text.replace(" thds: ", " thds:  ", 1), text.replace("(ms,95%)", "(ms,%)", 1),
                text.replace("tps: ", "t5ps: ", 1).replace(" thds: 4 ", " thds:  ", 1),
                text.replace(" err/s: 0.00", " err/s: .00", 1), re.sub(r"/\d+\.", "/.", text, count=1),
                text.replace(" thds: 4 ", " thds: 4 \u00e9", 1)]
    for i, line in enumerate(lines):
        variants.append("\n".join(lines[:i] + lines[i + 1:]))
        variants.append("\n".join(lines[: i + 1] + lines[i:]))
        for m in re.finditer(r"\d+(?:\.\d+)?", line):
            for old, new in GARBLES + [(".", ".."), ("1", "")]:
                if old in m.group(0):
                    damaged = line[: m.start()] + m.group(0).replace(old, new, 1) + line[m.end():]
                    variants.append("\n".join(lines[:i] + [damaged] + lines[i + 1:]))
    for variant in variants:
        _both(variant, monkeypatch)
