"""The seventh hostile pass of issue #61 (2026-12-02): each finding it reproduced, at its cause (H1, the
pages of a figures file, is in test_figures_pages.py)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from test_cited import AT, BUNDLE, REFUSED, _problems, cited  # noqa: F401 (a fixture)
from test_landing import FACTS, LOG, database  # noqa: F401 (a fixture)
from conftest import ROOT
from ingest.cli import main
from ingest.contribute import server_settings
from ingest.landing import your_run
from ingest.landing.comparable import land
from ingest.landing.your_run import CompareFailed, load_your_run
from schema.web_address import web_address

JSONL = ROOT / "tests" / "fixtures" / "figures-jsonl" / "ro-16.jsonl"


@pytest.mark.parametrize("named", ["../../outside.jsonl", "{outside}"])
def test_migrate_refuses_a_figures_path_that_leaves_the_bundle(tmp_path, named):
    """figures: ../../outside.jsonl (or its absolute path) was read, written as outside.parquet beside it and
    then removed, outside the bundle (H2)."""
    outside = tmp_path / "outside.jsonl"
    shutil.copyfile(JSONL, outside)
    before = hashlib.sha256(outside.read_bytes()).hexdigest()
    folder = tmp_path / "data" / "cited"
    folder.mkdir(parents=True)
    path = named.format(outside=outside)
    (folder / "bundle.yaml").write_text(BUNDLE.replace("figures: cited/ro-16.parquet", f"figures: {path}"))
    done = CliRunner().invoke(main, ["migrate", "--write", str(folder)])
    assert done.exit_code == 1
    assert done.output == (f"{folder}/bundle.yaml:31: results[ro-16].figures: artifact path {path!r} leaves the "
                           "bundle folder\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "outside.jsonl"]
    assert hashlib.sha256(outside.read_bytes()).hexdigest() == before
    assert f"figures: {path}" in (folder / "bundle.yaml").read_text()


def refusal_of(tmp_path, database, statement: str) -> tuple[Path, str]:
    """The catalogue ``database`` copied, ``statement`` run on the copy, and why compare refuses it."""
    forged = tmp_path / "forged.duckdb"
    shutil.copyfile(database, forged)
    with duckdb.connect(str(forged)) as con:
        con.execute(statement)
    (tmp_path / "work").mkdir()
    with pytest.raises(CompareFailed) as caught:
        land(load_your_run(LOG, facts=FACTS, work=tmp_path / "work"), catalogue=forged, facts=FACTS)
    return forged, str(caught.value)


def test_a_catalogue_whose_macro_shadows_a_built_in_is_refused(tmp_path, database):
    """A macro median(x) AS max(x) * 1000 in the catalogue was found before the built-in: every published
    TPS x1,000, the run at percentile 0 instead of 60 (M1)."""
    forged, said = refusal_of(tmp_path, database, "CREATE MACRO median(x) AS max(x) * 1000")
    assert said == f"{forged}: not a catalogue database benchdb build writes (its macro 'median' is not this version's)"


def test_a_log_larger_than_import_reads_is_refused_before_it_is_copied(tmp_path, monkeypatch):
    """A sparse file of 3 GB was copied whole to the temporary folder (2.9 GB written) before import
    refused it (M2); here against a bound of 1,000 bytes."""
    monkeypatch.setattr(your_run, "MAX_FILE_BYTES", 1000)
    log = tmp_path / "big.log"
    with open(log, "wb") as f:
        f.truncate(5000)
    (tmp_path / "work").mkdir()
    with pytest.raises(CompareFailed) as caught:
        load_your_run(log, facts=FACTS, work=tmp_path / "work")
    assert str(caught.value) == f"{log}: 5,000 bytes, more than the 1,000 a log may be"
    assert list((tmp_path / "work" / "log").iterdir()) == []


def test_an_included_file_that_cannot_be_read_is_a_note(tmp_path, monkeypatch):
    """A my.cnf's !include of a file that cannot be opened gave a traceback (M3)."""
    (tmp_path / "secret.cnf").write_text("[mysqld]\nx=1\n")
    real = server_settings._small_file

    def refused(path):
        if path.name == "secret.cnf":
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(server_settings, "_small_file", refused)
    read = server_settings.read_cnf(tmp_path / "my.cnf", root=tmp_path,
                                    text="[mysqld]\ninnodb_buffer_pool_size=4G\n!include secret.cnf\n")
    assert read.notes == ["my.cnf line 3: secret.cnf cannot be read (Permission denied): not read"]
    assert {n: s.value for n, s in read.settings.items()} == {"innodb_buffer_pool_size": "4G"}


def test_a_cited_log_of_another_repository_than_the_sources_is_refused(cited):
    """A study whose source is Example-Lab/results cited values read from Evil-Lab/results, and validated
    (L2): each value's link named Evil-Lab, the study's source another."""
    bundle = cited / "bundle.yaml"
    bundle.write_text(bundle.read_text().replace("repository: Example-Lab/results", "repository: Evil-Lab/results"))
    assert _problems(cited) == ["bundle.yaml:27: results[ro-16].origin.repository: Evil-Lab/results at 0123456 is "
                                "none of the bundle's sources: a log's repository and commit are those of a source's "
                                "address (benchdb import --cite writes them so)"]


def test_a_workload_whose_test_is_not_stated_has_no_test():
    """Its test was "not", listed among the catalogue's tests and comparable by test=not (L3)."""
    from ingest.database.comparable import statements
    with duckdb.connect() as con:
        for macro in statements()[:2]:
            con.execute(macro)
        assert con.execute("SELECT test_key('sysbench', 'not stated'), test_key('sysbench', 'not-stated'), "
                           "test_key('sysbench', 'oltp_read_write (OLTP_RW-trx.lua)')").fetchone() == (
            None, None, "oltp_read_write")


def test_a_character_that_does_not_show_is_refused_in_an_address():
    """A zero-width space in a --cite URL's path showed nothing and went to x%E2%80%8B (L4)."""
    with pytest.raises(ValueError, match=r"a character that does not show \(U\+200B\) in the address"):
        web_address("https://github.com/Example-Lab/results/tree/0123456789abcdef0123456789abcdef01234567/x\u200b")


def test_a_chunk_of_no_values_whose_pages_lie_outside_the_file_is_named(cited):
    """Its offsets were never checked, and Arrow's "Invalid column metadata" named no column (L5)."""
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from parquet_footer import I64, columns, join_file, split_file
    path = cited / "cited" / "ro-16.parquet"
    body, footer = split_file(path.read_bytes())
    _, _, chunk, md, _ = next(c for c in columns(footer) if c[4] == "tps")
    md[5] = (I64, 0)  # num_values
    md[9] = (I64, 4)
    md[7] = (I64, 9 * 10**18)
    path.write_bytes(join_file(body, footer))
    problems = _problems(cited)
    assert problems[0].startswith(AT + "tps: its pages at bytes 4 to 9,000,000,000,000,000,004 are outside the file's ")
    assert problems[1:] == [REFUSED]
