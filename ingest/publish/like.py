"""Like for like: the one rule Compare and the facet pages apply to two series (a system in a study).

A series' facts (schema/like-for-like.yaml says which) are the registry's compare fields
(schema/fields.yaml, role ``compare``), each as pages write it over all of its values (several values
joined with ", "; "not stated" when none); every other fact its bundle records for the system, by its
path (``host.kernel``, ``database.settings.sync_binlog``); and the sysbench options of its runs
(``option.tables``). Compare lists every fact whose text differs between the series picked; a facet page
pairs two systems of one study when their facet is stated on both, differs, and is the only fact that
differs but those that schema/like-for-like.yaml's ``follows`` lets differ with it (an NFS mount is
both protocol and filesystem; a storage product comes with its device class). "not stated" counts as
a value of its own: a system that does not say its sync_binlog is not like for like with one that
says 1.

Fields that are the same by definition within a study (its title) never differ between two systems of
it, so the facet pages, which compare within one study only, need no exception for them."""

from __future__ import annotations

import fnmatch
import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import duckdb
import yaml
from pydantic import BaseModel, ConfigDict

from ..bundles.fields import field, fields
from ..database.load import setting_text
from .db import Snapshot

NOT_STATED = "not stated"
RULE = Path(__file__).resolve().parents[2] / "schema" / "like-for-like.yaml"
SETTINGS = "database.settings"  # where a bundle states a system's server settings
# The facts named by a key of the bundle's or the log's own (a setting, a kernel knob, an option): how pages name them
NAMED = {SETTINGS: "server setting ", "host.tuning": "host tuning ", "host.firmware": "host firmware ",
         "option": "sysbench option --"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Follows(_Strict):
    facet: str
    facts: tuple[str, ...]
    when: Literal["filesystem-is-protocol", "stated-on-both"] | None = None
    why: str


class Rule(_Strict):
    not_facts: frozenset[str]
    options_not_facts: frozenset[str]
    labels: dict[str, str]
    follows: tuple[Follows, ...]


@functools.cache
def rule() -> Rule:
    found = Rule.model_validate(yaml.load(RULE.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
    keys = {f.key for f in fields("compare")}
    for f in found.follows:
        if f.facet not in keys:
            raise ValueError(f"{RULE.name}: follows: {f.facet!r} is not a compare field of schema/fields.yaml")
    return found


@dataclass(frozen=True)
class Difference:
    """A fact that differs between two series: its key, its label and both sides' text, and, when it
    differs only because the facet does, why."""
    key: str
    label: str
    values: tuple[str, str]
    why: str | None = None

    def as_data(self) -> dict:
        return {"key": self.key, "label": self.label, "values": list(self.values), "why": self.why}


def fact_label(key: str) -> str:
    """How pages name a fact: a compare field's label; a setting, option or other bundle fact by name."""
    if key in {f.key for f in fields("compare")}:
        return field(key).label
    for prefix, words in NAMED.items():  # a name a bundle or a log gives, kept as it is
        if key.startswith(f"{prefix}."):
            return f"{words}{key[len(prefix) + 1:]}"
    return rule().labels.get(key) or key.replace(".", " ").replace("_", " ").capitalize()


def config_sql(where: str = "TRUE", *, extra: str = "") -> str:
    """One row per (study, system) of the results view with its compare fields as text (after the
    ``extra`` select items, if any)."""
    config = ", ".join(f"coalesce(string_agg(DISTINCT {f.shown(f.key)}, ', ' ORDER BY {f.shown(f.key)}), "
                       f"'{NOT_STATED}') AS {f.key}" for f in fields("compare"))
    return f"SELECT study, system, {extra + ', ' if extra else ''}{config} FROM results WHERE {where} GROUP BY study, system"


# A system's bundle entry (studies.setup, as loaded) and its runs' sysbench options, for every study at once.
SYSTEMS_SQL = "SELECT study, CAST(setup->'$.systems' AS VARCHAR) AS systems FROM studies ORDER BY study"
OPTIONS_SQL = ("SELECT r.study, r.system, o.name, string_agg(DISTINCT o.value, ', ' ORDER BY o.value) AS value "
               "FROM run_options AS o JOIN runs AS r USING (study, artifact) GROUP BY ALL ORDER BY ALL")


def _text(value, *, setting: bool) -> str:
    if setting:
        return setting_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _flatten(value, path: str, out: dict[str, str]) -> None:
    if path in rule().not_facts:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            name = k.lower().replace("-", "_") if path == SETTINGS else k  # as the server reads it
            _flatten(v, f"{path}.{name}" if path else name, out)
    elif value is not None and value != [] and value != {}:
        out[path] = _text(value, setting=path.startswith(f"{SETTINGS}."))


def bundle_facts(system: dict) -> dict[str, str]:
    """A system's bundle entry (as loaded) as facts, path: text, but those a compare field shows."""
    out: dict[str, str] = {}
    _flatten(system, "", out)
    shown = {fact for f in fields("compare") for fact in f.facts}  # a compare field's, named once
    return {k: v for k, v in out.items() if k not in shown}


def _extra_facts(systems: list[dict], options: list[dict]) -> dict[str, dict[str, str]]:
    out = {s["id"]: bundle_facts(s) for s in systems}
    for o in options:
        if o["name"] not in rule().options_not_facts and o["system"] in out:
            out[o["system"]][f"option.{o['name']}"] = o["value"]
    return out


def configurations(db: Snapshot, study: str) -> dict[str, dict[str, str]]:
    """Each system of ``study`` that has values, with its facts (key: text): the compare fields first.
    Made once a study for every facet page (``db.memo``); callers do not change it."""
    return db.memo(("configurations", study), lambda: _configurations(db, study))


def _configurations(db: Snapshot, study: str) -> dict[str, dict[str, str]]:
    (row,) = db.of(study, SYSTEMS_SQL)
    extra = _extra_facts(json.loads(row["systems"]), db.of(study, OPTIONS_SQL))
    return {r["system"]: {**{k: v for k, v in r.items() if k != "system"}, **extra[r["system"]]}
            for r in db.of(study, config_sql() + " ORDER BY study, system")}


def every_configuration(con: duckdb.DuckDBPyConnection, *, where: str = "TRUE") -> dict[tuple[str, str], dict]:
    """Every (study, system) of the studies ``where`` holds for, with its facts: what Compare shows."""
    db = Snapshot(con, where=where)
    studies = [s for (s,) in con.execute(f"SELECT study FROM studies WHERE {where} ORDER BY study").fetchall()]
    return {(study, system): facts for study in studies for system, facts in configurations(db, study).items()}


def fact_word(key: str, value: str) -> str:
    """How pages write a fact's value: a compare field's by its words (schema/fields.yaml), another as it is."""
    return field(key).word(value) if key in {f.key for f in fields("compare")} else value


def differing(a: dict[str, str], b: dict[str, str]) -> list[Difference]:
    """Every fact whose text differs between two series: the compare fields in registry order, then
    the others in the order the first series, then the second, holds them."""
    keys = list(dict.fromkeys([*a, *b]))
    return [Difference(k, fact_label(k), (fact_word(k, a.get(k, NOT_STATED)), fact_word(k, b.get(k, NOT_STATED))))
            for k in keys if a.get(k, NOT_STATED) != b.get(k, NOT_STATED)]


def _follows(facet: str, key: str, a: dict[str, str], b: dict[str, str]) -> str | None:
    """Why a difference in ``key`` follows from the facet's, if a rule of schema/like-for-like.yaml says so."""
    for f in rule().follows:
        if f.facet != facet or not any(fnmatch.fnmatchcase(key, pattern) for pattern in f.facts):
            continue
        if f.when == "filesystem-is-protocol" and not any(
                c.get("filesystem") == c.get("protocol") != NOT_STATED for c in (a, b)):
            continue
        if f.when == "stated-on-both" and NOT_STATED in (a[facet], b[facet], a.get(key, NOT_STATED),
                                                        b.get(key, NOT_STATED)):
            continue
        return f.why
    return None


def like_for_like(facet: str, a: dict[str, str], b: dict[str, str]) -> tuple[bool, list[Difference], list[Difference]]:
    """(whether the pair differs in ``facet`` alone, the other facts that differ and break it, the
    other facts that differ only as a consequence of the facet, each with why)."""
    own = {facet, *field(facet).facts}
    others = [d for d in differing(a, b) if d.key not in own]
    following = [Difference(d.key, d.label, d.values, why) for d in others
                 if (why := _follows(facet, d.key, a, b))]
    breaking = [d for d in others if d.key not in {f.key for f in following}]
    stated = NOT_STATED not in (a[facet], b[facet])
    return stated and a[facet] != b[facet] and not breaking, breaking, following
