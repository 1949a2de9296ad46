"""The fifth hostile pass of issue #61 (2026-12-02): each medium finding it reproduced, at its cause, and a low one."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from test_cited import _problems, _rewrite, cited  # noqa: F401 (a fixture)
from test_landing import FACTS, LOG, database  # noqa: F401 (a fixture)
from ingest.bundles import cited as cited_module
from ingest.cli import main
from ingest.landing.comparable import land
from ingest.landing.your_run import CompareFailed, load_your_run


def _land(tmp_path: Path, catalogue: Path):
    (tmp_path / "work").mkdir()
    return land(load_your_run(LOG, facts=FACTS, work=tmp_path / "work"), catalogue=catalogue, facts=FACTS)


def test_a_catalogue_that_is_no_database_is_named(tmp_path):
    """A text file, or a DuckDB file without the catalogue's tables, as --database: a traceback (M2)."""
    text = tmp_path / "text.duckdb"
    text.write_text("not a database\n")
    with pytest.raises(CompareFailed) as caught:
        _land(tmp_path, text)
    assert str(caught.value).startswith(f"{text}: not a catalogue database (IO Error: The file ")
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()
    done = CliRunner().invoke(main, ["compare", str(LOG), "--no-input", "--engine", "MySQL", "--database", str(empty)])
    assert (done.exit_code, done.output) == (1, f"Error: {empty}: not a catalogue database benchdb build writes "
                                                "(it has none of the catalogue's views)\n")


def test_a_catalogue_reaches_nothing_outside_itself(tmp_path, database):
    """A copy whose results view read /etc/passwd printed it as every series' label (M1), and a tower of 4,096
    views took 75 s to plan (the sixth pass, M4): a catalogue's views must be this version's."""
    evil = tmp_path / "evil.duckdb"
    evil.write_bytes(database.read_bytes())
    con = duckdb.connect(str(evil))
    (body,) = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'results'").fetchone()
    select = body.split(" AS ", 1)[1].rstrip().rstrip(";")
    con.execute("CREATE OR REPLACE VIEW results AS SELECT r.* REPLACE ((SELECT string_agg(column0, ',') FROM "
                f"read_csv('/etc/passwd', header = false, columns = {{'column0': 'VARCHAR'}})) AS system_label) FROM ({select}) AS r")
    con.close()
    with pytest.raises(CompareFailed) as caught:
        _land(tmp_path, evil)
    assert str(caught.value) == (f"{evil}: not a catalogue database benchdb build writes (its view 'results' is not "
                                 "this version's)")
    # and were its views this version's, it reaches no file: the catalogue is opened without external access
    from ingest.landing.comparable import CATALOGUE_CONFIG
    assert CATALOGUE_CONFIG["enable_external_access"] is False


def test_migrate_ties_the_bytes_it_checked_not_those_put_there_since(cited, monkeypatch):
    """The file swapped between migrate's check and its tie was tied as it then was: tps x10, and validate
    passed (M3). Here the swap is made as the tie starts."""
    import pyarrow.compute as pc
    path = cited / "cited" / "ro-16.parquet"
    _rewrite(cited, origin=lambda t: None)
    header = pq.read_metadata(path).metadata[b"benchdb.run"].decode()
    real_tie = cited_module.tie_figures

    def swapped_first(p, **kwargs):  # another writer, after the check
        table = pq.read_table(p)
        table = table.set_column(table.column_names.index("tps"), "tps", pc.multiply(table["tps"], 10))
        with pq.ParquetWriter(p, table.schema, store_schema=False) as writer:
            writer.write_table(table)
            writer.add_key_value_metadata({"benchdb.run": header})
        return real_tie(p, **kwargs)

    monkeypatch.setattr(cited_module, "tie_figures", swapped_first)
    done = CliRunner().invoke(main, ["migrate", "--write", str(cited)])
    assert done.exit_code == 1, done.output
    assert done.output == (f"{cited}/bundle.yaml:31: results[ro-16].figures: cited/ro-16.parquet: the file changed "
                           "after it was checked: run migrate again\n")
    assert pq.read_metadata(path).metadata.get(b"benchdb.origin") is None  # not tied


def test_a_newline_in_a_name_compare_shows_cannot_forge_a_line(tmp_path, database):
    """The log's and the catalogue's names were escaped line by line, so a newline in one began a line of
    its own ("Error: forged"); each is now shown escaped whole (a low finding)."""
    log = tmp_path / "a\nError: forged\x1b[2J.log"
    log.write_text("no benchmark here\n")
    done = CliRunner().invoke(main, ["compare", str(log), "--database", str(database), "--no-input"])
    assert done.exit_code == 1
    assert done.output == (f"Error: {tmp_path}/a\\nError: forged\\x1b[2J.log: control character U+000A is not "
                           "allowed in a file name: not read (rename it)\n")
    missing = tmp_path / "x\ny.duckdb"
    done = CliRunner().invoke(main, ["compare", str(LOG), "--database", str(missing), "--no-input"])
    assert done.output == f"Error: no catalogue database at {tmp_path}/x\\ny.duckdb: run benchdb build first\n"
