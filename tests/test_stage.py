"""Per-bundle work cached by content (ingest/database/stage.py): what a build reads from the cache, and that a
build from the cache writes the same site and database as a clean one."""

from __future__ import annotations

import contextlib
import filecmp
import json
import os
import shutil
from pathlib import Path
from typing import Iterator

import duckdb
import pyarrow as pa
import pytest

from conftest import copy_project, remove_build
from ingest.build import script_cache
from ingest.database import stage
from ingest.build.site import Layout, build_site, prepare
from ingest.build.generation import SPARE, new_generation
from ingest.database.load import TABLES, build_database, create_schema
from ingest.database.quality import GRADED
from ingest.database.stage import bundle_key, stage_bundles
from ingest.bundles.validate import validate_paths

MEASURED = "measured-mariadb-2core-vm"


@pytest.fixture
def project(tmp_path: Path) -> Layout:
    return copy_project(tmp_path / "project")


def _tables(db: Path) -> dict[str, list[tuple]]:
    """Every table's rows in the order they were stored."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}
    finally:
        con.close()


def _graded(db: Path) -> dict[str, list[tuple]]:
    """The grades' tables, sorted (every reader orders them)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in (*GRADED, "quality_rules")}
    finally:
        con.close()


def _differences(a: Path, b: Path) -> list[str]:
    """Files that differ or exist on one side only, below two folders (the databases aside)."""
    out = []
    compared = filecmp.dircmp(a, b)
    stack = [(compared, Path())]
    while stack:
        node, where = stack.pop()
        out += [str(where / n) for n in node.left_only + node.right_only + node.funny_files]
        _, mismatch, errors = filecmp.cmpfiles(node.left, node.right, node.common_files, shallow=False)
        out += [str(where / n) for n in mismatch + errors if not n.endswith(".duckdb")]
        stack += [(sub, where / name) for name, sub in node.subdirs.items()]
    return sorted(out)


def test_a_second_build_reads_every_bundle_from_the_cache(project: Layout, capsys):
    first, second = new_generation(project.build), new_generation(project.build)
    prepare(project, first)
    prepare(project, second)
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith(("bundles:", "studies:"))] == [
        "bundles: 6 validated, 0 from the cache", "studies: 6 exported, 0 from the cache",
        "bundles: 0 validated, 6 from the cache", "studies: 0 exported, 6 from the cache"]
    assert _tables(second.database) == _tables(first.database)
    first = _tables(first.database)
    assert len(first["intervals"]) > 0 and len(first["measurements"]) > 0


@contextlib.contextmanager
def _written_in_place(folder: Path) -> Iterator[list[str]]:
    """The files of ``folder`` whose bytes changed while the block ran, each read again through a
    descriptor opened before it: one a build replaced or removed is still the file it was (its inode
    is kept, never another file's), one written in place is not."""
    opened = {p: os.open(p, os.O_RDONLY) for p in folder.rglob("*") if p.is_file()}
    changed: list[str] = []
    try:
        before = {p: os.pread(fd, os.fstat(fd).st_size + 1, 0) for p, fd in opened.items()}
        yield changed
        changed += [p.relative_to(folder).as_posix() for p, fd in opened.items()
                    if os.pread(fd, len(before[p]) + 1, 0) != before[p]]
    finally:
        for fd in opened.values():
            os.close(fd)


def _change_title(layout: Layout, study: str) -> None:
    bundle = layout.data / study / "bundle.yaml"
    text = bundle.read_text(encoding="utf-8")
    title = "title: '" if "title: '" in text else 'title: "'
    bundle.write_text(text.replace(title, f"{title}Changed: ", 1), encoding="utf-8")


def test_builds_after_bundles_changed_are_the_same_as_a_clean_build(project: Layout, tmp_path: Path, capsys):
    """The second build links its cached files into a new generation (a pull request's preview, with the
    main branch's cache); the third recycles the first's generation (recycle.py), two changes behind.
    The site and export of each are a clean build's (the third's database too), and neither build wrote
    into a file of the caches (the spare's files are links to them)."""
    build_site(project)
    # the scripts the site publishes, bundled once: kept from the first build, read by the others' runs
    (scripts,) = (project.cache / script_cache.FOLDER).glob("*/*/js")
    published = {p.name.split(".")[0]: p.read_bytes() for p in (project.public / "js").iterdir()}
    assert sorted(published) == ["catalogue", "draw", "embed-height", "landing", "plot", "png", "search", "site",
                                 "sql", "sql-engine"]
    assert {p.stem: p.read_bytes() for p in scripts.iterdir()} == published
    folders = []
    for study in (MEASURED, "seagate-nytro-mysql-2015"):
        _change_title(project, study)
        spare = project.build / SPARE / "public" / "studies"
        folders.append(spare.stat().st_ino if spare.is_dir() else None)
        with _written_in_place(project.cache) as changed:
            build_site(project)
        assert changed == []
        out = capsys.readouterr().out
        assert "bundles: 1 validated, 5 from the cache" in out and "studies: 1 exported, 5 from the cache" in out
        for config in (project.build / "current").glob("hugo-*.toml"):
            assert f'source = "{scripts}"' in config.read_text(encoding="utf-8"), config.name
        if study == MEASURED:  # the second build against a clean build of the project with that change
            clean = copy_project(tmp_path / "clean")
            _change_title(clean, MEASURED)
            build_site(clean)
            capsys.readouterr()
            for tree in ("public", "export"):
                assert _differences(project.build / "current" / tree, clean.build / "current" / tree) == [], tree
    assert folders[0] is None  # no spare: the second build's generation is new
    assert (project.build / "current" / "public" / "studies").stat().st_ino == folders[1]  # the first's, recycled
    incremental = project.root / "incremental"
    for tree in ("public", "export"):
        shutil.copytree(project.build / "current" / tree, incremental / tree)
    database = _tables(project.database)

    remove_build(project)  # the cache with it
    build_site(project)
    assert "bundles: 6 validated, 0 from the cache" in capsys.readouterr().out
    for tree in ("public", "export"):
        assert _differences(incremental / tree, project.build / "current" / tree) == [], tree
    assert _tables(project.database) == database
    assert _tables(incremental / "public" / "data" / "benchmarks.duckdb") == database  # the published copy
    for study in (MEASURED, "seagate-nytro-mysql-2015"):
        assert "Changed: " in (project.public / "studies" / study / "index.html").read_text(encoding="utf-8")


def test_the_key_follows_the_folder_and_the_code(project: Layout):
    file = project.data / MEASURED / "bundle.yaml"
    key = bundle_key("code-1", file)
    assert bundle_key("code-1", file) == key
    assert bundle_key("code-2", file) != key
    log = next((project.data / MEASURED / "artifacts").rglob("*.log"))
    log.write_bytes(log.read_bytes() + b"\n")
    assert bundle_key("code-1", file) != key


def test_the_key_reads_a_linked_file_but_not_a_linked_folder(tmp_path: Path):
    """As Path.rglob lists a bundle's files: a link to a file counts as the file it names, a linked
    folder is not entered, a broken link is no file. (Validation refuses all three; the key only has
    to be made.)"""
    folder, outside = tmp_path / "bundle", tmp_path / "outside"
    (folder / "artifacts").mkdir(parents=True)
    outside.mkdir()
    (folder / "bundle.yaml").write_text("id: x\n", encoding="utf-8")
    (outside / "run.log").write_text("one", encoding="utf-8")
    (folder / "artifacts" / "run.log").symlink_to(outside / "run.log")
    (folder / "artifacts" / "more").symlink_to(outside)
    (folder / "artifacts" / "gone.log").symlink_to(tmp_path / "nowhere")
    key = bundle_key("code", folder / "bundle.yaml")
    (outside / "other.log").write_text("two", encoding="utf-8")  # only in the linked folder
    assert bundle_key("code", folder / "bundle.yaml") == key
    (outside / "run.log").write_text("three", encoding="utf-8")  # the linked file
    assert bundle_key("code", folder / "bundle.yaml") != key


def test_a_damaged_entry_is_validated_again(project: Layout):
    staged, _, _ = stage_bundles([project.data], cache=project.cache)
    entry = next(s.entry for s in staged if s.id == MEASURED)
    (entry / "intervals.arrow").unlink()
    again, _, counts = stage_bundles([project.data], cache=project.cache)
    assert (counts.made, counts.cached) == (1, 5)
    assert (entry / "intervals.arrow").is_file()
    assert [s.id for s in again] == [s.id for s in staged]


def test_problems_come_back_from_the_cache_as_validation_reported_them(project: Layout):
    extra = project.root / "extra"  # a second data folder with a bundle of the same id
    shutil.copytree(project.data / "seagate-nytro-mysql-2015", extra / "seagate-nytro-mysql-2015")
    bundle = project.data / "graid-supremeraid-mysql-2023" / "bundle.yaml"
    bundle.write_text(bundle.read_text().replace("schema_version: 2", "schema_version: 3"))
    _, expected = validate_paths([project.data, extra])
    for _ in range(2):  # validated, then from the cache
        staged, problems, _ = stage_bundles([project.data, extra], cache=project.cache)
        assert problems == expected
        assert [s.id for s in staged] == ["measured-mariadb-2core-vm", "measured-mariadb-2core-vm-5min",
                                          "netapp-tr3693-mysql-2010",
                                          "scaleflux-csd2000-mysql-2020", "seagate-nytro-mysql-2015"]
    messages = [(p.field, p.type, p.message) for p in problems if p.severity == "error"]
    assert messages == [
        ("schema_version", "format", "bundle format 3: this version of benchdb reads format 2"),
        ("id", "duplicate-id", "bundle id 'seagate-nytro-mysql-2015' is already used by "
                               f"{project.data / 'seagate-nytro-mysql-2015' / 'bundle.yaml'}"),
    ]
    assert [p.path for p in problems if p.type == "duplicate-id"] == [
        str(extra / "seagate-nytro-mysql-2015" / "bundle.yaml")
    ]


def test_bundles_validated_by_worker_processes_load_the_rows_of_a_direct_load(project: Layout, monkeypatch):
    """Two worker processes of two bundles each (and one more): the database holds the rows of
    loading the validated bundles directly, in the same order (a partitioned Parquet write does not
    keep the rows' order by itself)."""
    monkeypatch.setattr(stage, "PER_WORKER", 2)
    staged, _, counts = stage_bundles([project.data], cache=project.cache)
    assert (counts.made, counts.cached) == (6, 0)
    stage.build_database_from(staged, db_path=project.root / "staged.duckdb")
    bundles, _ = validate_paths([project.data])
    build_database(bundles, db_path=project.root / "direct.duckdb")
    assert _tables(project.root / "staged.duckdb") == _tables(project.root / "direct.duckdb")


def test_the_entries_small_batches_reach_duckdb_joined(project: Layout, monkeypatch):
    """A file's few rows are a batch; DuckDB is handed them joined into batches of at least JOIN_ROWS
    (inserting a batch a file took twice as long), every row once, in the files' order."""
    staged, _, _ = stage_bundles([project.data], cache=project.cache)
    files = [s.entry / f"systems{stage.ROWS}" for s in staged]
    each = [pa.ipc.open_file(f).read_all() for f in files]
    least = max(t.num_rows for t in each) + 1  # more than any file's
    assert sum(t.num_rows for t in each) >= 2 * least
    monkeypatch.setattr(stage, "JOIN_ROWS", least)
    batches = list(stage._entry_rows(files))
    assert all(b.num_rows >= least for b in batches[:-1]) and 1 < len(batches) < len(files)
    assert pa.Table.from_batches(batches).equals(pa.concat_tables(each))


def test_a_database_loaded_over_the_last_one_holds_the_rows_of_a_clean_load(project: Layout, tmp_path: Path):
    """After one bundle changed, the other studies' rows come from the last build's database (their
    entries' files are not read: here they are gone), and the tables hold a clean load's rows in the
    same order."""
    staged, _, _ = stage_bundles([project.data], cache=project.cache)
    last = stage.build_database_from(staged, db_path=tmp_path / "last" / "benchmarks.duckdb")
    assert json.loads((tmp_path / "last" / "benchmarks.duckdb.entries.json").read_text(encoding="utf-8")) == {
        s.id: s.entry.name for s in staged}
    bundle = project.data / MEASURED / "bundle.yaml"
    bundle.write_text(bundle.read_text(encoding="utf-8").replace("title: '", "title: 'Changed: ", 1), encoding="utf-8")
    staged, _, counts = stage_bundles([project.data], cache=project.cache)
    assert (counts.made, counts.cached) == (1, 5)
    clean = _tables(stage.build_database_from(staged, db_path=tmp_path / "clean" / "benchmarks.duckdb"))
    for s in staged:
        if s.id != MEASURED:
            shutil.rmtree(s.entry)
    again = stage.build_database_from(staged, db_path=tmp_path / "again" / "benchmarks.duckdb", previous=last)
    assert _graded(again) == _graded(tmp_path / "clean" / "benchmarks.duckdb")
    again = _tables(again)
    assert again == clean
    assert [r[1] for r in again["studies"] if r[0] == MEASURED][0].startswith("Changed: ")
    assert len(again["intervals"]) > 1000


def test_the_grades_of_studies_copied_from_the_last_database_are_not_computed_again(project: Layout, tmp_path: Path):
    """A study whose rows come from the last build's database keeps the grades it has there (made by
    the same code from the same rows); only the changed study is graded."""
    staged, _, _ = stage_bundles([project.data], cache=project.cache)
    last = stage.build_database_from(staged, db_path=tmp_path / "last" / "benchmarks.duckdb")
    con = duckdb.connect(str(last))
    con.execute("UPDATE run_grades SET reasons = 'from the last database' WHERE study LIKE 'measured-%'")
    con.close()
    bundle = project.data / MEASURED / "bundle.yaml"
    bundle.write_text(bundle.read_text(encoding="utf-8").replace("title: '", "title: 'Changed: ", 1), encoding="utf-8")
    staged, _, _ = stage_bundles([project.data], cache=project.cache)
    again = duckdb.connect(str(stage.build_database_from(staged, db_path=tmp_path / "again" / "benchmarks.duckdb",
                                                         previous=last)), read_only=True)
    graded = again.execute("SELECT study, count(*), count(*) FILTER (WHERE reasons = 'from the last database') "
                           "FROM run_grades WHERE study LIKE 'measured-%' GROUP BY study ORDER BY study").fetchall()
    again.close()
    assert graded == [(MEASURED, 36, 0), (f"{MEASURED}-5min", 4, 4)]  # a run a log: 36 and 4 logs


def test_two_checkouts_in_different_folders_load_the_same_database(tmp_path: Path, monkeypatch):
    """No path of the build machine reaches the database: the same bundles from two folders give the
    same rows (the bundle file is recorded in its data folder: <study>/bundle.yaml)."""
    databases = []
    for name in ("one", "elsewhere/two"):
        project = copy_project(tmp_path / name)
        monkeypatch.chdir(project.root)  # problems name files from the working folder, as the build does
        staged, _, _ = stage_bundles([project.data], cache=project.cache)
        databases.append(_tables(stage.build_database_from(staged, db_path=project.database)))
    assert databases[0] == databases[1]
    assert sorted(r[4] for r in databases[0]["studies"]) == [
        f"{s}/bundle.yaml" for s in ("graid-supremeraid-mysql-2023", f"{MEASURED}-5min", MEASURED, "netapp-tr3693-mysql-2010",
                                     "scaleflux-csd2000-mysql-2020", "seagate-nytro-mysql-2015")]


def test_rows_copied_from_the_last_database_keep_their_order_past_a_row_group(tmp_path: Path):
    """Studies whose rows come from the last build's database keep them in the order they went in, over
    more rows than a row group (122,880) holds: /sql/'s file of intervals is written in the table's order
    (sql_page.py). Copied on two threads, DuckDB 2.0.0 put the last row groups first."""
    ids, per = ["a-study", "b-study", "c-study"], 150_000
    last = tmp_path / "last" / "benchmarks.duckdb"
    with stage.new_database(last, keyed=False) as (con, _):
        con.execute("INSERT INTO studies SELECT unnest(?), 't', 's', 2, 'b', NULL, '{}'", [ids])
        con.execute("INSERT INTO intervals (study, artifact, t_s) SELECT s, 'run', t::INTEGER "
                    "FROM unnest(?) AS u(s), range(?) AS r(t) ORDER BY s, t", [ids, per])
    last.with_name(last.name + stage.ENTRIES).write_text(json.dumps({i: f"key-{i}" for i in ids}), encoding="utf-8")
    staged = [stage.Staged(id=i, file=tmp_path / i / "bundle.yaml", entry=tmp_path / "gone" / f"key-{i}",
                           tables=frozenset()) for i in ids]
    again = duckdb.connect(str(stage.build_database_from(staged, db_path=tmp_path / "again" / "benchmarks.duckdb",
                                                         previous=last)), read_only=True)
    again.execute("SET threads = 1")  # a scan in the stored order
    rows = again.execute("SELECT study, t_s FROM intervals").fetchall()
    again.close()
    assert len(rows) == 3 * per
    assert rows == sorted(rows)


def test_the_key_of_intervals_is_checked_where_rows_are_made_and_not_indexed_in_the_loaded_database(
        project: Layout, tmp_path: Path):
    """keys.sql's unique index refuses a second sample of a run at one time where a bundle's rows are made
    (create_schema(keyed=True)); the database loaded from staged bundles holds no index on intervals."""
    con = duckdb.connect()
    create_schema(con)
    con.execute("INSERT INTO intervals (study, artifact, t_s) VALUES ('s', 'run', 1)")
    with pytest.raises(duckdb.ConstraintException, match="Duplicate key"):
        con.execute("INSERT INTO intervals (study, artifact, t_s) VALUES ('s', 'run', 1)")
    staged, _, _ = stage_bundles([project.data], cache=project.cache)
    loaded = duckdb.connect(str(stage.build_database_from(staged, db_path=tmp_path / "db" / "benchmarks.duckdb")),
                            read_only=True)
    assert loaded.execute("SELECT count(*) FROM duckdb_indexes() WHERE table_name = 'intervals'").fetchone() == (0,)
    assert loaded.execute("SELECT count(*) FROM intervals").fetchone()[0] > 1000
    loaded.close()
