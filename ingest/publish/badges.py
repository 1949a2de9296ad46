"""A badge per study, from its claims ledger: ``/badges/<study>.json`` in the "endpoint" format
shields.io reads (https://img.shields.io/endpoint?url=<that address>), e.g. "claims checked | 49: 28
hold, 15 overstated, 1 understated, 2 misstated, 3 unverifiable". Nothing in it is typed: it counts the
study's rows of ``claims``."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import duckdb

from schema.models import Claim

LABEL = "claims checked"
# the verdicts a badge names after the count, in the bundle format's order (those with none are left out)
NAMED = typing.get_args(Claim.model_fields["verdict"].annotation)
WORDS = {"holds": "hold"}  # "28 hold"; the other verdicts read as they are
WRONG = ("overstated", "understated", "misstated")  # a claim its own study's figures contradict
# orange: some claim is contradicted by the study's own figures; green: every claim holds; blue: the
# others (some cannot be checked, none is contradicted); lightgrey: no claim
COLOURS = {"none": "lightgrey", "wrong": "orange", "all hold": "green", "else": "blue"}

COUNTS = ("SELECT st.study, count(c.claim) AS claims, "
          + ", ".join(f"count(c.claim) FILTER (WHERE c.verdict = '{v}') AS {v}" for v in NAMED)
          + " FROM studies AS st LEFT JOIN claims AS c USING (study) WHERE {where} GROUP BY st.study ORDER BY st.study")


def badge(counts: dict) -> dict:
    """The endpoint JSON of one study's verdict counts (``claims`` and each of NAMED)."""
    if not counts["claims"]:
        return {"schemaVersion": 1, "label": LABEL, "message": "none", "color": COLOURS["none"]}
    named = ", ".join(f"{counts[v]} {WORDS.get(v, v)}" for v in NAMED if counts[v])
    if any(counts[v] for v in WRONG):
        colour = COLOURS["wrong"]
    else:
        colour = COLOURS["all hold"] if counts["holds"] == counts["claims"] else COLOURS["else"]
    return {"schemaVersion": 1, "label": LABEL, "message": f"{counts['claims']}: {named}", "color": colour}


def export_badges(con: duckdb.DuckDBPyConnection, *, static_dir: Path, where: str = "TRUE") -> dict[str, str]:
    """Write ``static_dir/badges/<study>.json`` for each study ``where`` holds for (a condition on
    ``study``); returns each study's badge path."""
    out = static_dir / "badges"
    out.mkdir(parents=True, exist_ok=True)
    cursor = con.execute(COUNTS.format(where=where))
    names = [d[0] for d in cursor.description]
    paths = {}
    for row in cursor.fetchall():
        counts = dict(zip(names, row))
        (out / f"{counts['study']}.json").write_text(json.dumps(badge(counts), ensure_ascii=False), encoding="utf-8")
        paths[counts["study"]] = f"/badges/{counts['study']}.json"
    return paths
