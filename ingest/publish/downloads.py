"""The downloads: results.csv and results.parquet (the registry's download fields), claims.csv and
the database itself. The CSV files defuse text a spreadsheet would run as a formula (csv_cells.py)."""

from __future__ import annotations

import csv
import hashlib
import io
import shutil
from pathlib import Path

import duckdb

from ..bundles.fields import keys
from .csv_cells import defused_select
from .db import RESULT_ORDER

# claims.csv: "claim" holds the wording as printed, "reading" an English reading where it is needed
# (another language, a damaged text); the claim's id is in "id"
CLAIMS = ("SELECT study, text AS claim, reading, language, source, stated, round(computed, 4) AS computed, verdict, "
          "formula, unit, kind, reason, claim AS id, line FROM claims ORDER BY study, position")


def export_downloads(con: duckdb.DuckDBPyConnection, *, db_path: Path, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    con.execute(f"COPY ({defused_select(con, CLAIMS)}) TO '{(out_dir / 'claims.csv').as_posix()}' (HEADER, DELIMITER ',')")
    select = f"SELECT {', '.join(keys('download'))} FROM results ORDER BY {RESULT_ORDER}"
    csv = defused_select(con, select)  # the Parquet file keeps every text as it is
    con.execute(f"COPY ({csv}) TO '{(out_dir / 'results.csv').as_posix()}' (HEADER, DELIMITER ',')")
    con.execute(f"COPY ({select}) TO '{(out_dir / 'results.parquet').as_posix()}' (FORMAT PARQUET)")
    shutil.copyfile(db_path, out_dir / "benchmarks.duckdb")


def export_study_csvs(con: duckdb.DuckDBPyConnection, *, out_dir: Path, where: str = "TRUE") -> dict[str, str]:
    """``out_dir/<study>.csv``: each study's rows of results.csv (its columns, in its order, every
    cell as DuckDB writes it as text), of the studies ``where`` holds for; returns each file's SHA-256,
    the data hash its citation gives."""
    out_dir.mkdir(parents=True, exist_ok=True)
    names = keys("download")
    select = defused_select(con, f"SELECT {', '.join(names)} FROM results WHERE {where} ORDER BY {RESULT_ORDER}")
    as_text = ", ".join(f'CAST("{n}" AS VARCHAR) AS "{n}"' for n in names)
    studies: dict[str, list] = {study: [] for (study,) in con.execute(f"SELECT study FROM studies WHERE {where} ORDER BY study").fetchall()}
    for row in con.execute(f"SELECT {as_text} FROM ({select})").fetchall():
        studies.setdefault(row[0], []).append(row)
    hashes = {}
    for study, rows in studies.items():
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(names)
        writer.writerows(rows)
        data = buffer.getvalue().encode("utf-8")
        (out_dir / f"{study}.csv").write_bytes(data)
        hashes[study] = hashlib.sha256(data).hexdigest()
    return hashes
