"""/sql/'s Arrow files made study by study (ingest/publish/sql_batches.py): what they hold, and that a
study's bytes are the same whichever studies were computed with it, which is what lets a build take
them from the export's cache (the whole files against a clean build's: tests/test_stage.py and
tests/test_export_cache.py)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from ingest.database.load import IN_ORDER
from ingest.publish import sql_batches
from ingest.publish.db import in_studies
from ingest.publish.evidence import SQL_TABLE
from ingest.publish.sql_page import _arrow_select

# the project's tables and views with a column of the kinds whose bytes a slice would carry over from
# its neighbours: booleans with NULLs (systems.doublewrite, results, values_at), lists (runs.warnings,
# result_tables.columns, coordinates.position), text with NULLs (sources.date, url), 128-bit integers
KINDS = ("systems", "results", "values_at", "runs", "result_tables", "coordinates", "sources", "state_histograms",
         "intervals", "claims")


@pytest.fixture(scope="module")
def db(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    yield con
    con.close()


def _tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [n for (n,) in con.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
                                      "ORDER BY table_name").fetchall()]


def _study_bytes(con, name: str, folder: Path, *, where: str = "TRUE", rows: int = 1_000_000) -> dict[str, bytes]:
    """Each study's batches of ``name`` as write_studies writes them, DuckDB handing over ``rows`` at a time."""
    select, _ = _arrow_select(con, name, where=where)
    path = folder / f"{name}-{abs(hash((where, rows)))}.arrow"
    written = sql_batches.write_studies(con.sql(select).to_arrow_reader(rows), path)
    data = path.read_bytes()
    assert data.startswith(written.head) and data.endswith(written.end)
    return {study: data[at:at + size] for study, (at, size, _) in written.spans.items()}


def test_each_file_holds_its_table_a_batch_a_study_in_order(built_site, db):
    """Read back as the page's DuckDB-WASM reads it: every row of the database's table (JSON as text), in
    the order of all its columns, each batch one study's rows."""
    folder = built_site.export / "static" / "sql" / "data"
    # and the facets' evidence rows, a table /sql/ alone has (publish/evidence.py: add_sql_table)
    assert sorted(p.stem for p in folder.glob("*.arrow")) == sorted([*_tables(db), SQL_TABLE])
    for name in _tables(db):
        select, columns = _arrow_select(db, name)
        expected = db.sql(f"SELECT * FROM ({select}) ORDER BY ALL").to_arrow_table()  # (intervals: unsorted)
        with pa.ipc.open_stream(folder / f"{name}.arrow") as reader:
            batches = list(reader)
            read = pa.Table.from_batches(batches, schema=reader.schema)
        assert read.equals(expected), name
        assert [f.name for f in read.schema] == [c for c, _ in columns]
        if columns[0][0] != "study":
            assert name == "quality_rules" and len(batches) == 1
            continue
        studies = [b.column(0).unique().to_pylist() for b in batches]
        assert all(len(s) == 1 for s in studies), name
        assert [s[0] for s in studies] == sorted({s[0] for s in studies}), name  # one batch a study, in order


@pytest.mark.parametrize("name", KINDS)
def test_a_study_s_bytes_are_the_same_whichever_studies_are_computed_with_it(db, name, tmp_path):
    """Alone, beside every other study, or cut across DuckDB's batches (3 rows at a time: booleans and
    lists at every bit offset), a study's batches are the same bytes."""
    everyone = _study_bytes(db, name, tmp_path)
    assert everyone, name
    assert _study_bytes(db, name, tmp_path, rows=3) == everyone
    for study, data in everyone.items():
        assert _study_bytes(db, name, tmp_path, where=in_studies([study])) == {study: data}, (name, study)


def test_the_tables_stored_in_order_are_read_in_order_without_a_sort(db):
    """load.IN_ORDER: their files are written from a scan (no ORDER BY: a 200 MB log's samples took
    200 MB to sort), which gives the rows in the order of all their columns. The project's logs are
    listed in another order than their ids' (dw-on-uncompressed before dw-on-compressed)."""
    assert IN_ORDER == ("intervals",)
    for name in IN_ORDER:
        select, _ = _arrow_select(db, name)
        assert "ORDER BY" not in select
        scanned = db.sql(select).fetchall()
        assert len(scanned) > 1000
        assert scanned == db.sql(f"SELECT * FROM ({select}) ORDER BY ALL").fetchall(), name
    listed = [a for (a,) in db.sql("SELECT artifact FROM artifacts WHERE study = 'measured-mariadb-2core-vm' "
                                   "ORDER BY rowid").fetchall()]  # (artifacts: in the bundle's order)
    assert listed != sorted(listed) and len(listed) > 2


def test_a_study_s_rows_go_in_batches_of_at_most_rows_per_batch(db, tmp_path, monkeypatch):
    monkeypatch.setattr(sql_batches, "ROWS_PER_BATCH", 4)
    select, _ = _arrow_select(db, "intervals")
    path = tmp_path / "intervals.arrow"
    written = sql_batches.write_studies(db.sql(select).to_arrow_reader(1000), path)
    with pa.ipc.open_stream(path) as reader:
        sizes = [b.num_rows for b in reader]
    counts = [rows for _, _, rows in written.spans.values()]
    assert sum(counts) == sum(sizes) == db.execute("SELECT count(*) FROM intervals").fetchall()[0][0] > 4
    assert sizes == [min(4, n - at) for n in counts for at in range(0, n, 4)]
    with pa.ipc.open_stream(path) as reader:
        assert reader.read_all().equals(db.sql(select).to_arrow_table())


@pytest.mark.parametrize("name", ("intervals", "runs", "systems"))
def test_a_study_s_batches_are_cut_from_its_first_row_wherever_duckdb_s_end(db, name, tmp_path, monkeypatch):
    """Batches of 4 rows counted from each study's first row: DuckDB handing over 3, 5 or 1,000 rows at a
    time (a study's rows across two of its batches, or a batch of ours across two of them) gives the
    same bytes, and each study's batches hold 4 rows but its last."""
    monkeypatch.setattr(sql_batches, "ROWS_PER_BATCH", 4)
    whole = _study_bytes(db, name, tmp_path, rows=1000)
    assert _study_bytes(db, name, tmp_path, rows=3) == whole
    assert _study_bytes(db, name, tmp_path, rows=5) == whole
    select, _ = _arrow_select(db, name)
    head, end = sql_batches.head_and_end(db.sql(select).to_arrow_reader(10).schema)
    for study, data in whole.items():
        sizes = [b.num_rows for b in pa.ipc.open_stream(head + data + end)]
        assert sizes[:-1] == [4] * (len(sizes) - 1) and 0 < sizes[-1] <= 4, (name, study, sizes)
