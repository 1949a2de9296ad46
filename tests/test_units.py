"""One unit a quantity (issue #58): schema/fields.yaml gives every metric its one unit, a bundle that
states a unit must spell it so, the loader stores every value with it, and no chart, panel or ratio puts
two metrics (or one metric in two units) on one axis."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ingest.bundles.fields import metric, metric_unit, registry
from ingest.bundles.validate import validate_paths
from ingest.database.stage import build_database_from, stage_bundles
from ingest.publish.facets import read_facets

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = (ROOT / "tests" / "fixtures" / "malformed" / "valid-partial-dates" / "bundle.yaml").read_text(
    encoding="utf-8").replace("id: valid-partial-dates", "id: tiny")
TABLE_DEFAULTS = "    defaults: {metric: tps, unit: tx/s, state: optimal}\n"


def test_every_metric_has_one_unit_and_new_order_transactions_one_key():
    units = {m.key: m.unit for m in registry().metrics}
    assert all(units.values())
    assert units["oet"] == "new-order transactions/min"
    assert metric("oet").label == "New-order transactions per minute (TpmC, NOTPM, OET)"  # each word as printed
    assert metric("oet").also_printed == ("TpmC", "NOTPM", "OET")  # tpcc-mysql's, DBT-2's, NetApp TR-3693's word
    assert (units["tps"], metric("tps").also_printed) == ("tx/s", ("tps", "TPS"))
    for m in registry().metrics:  # a printed spelling is never the unit itself, nor another metric's unit
        assert m.unit not in m.also_printed and not set(m.also_printed) & set(units.values()), m.key


def _problems(tmp_path: Path, text: str) -> list[str]:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "bundle.yaml").write_text(text, encoding="utf-8")
    _, problems = validate_paths([folder])
    return [str(p).replace(str(folder / "bundle.yaml"), "bundle.yaml") for p in problems]


def test_a_stated_unit_must_be_spelt_as_the_registry_spells_it(tmp_path):
    assert TABLE_DEFAULTS in MINIMAL
    oet = MINIMAL.replace(TABLE_DEFAULTS, "    defaults: {metric: oet, unit: TpmC, state: optimal}\n").replace(
        "metric: tps, x: threads", "metric: oet, x: threads")
    assert _problems(tmp_path, oet) == [
        "bundle.yaml:35: results[tps].defaults.unit: oet's unit is 'new-order transactions/min' (schema/fields.yaml), "
        "not 'TpmC', which is how a source prints it: `benchdb migrate --write` rewrites it"]
    # a default and a column of its own: each where it is written, the default once for the columns it serves
    columns = MINIMAL.replace(TABLE_DEFAULTS, "    defaults: {metric: tps, unit: tps/s, state: optimal}\n").replace(
        "      - {label: 128 Users, threads: 128}\n", "      - {label: 128 Users, threads: 128, unit: TPS}\n"
        "      - {label: 256 Users, threads: 256}\n").replace('"100.50 200.25"', '"100.50 200.25 300"').replace(
        '"90.00 180.10"', '"90.00 180.10 270"')
    assert _problems(tmp_path, columns) == [
        "bundle.yaml:35: results[tps].defaults.unit: tps's unit is 'tx/s' (schema/fields.yaml), not 'tps/s': "
        "state that unit or none",
        "bundle.yaml:38: results[tps].columns[1].unit: tps's unit is 'tx/s' (schema/fields.yaml), not 'TPS', "
        "which is how a source prints it: `benchdb migrate --write` rewrites it"]
    # the unit matches its own metric, not another's: a column of qps under a default of tx/s is refused
    other = MINIMAL.replace("      - {label: 128 Users, threads: 128}\n", "      - {label: 128 Users, threads: 128, metric: qps}\n")
    assert _problems(tmp_path, other) == [
        "bundle.yaml:35: results[tps].defaults.unit: qps's unit is 'q/s' (schema/fields.yaml), not 'tx/s': "
        "state that unit or none"]


def test_a_bundle_that_states_no_unit_is_loaded_with_the_registry_s(tmp_path):
    data = tmp_path / "data"
    (data / "tiny").mkdir(parents=True)
    text = MINIMAL.replace(TABLE_DEFAULTS, "    defaults: {metric: tps, state: optimal}\n")
    derived = ("  - {type: derived, id: d1, title: Derived, system: a, metric: tps, relation: as printed, formula: '5', "
               "provenance: {source: doc}}\n")
    assert text.count("charts:\n") == 1
    (data / "tiny" / "bundle.yaml").write_text(text.replace("charts:\n", derived + "charts:\n"), encoding="utf-8")
    staged, problems, _ = stage_bundles([data], cache=tmp_path / "cache")
    assert [str(p) for p in problems] == []
    db = build_database_from(staged, db_path=tmp_path / "benchmarks.duckdb")
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT result, metric, unit, value_text FROM measurements ORDER BY ALL").fetchall() == [
            ("d1", "tps", "tx/s", "5"), ("tps", "tps", "tx/s", "100.50"), ("tps", "tps", "tx/s", "180.10"),
            ("tps", "tps", "tx/s", "200.25"), ("tps", "tps", "tx/s", "90.00")]


def test_the_catalogue_stores_each_metric_in_its_one_unit(catalogue):
    with duckdb.connect(str(catalogue.database), read_only=True) as con:
        found = con.execute("SELECT metric, list(DISTINCT unit ORDER BY unit), count(*) FROM measurements "
                            "GROUP BY metric ORDER BY metric").fetchall()
    assert {m: units for m, units, _ in found} == {m: [metric_unit(m)] for m, _, _ in found}
    # the three benchmarks' new-order transactions a minute, once spelt three ways, are one quantity
    assert ("oet", ["new-order transactions/min"], 62) in found


def _json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_no_chart_panel_or_ratio_puts_two_metrics_or_two_units_on_one_axis(catalogue):
    export = catalogue.export
    # Explore draws a panel per study and metric (site/assets/js/explore.js, its key study|metric)
    panels: dict[tuple, set] = {}
    for file in sorted((export / "assets" / "explore").glob("*.json")):
        for row in _json(file)["rows"]:
            panels.setdefault((row["study"], row["metric"]), set()).add(row["unit"])
            if row["group"]:  # repeated runs drawn once: their key starts with their metric and its unit
                assert row["group"]["key"].startswith(f"{row['metric']}|{metric_unit(row['metric'])}|")
    assert panels and all(units == {metric_unit(m)} for (_, m), units in panels.items())
    # Compare draws the series' values that share a key, metric|unit|state|threads, across studies: a
    # metric has one unit, so a key is one metric's and no metric is split over two keys by its unit
    keys: dict[str, set] = {}
    for file in sorted((export / "assets" / "compare").glob("*.json")):
        for series in _json(file)["series"]:
            for value in series["values"]:
                assert value["unit"] == metric_unit(value["metric"])
                keys.setdefault(value["metric"], set()).add(value["unit"])
    assert keys and all(len(units) == 1 for units in keys.values())
    # a study's chart is one metric's, in its one unit (ingest/publish/study.py joins the units it finds)
    charts = [chart for file in sorted((export / "data" / "studies").glob("*.json")) for chart in _json(file)["charts"]]
    assert charts and all(chart["unit"] == metric_unit(chart["metric"]) for chart in charts)
    # a facet page's ratio is of two values of one metric (same_point): each group one metric, one unit
    groups = [g for facet in read_facets(export / "data").values() for s in facet["studies"] for g in s["groups"]]
    assert groups and all(g["unit"] == metric_unit(g["metric"]) for g in groups)
