"""Every pair of the built catalogue's evidence differs in its facet alone, checked from the bundles
themselves: each system's entry in its bundle.yaml (read and validated as `benchdb validate` reads it)
and its runs' sysbench options; a difference is allowed only where schema/like-for-like.yaml says it
follows from the facet. This test reads the bundles, not the database's configurations, so a fact the
publish step forgets to compare fails it."""

from __future__ import annotations

import fnmatch
import json

import duckdb
import yaml

from conftest import ROOT
from ingest.build.site import Layout
from ingest.bundles.fields import facet_pages, fields
from ingest.bundles.validate import validate_file

RULE = yaml.safe_load((ROOT / "schema" / "like-for-like.yaml").read_text(encoding="utf-8"))
MISSING = object()


def _leaves(value, path: str = "") -> dict[str, object]:
    """A bundle entry's facts by path; a setting's name as the server reads it (lower case, - as _)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            name = k.lower().replace("-", "_") if path == "database.settings" else k
            out.update(_leaves(v, f"{path}.{name}" if path else name))
        return out
    return {} if value is None or value == [] else {path: value}


def _facts(system: dict, options: dict[str, set]) -> dict[str, object]:
    facts = {k: v for k, v in _leaves(system).items()
             if not any(k == n or k.startswith(n + ".") for n in RULE["not_facts"])}
    facts.update({f"option.{name}": values for name, values in options.items()
                  if name not in RULE["options_not_facts"]})
    return facts


def _allowed(facet: str, key: str, a: dict, b: dict) -> bool:
    """Whether a difference in ``key`` is the facet's own or one the rule lets follow from it."""
    shows = {f.key: f.facts for f in fields("compare")}  # a rule names a compare field for the facts it shows
    own = shows[facet]
    if key in own:
        return True
    for rule in RULE["follows"]:
        patterns = [p for name in rule["facts"] for p in shows.get(name, (name,))]
        if rule["facet"] != facet or not any(fnmatch.fnmatchcase(key, p) for p in patterns):
            continue
        if rule.get("when") == "filesystem-is-protocol":
            if any(c.get("filesystem.type") == c.get("protocol") for c in (a, b)):
                return True
        elif rule.get("when") == "stated-on-both":
            if all(MISSING is not c.get(k, MISSING) for c in (a, b) for k in (key, *own)):
                return True
        else:
            return True
    return False


def test_every_pair_differs_in_its_facet_alone(catalogue: Layout):
    evidence = json.loads((catalogue.export / "data" / "facets.json").read_text(encoding="utf-8"))
    con = duckdb.connect(str(catalogue.database), read_only=True)
    options: dict[tuple[str, str], dict[str, set]] = {}
    for study, system, name, value in con.execute(
            "SELECT r.study, r.system, o.name, o.value FROM run_options AS o JOIN runs AS r USING (study, artifact)").fetchall():
        options.setdefault((study, system), {}).setdefault(name, set()).add(value)
    bundles: dict[str, dict] = {}
    checked, facets = 0, {f.page.slug: f.key for f in facet_pages()}
    for slug, page in evidence.items():
        for row in page["evidence"]["rows"]:
            study = row["study"]
            if study not in bundles:
                loaded, problems = validate_file(catalogue.root / "data" / study / "bundle.yaml")
                assert loaded is not None and not [p for p in problems if p.severity == "error"], study
                bundles[study] = {s.id: s.model_dump(mode="json") for s in loaded.bundle.systems}
            if row["reference"] == row["other"]:  # a system against itself in optimal state
                assert slug == "array-state"
                continue
            a, b = (_facts(bundles[study][s], options.get((study, s), {})) for s in (row["reference"], row["other"]))
            differ = sorted(k for k in {*a, *b} if a.get(k, MISSING) != b.get(k, MISSING))
            facet = facets[slug]
            assert differ, (slug, study, row["reference"], row["other"])
            assert [k for k in differ if not _allowed(facet, k, a, b)] == [], (slug, study, row["reference"], row["other"])
            checked += 1
    assert checked > 800  # the catalogue's pairs' rows (3,500 or so at the 32 studies)


def test_a_binlog_pair_of_another_sync_binlog_is_left_out_with_its_settings_named(catalogue: Layout):
    """Percona's binlog study (2018): XFS with sync_binlog=1 against ext4 with sync_binlog=0 is no pair
    of the filesystem facet; ext4 and XFS at the same binlog settings and buffer pool are."""
    facets = json.loads((catalogue.export / "data" / "facets.json").read_text(encoding="utf-8"))
    rows = [r for r in facets["filesystem"]["evidence"]["rows"] if r["study"] == "percona-binlog-ext4-xfs-tpcc-2018"]
    pairs = {(r["reference"], r["other"]) for r in rows}
    assert ("ext4-full-binlog-sync0-bp60", "xfs-full-binlog-sync1-bp60") not in pairs
    assert ("ext4-full-binlog-sync0-bp60", "xfs-full-binlog-sync0-bp60") in pairs
    assert all(r["reference"].split("-", 1)[1] == r["other"].split("-", 1)[1] for r in rows), pairs
