"""The limits of what validate and import read, for the bundle-format page: each figure read from the
constant the reader enforces (its one owner), never written here."""

from __future__ import annotations

from ..bundles import cited, cited_lines, claims, parquet_pages, yamlfile
from ..parsers.sysbench_intervals import INTEGER_COLUMNS, INTEGER_RANGE
from ..parsers.sysbench_intervals import MAX_SAMPLES as RUN_SAMPLES
from . import server_settings
from .importer import MAX_FILE_BYTES as IMPORT_FILE_BYTES


def _bytes(n: int) -> str:
    """A size in binary units, as the constants are written (64 MiB)."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size and n % size == 0:
            return f"{n // size:,} {unit}"
    return f"{n:,} bytes"


def limits() -> list[tuple[str, str, str, str]]:
    """Each limit: what it bounds, of what, the most, and the module that enforces it."""
    low, high = INTEGER_RANGE
    rows = [
        ("`bundle.yaml`", "size", _bytes(yamlfile.MAX_BYTES), "ingest/bundles/yamlfile.py"),
        ("`bundle.yaml`", "collections inside collections", f"{yamlfile.MAX_DEPTH:,} deep", "ingest/bundles/yamlfile.py"),
        ("`bundle.yaml`", "aliases (`*name`)", f"{yamlfile.MAX_ALIASES:,}", "ingest/bundles/yamlfile.py"),
        ("`bundle.yaml`", "values once every alias is followed", f"{yamlfile.MAX_NODES:,}", "ingest/bundles/yamlfile.py"),
        ("a claim's formula", "length", f"{claims.MAX_CHARS:,} characters", "ingest/bundles/claims.py"),
        ("a claim's formula", "operations inside operations", f"{claims.MAX_DEPTH:,} deep", "ingest/bundles/claims.py"),
        ("a figures file", "size", _bytes(cited.MAX_FILE_BYTES), "ingest/bundles/cited.py"),
        ("a figures file", "its footer (the run's figures and the columns' layout)", _bytes(cited.MAX_FOOTER_BYTES),
         "ingest/bundles/cited.py"),
        ("a figures file", "interval samples", f"{cited.MAX_SAMPLES:,}", "ingest/bundles/cited.py"),
        ("a figures file", "pages (each page's header checked against its footer before a page is read)",
         f"{parquet_pages.MAX_PAGES:,}", "ingest/bundles/parquet_pages.py"),
        ("a figures file's page", "its header", _bytes(parquet_pages.MAX_HEADER_BYTES), "ingest/bundles/parquet_pages.py"),
        ("a bundle's figures files together", "interval samples", f"{cited.MAX_BUNDLE_SAMPLES:,}",
         "ingest/bundles/cited.py"),
        ("a figures file's run", "objects and lists inside each other", f"{cited.MAX_DEPTH:,} deep",
         "ingest/bundles/cited.py"),
        ("a sysbench run of a log", "interval samples", f"{RUN_SAMPLES:,}", "ingest/parsers/sysbench_intervals.py"),
        ("an interval sample (a log's or a figures file's)", ", ".join(f"`{c}`" for c in INTEGER_COLUMNS),
         f"{low:,} to {high:,}", "ingest/parsers/sysbench_intervals.py"),
        ("a figures file of JSON Lines (`benchdb migrate`)", "size", _bytes(cited_lines.MAX_FILE_BYTES),
         "ingest/bundles/cited_lines.py"),
        ("a my.cnf `benchdb import` reads", "files it includes, however deep", f"{server_settings.MAX_INCLUDED:,}",
         "ingest/contribute/server_settings.py"),
        ("a settings file `benchdb import` reads (my.cnf, variables dump, command line)", "settings",
         f"{server_settings.MAX_SETTINGS:,}", "ingest/contribute/server_settings.py"),
        ("a file `benchdb import` reads", "size", _bytes(IMPORT_FILE_BYTES), "ingest/contribute/importer.py"),
    ]
    return rows
