"""Which published values a run of your own is compared with: the statements of sql/comparable.sql, the
rule's one owner, which ``benchdb compare`` runs (ingest/landing/) and the export publishes for the
"Where does your run land?" page (data/landing.json), whose DuckDB-WASM runs the same text."""

from __future__ import annotations

from pathlib import Path

SQL_FILE = Path(__file__).with_name("sql") / "comparable.sql"
PARAMETERS = ("test", "engine", "threads", "tps")  # the $names of its last statement, your run's
# The keys its engine_key macro gives, and how pages and the command name them
ENGINES = {"innodb": "InnoDB", "myrocks": "MyRocks", "tokudb": "TokuDB", "none": "no database"}


def statements() -> list[str]:
    """The file's statements, parted by its lines "-- ;": the two macros, then the series."""
    return [s for s in SQL_FILE.read_text(encoding="utf-8").split("\n-- ;\n") if s.strip()]


def as_data() -> dict:
    return {"statements": statements(), "parameters": list(PARAMETERS),
            "engines": [{"key": k, "label": v} for k, v in ENGINES.items()]}
