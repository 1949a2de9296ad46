"""Figures files of JSON Lines, the format before Parquet (issue #60): `benchdb migrate` reads them with
every check the format had, each problem at its line and field, and rewrites them as Parquet with the same
run; the bundle then names the new file on the same line. The fixture (tests/fixtures/figures-jsonl/
PROVENANCE.md) is the figures of tests/fixtures/cited-repo/runs/ro 16#/sysbench.log as import wrote them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.bundles.cited import read_figures
from ingest.bundles.cited_lines import read_figures_lines
from ingest.bundles.validate import validate_paths
from test_cited import BUNDLE

FIXTURE = Path(__file__).parent / "fixtures" / "figures-jsonl" / "ro-16.jsonl"
BENCHDB = Path(sys.executable).parent / "benchdb"


def _copy(tmp_path: Path, line: int | None = None, old: str = "", new: str = "") -> Path:
    path = tmp_path / "ro-16.jsonl"
    lines = FIXTURE.read_text(encoding="utf-8").split("\n")
    if line is not None:
        assert old in lines[line - 1]
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("line, old, new, expected", [
    (1, '"tps": 2434.78', '"tps": "2434.78"', "1: totals.tps: Input should be a number (got '2434.78')"),
    (1, '"complete": true', '"complete": true, "speed": 1', "1: speed: unknown key (not part of a figures file)"),
    (1, '"tps": 23', '"tps": 99', "1: source_lines.tps: line 99 is outside the run's lines 1-43"),
    (3, '"t_s": 20', '"t_s": 10', "3: t_s: the sample at 10s does not follow the previous one at 10s"),
    (3, '"line": 15', '"line": 14', "3: line: line 14 does not follow the previous sample's line 14"),
    (3, '"tps": 2455.1', '"tps": true', "3: tps: Input should be a number or null (got True)"),
    (3, '"tps": 2455.1', '"tps": 2455.1, "tps": 1', "3: : key 'tps' is given twice"),
    (3, '"tps": 2455.1', '"tps": NaN', "3: : NaN is not a number a figure may be"),
    (4, '"threads": 16, ', '', "4: threads: missing required field"),
    (4, '{', '[', "4: : not JSON: Expecting ',' delimiter: line 1 column 8 (char 7)"),
    # 980 lists in one another, 2 KB: a RecursionError out of the JSON parser before (issue #61)
    (3, '"tps": 2455.1', '"tps": ' + "[" * 980 + "]" * 980, "3: : objects and lists nested more than 16 deep"),
    (1, '"warnings": []', '"warnings": ' + "[" * 980 + "]" * 980, "1: : objects and lists nested more than 16 deep"),
])
def test_a_malformed_file_of_json_lines_is_refused_naming_its_line_and_field(tmp_path, line, old, new, expected):
    run, problems = read_figures_lines(_copy(tmp_path, line, old, new))
    assert run is None
    assert [f"{p.line}: {p.field}: {p.message}" for p in problems] == [expected]


def test_a_file_of_json_lines_past_its_size_is_refused_unread(tmp_path, monkeypatch):
    """A bad last line sent a 3-million-sample file to the line-by-line reader: 143 s and 4.3 GB (issue #61)."""
    from ingest.bundles import cited_lines
    path = _copy(tmp_path)
    monkeypatch.setattr(cited_lines, "MAX_FILE_BYTES", 1000)
    run, problems = read_figures_lines(path)
    assert run is None
    assert [f"{p.line}: {p.message}" for p in problems] == [
        f"None: {path.stat().st_size:,} bytes: more than the 1,000 a figures file of JSON Lines may be"]


def test_json_lines_and_parquet_give_the_same_run(tmp_path):
    from ingest.bundles.cited import write_figures
    lines_run, problems = read_figures_lines(FIXTURE)
    assert problems == []
    origin = {"result": "ro-16", "sha256": "2c1e9122c06e5f80f83297aee7882d16bf350527cb99d9a84ee76535593e26c2"}
    write_figures(lines_run, tmp_path / "ro-16.parquet", origin=origin)
    parquet_run, problems = read_figures(tmp_path / "ro-16.parquet", origin=origin)
    assert problems == []
    header = {k: v for k, v in lines_run.items() if k != "intervals"}
    assert {k: v for k, v in parquet_run.items() if k != "intervals"} == header
    rows = [r for table, _ in lines_run["intervals"].parts() for r in table.to_pylist()]
    assert [r for table, _ in parquet_run["intervals"].parts() for r in table.to_pylist()] == rows
    assert [r["tps"] for r in rows] == [2410.35, 2455.1, 2440.2]  # the log's lines 14-16


def _bundle(tmp_path: Path, figures: Path = FIXTURE) -> Path:
    folder = tmp_path / "cited"
    (folder / "cited").mkdir(parents=True)
    (folder / "bundle.yaml").write_text(BUNDLE.replace("cited/ro-16.parquet", "cited/ro-16.jsonl"), encoding="utf-8")
    shutil.copyfile(figures, folder / "cited" / "ro-16.jsonl")
    return folder


def test_migrate_rewrites_figures_of_json_lines_as_parquet_on_the_same_line(tmp_path):
    folder = _bundle(tmp_path)
    _, problems = validate_paths([folder])
    assert [f"{Path(p.path).name}: {p.message}" for p in problems][:1] == [
        "ro-16.jsonl: not a Parquet file (a figures file in JSON Lines, the format before: `benchdb migrate --write` "
        "rewrites it)"]
    said = "bundle.yaml:31: results[ro-16].figures: cited/ro-16.jsonl -> cited/ro-16.parquet (JSON Lines to Parquet)"
    done = subprocess.run([str(BENCHDB), "migrate", str(folder)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"{folder}/{said} (run with --write to rewrite it)\n")
    assert sorted(p.name for p in (folder / "cited").iterdir()) == ["ro-16.jsonl"]
    before = (folder / "bundle.yaml").read_text(encoding="utf-8").split("\n")
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(folder)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"{folder}/{said}\n")
    assert sorted(p.name for p in (folder / "cited").iterdir()) == ["ro-16.parquet"]
    after = (folder / "bundle.yaml").read_text(encoding="utf-8").split("\n")
    assert [(i + 1, a, b) for i, (a, b) in enumerate(zip(before, after)) if a != b] == [
        (31, "    figures: cited/ro-16.jsonl", "    figures: cited/ro-16.parquet")]
    assert validate_paths([folder])[1] == []


def test_migrate_leaves_a_bundle_whose_figures_have_a_problem_as_it_was(tmp_path):
    folder = _bundle(tmp_path, _copy(tmp_path, 3, '"t_s": 20', '"t_s": 10'))
    before = (folder / "bundle.yaml").read_bytes()
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(folder)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"{folder}/bundle.yaml:31: results[ro-16].figures: cited/ro-16.jsonl:3: t_s: the sample "
                           "at 10s does not follow the previous one at 10s\n")
    assert (folder / "bundle.yaml").read_bytes() == before
    assert sorted(p.name for p in (folder / "cited").iterdir()) == ["ro-16.jsonl"]


def test_migrate_follows_no_symbolic_link_to_a_figures_file(tmp_path):
    folder = _bundle(tmp_path)
    (folder / "cited" / "ro-16.jsonl").unlink()
    (folder / "cited" / "ro-16.jsonl").symlink_to(FIXTURE)
    done = subprocess.run([str(BENCHDB), "migrate", "--write", str(folder)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr == (f"{folder}/bundle.yaml:31: results[ro-16].figures: artifact path 'cited/ro-16.jsonl' "
                           "goes through a symbolic link (ro-16.jsonl): links are not followed\n")
