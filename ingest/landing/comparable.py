"""Your run set against the catalogue: the published series of the same test and engine at the
nearest thread count (database/sql/comparable.sql, the rule's one statement), the percentile your TPS is at
among them, and the series nearest yours by the facts you recorded (the like-for-like rule's facts,
publish/like.py), each with the ratio of yours to it and what differs."""

from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import duckdb

from ..database.comparable import ENGINES, statements
from ..database.load import create_schema
from ..plumbing.text import printable
from ..publish.like import NOT_STATED, Difference, every_configuration, fact_label, fact_word
from .your_run import STUDY, CompareFailed, YourRun, run_row

# The fact of a series each fact you state is (publish/like.py's keys); the log's own are its
# workload's ("benchmark") and its sysbench options ("option.*")
STATED_AS = {"product": "storage", "vendor": "storage", "device_class": "device_class", "raid_level": "raid_level",
             "drives": "drives", "protocol": "protocol", "engine": "db"}
NEAREST = 5  # the series named as nearest yours


@dataclass(frozen=True)
class Series:
    """A published series at the thread count nearest yours, and how it stands to your run."""
    study: str
    study_title: str
    system: str
    system_label: str
    workload: str
    workload_test: str
    threads: int
    tps: float
    n_values: int
    value_kind: str
    grade: str | None
    ratio: float  # your TPS over its
    differs: tuple[Difference, ...] = ()  # facts you stated that it states otherwise
    unknown: tuple[str, ...] = ()  # the labels of facts you stated that it does not state

    def as_data(self) -> dict:
        return {**{k: getattr(self, k) for k in ("study", "study_title", "system", "system_label", "workload",
                                                 "workload_test", "threads", "tps", "n_values", "value_kind",
                                                 "grade")},
                "ratio": round(self.ratio, 4), "differs": [d.as_data() for d in self.differs],
                "not_stated_there": list(self.unknown)}


@dataclass(frozen=True)
class Landing:
    run: dict  # your run's figures and grade (your_run.run_row)
    test: str | None  # the test_key of your workload
    engine: str | None  # the engine_key of your database
    series: list[Series] = field(default_factory=list)  # by TPS, highest first
    nearest: list[Series] = field(default_factory=list)
    percentile: float | None = None  # of your TPS among the series' (ties counted half)
    why_none: str | None = None  # where nothing is comparable: why, and what would make it so

    def as_data(self) -> dict:
        return {"run": self.run, "test": self.test, "engine": self.engine, "percentile": self.percentile,
                "series": [s.as_data() for s in self.series], "nearest": [f"{s.study}/{s.system}/{s.workload}"
                                                                        for s in self.nearest],
                "why_none": self.why_none, "page": f"/compare/yours/#{fragment(self)}" if fragment(self) else None}


def fragment(landing: Landing) -> str:
    """The address's fragment of the site's page for your run (site/assets/js/landing.js reads it): its
    test, engine, thread count and TPS, and its grade by the run-quality rules where it has one; "" where
    nothing is comparable for want of a test or engine."""
    if landing.test is None or landing.engine is None:
        return ""
    run = landing.run
    given = {"test": landing.test, "engine": landing.engine, "threads": run["threads"], "tps": run["tps"]}
    return urlencode({**given, **({"grade": run["grade"]} if run.get("grade") else {})})


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _facts(con: duckdb.DuckDBPyConnection, studies: list[str]) -> dict[tuple[str, str], dict]:
    return every_configuration(con, where=f"study IN ({', '.join(map(_quoted, studies))})") if studies else {}


def _against(mine: dict[str, str], theirs: dict[str, str], stated: list[str], *, threads: tuple[int, int]
             ) -> tuple[tuple, tuple]:
    """The facts you stated that a series states otherwise (the thread count first, where the nearest
    it measured is not yours), and those it does not state."""
    differs = [Difference("threads", "Threads", tuple(map(str, threads)))] if threads[0] != threads[1] else []
    unknown = []
    for key in stated:
        ours, other = (fact_word(key, side.get(key, NOT_STATED)) for side in (mine, theirs))
        if other.startswith(NOT_STATED):  # "not stated", or "not stated (the datadir is ...)" as a bundle says it
            unknown.append(fact_label(key))
        elif ours != other:
            differs.append(Difference(key, fact_label(key), (ours, other)))
    return tuple(differs), tuple(unknown)


def _why_none(con: duckdb.DuckDBPyConnection, *, test: str | None, engine: str | None) -> str:
    if engine is None:
        return "your run states no database engine the catalogue knows: give --engine (e.g. 'MySQL 8.0 (InnoDB)')"
    if test is None:
        return ("your log's workload names no sysbench test without options (the catalogue compares a run with "
                "runs of the same test only)")
    tests = con.execute(
        "SELECT test_key(w.tool, w.test) AS t, count(DISTINCT (r.study, r.system)) FROM results AS r "
        "JOIN workloads AS w USING (study, workload) JOIN systems AS s USING (study, system) "
        "WHERE r.metric = 'tps' AND engine_key(s.db_engine) = $engine AND t IS NOT NULL GROUP BY t ORDER BY 2 DESC, 1",
        {"engine": engine}).fetchall()
    runs = "; ".join(f"{t} ({n} system(s))" for t, n in tests) or "none"
    return (f"no published system runs {test} on {ENGINES[engine]} (the catalogue's {ENGINES[engine]} runs "
            f"by test: {runs}): a run of one of those tests would be compared")


# A catalogue given by --database is a file like any other a user is handed: it is opened reaching
# nothing outside itself (a view of a hostile copy read /etc/passwd, a SQLite file made DuckDB fetch an
# extension), within a memory bound, spilling nothing, and stopped after QUERY_SECONDS (a slow view ran
# 5 minutes, 21 GB and 54 GB of temporary files: issue #61's fifth pass)
CATALOGUE_CONFIG = {"enable_external_access": False, "autoinstall_known_extensions": False,
                    "autoload_known_extensions": False, "memory_limit": "2GB", "temp_directory": "",
                    "lock_configuration": True}
QUERY_SECONDS = 60
# What a catalogue defines that runs when a query names it, each (kind, name, definition): its views, its
# tables (a generated column of 3^11 terms, or a column of another type, passed the views' check: the
# eighth pass), its macros and functions (a macro named median was found before the built-in: every TPS came out x1,000,
# issue #61's seventh pass), its types and sequences. It must be what this version's schema defines.
DEFINED_SQL = """
SELECT 'view', view_name, sql FROM duckdb_views() WHERE NOT internal
UNION ALL SELECT 'table', table_name, sql FROM duckdb_tables() WHERE NOT internal
UNION ALL SELECT function_type, function_name, coalesce(macro_definition, '') || ' ' || parameters::VARCHAR
  FROM duckdb_functions() WHERE NOT internal
UNION ALL SELECT 'type', type_name, logical_type FROM duckdb_types() WHERE NOT internal
UNION ALL SELECT 'sequence', sequence_name, '' FROM duckdb_sequences()
ORDER BY ALL"""


@functools.cache
def _ours() -> frozenset[tuple[str, str, str]]:
    """What a catalogue benchdb build writes defines: the schema's (database/load.py), as DuckDB keeps it."""
    con = duckdb.connect()
    try:
        create_schema(con)
        return frozenset(con.execute(DEFINED_SQL).fetchall())
    finally:
        con.close()


def _keys(db: Path) -> tuple[str | None, str | None]:
    """Your run's test_key and engine_key, by the rule's macros in your run's own database."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        for macro in statements()[:2]:
            con.execute(macro)
        return con.execute(
            "SELECT test_key(w.tool, w.test), engine_key(s.db_engine) FROM runs AS r "
            "JOIN workloads AS w USING (study, workload) JOIN systems AS s USING (study, system)").fetchone()
    finally:
        con.close()


def land(yours: YourRun, *, catalogue: Path, facts: dict[str, str]) -> Landing:
    """Where ``yours`` lands among ``catalogue``'s series (``facts``: what you stated, your_run.FACTS).
    CompareFailed where the catalogue is no database benchdb build writes, or its queries run too long."""
    run = run_row(yours.database)
    test, engine = _keys(yours.database)
    try:
        con = duckdb.connect(str(catalogue), read_only=True, config=CATALOGUE_CONFIG)
    except duckdb.Error as exc:
        raise CompareFailed(f"{printable(str(catalogue))}: not a catalogue database ({str(exc).strip().splitlines()[0]})") from None
    try:
        defined = frozenset(con.execute(DEFINED_SQL).fetchall())
    except duckdb.Error as exc:
        con.close()
        raise CompareFailed(f"{printable(str(catalogue))}: not a catalogue database ({str(exc).strip().splitlines()[0]})") from None
    if defined != _ours():  # a view runs what it says: a tower of 4,096 took 75 s to plan (the sixth pass)
        con.close()
        kind, name, _ = sorted(defined ^ _ours())[0]
        raise CompareFailed(f"{printable(str(catalogue))}: not a catalogue database benchdb build writes " + (
            f"(its {kind} {printable(name)!r} is not this version's)" if any(k == "view" for k, _, _ in defined)
            else "(it has none of the catalogue's views)"))
    timer = threading.Timer(QUERY_SECONDS, con.interrupt)
    timer.start()
    try:
        first, second, series_sql = statements()
        con.execute(first)
        con.execute(second)
        if test is None or engine is None:
            return Landing(run=run, test=test, engine=engine, why_none=_why_none(con, test=test, engine=engine))
        cur = con.execute(series_sql, {"test": test, "engine": engine, "threads": run["threads"], "tps": run["tps"]})
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, r)) for r in cur.fetchall()]
        percentile = rows[0].pop("percentile") if rows else None
        for r in rows[1:]:
            r.pop("percentile")
        if not rows:
            return Landing(run=run, test=test, engine=engine, why_none=_why_none(con, test=test, engine=engine))
        theirs = _facts(con, sorted({r["study"] for r in rows}))
    except duckdb.InterruptException:
        raise CompareFailed(f"{printable(str(catalogue))}: its queries ran past {QUERY_SECONDS} s and were stopped") from None
    except duckdb.Error as exc:
        raise CompareFailed(f"{printable(str(catalogue))}: not a catalogue database benchdb build writes "
                            f"({str(exc).strip().splitlines()[0]})") from None
    finally:
        timer.cancel()
        con.close()
    own = duckdb.connect(str(yours.database), read_only=True)
    try:
        ((_, mine),) = _facts(own, [STUDY]).items()
    finally:
        own.close()
    if facts.get("raid_level") == "none":  # no array, which a bundle says by leaving raid out: said as given
        mine = {**mine, "raid_level": "none"}
    given = list(dict.fromkeys(STATED_AS[k] for k, v in facts.items() if v and k in STATED_AS))
    logged = ["benchmark", *(k for k in mine if k.startswith("option."))]  # what the log itself records
    series = [Series(**{**r, "ratio": math.inf if r["ratio"] is None else r["ratio"]},
                     differs=(found := _against(mine, theirs.get((r["study"], r["system"]), {}), [*given, *logged],
                                                threads=(run["threads"], r["threads"])))[0],
                     unknown=found[1]) for r in rows]
    labels = {fact_label(k) for k in given}

    def nearness(s: Series) -> tuple:
        """At your thread count first; then the most facts you gave that it states alike, the fewest that
        differ; then the fewest the log records that differ (its workload, its options); then the nearest in TPS."""
        given_differ, given_unknown = sum(d.key in given for d in s.differs), sum(u in labels for u in s.unknown)
        return (s.threads != run["threads"], -(len(given) - given_differ - given_unknown), given_differ,
                sum(d.key in logged for d in s.differs), sum(u not in labels for u in s.unknown),
                abs(math.log(s.ratio)) if 0 < s.ratio < math.inf else math.inf)

    nearest = sorted(series, key=nearness)
    return Landing(run=run, test=test, engine=engine, series=series, nearest=nearest[:NEAREST],
                   percentile=percentile)
