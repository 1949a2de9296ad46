"""Malformed bundles: each gets its exact problem (file, line, field, rule), never a traceback, and the
ones that validate load and export without publishing a bad value (tests/fixtures/malformed)."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import time
import tracemalloc
from pathlib import Path

import duckdb
import pytest

from ingest.bundles.claims import FormulaError, Values, evaluate
from ingest.publish import export_all
from ingest.publish.csv_cells import defused, defused_select
from ingest.database.stage import build_database_from, stage_bundles
from ingest.bundles.validate import validate_paths
from ingest.bundles.yamlfile import MAX_BYTES, YamlProblem, load_yaml

ROOT = Path(__file__).resolve().parents[1]
MALFORMED = ROOT / "tests" / "fixtures" / "malformed"
MINIMAL = (MALFORMED / "valid-partial-dates" / "bundle.yaml").read_text(encoding="utf-8")


def _expected() -> dict[str, list[str]]:
    expected: dict[str, list[str]] = {}
    for line in (MALFORMED / "EXPECTED.tsv").read_text(encoding="utf-8").split("\n"):
        if line and not line.startswith("#"):
            case, message = line.split("\t", 1)
            expected.setdefault(case, []).append(message)
    # a message that spans lines in the table continues on the next row (none today)
    return expected


EXPECTED = _expected()
CASES = sorted(p.name for p in MALFORMED.iterdir() if p.is_dir())


def _shown(case: str, folder: Path) -> list[str]:
    _, problems = validate_paths([folder])
    return [str(p).replace(f"{case}/", "", 1) for p in problems] or ["(valid)"]


def test_the_corpus_covers_every_case():
    assert sorted(EXPECTED) == CASES
    assert len([c for c in CASES if not c.startswith("valid-")]) >= 40


@pytest.mark.parametrize("case", CASES)
def test_each_malformed_bundle_gets_its_exact_message(case, monkeypatch):
    monkeypatch.chdir(MALFORMED)
    assert _shown(case, Path(case)) == EXPECTED[case]


VALID = [case for case in CASES if all(m == "(valid)" or ": warning: " in m for m in EXPECTED[case])]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """Every case that validates (warnings at most), staged, loaded into one database and exported, as
    `benchdb build` does (ingest/build/site.py prepare, without Hugo)."""
    data = tmp_path_factory.mktemp("data")
    for case in VALID:
        shutil.copytree(MALFORMED / case, data / case)
    out = tmp_path_factory.mktemp("out")
    staged, problems, _ = stage_bundles([data], cache=out / "cache")
    assert [p for p in problems if p.severity == "error"] == []
    assert [s.id for s in staged] == VALID
    db = build_database_from(staged, db_path=out / "benchmarks.duckdb")
    export_all(db_path=db, out_dir=out / "export", bundles=data)
    return out


def test_the_valid_cases_are_these():
    assert VALID == ["valid-anchors", "valid-csv-free-text", "valid-extreme-numbers", "valid-mdstat-trace-folder",
                     "valid-partial-dates", "valid-sysbench-warning", "valid-unicode"]


def _csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_free_text_is_defused_in_the_csv_downloads_and_numbers_are_not(exported):
    rows = [r for r in _csv(exported / "export" / "static" / "data" / "results.csv")
            if r["study"] == "valid-csv-free-text"]
    # a value's unit is its metric's, as the registry spells it (schema/fields.yaml): never a bundle's text
    assert {(r["system"], r["storage_product"], r["unit"], r["value_text"]) for r in rows} == {
        ("a", "'@Box A", "tx/s", "100.50"), ("a", "'@Box A", "tx/s", "200.25"),
        ("b", "Box B", "tx/s", "90.00"), ("b", "Box B", "tx/s", "180.10")}
    (claim,) = [c for c in _csv(exported / "export" / "static" / "data" / "claims.csv")
                if c["study"] == "valid-csv-free-text"]
    assert claim["claim"] == """'=HYPERLINK("http://example.com/x","x")"""
    assert claim["unit"] == "'=%"  # a claim's unit is free text
    assert claim["stated"] == "-10.45"  # a number: never altered
    # the typed download keeps the text as it is
    parquet = exported / "export" / "static" / "data" / "results.parquet"
    products = duckdb.execute("SELECT DISTINCT storage_product FROM read_parquet(?) WHERE study = "
                              "'valid-csv-free-text' ORDER BY 1", [str(parquet)]).fetchall()
    assert products == [("@Box A",), ("Box B",)]


def test_embed_csvs_defuse_free_text(exported):
    embeds = list((exported / "export" / "static" / "embed").glob("valid-csv-free-text*.csv"))
    assert embeds
    for path in embeds:
        for row in csv.reader(path.open(encoding="utf-8")):
            assert not any(cell.startswith(("=", "+", "@")) for cell in row), (path.name, row)
            assert "tx/s" in row or row[0] == "series"  # the unit, as the registry spells it


def test_a_trace_given_as_a_folder_of_snapshots_loads(exported):
    con = duckdb.connect(str(exported / "benchmarks.duckdb"), read_only=True)
    folder = MALFORMED / "valid-mdstat-trace-folder" / "artifacts" / "snapshots"
    size = sum(p.stat().st_size for p in folder.iterdir())
    assert con.execute("SELECT format, path, bytes FROM artifacts WHERE study = 'valid-mdstat-trace-folder'"
                       ).fetchall() == [("mdstat-trace", "artifacts/snapshots", size)]
    assert con.execute("SELECT count(*) FROM trace_samples WHERE study = 'valid-mdstat-trace-folder'"
                       ).fetchone() == (2,)


def test_numbers_are_never_altered(exported):
    rows = [r for r in _csv(exported / "export" / "static" / "data" / "results.csv")
            if r["study"] == "valid-extreme-numbers"]
    assert sorted((r["system"], r["value_text"], r["value"]) for r in rows) == [
        ("a", "0", "0.0"), ("a", "123456789012345", "123456789012345.0"), ("b", "-0.0", "-0.0"), ("b", "180.10", "180.1")]


def test_a_run_with_a_warning_loads(exported):
    con = duckdb.connect(str(exported / "benchmarks.duckdb"), read_only=True)
    assert con.execute("SELECT artifact, complete, warnings FROM runs WHERE study = 'valid-sysbench-warning'"
                       ).fetchall() == [("log1", True, ["line 11: sysbench reported: WARNING: timer was never started"])]


def test_unicode_text_is_kept_as_written(exported):
    con = duckdb.connect(str(exported / "benchmarks.duckdb"), read_only=True)
    assert con.execute("SELECT title FROM studies WHERE study = 'valid-unicode'").fetchone() == (
        "Étude עברית 🚀 ﷽",)


# --- cases the tests make themselves: links, sizes, twins -----------------------------------------------


def _bundle(parent: Path, name: str) -> Path:
    folder = parent / name
    folder.mkdir(parents=True)
    (folder / "bundle.yaml").write_text(MINIMAL.replace("id: valid-partial-dates", f"id: {name}"), encoding="utf-8")
    return folder


def _messages(folder: Path) -> list[str]:
    return [f"{p.line}: {p.field}: {p.message}" for p in validate_paths([folder])[1]]


def test_a_bundle_file_that_is_a_symlink_is_refused(tmp_path):
    elsewhere = _bundle(tmp_path / "elsewhere", "tiny")
    folder = tmp_path / "data" / "tiny"
    folder.mkdir(parents=True)
    (folder / "bundle.yaml").symlink_to(elsewhere / "bundle.yaml")
    assert _messages(folder) == [
        "None: : bundle.yaml is a symbolic link: a bundle file must be a file of its folder (links are not followed)"]


def _with_artifact(folder: Path, fmt: str, path: str, **extra: str) -> None:
    more = "".join(f", {k}: {v}" for k, v in extra.items())
    text = (folder / "bundle.yaml").read_text(encoding="utf-8")
    (folder / "bundle.yaml").write_text(text.replace("charts:\n", f"  - {{type: artifact, id: log1, format: {fmt}, "
                                                                  f"path: {path}, system: a{more}}}\ncharts:\n"))


def _link_the_log(folder: Path, tmp_path: Path) -> None:
    """artifacts/run.log is a link to a file beside it, inside the bundle."""
    (folder / "artifacts").mkdir()
    shutil.copyfile(ROOT / "tests" / "fixtures" / "sysbench" / "web-1.0.20-oltp-rw-ivl20-shell-prompt.log",
                    folder / "artifacts" / "real.log")
    (folder / "artifacts" / "run.log").symlink_to("real.log")


def _link_the_folder(folder: Path, tmp_path: Path) -> None:
    """artifacts/ is a link to a folder outside the bundle."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "run.log").write_text("x")
    (folder / "artifacts").symlink_to(tmp_path / "outside")


@pytest.mark.parametrize("link,part", [(_link_the_log, "run.log"), (_link_the_folder, "artifacts")])
def test_an_artifact_path_through_a_symlink_is_refused(tmp_path, link, part):
    folder = _bundle(tmp_path, "tiny")
    link(folder, tmp_path)
    _with_artifact(folder, "sysbench", "artifacts/run.log")
    assert _messages(folder) == [
        f"42: results[log1].path: artifact path 'artifacts/run.log' goes through a symbolic link ({part}): "
        "links are not followed"]


def test_a_trace_folder_holding_a_symlink_is_refused(tmp_path):
    folder = _bundle(tmp_path, "tiny")
    shutil.copytree(MALFORMED / "valid-mdstat-trace-folder" / "artifacts", folder / "artifacts")
    (folder / "artifacts" / "snapshots" / "mdstat-2024-05-01T12:20:00+00:00.txt").symlink_to("/etc/hostname")
    _with_artifact(folder, "mdstat-trace", "artifacts/snapshots", array="md0")
    assert _messages(folder) == [
        "42: results[log1].path: artifact folder 'artifacts/snapshots' holds a symbolic link "
        "(mdstat-2024-05-01T12:20:00+00:00.txt): links are not followed"]


def test_one_study_in_two_folders_is_one_error_naming_both(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _bundle(tmp_path / "data", "tiny")
    shutil.copytree(tmp_path / "data" / "tiny", tmp_path / "data" / "tiny-copy")
    _, problems = validate_paths([Path("data")])
    assert [str(p) for p in problems] == [
        "data/tiny-copy/bundle.yaml:2: id: id 'tiny' does not match its folder name 'tiny-copy' "
        "(and data/tiny is the folder of id 'tiny': the same study in two folders?)"]
    # given as two data folders, the id matches both folders: one error names both files
    _bundle(tmp_path / "more", "tiny")
    _, problems = validate_paths([Path("data/tiny"), Path("more/tiny")])
    assert [str(p) for p in problems] == [
        "more/tiny/bundle.yaml:2: id: bundle id 'tiny' is already used by data/tiny/bundle.yaml"]


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    folder = _bundle(tmp_path, "tiny")
    with (folder / "bundle.yaml").open("a", encoding="utf-8") as f:
        f.write("notes:\n" + "  - x\n" * (MAX_BYTES // 6 + 1))
    assert _messages(folder) == ["None: : larger than 4 MiB: refused"]


@pytest.mark.parametrize("text", [
    "a: &a [" + ", ".join(["x"] * 100) + "]\n" + "".join(
        f"b{i}: &b{i} [{', '.join([f'*{p}' for p in ['a' if i == 0 else f'b{i - 1}'] * 100])}]\n" for i in range(8)),
    "a: " + "[" * 200_000 + "]" * 200_000 + "\n",
    "a: " + "{b: " * 100_000 + "1" + "}" * 100_000 + "\n",
], ids=["alias-bomb-10^18", "200k-nested-lists", "100k-nested-mappings"])
def test_bombs_are_refused_in_under_a_second_and_100_mb(tmp_path, text):
    path = tmp_path / "bundle.yaml"
    path.write_text(text, encoding="utf-8")
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(YamlProblem) as refused:
        load_yaml(path)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert refused.value.message.endswith(": refused")
    assert elapsed < 1.0
    assert peak < 100 * 2**20


def test_a_formula_of_thousands_of_terms_is_refused_in_bounded_time():
    start = time.perf_counter()
    for formula in ("+".join(["1"] * 100_000), "(" * 1000 + "1" + ")" * 1000):
        with pytest.raises(FormulaError, match="refused"):
            evaluate(formula, Values([]))
    assert time.perf_counter() - start < 1.0
    assert evaluate("(" * 40 + "1 + 2" + ")" * 40, Values([])) == 3.0  # deep, but within the limit


# --- the CSV-injection rule: Python, SQL and the browser's script agree --------------------------------

CELLS = ["=1+1", "+SUM(A1)", "-cmd", "@SUM(1)", "\tx", "\rx", "-12.5", "-3", "-1.5e-05", "12", "plain", "",
         "'=quoted", " =spaced", "-", "=", "a=b", None, 5, -5.5]
DEFUSED = ["'=1+1", "'+SUM(A1)", "'-cmd", "'@SUM(1)", "'\tx", "'\rx", "-12.5", "-3", "-1.5e-05", "12", "plain", "",
           "'=quoted", " =spaced", "'-", "'=", "a=b", None, 5, -5.5]


def test_defused_cells_in_python():
    assert [defused(c) for c in CELLS] == DEFUSED


def test_defused_cells_in_sql():
    texts = [c for c in CELLS if isinstance(c, str)]
    con = duckdb.connect()
    con.execute("CREATE TABLE t (i INTEGER, s VARCHAR, n DOUBLE)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", [(i, c, -1.5) for i, c in enumerate(texts)])
    got = con.execute(defused_select(con, "SELECT * FROM t ORDER BY i")).fetchall()
    assert [s for _, s, _ in got] == [defused(c) for c in texts]
    assert {n for _, _, n in got} == {-1.5}


def test_defused_cells_in_the_browser_script(tmp_path):
    """site/assets/js/csv-cells.js, with the rule file where the export puts it (assets/csv-cells.json)."""
    (tmp_path / "js").mkdir()
    shutil.copyfile(ROOT / "site" / "assets" / "js" / "csv-cells.js", tmp_path / "js" / "csv-cells.js")
    shutil.copyfile(ROOT / "schema" / "csv-cells.json", tmp_path / "csv-cells.json")
    program = (f"import {{defused, defusedRows}} from {json.dumps((tmp_path / 'js' / 'csv-cells.js').as_uri())};\n"
               "const cells = JSON.parse(process.argv[1]);\n"
               "console.log(JSON.stringify([cells.map(defused), defusedRows([{a: '=x', b: '-2'}])]));")
    done = subprocess.run(["node", "--input-type=module", "-e", program, json.dumps(CELLS)],
                          capture_output=True, text=True, check=True)
    cells, rows = json.loads(done.stdout)
    assert cells == DEFUSED
    assert rows == [{"a": "'=x", "b": "-2"}]


def test_the_export_puts_the_rule_where_the_script_imports_it(exported):
    assert (exported / "export" / "assets" / "csv-cells.json").read_bytes() == (ROOT / "schema" / "csv-cells.json").read_bytes()
    assert 'from "../csv-cells.json"' in (ROOT / "site" / "assets" / "js" / "csv-cells.js").read_text(encoding="utf-8")
