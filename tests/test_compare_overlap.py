"""Compare's overlap marks are worked out in the browser (site/assets/js/overlap.js) for the picked
series; the rule is the SQL macros ``same_point`` and ``spreads_overlap`` (ingest/database/sql/publish.sql). Both
implementations give the same answer on a table of cases, NULLs included."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "site" / "assets" / "js" / "overlap.js"

SPREADS = [  # (runs, low, high) of a and of b
    (1, 10.0, 10.0), (3, 8.0, 12.0), (3, 12.0, 14.0), (2, 12.5, 13.0), (1, 12.0, 12.0), (3, 20.0, 30.0),
    (None, None, None), (3, None, 12.0), (1, 11.0, 11.0), (2, 10.0, 10.0),
]
POINTS = [  # (metric, unit, state, threads)
    ("tps", "tx/s", "optimal", 4), ("tps", "tx/s", "optimal", 8), ("tps", "tx/s", None, 4), ("tps", "tx/s", None, None),
    ("tps", "MB/s", "optimal", 4), ("qps", "tx/s", "optimal", 4), ("tps", "tx/s", "rebuilding", None),
]


def _macros(con: duckdb.DuckDBPyConnection) -> None:
    sql = (ROOT / "ingest" / "database" / "sql" / "publish.sql").read_text(encoding="utf-8")
    for name in ("spreads_overlap", "same_point"):
        (statement,) = re.findall(rf"CREATE MACRO {name}\(.*?;", sql, re.S)
        con.execute(statement)


def _in_node(function: str, cases: list) -> list[bool]:
    program = (f"import {{{function}}} from {json.dumps(SCRIPT.as_uri())};\n"
               "const cases = JSON.parse(process.argv[1]);\n"
               f"console.log(JSON.stringify(cases.map(([a, b]) => {function}(a, b))));")
    done = subprocess.run(["node", "--input-type=module", "-e", program, json.dumps(cases)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _both(macro: str, function: str, keys: tuple[str, ...], cases: list) -> tuple[list[bool], list[bool]]:
    """The answers of the SQL macro and of the script's function for each pair of ``cases`` (a NULL
    answer of SQL, as in a WHERE clause, is false)."""
    pairs = list(itertools.product(cases, repeat=2))
    con = duckdb.connect()
    _macros(con)
    marks = ", ".join("?" * (2 * len(keys)))
    sql = [bool(con.execute(f"SELECT coalesce({macro}({marks}), false)", [*a, *b]).fetchone()[0]) for a, b in pairs]
    js = _in_node(function, [[dict(zip(keys, a)), dict(zip(keys, b))] for a, b in pairs])
    return sql, js


def test_spreads_overlap_agrees_with_sql():
    sql, js = _both("spreads_overlap", "spreadsOverlap", ("runs", "low", "high"), SPREADS)
    assert js == sql
    assert 10 < sum(sql) < len(sql) - 10  # the table holds both answers, many times


def test_same_point_agrees_with_sql():
    sql, js = _both("same_point", "samePoint", ("metric", "unit", "state", "threads"), POINTS)
    assert js == sql
    assert sum(sql) == len(POINTS)  # each point meets only itself
