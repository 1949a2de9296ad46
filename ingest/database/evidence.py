"""Evidence grades: schema/evidence-grades.yaml, the one rule of how much weight a ratio on a facet page
carries. The database applies it (``evidence_rank``, a macro of ingest/database/sql/evidence.sql written
from the file at load); the publish step and the pages read its marks and words (``as_data``)."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, model_validator

GRADES_FILE = Path(__file__).resolve().parents[2] / "schema" / "evidence-grades.yaml"
SQL_FILE = Path(__file__).with_name("sql") / "evidence.sql"
VALUE_KINDS = ("measured", "exact", "derived", "approximate")  # schema/models.py's ValueKind


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Grade(_Strict):
    key: str
    mark: str
    label: str
    about: str
    value_kinds: tuple[str, ...]
    run_grades: tuple[str, ...] = ()


class Inconsistent(_Strict):
    flag: str
    reason: str


class Grades(_Strict):
    grades: tuple[Grade, ...]
    inconsistent: tuple[Inconsistent, ...]

    @model_validator(mode="after")
    def _every_kind_graded(self):
        for kind in VALUE_KINDS:
            if not any(kind in g.value_kinds for g in self.grades):
                raise ValueError(f"no grade takes values of kind {kind!r}")
        marks = [g.mark for g in self.grades]
        if len(set(marks)) != len(marks):
            raise ValueError("two grades share a mark: a grade must be told apart without its words")
        return self


@functools.cache
def grades() -> Grades:
    return Grades.model_validate(yaml.safe_load(GRADES_FILE.read_text(encoding="utf-8")))


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _in(values: tuple[str, ...]) -> str:
    return "(" + ", ".join(_text(v) for v in values) + ")"


def statements() -> list[str]:
    """evidence.sql's statements with the rule in place: each grade's test, in order, as a CASE whose
    result is the grade's rank (1 the best), the inconsistent flags and their reasons."""
    g = grades()
    cases = []
    for rank, grade in enumerate(g.grades, start=1):
        test = f"value_kind IN {_in(grade.value_kinds)}"
        if grade.run_grades:
            test += f" AND (value_kind <> 'measured' OR coalesce(run_grade, 'not graded') IN {_in(grade.run_grades)})"
        cases.append(f"WHEN {test} THEN {rank}")
    flags = _in(tuple(i.flag for i in g.inconsistent)) if g.inconsistent else "(NULL)"
    reasons = " ".join(f"WHEN flag = {_text(i.flag)} THEN {_text(i.reason)}" for i in g.inconsistent)
    text = (SQL_FILE.read_text(encoding="utf-8").replace("{rank_cases}", " ".join(cases))
            .replace("{inconsistent_flags}", flags).replace("{inconsistent_reasons}", reasons or "WHEN FALSE THEN NULL"))
    return [s for s in text.split("\n-- ;\n") if s.strip()]


def create_macros(con) -> None:
    """The macros of evidence.sql, on a new database (load.py's create_schema)."""
    for statement in statements():
        con.execute(statement)


def as_data() -> dict:
    """The rule for the site (data/evidence_grades.json): grades best first with their rank, and the
    inconsistent flags with their reason."""
    g = grades()
    return {"grades": [{"rank": i, **x.model_dump(include={"key", "mark", "label", "about"})}
                       for i, x in enumerate(g.grades, start=1)],
            "inconsistent": {i.flag: i.reason for i in g.inconsistent}}
