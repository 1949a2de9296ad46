"""Bundle fields added for issue #14: cell notes, derived precision, claim readings, vendor specifications,
host placement and firmware, and the benchmark client. Each is checked where it is validated or loaded."""

from __future__ import annotations

import duckdb
import pytest

from ingest.database.load import build_database
from ingest.bundles.validate import validate_paths
from schema import json_schema
from test_validate import MINIMAL, _problems

CELL_NOTES = """    cell_notes:
      - {row: b, column: 128 Users, flag: matches-no-other-table, note: "180.10 is in no other table."}
"""


def test_a_cell_note_naming_its_cell_validates(bundle_dir):
    text = MINIMAL.replace('      - {system: b, label: B, values: "90.00 180.10"}\n',
                           '      - {system: b, label: B, values: "90.00 180.10"}\n' + CELL_NOTES)
    assert _problems(bundle_dir, text) == []


@pytest.mark.parametrize("bad,message", [
    ("row: c,", "bundle.yaml:43: results[tps].cell_notes[0].row: no row for system 'c' in this table"),
    ("column: 256 Users,", "bundle.yaml:43: results[tps].cell_notes[0].column: no column labelled '256 Users' in this table"),
])
def test_a_cell_note_naming_no_cell_is_an_error_with_file_line_and_field(bundle_dir, bad, message):
    notes = CELL_NOTES.replace("row: b," if bad.startswith("row") else "column: 128 Users,", bad)
    text = MINIMAL.replace('      - {system: b, label: B, values: "90.00 180.10"}\n',
                           '      - {system: b, label: B, values: "90.00 180.10"}\n' + notes)
    assert _problems(bundle_dir, text) == [message]


DERIVED = """  - type: derived
    id: c-tps
    title: C's TPS
    system: b
    metric: tps
    unit: tx/s
    relation: "about 9% lower than A"
    formula: 'v("tps", "a", "64 Users") * (1 - 9 / 100)'
    decimals: {decimals}
    provenance: {{source: doc, line: 3}}
"""


@pytest.mark.parametrize("decimals,value,text", [(0, 91.0, "91"), (1, 91.5, "91.5")])
def test_a_derived_value_keeps_only_the_precision_of_its_decimals(bundle_dir, tmp_path, decimals, value, text):
    # 100.50 * 0.91 = 91.455 (91.45499999999999 in floating point): the value is rounded, not only its text
    folder = bundle_dir("tiny", MINIMAL.replace("charts:\n", DERIVED.format(decimals=decimals) + "charts:\n"))
    bundles, problems = validate_paths([folder])
    assert problems == []
    assert bundles[0].derivation.derived["c-tps"] == value
    con = duckdb.connect(str(build_database(bundles, db_path=tmp_path / "db.duckdb")), read_only=True)
    assert con.execute("SELECT value, value_text FROM measurements WHERE result = 'c-tps'").fetchone() == (value, text)


def test_the_json_schema_describes_the_new_fields():
    defs = json_schema()["$defs"]
    assert {"reading"} <= set(defs["Claim"]["properties"])
    assert {"cell_notes"} <= set(defs["ResultTable"]["properties"])
    assert {"row", "column", "flag", "note"} == set(defs["CellNote"]["properties"])
    assert {"specifications"} <= set(defs["Storage"]["properties"])
    assert {"firmware", "placement"} <= set(defs["Host"]["properties"])
    assert {"client"} <= set(defs["Workload"]["properties"])
