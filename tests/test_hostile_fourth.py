"""The fourth hostile pass of issue #61 (2026-12-02): each finding it reproduced, at its cause.

The figures files are the cited fixture's (test_cited.py: cited-repo's log at a commit, 3 samples),
edited as the pass edited the real catalogue's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from click.testing import CliRunner

from parquet_footer import I64, join_file, split_file
from test_cited import AT, COMMIT, REFUSED, _problems, _rewrite, cited  # noqa: F401 (a fixture)
from conftest import ROOT
from ingest.cli import main
from ingest.contribute.citing import check_cited_url, read_cite


def _footer_rows(path: Path, rows: int) -> None:
    body, footer = split_file(path.read_bytes())
    footer[3] = (I64, rows)  # FileMetaData.num_rows; the row groups keep their own
    path.write_bytes(join_file(body, footer))


def test_a_footer_whose_count_lies_is_refused_before_its_rows_are_read(cited):
    """A footer of 100 rows over a row group of 20 million read 2.4 GB, then a traceback; it also let a
    bundle of 2,999,120 samples pass the 2,000,000 a bundle may hold (M2, M3)."""
    path = cited / "cited" / "ro-16.parquet"
    _footer_rows(path, 1)
    assert pq.read_metadata(path).num_rows == 1 and pq.read_metadata(path).row_group(0).num_rows == 3
    assert _problems(cited) == [AT + "its footer says 1 samples and its row groups hold 3", REFUSED]


def test_a_threads_column_of_nulls_is_read_as_the_format_allows(cited):
    """threads may be a column of Arrow's null type (no sample printed it); validate stopped in a traceback
    on it (M4). Refused here only for what the parser's cross-checks say of a run without threads."""
    _rewrite(cited, table=lambda t: t.set_column(t.column_names.index("threads"), "threads", pa.nulls(t.num_rows)))
    problems = _problems(cited)
    assert not [p for p in problems if "Traceback" in p or "Invalid null" in p]
    assert all(not p.startswith(AT + "threads: row") for p in problems)


def test_a_column_s_name_is_escaped_and_short_in_a_problem(cited):
    """A newline in a column's name forged a line of validate's output, an ESC reached the terminal (M5)."""
    _rewrite(cited, table=lambda t: t.append_column("x\nbundle.yaml:1: forged\x1b[2J", pa.array([0, 0, 0])))
    assert _problems(cited) == [AT + "x\\nbundle.yaml:1: forged\\x1b[2J: unknown key (not part of a figures file)",
                                REFUSED]


def test_migrate_that_cannot_write_says_so_and_leaves_the_bundle_as_it_was(cited):
    """A read-only folder gave a traceback, and a bundle.yaml written in place was cut by a full disk
    (M6, M7): here the file-size limit of the process, 16 KiB, under a bundle.yaml made longer."""
    path = cited / "cited" / "ro-16.parquet"
    _rewrite(cited, origin=lambda t: None)  # a file of before: migrate ties it, and writes bundle.yaml again
    bundle = cited / "bundle.yaml"
    text = bundle.read_text() + "".join(f"# a comment line {i} to make the file longer than the limit\n"
                                        for i in range(400))
    bundle.write_text(text)
    before = path.read_bytes()
    script = ("import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384)); "
              "import signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
              "from ingest.cli import main; sys.argv = ['benchdb', 'migrate', '--write', sys.argv[1]]; main()")
    done = subprocess.run([sys.executable, "-c", script, str(cited)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{cited}/bundle.yaml: cannot write ")
    assert done.stderr.rstrip().endswith(": File too large")
    assert bundle.read_text() == text  # whole: the text was written beside it, never moved in
    assert path.read_bytes() != before  # the figures file was tied (it is consistent with either bundle.yaml)


def test_a_url_of_another_repository_than_the_cited_is_refused():
    """--cite good/repo@C with --url of evil/other: the study named one repository and linked the other (H1)."""
    cite = read_cite(f"Example-Lab/results@{COMMIT}:runs")
    check_cited_url(cite, f"https://github.com/example-lab/results/tree/{COMMIT}/runs")  # GitHub's names: any case
    for url in (f"https://github.com/evil/other/tree/{COMMIT}/runs", "https://example.org/results",
                f"https://github.com/Example-Lab/results/tree/{'f' * 40}/runs"):
        try:
            check_cited_url(cite, url)
        except ValueError as exc:
            assert str(exc) == (f"{url!r} is not an address of Example-Lab/results at {COMMIT}: with --cite the "
                                "study's source is the repository its logs are cited from (leave --url out, or give "
                                f"https://github.com/Example-Lab/results/tree/{COMMIT}/...)")
        else:
            raise AssertionError(url)
    done = CliRunner().invoke(main, ["import", "x", "--out", "y", "--no-input", "--cite", f"Example-Lab/results@{COMMIT}",
                                     "--url", f"https://github.com/evil/other/tree/{COMMIT}"])
    assert done.exit_code == 2 and "Invalid value for --url: 'https://github.com/evil/other/tree/" in done.output


def test_a_file_of_many_row_groups_is_bounded_by_its_samples_and_groups(cited, monkeypatch):
    """A valid file of 1,000,000 samples in row groups of 300 was refused on its line column's 9,300,009
    bytes decompressed (L1): the bound gives each row group GROUP_BYTES for its pages' own."""
    from ingest.bundles import cited as module
    path = cited / "cited" / "ro-16.parquet"
    stored = pq.read_metadata(path).metadata
    samples = pq.read_table(path)
    with pq.ParquetWriter(path, samples.schema, store_schema=False, compression="zstd") as writer:
        for i in range(samples.num_rows):  # a row group a sample
            writer.write_table(samples.slice(i, 1))
        writer.add_key_value_metadata({k.decode(): v.decode() for k, v in stored.items()})
    meta = pq.read_metadata(path)
    widest = max(sum(meta.row_group(g).column(i).total_uncompressed_size for g in range(3)) for i in range(meta.num_columns))
    assert meta.num_row_groups == 3 and widest > 8 * 3  # each group's pages more than the 8 bytes a sample
    assert widest <= 3 * module.GROUP_BYTES
    monkeypatch.setattr(module, "MAX_COLUMN_BYTES", 8 * 3)  # 8 bytes a sample of 3, no margin but the groups'
    assert _problems(cited) == []


def test_a_settings_file_too_large_to_read_whole_is_skipped_saying_so(tmp_path, monkeypatch):
    """A 300 MB variables dump was skipped as "not a sysbench log ... its first 4,194,304 bytes hold nothing
    a sysbench log prints", not for its size (L6). Here the bound is 100 bytes and the dump 10 lines."""
    from ingest.contribute import importer
    monkeypatch.setattr(importer, "MAX_SMALL_BYTES", 100)
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "run.log").write_bytes((ROOT / "tests/fixtures/sysbench/web-1.0.20-oltp-rw-ivl20-shell-prompt.log").read_bytes())
    (folder / "variables.txt").write_text("".join(f"innodb_setting_{i}\tON\n" for i in range(10)))
    found = importer.scan(folder)
    ((name, why),) = found.skipped
    assert name == "variables.txt"
    assert why.endswith("; at 200 bytes, larger than the 100 a settings file, mdadm's or lsblk's output may be, "
                        "it was not read as one)")
