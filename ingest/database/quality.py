"""Run-quality grades: the rules of schema/run-quality.yaml applied to every run's interval samples
in SQL (ingest/database/sql/quality.sql), once the database is loaded. The same file gives the "About the
grades" page and the study pages' badges their thresholds and reasons (``as_data``)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import duckdb
import yaml
from pydantic import BaseModel, ConfigDict, model_validator

RULES_FILE = Path(__file__).resolve().parents[2] / "schema" / "run-quality.yaml"
SQL_FILE = Path(__file__).with_name("sql") / "quality.sql"
# Which threshold of which rule each placeholder of quality.sql stands for.
PLACEHOLDERS = {
    "duration_fail_s": ("duration", "fail_below_s"), "duration_warn_s": ("duration", "warn_below_s"),
    "window_s": ("warmup", "window_s"), "band": ("warmup", "band"), "max_share": ("warmup", "max_share"),
    "cv_warn": ("steady_cv", "warn_above"), "cv_fail": ("steady_cv", "fail_above"),
    "trend_warn": ("trend", "warn_above_pct_per_min"), "trend_fail": ("trend", "fail_above_pct_per_min"),
    "stall_share": ("stalls", "below_share_of_median"), "stall_warn_at": ("stalls", "warn_at"),
    "stall_listed": ("stalls", "listed_at_most"),
    "err_warn": ("errors", "warn_above_per_tx"), "err_fail": ("errors", "fail_above_per_tx"),
    "row_bytes": ("buffer_pool", "row_bytes"), "fits_at": ("buffer_pool", "fits_at_or_below"),
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Grade(_Strict):
    key: str
    label: str
    about: str


class Source(_Strict):
    id: str
    title: str
    url: str


class Rule(BaseModel):
    """A rule: its text fields, and its thresholds (every other key: a number)."""
    model_config = ConfigDict(extra="allow", frozen=True)
    key: str
    label: str
    checks: str
    why: str
    cites: tuple[str, ...]

    def thresholds(self) -> dict[str, float]:
        return dict(self.model_extra or {})

    @model_validator(mode="after")
    def _numbers(self):
        for name, value in self.thresholds().items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"rule {self.key}: threshold {name} must be a number, not {value!r}")
        return self


class Rules(_Strict):
    grades: tuple[Grade, ...]
    rules: tuple[Rule, ...]
    sources: tuple[Source, ...]

    @model_validator(mode="after")
    def _cited(self):
        known = {s.id for s in self.sources}
        for rule in self.rules:
            for cite in rule.cites:
                if cite not in known:
                    raise ValueError(f"rule {rule.key} cites {cite!r}, which sources does not list")
        return self

    def threshold(self, rule: str, name: str) -> float:
        return next(r for r in self.rules if r.key == rule).thresholds()[name]


@functools.cache
def rules() -> Rules:
    return Rules.model_validate(yaml.safe_load(RULES_FILE.read_text(encoding="utf-8")))


def statements() -> list[str]:
    """quality.sql's statements with the thresholds in place (numbers only, checked by ``Rules``)."""
    r = rules()
    text = SQL_FILE.read_text(encoding="utf-8")
    for placeholder, (rule, name) in PLACEHOLDERS.items():
        value = float(r.threshold(rule, name))
        text = text.replace("{" + placeholder + "}", str(int(value)) if value.is_integer() else repr(value))
    return [s for s in text.split("\n-- ;\n") if s.strip()]


# The tables grade_runs fills from quality.sql (quality_rules aside), each row a study's.
GRADED = ("run_stalls", "run_checks", "run_grades")


def grade_runs(con: duckdb.DuckDBPyConnection, *, graded: str | None = None) -> None:
    """Fill run_checks, run_stalls and run_grades from the loaded runs and intervals: of every study, or
    of those not in the table named ``graded`` (a column ``study``), whose rows the caller put in place
    (a load copies them from the last build's database with the studies' other rows)."""
    r = rules()
    con.executemany("INSERT INTO quality_rules VALUES (?, ?, ?, ?, ?)",
                    [(x.key, i, x.label, x.checks, json.dumps(x.thresholds())) for i, x in enumerate(r.rules)])
    con.execute("CREATE TEMP TABLE q_studies AS SELECT study FROM studies"
                + (f" WHERE study NOT IN (SELECT study FROM {graded})" if graded else ""))
    # on one thread: sums of floating-point numbers added in another order come out in other last bits
    # (a trend of -5.848783336924893 in one build, -5.848783336924897 in the next), and a rebuild
    # must write the same bytes (tests/test_stage.py)
    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    con.execute("SET threads = 1")
    try:
        for statement in statements():
            con.execute(statement)
    finally:
        con.execute(f"SET threads = {int(threads)}")
    con.execute("DROP VIEW q_intervals")
    for table in ("q_runs", "q_grid", "q_windows", "q_warm", "q_steady", "q_pool", "q_settings", "q_studies"):
        con.execute(f"DROP TABLE {table}")


def as_data() -> dict:
    """The rules for the site (data/run_quality.json): grades, rules with thresholds, sources."""
    r = rules()
    return {"grades": [g.model_dump() for g in r.grades],
            "rules": [{**x.model_dump(include={"key", "label", "checks", "why", "cites"}),
                       "thresholds": [{"name": k, "value": v} for k, v in x.thresholds().items()]}
                      for x in r.rules],
            "sources": [s.model_dump() for s in r.sources]}
