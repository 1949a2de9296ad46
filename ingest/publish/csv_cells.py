"""CSV injection: every CSV the site publishes defuses text cells a spreadsheet would run as formulas.

The rule is schema/csv-cells.json (OWASP's advice: a text cell that begins with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return gets a single quote in front); a cell that is a plain number (``-12.5``) is
never altered. The browser's CSV downloads apply the same file (site/assets/js/csv-cells.js imports the
copy the export puts beside the site's assets, ``assets/csv-cells.json``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb

from schema.models import CSV_CELLS, CSV_CELLS_PATH

LEADING = tuple(CSV_CELLS["formula_leading"])
PREFIX = CSV_CELLS["prefix"]
NUMBER = re.compile(CSV_CELLS["number"])


def defused(value: object) -> object:
    """``value`` as a CSV cell: text a spreadsheet would run as a formula gets the prefix; anything else,
    numbers and numbers as text included, stays as it is."""
    if isinstance(value, str) and value.startswith(LEADING) and not NUMBER.match(value):
        return PREFIX + value
    return value


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def defused_select(con: duckdb.DuckDBPyConnection, select: str) -> str:
    """``select`` with each of its text columns defused as ``defused`` does (numbers are other columns)."""
    columns = con.execute(f"DESCRIBE {select}").fetchall()
    leading = ", ".join(_literal(c) for c in LEADING)
    parts = []
    for name, kind, *_ in columns:
        quoted = '"' + name.replace('"', '""') + '"'
        if kind == "VARCHAR":
            parts.append(f"CASE WHEN left({quoted}, 1) IN ({leading}) AND NOT regexp_full_match({quoted}, "
                         f"{_literal(CSV_CELLS['number'])}) THEN {_literal(PREFIX)} || {quoted} ELSE {quoted} END "
                         f"AS {quoted}")
        else:
            parts.append(quoted)
    return f"SELECT {', '.join(parts)} FROM ({select})"


def export_rule(assets_dir: Path) -> None:
    """Put the rule where the browser's script imports it from (site/assets/js/csv-cells.js)."""
    assets_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(CSV_CELLS_PATH, assets_dir / CSV_CELLS_PATH.name)
