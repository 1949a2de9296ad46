"""Cited logs: a log that may not be republished enters a bundle as its repository, commit, path, SHA-256
and the figures the parser read from it (issue #51). The figures values asserted here are read off
tests/fixtures/cited-repo/runs/ro 16#/sysbench.log by hand (its line numbers in the comments)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ingest.bundles.cited import write_figures
from ingest.bundles.validate import validate_paths
from ingest.database.load import build_database
from ingest.parsers.sysbench_runs import parse_file

REPO = Path(__file__).parent / "fixtures" / "cited-repo"
LOG = REPO / "runs" / "ro 16#" / "sysbench.log"
COMMIT = "0123456789abcdef0123456789abcdef01234567"
SHA = "2c1e9122c06e5f80f83297aee7882d16bf350527cb99d9a84ee76535593e26c2"  # sha256sum of LOG
ORIGIN = {"result": "ro-16", "sha256": SHA}  # what the fixture's figures file is of
BLOB = ("https://github.com/Example-Lab/results/blob/0123456789abcdef0123456789abcdef01234567/"
        "bench/runs/ro%2016%23/sysbench.log")

BUNDLE = f"""\
schema_version: 2
id: cited
title: A cited log
summary: One run of a repository without a licence.
sources:
  - id: repo
    publisher: Example Lab
    title: Benchmark results
    language: en
    url: https://github.com/Example-Lab/results
    licence: cited only
    commit: "{COMMIT}"
systems:
  - id: a
    label: System A
    storage: {{product: Box A, vendor: Example, kind: device}}
    protocol: local
    database: {{engine: MySQL}}
    host: {{cpu: CPU Y}}
workloads:
  - {{id: ro, tool: sysbench, test: oltp_read_only}}
results:
  - type: cited
    id: ro-16
    format: sysbench
    origin:
      repository: Example-Lab/results
      commit: "{COMMIT}"
      path: "bench/runs/ro 16#/sysbench.log"
      sha256: "{SHA}"
    figures: cited/ro-16.parquet
    system: a
"""


def test_the_fixture_is_the_file_the_sha256_names():
    assert hashlib.sha256(LOG.read_bytes()).hexdigest() == SHA


@pytest.fixture
def cited(bundle_dir) -> Path:
    folder = bundle_dir("cited", BUNDLE)
    write_figures(parse_file(LOG), folder / "cited" / "ro-16.parquet", origin=ORIGIN)
    return folder


def _problems(folder: Path) -> list[str]:
    _, problems = validate_paths([folder])
    return [str(p).replace(str(folder.absolute()) + "/", "") for p in problems]


def test_a_cited_log_validates_and_loads_as_its_parsed_log_does(cited, tmp_path):
    loaded, problems = validate_paths([cited])
    assert problems == []
    db = build_database(loaded, db_path=tmp_path / "cited.duckdb")
    with duckdb.connect(str(db), read_only=True) as con:
        values = con.execute("SELECT metric, value_text, line, provenance, quote, source_href FROM results "
                             "ORDER BY col_index").fetchall()
        # the log is not republished: its figure as parsed, linked to its line at the commit
        log = "Example-Lab/results at 0123456, bench/runs/ro 16#/sysbench.log, line "
        parsed = " as parsed (the log is cited, not republished)"
        assert values == [
            ("tps", "2434.78", 23, log + "23", "2434.78" + parsed, BLOB + "#L23"),
            ("qps", "38956.45", 24, log + "24", "38956.45" + parsed, BLOB + "#L24"),
            ("latency_avg_ms", "6.57", 34, log + "34", "6.57" + parsed, BLOB + "#L34"),
            ("latency_p95_ms", "8.28", 36, log + "36", "8.28" + parsed, BLOB + "#L36"),
        ]
        # lines 14-16: [ 10s ] ... tps: 2410.35 ..., [ 20s ] ... 2455.10, [ 30s ] ... 2440.20
        assert con.execute("SELECT t_s, threads, tps, qps, latency_ms FROM intervals ORDER BY t_s").fetchall() == [
            (10, 16, 2410.35, 38565.60, 8.43), (20, 16, 2455.10, 39281.60, 8.28), (30, 16, 2440.20, 39043.20, 8.28)]
        # the CV of 2410.35, 2455.10, 2440.20: mean 2435.2167, population stddev 18.606, 0.0076
        assert con.execute("SELECT path, threads, threads_source, complete, interval_tps_cv, elapsed_s FROM runs"
                           ).fetchall() == [("bench/runs/ro 16#/sysbench.log", 16, "header", True, 0.0076, 30.0052)]
        assert con.execute("SELECT carried, repository, commit_hash, path, sha256, licence, href FROM origins"
                           ).fetchall() == [(False, "Example-Lab/results", COMMIT, "bench/runs/ro 16#/sysbench.log",
                                             SHA, None, BLOB)]
        assert con.execute("SELECT count(*) FROM artifacts").fetchone() == (0,)  # nothing for /raw/
        assert con.execute("SELECT grade FROM run_grades").fetchone() == ("fail",)  # 30 s: under the 60 s minimum


def test_a_cited_log_gives_the_rows_its_parsed_log_gives(cited, tmp_path):
    """The same log carried in artifacts/ and cited: the same runs, intervals and values."""
    carried = tmp_path / "carried"
    carried.mkdir()
    (carried / "artifacts").mkdir()
    (carried / "artifacts" / "run.log").write_bytes(LOG.read_bytes())
    text = BUNDLE.replace("id: cited\n", "id: carried\n", 1)
    text = (text[:text.index("  - type: cited")]
            + "  - {type: artifact, id: ro-16, format: sysbench, path: artifacts/run.log, system: a}\n")
    (carried / "bundle.yaml").write_text(text, encoding="utf-8")
    loaded, problems = validate_paths([cited, carried])
    assert problems == []
    db = build_database(loaded, db_path=tmp_path / "both.duckdb")
    with duckdb.connect(str(db), read_only=True) as con:
        for query in ("SELECT * EXCLUDE (study, path, log) FROM runs WHERE study = ?",
                      "SELECT * EXCLUDE (study) FROM intervals WHERE study = ?",
                      "SELECT * EXCLUDE (study, provenance, quote, source) FROM measurements WHERE study = ?",
                      "SELECT * EXCLUDE (study) FROM run_grades WHERE study = ?"):
            assert con.execute(query, ["cited"]).fetchall() == con.execute(query, ["carried"]).fetchall()


def _rewrite(folder: Path, *, run=None, table=None, origin=None) -> None:
    """The figures file rewritten with its run's JSON text edited by ``run``, its samples by ``table`` and
    what it says it is of by ``origin`` (None: left out)."""
    path = folder / "cited" / "ro-16.parquet"
    stored = pq.read_metadata(path).metadata
    text, tie = stored[b"benchdb.run"].decode(), stored[b"benchdb.origin"].decode()
    samples = pq.read_table(path)
    text, samples, tie = (run or (lambda t: t))(text), (table or (lambda t: t))(samples), (origin or (lambda t: t))(tie)
    with pq.ParquetWriter(path, samples.schema, store_schema=False) as writer:
        writer.write_table(samples)
        writer.add_key_value_metadata({"benchdb.run": text, **({"benchdb.origin": tie} if tie is not None else {})})


def _replaced(old: str, new: str):
    def edit(text: str) -> str:
        assert old in text
        return text.replace(old, new, 1)
    return edit


def _column(name: str, values: list, kind=None):
    return lambda t: t.set_column(t.column_names.index(name), name, pa.array(values, kind or t.schema.field(name).type))


FIGURES = "cited/ro-16.parquet"
REFUSED = "bundle.yaml:31: results[ro-16].figures: cited/ro-16.parquet does not hold a run's figures (its problems above)"
AT = "cited/ro-16.parquet: "


@pytest.mark.parametrize("edit, expected", [
    (dict(run=_replaced('"tps": 2434.78', '"tps": "2434.78"')),
     [AT + "benchdb.run.totals.tps: Input should be a number (got '2434.78')"]),
    (dict(run=_replaced('"complete": true', '"complete": true, "speed": 1')),
     [AT + "benchdb.run.speed: unknown key (not part of a figures file)"]),
    (dict(run=_replaced('"lines": [1, 43]', '"lines": [1]')),
     [AT + "benchdb.run.lines: List should have at least 2 items after validation, not 1"]),
    (dict(run=_replaced('"tps": 23', '"tps": 99')),
     [AT + "benchdb.run.source_lines.tps: line 99 is outside the run's lines 1-43"]),
    (dict(run=_replaced('"tps": 2434.78', '"tps": 2434.78, "tps": 1')), [AT + "benchdb.run: key 'tps' is given twice"]),
    (dict(run=_replaced('"tps": 2434.78', '"tps": NaN')), [AT + "benchdb.run: NaN is not a number a figure may be"]),
    (dict(run=_replaced('"warnings": []', '"warnings": ' + "[" * 980 + "]" * 980)),
     [AT + "benchdb.run: objects and lists nested more than 16 deep"]),  # a RecursionError before (issue #61)
    (dict(run=lambda t: "{"), [AT + "benchdb.run: not JSON: Expecting property name enclosed in double quotes: "
                                    "line 1 column 2 (char 1)"]),
    # the samples of lines 14, 15, 16 at 10, 20, 30 s: row 2 is line 15's
    (dict(table=_column("t_s", [10, 10, 30])), [AT + "t_s: row 2: the sample at 10s does not follow the previous one at 10s"]),
    (dict(table=_column("line", [14, 14, 16])), [AT + "line: row 2: line 14 does not follow the previous sample's line 14"]),
    (dict(table=_column("line", [14, 15, 99])), [AT + "line: row 3: line 99 is outside the run's lines 1-43"]),
    (dict(table=_column("tps", [2410.35, float("nan"), 2440.2])), [AT + "tps: row 2: nan is not a finite number"]),
    (dict(table=_column("tps", [None, None, None], pa.string())),
     [AT + "tps: the column should hold numbers (64-bit), not string"]),
    (dict(table=_column("threads", [16.0, 16.0, 16.0], pa.float64())),
     [AT + "threads: the column should hold whole numbers (64-bit), not double"]),
    (dict(table=_column("line", [14, None, 16])), [AT + "line: row 2: no value (each sample has its line and time)"]),
    # 64-bit in the file, 32-bit in the database (intervals: INTEGER): refused here, not at the load (issue #61)
    (dict(table=_column("t_s", [10, 20, 2147483648])),
     [AT + "t_s: row 3: 2,147,483,648 is beyond the whole numbers the database stores here "
           "(-2,147,483,648 to 2,147,483,647)"]),
    (dict(table=_column("threads", [16, 1099511627776, 16])),
     [AT + "threads: row 2: 1,099,511,627,776 is beyond the whole numbers the database stores here "
           "(-2,147,483,648 to 2,147,483,647)"]),
    (dict(run=_replaced('"threads": 16', '"threads": 1099511627776')),
     [AT + "benchdb.run.threads: Input should be less than or equal to 2147483647 (got 1099511627776)"]),
    (dict(table=lambda t: t.append_column("speed", pa.array([1, 2, 3]))),
     [AT + "speed: unknown key (not part of a figures file)"]),
    (dict(table=lambda t: t.drop_columns(["threads"])), [AT + "threads: missing required field"]),
    # tied to one result and its log (issue #61): the figures of another result, or of another log
    (dict(origin=_replaced('"ro-16"', '"ro-32"')),
     [AT + "benchdb.origin.result: the figures of result 'ro-32', not of 'ro-16', which names the file: a file is "
           "the figures of one result"]),
    (dict(origin=_replaced(SHA, "1" * 64)),
     [AT + f"benchdb.origin.sha256: read from the log of SHA-256 {'1' * 64}, not from the one the result's origin "
           f"names ({SHA})"]),
    (dict(origin=lambda t: None),
     [AT + "benchdb.origin: missing required field: the result and the SHA-256 of the log the figures were read "
           "from (`benchdb migrate --write` adds them from the bundle, for a file written before)"]),
    (dict(origin=_replaced(SHA, "abc")),
     [AT + "benchdb.origin.sha256: String should match pattern '^[0-9a-f]{64}$' (got 'abc')"]),
])
def test_a_malformed_figures_file_is_refused_naming_its_field_and_row(cited, edit, expected):
    _rewrite(cited, **edit)
    assert _problems(cited) == expected + [REFUSED]


def test_a_figures_file_that_is_not_parquet_is_refused_before_it_is_read(cited):
    path = cited / "cited" / "ro-16.parquet"
    path.write_bytes((Path(__file__).parent / "fixtures" / "figures-jsonl" / "ro-16.jsonl").read_bytes())
    assert _problems(cited) == [AT + "not a Parquet file (a figures file in JSON Lines, the format before: "
                                     "`benchdb migrate --write` rewrites it)", REFUSED]
    path.write_bytes(b"PAR1" + b"\0" * 8 + (2**30).to_bytes(4, "little") + b"PAR1")
    assert _problems(cited) == [AT + "its footer of 1,073,741,824 bytes is larger than the 4,194,304 a figures "
                                     "file's may be", REFUSED]
    with open(path, "wb") as f:
        f.truncate(64 * 2**20 + 1)
    assert _problems(cited) == [AT + "67,108,865 bytes: more than the 67,108,864 a figures file may be", REFUSED]


def test_a_figures_file_s_columns_are_checked_from_its_footer_before_any_is_read(cited):
    """400 unknown columns of a 3 MB file took validate 5 GB to read before they were refused, and a list
    column of a 4 KB file (300 million zeros, dictionary-coded) 7 GB (issue #61's second pass)."""
    _rewrite(cited, table=lambda t: t.append_column("x", pa.array([[0] * 1000] * 3, pa.list_(pa.int64()))))
    assert _problems(cited) == [AT + "x.list.element: a column of lists, or of more values than the file has rows: "
                                     "a figures file's columns hold one number a sample", REFUSED]
    _rewrite(cited, table=lambda t: t.drop_columns(["x"]))
    _rewrite(cited, table=lambda t: pa.Table.from_arrays([*t.columns, *(pa.array([0, 0, 0]) for _ in range(60))],
                                                         names=[*t.column_names, *(f"x{i}" for i in range(60))]))
    problems = _problems(cited)
    assert problems[:2] == [AT + "x0: unknown key (not part of a figures file)", AT + "x1: unknown key (not part of a figures file)"]
    assert problems[50:] == [AT + "10 more column problems, not listed", REFUSED]


def test_figures_beyond_a_file_s_or_a_bundle_s_samples_are_refused_before_they_are_read(cited, monkeypatch):
    """A file may hold 1,000,000 samples and a bundle's files 2,000,000 together (cited.py): one of 10
    million took validate 96 s and 4.2 GB, and the build 6 minutes (issue #61). Here the fixture's file
    of 3 samples against bounds of 2."""
    from ingest.bundles import cited as module, validate
    monkeypatch.setattr(module, "MAX_SAMPLES", 2)
    assert _problems(cited) == [AT + "3 samples: more than the 2 a figures file may hold", REFUSED]
    monkeypatch.setattr(module, "MAX_SAMPLES", 1_000_000)
    monkeypatch.setattr(module, "MAX_BUNDLE_SAMPLES", 2)
    monkeypatch.setattr(validate, "MAX_BUNDLE_SAMPLES", 2)
    assert _problems(cited) == [AT + "3 samples: more than the 2 left of the 2 a bundle's figures files may hold "
                                     "together", REFUSED]


def test_migrate_ties_a_figures_file_of_before_to_its_result_and_log(cited):
    """A Parquet file written before figures named their result and log (issue #61) is written again with
    them, from the bundle: its samples and figures as they were."""
    from click.testing import CliRunner

    from ingest.cli import main
    path = cited / "cited" / "ro-16.parquet"
    _rewrite(cited, origin=lambda t: None)
    samples = pq.read_table(path)
    assert len(_problems(cited)) == 2  # the tie missing, and so no run
    said = f"{cited}/bundle.yaml:31: results[ro-16].figures: cited/ro-16.parquet tied to its result and its log's SHA-256"
    done = CliRunner().invoke(main, ["migrate", str(cited)])
    assert (done.exit_code, done.output) == (0, said + " (run with --write to rewrite it)\n")
    done = CliRunner().invoke(main, ["migrate", "--write", str(cited)])
    assert (done.exit_code, done.output) == (0, said + "\n")
    assert _problems(cited) == []
    assert pq.read_table(path).equals(samples)
    assert CliRunner().invoke(main, ["migrate", str(cited)]).output == ""


def test_an_unknown_metadata_key_is_named_escaped_and_short(cited):
    """A key holding a newline forged a line of validate's output, and a 3 MB key made a 3 MB line (issue #61's
    third pass)."""
    path = cited / "cited" / "ro-16.parquet"
    stored = pq.read_metadata(path).metadata
    samples = pq.read_table(path)
    with pq.ParquetWriter(path, samples.schema, store_schema=False) as writer:
        writer.write_table(samples)
        writer.add_key_value_metadata({**{k.decode(): v.decode() for k, v in stored.items()},
                                       "x\nFAKE: all good": "1", "y" * 3_000_000: "2"})
    assert sorted(_problems(cited)) == sorted([
        AT + "x\\nFAKE: all good: unknown key of the file's metadata (not part of a figures file)",
        AT + "y" * 80 + "… (3,000,000 bytes): unknown key of the file's metadata (not part of a figures file)", REFUSED])


def test_migrate_says_so_when_a_figures_file_lies_behind_a_link(cited, tmp_path):
    """With cited/ a link to a folder outside, migrate --write wrote nothing (right) and said nothing (issue
    #61's third pass): validate named the link, migrate did not."""
    from click.testing import CliRunner

    from ingest.cli import main
    outside = tmp_path / "outside"
    (cited / "cited").rename(outside)
    (cited / "cited").symlink_to(outside, target_is_directory=True)
    done = CliRunner().invoke(main, ["migrate", "--write", str(cited)])
    assert done.exit_code == 1
    assert done.output == (f"{cited}/bundle.yaml:-: artifact path 'cited/ro-16.parquet' goes through a symbolic link "
                           "(cited): links are not followed\n")


def test_a_figures_file_with_other_metadata_is_refused(cited):
    path = cited / "cited" / "ro-16.parquet"
    samples = pq.read_table(path).replace_schema_metadata(None)
    with pq.ParquetWriter(path, samples.schema) as writer:  # pyarrow's own ARROW:schema key, and no run
        writer.write_table(samples)
    assert _problems(cited) == [AT + "ARROW:schema: unknown key of the file's metadata (not part of a figures file)",
                                AT + "benchdb.origin: missing required field: the result and the SHA-256 of the log "
                                     "the figures were read from (`benchdb migrate --write` adds them from the bundle, "
                                     "for a file written before)",
                                AT + "benchdb.run: missing required field: the run's figures", REFUSED]


def test_edited_figures_are_named_by_the_checks_a_parsed_log_gets(cited):
    _rewrite(cited, run=_replaced('"tps": 2434.78', '"tps": 3434.78'))  # 73056 transactions / 30.0052 s is 2434.78
    assert _problems(cited) == [
        "cited/ro-16.parquet: warning: the figures give a warning the parser did not record: transactions / time = "
        "2434.78 per second, but the log prints tps 3434.78",
        "cited/ro-16.parquet: warning: the figures give a warning the parser did not record: mean interval tps "
        "2435.22 is more than 10% from the total tps 3434.78"]
    _rewrite(cited, run=_replaced('"interval_tps_cv": 0.0076', '"interval_tps_cv": 0.5'))
    assert _problems(cited) == [
        AT + "benchdb.run.interval_tps_cv: the interval samples' tps give a CV of 0.0076, not 0.5", REFUSED]


def test_a_figures_file_gives_back_the_samples_the_parser_read(cited):
    """The samples of the figures file are the log's lines 14-16 as the parser reads them, with their types."""
    from ingest.bundles.cited import read_figures
    run, problems = read_figures(cited / "cited" / "ro-16.parquet", origin=ORIGIN)
    assert problems == []
    (table, lines), = run["intervals"].parts()
    assert list(lines) == [14, 15, 16]
    assert table.to_pylist()[1] == {"t_s": 20, "threads": 16, "tps": 2455.1, "qps": 39281.6, "reads_s": 34371.4,
                                    "writes_s": 0.0, "other_s": 4910.2, "latency_pct": 95, "latency_ms": 8.28,
                                    "errors_s": 0.0, "reconnects_s": 0.0}
    assert [type(v) for v in table.to_pylist()[1].values()] == [int, int] + [float] * 5 + [int] + [float] * 3


@pytest.mark.parametrize("old, new, expected", [
    (f'      commit: "{COMMIT}"', '      commit: "0123456789ABCDEF"',
     "bundle.yaml:28: results[ro-16].origin.commit: String should match pattern '^[0-9a-f]{40}$' "
     "(got '0123456789ABCDEF')"),
    (f'sha256: "{SHA}"', 'sha256: "abc"',
     "bundle.yaml:30: results[ro-16].origin.sha256: String should match pattern '^[0-9a-f]{64}$' (got 'abc')"),
    ("repository: Example-Lab/results", "repository: https://github.com/Example-Lab/results",
     "bundle.yaml:27: results[ro-16].origin.repository: not a GitHub repository as owner/name "
     "(got 'https://github.com/Example-Lab/results')"),
    ('path: "bench/runs/ro 16#/sysbench.log"', 'path: "bench/../x.log"',
     "bundle.yaml:29: results[ro-16].origin.path: a path inside the repository: relative, '/' between its parts, "
     "no empty, '.' or '..' part and no backslash (got 'bench/../x.log')"),
])
def test_a_bad_origin_is_refused_naming_its_line_and_field(bundle_dir, old, new, expected):
    folder = bundle_dir("cited", BUNDLE.replace(old, new, 1))
    write_figures(parse_file(LOG), folder / "cited" / "ro-16.parquet", origin=ORIGIN)
    assert _problems(folder) == [expected]


def test_a_carried_log_with_an_origin_needs_its_licence_and_its_bytes(bundle_dir):
    text = BUNDLE[:BUNDLE.index("  - type: cited")] + f"""\
  - type: artifact
    id: ro-16
    format: sysbench
    path: artifacts/run.log
    system: a
    origin: {{repository: Example-Lab/results, commit: "{COMMIT}", path: run.log, sha256: "{'0' * 64}"}}
"""
    folder = bundle_dir("cited", text)
    (folder / "artifacts").mkdir()
    (folder / "artifacts" / "run.log").write_bytes(LOG.read_bytes())
    assert _problems(folder) == [
        "bundle.yaml:28: results[ro-16].origin.licence: a log carried in the bundle needs the licence that allows "
        "republishing it; a log of a repository without one is cited (type: cited, benchdb import --cite)",
        f"bundle.yaml:28: results[ro-16].origin.sha256: artifacts/run.log has the SHA-256 {SHA}, not the origin's"]


@pytest.mark.parametrize("line, edit, expected", [
    # the log's samples of lines 14-16 at 10, 20 and 30 s; its header's thread count on line 5
    (16, ("[ 30s ]", "[ 2147483648s ]"), "artifacts/run.log line 16: t_s: 2,147,483,648 is beyond the whole "
                                          "numbers the database stores here (-2,147,483,648 to 2,147,483,647)"),
    (16, ("thds: 16", "thds: 99999999999"), "artifacts/run.log line 16: threads: 99,999,999,999 is beyond the "
                                            "whole numbers the database stores here (-2,147,483,648 to 2,147,483,647)"),
    (5, ("threads: 16", "threads: 99999999999"),
     "artifacts/run.log: threads: Input should be less than or equal to 2147483647 (got 99999999999)"),
])
def test_a_carried_log_with_a_number_the_database_cannot_store_is_refused_at_its_line(bundle_dir, line, edit,
                                                                                    expected):
    """A log line `[ 2147483648s ] ...` validated with a warning and then stopped the build at the load with
    an error that named no bundle (issue #61)."""
    text = BUNDLE[:BUNDLE.index("  - type: cited")] + """\
  - type: artifact
    id: ro-16
    format: sysbench
    path: artifacts/run.log
    system: a
"""
    folder = bundle_dir("cited", text)
    (folder / "artifacts").mkdir()
    lines = LOG.read_text(encoding="utf-8").splitlines(keepends=True)
    assert edit[0] in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(*edit)
    (folder / "artifacts" / "run.log").write_text("".join(lines), encoding="utf-8")
    assert [p for p in _problems(folder) if "warning" not in p] == [f"bundle.yaml:26: results[ro-16].path: {expected}"]


# --- benchdb import --cite --------------------------------------------------------------------------

CITE = f"Example-Lab/results@{COMMIT}:bench"
ANSWERS = ["--product", "Box A", "--vendor", "Example", "--kind", "device", "--raid-level", "none",
           "--protocol", "local", "--cpu", "CPU Y", "--publisher", "Example Lab", "--label", "System A"]
POINT_SELECT_SHA = "6814f7089994ffa79fbd29136b63d96dd5771bdc894ae267f8d59365c8becd62"  # sha256sum of the file


def _import(tmp_path: Path, *flags: str) -> tuple[object, Path]:
    from click.testing import CliRunner

    from ingest.cli import main
    out = tmp_path / "data" / "cited-study"
    result = CliRunner().invoke(main, ["import", str(REPO), "--out", str(out), "--no-input", *ANSWERS, *flags])
    return result, out


def test_import_cite_writes_citations_and_copies_nothing(tmp_path):
    import yaml
    result, out = _import(tmp_path, "--cite", CITE, "--date", "2024-03", "--source-kind", "independent")
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "bundle.yaml", "cited/runs-point-select-run1.parquet", "cited/runs-point-select-run2.parquet",
        "cited/runs-point-select-run3.parquet", "cited/runs-ro-16-sysbench.parquet"]
    doc = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))
    assert doc["sources"] == [{
        "id": "logs", "publisher": "Example Lab", "title": "Benchmark logs of Example-Lab/results", "date": "2024-03",
        "language": "en", "url": f"https://github.com/Example-Lab/results/tree/{COMMIT}/bench",
        "kind": "independent", "licence": "cited only", "commit": COMMIT}]
    assert [(r["type"], r["id"], r["origin"]["path"], r["origin"]["sha256"], r["figures"], r["system"])
            for r in doc["results"]] == [
        ("cited", "runs-point-select-run1", "bench/runs/point-select.log", POINT_SELECT_SHA,
         "cited/runs-point-select-run1.parquet", "runs"),
        ("cited", "runs-point-select-run2", "bench/runs/point-select.log", POINT_SELECT_SHA,
         "cited/runs-point-select-run2.parquet", "runs"),
        ("cited", "runs-point-select-run3", "bench/runs/point-select.log", POINT_SELECT_SHA,
         "cited/runs-point-select-run3.parquet", "runs"),
        ("cited", "runs-ro-16-sysbench", "bench/runs/ro 16#/sysbench.log", SHA, "cited/runs-ro-16-sysbench.parquet",
         "ro-16")]
    assert all(r["origin"]["commit"] == COMMIT and "licence" not in r["origin"] for r in doc["results"])
    # the my.cnf is cited by its path in the repository (runs/my.cnf lines 2 and 3), not copied
    assert ("innodb_buffer_pool_size = 4G ([mysqld] of Example-Lab/results@0123456789ab:bench/runs/my.cnf line 2, "
            "4,294,967,296 bytes); innodb_doublewrite = 0 ([mysqld] of Example-Lab/results@0123456789ab:bench/runs/"
            "my.cnf line 3)") in doc["systems"][0]["notes"]
    # what remains is what only the contributor knows
    _, problems = validate_paths([out])
    assert sorted({p.type for p in problems}) == ["to-be-stated"]
    text = (out / "bundle.yaml").read_text(encoding="utf-8")
    (out / "bundle.yaml").write_text(text.replace("engine: TO BE STATED", "engine: MySQL")
                                     .replace("compression: TO BE STATED", "compression: none"), encoding="utf-8")
    loaded, problems = validate_paths([out])
    assert problems == []
    db = build_database(loaded, db_path=tmp_path / "import.duckdb")
    with duckdb.connect(str(db), read_only=True) as con:
        # the three runs of point-select.log (lines 1-39, 41-79, 81-119) keep their lines in the whole file
        # (lines 4, 44, 84: 1, 2 and 4 threads; lines 21, 61, 101: 10273.77, 18929.90, 33242.31 per sec.)
        assert con.execute("SELECT result, threads, value_text, line, source_href FROM results WHERE metric = 'tps' "
                           "ORDER BY result").fetchall() == [
            ("runs-point-select-run1", 1, "10273.77", 21,
             f"https://github.com/Example-Lab/results/blob/{COMMIT}/bench/runs/point-select.log#L21"),
            ("runs-point-select-run2", 2, "18929.9", 61,
             f"https://github.com/Example-Lab/results/blob/{COMMIT}/bench/runs/point-select.log#L61"),
            ("runs-point-select-run3", 4, "33242.31", 101,
             f"https://github.com/Example-Lab/results/blob/{COMMIT}/bench/runs/point-select.log#L101"),
            ("runs-ro-16-sysbench", 16, "2434.78", 23, BLOB + "#L23")]


def test_import_cite_gives_the_figures_parsing_the_file_gives(tmp_path):
    import json
    result, out = _import(tmp_path, "--cite", CITE)
    assert result.exit_code == 0, result.output
    header = json.loads(pq.read_metadata(out / "cited" / "runs-ro-16-sysbench.parquet").metadata[b"benchdb.run"])
    parsed = parse_file(LOG)
    assert header == {k: v for k, v in parsed.items() if k != "intervals"}


@pytest.mark.parametrize("cite, message", [
    ("Example-Lab/results", "Invalid value for --cite: 'Example-Lab/results': give OWNER/REPO@COMMIT, optionally "
                            ":PATH (where FOLDER is in the repository)"),
    ("Example-Lab/results@abc123", "Invalid value for --cite: 'Example-Lab/results@abc123': the commit 'abc123': "
                                   "String should match pattern '^[0-9a-f]{40}$'"),
    (f"https://github.com/x@{COMMIT}", f"Invalid value for --cite: 'https://github.com/x@{COMMIT}': the repository "
                                       "'https://github.com/x': not a GitHub repository as owner/name"),
    (f"a/b@{COMMIT}:x/../y", f"Invalid value for --cite: 'a/b@{COMMIT}:x/../y': the path 'x/../y': a path inside "
                             "the repository: relative, '/' between its parts, no empty, '.' or '..' part and no "
                             "backslash"),
])
def test_import_cite_refuses_a_citation_it_cannot_use(tmp_path, cite, message):
    result, out = _import(tmp_path, "--cite", cite)
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == f"Error: {message}"
    assert not out.exists()


def test_import_without_cite_records_the_licence_of_carried_logs(tmp_path):
    import yaml
    result, out = _import(tmp_path, "--licence", "CC-BY-4.0", "--author", "A. Tester", "--title", "My runs")
    assert result.exit_code == 0, result.output
    doc = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))
    assert doc["sources"] == [{"id": "logs", "publisher": "Example Lab", "title": "My runs", "language": "en",
                               "identifier": "artifacts/ in this bundle", "author": "A. Tester",
                               "licence": "CC-BY-4.0"}]
    assert {r["type"] for r in doc["results"]} == {"artifact"}
    assert (out / "artifacts" / "runs-ro 16#-sysbench.log").read_bytes() == LOG.read_bytes()


def test_the_study_page_links_each_cited_value_to_its_line_at_the_commit(tmp_path):
    """The one build of this file: an imported, cited study on its page, and nothing of it under /raw/."""
    import html

    from conftest import build_with_bundle
    result, out = _import(tmp_path, "--cite", CITE, "--date", "2024-03")
    assert result.exit_code == 0, result.output
    text = (out / "bundle.yaml").read_text(encoding="utf-8")
    (out / "bundle.yaml").write_text(text.replace("engine: TO BE STATED", "engine: MySQL")
                                     .replace("compression: TO BE STATED", "compression: none"), encoding="utf-8")
    layout = build_with_bundle(tmp_path / "project", out)
    page = html.unescape((layout.public / "studies" / "cited-study" / "index.html").read_text(encoding="utf-8"))
    # the tps of the 16-thread run, line 23 of the log: cited by repository, commit and path, its figure as
    # parsed linked to that line at the commit
    assert ('<cite>Example-Lab/results at 0123456, bench/runs/ro 16#/sysbench.log, line 23</cite>'
            f'<span class="prov-quote"><a href="{BLOB}#L23">2434.78 as parsed (the log is cited, not republished)</a>'
            '</span>') in page
    # the runs table links the log at the commit and says it is cited
    assert (f'<a href="{BLOB}" rel="nofollow noopener"><code>bench/runs/ro 16#/sysbench.log</code></a> '
            '<span class="tag">cited</span>') in page
    # the list of logs: cited, by its SHA-256, without a licence
    logs = page[page.index('<h2 id="logs-heading">'):page.index("</section>", page.index('<h2 id="logs-heading">'))]
    assert logs.count("<strong>cited</strong>") == 4 and "published here</strong>" not in logs
    assert (f'<strong>cited</strong>: <a href="{BLOB}" rel="nofollow noopener"><code>Example-Lab/results/bench/runs/'
            f'ro 16#/sysbench.log</code></a>\n      at commit <code>{COMMIT}</code>') in logs
    assert f"SHA-256 <code>{SHA}</code>;\n        no licence: cited only" in logs
    assert not (layout.public / "raw" / "cited-study").exists()
    assert not (layout.public / "artifacts" / "cited-study").exists()


def test_the_list_of_logs_gives_a_carried_log_its_download_and_its_origin(bundle_dir, tmp_path):
    from ingest.publish.db import Snapshot
    from ingest.publish.runs import study_logs
    text = BUNDLE + f"""\
  - type: artifact
    id: carried
    format: sysbench
    path: artifacts/run.log
    system: a
    origin: {{repository: Example-Lab/open, commit: "{COMMIT}", path: run.log, sha256: "{SHA}", licence: CC-BY-4.0}}
"""
    folder = bundle_dir("cited", text)
    write_figures(parse_file(LOG), folder / "cited" / "ro-16.parquet", origin=ORIGIN)
    (folder / "artifacts").mkdir()
    (folder / "artifacts" / "run.log").write_bytes(LOG.read_bytes())
    loaded, problems = validate_paths([folder])
    assert problems == []
    db = build_database(loaded, db_path=tmp_path / "logs.duckdb")
    with duckdb.connect(str(db), read_only=True) as con:
        logs = study_logs(Snapshot(con), "cited")
    assert logs == [
        {"artifact": "carried", "published": True, "path": "artifacts/run.log", "format": "sysbench", "sha256": SHA,
         "repository": "Example-Lab/open", "commit_hash": COMMIT, "origin_path": "run.log", "licence": "CC-BY-4.0",
         "href": "/artifacts/cited/carried/", "download": "raw/cited/carried.txt"},
        {"artifact": "ro-16", "published": False, "path": "bench/runs/ro 16#/sysbench.log", "format": "sysbench",
         "sha256": SHA, "repository": "Example-Lab/results", "commit_hash": COMMIT,
         "origin_path": "bench/runs/ro 16#/sysbench.log", "licence": None, "href": BLOB, "download": None}]
