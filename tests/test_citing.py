"""How a source and a quote read (ingest/database/citing.py), on the sources of the published bundles."""

from __future__ import annotations

from conftest import ROOT
from ingest.bundles.validate import validate_paths
from ingest.database import citing


def _source(study: str, source: str):
    (loaded,), problems = validate_paths([ROOT / "data" / study])
    assert problems == []
    return next(s for s in loaded.bundle.sources if s.id == source)


def test_a_repository_file_is_named_by_repository_commit_and_path():
    # data/guitarrapc-docker-mysql-doublewrite-2022: url .../guitarrapc/db-benchmark/blob/c275955.../README.md
    assert citing.source_name(_source("guitarrapc-docker-mysql-doublewrite-2022", "readme")) == (
        "guitarrapc/db-benchmark at c275955, README.md")


def test_a_document_with_an_address_is_named_by_publisher_title_and_date():
    # data/scaleflux-csd2000-mysql-2020: Percona (blog), dated 2020-08-06, with its URL
    assert citing.source_name(_source("scaleflux-csd2000-mysql-2020", "percona-blog")) == (
        "Percona (blog), “How Can ScaleFlux Handle MySQL Workload?”, 6 August 2020")


def test_a_document_without_an_address_is_named_by_its_identifier():
    # data/seagate-nytro-mysql-2015: no url; identifier "Seagate Technology Paper TP665.1-1502US, February 2015"
    name = citing.source_name(_source("seagate-nytro-mysql-2015", "seagate-tp"))
    assert name.startswith("Seagate Technology LLC, “Seagate Nytro Flash Accelerator vs. the Competitio")
    assert name.endswith("” (Seagate Technology Paper TP665.1-1502US, February 2015)")


def test_dates_read_as_people_write_them():
    assert [citing.date_words(d) for d in ("2023", "2023-05", "2020-08-06", None)] == [
        "2023", "May 2023", "6 August 2020", None]


def test_a_quote_is_one_line_and_short():
    assert citing.text_quote("  transactions:\t\t9328   (30.99 per sec.)\r\n") == "“transactions: 9328 (30.99 per sec.)”"
    long = citing.text_quote("x" * 200)
    assert long == "“" + "x" * 119 + "…”" and len(long) == 2 + 120  # 120 characters inside the marks
    assert citing.text_quote("y" * 120) == "“" + "y" * 120 + "”"
    # control and bidirectional characters of a hostile log never reach a page
    assert citing.text_quote("tps\x1b[31m 5\u202e1") == "“tps [31m 5 1”"
    assert citing.cell_quote("Linux MD RAID 6", "471,77") == "“Linux MD RAID 6 … 471,77”"


def test_a_log_is_read_no_further_than_the_lines_wanted(tmp_path):
    log = tmp_path / "run.log"
    log.write_bytes(b"one\ntwo \xff\nthree\n")
    assert citing.read_lines(log, {2}) == {2: "two \ufffd\n"}
    assert citing.read_lines(log, {1, 9}) == {1: "one\n"}
    assert citing.read_lines(log, set()) == {}
