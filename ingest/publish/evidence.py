"""The evidence of each facet page, and its answer.

An evidence row is one like-for-like pair of a study at one workload, metric and state (its two systems;
a study of eight sysbench tests has eight rows a pair, each naming its workload's tool and test; the
per-load series and a single printed figure are rows of their own) from the facet page's own ratios
(facets.py): the median of its ratios over the loads, the lowest and the highest, its evidence grade (the
worst of its ratios', schema/evidence-grades.yaml through the database's evidence_rank), the study's year
and the kind of party that published it (catalogue.published, as /studies/ says it). A ratio is always
of two values of one study. A cell flagged inconsistent (the file's ``inconsistent`` flags) makes no
ratio: a row of nothing else is kept, greyed, with the reason.

The answer of a facet is one sentence over its best-graded rows (``answer``, the one owner of its
wording): the metric, what is compared, the range of the ratios by array state, how many pairs and
studies, the grade; "studies disagree" with both sides named where one study's range is wholly above 1x
and another's wholly below; the rows of lower grades said apart, and the rows left out named."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pyarrow as pa

from ..bundles.fields import registry
from ..database.evidence import as_data
from .catalogue import published
from .sql_page import add_table

PLACES = 4  # as the ratios (facets.RATIO_PLACES)


def study_meta(head: dict, *, title: str) -> dict:
    """The year and the publisher's kind of a study, as the catalogue says them, and its label: its title
    with both, e.g. "Percona: 16KB random I/O ... (2010, independent)" (a year the title ends with in
    brackets is not said twice)."""
    found = published(head["sources"])
    year, kind = found["year"], found["kind"]
    if year and title.endswith(f" ({year})"):
        title = title[:-len(f" ({year})")]
    return {"year": year, "source_kind": kind, "study_label": f"{title} ({f'{year}, ' if year else ''}{kind})",
            "publisher": short_publisher(head["sources"])}


def short_publisher(sources: list[dict]) -> str:
    """Who published a study, in a word or two for a forest plot's label column: its first original
    source's publisher up to a bracket or a repository's slash ("Percona (blog)" is Percona,
    "hgxl64/mariadb-benchmarks (...)" hgxl64), without "Inc." or "LLC"; the runs of benchdb capture are "benchdb"."""
    first = next((s for s in sources if s.get("role", "original") == "original"), sources[0])
    if first.get("kind") == "measured-here":
        return "benchdb"
    words = first["publisher"].split(" (")[0].split("/")[0].split()
    while len(words) > 1 and words[-1].rstrip(".,") in CORPORATE:
        words.pop()
    return " ".join(words)


CORPORATE = {"Inc", "LLC", "Ltd", "Technology", "Technologies", "Media", "Corporation", "Corp"}  # left off a label


def _reason(cells: list[dict]) -> str:
    reasons = as_data()["inconsistent"]
    flags = [f for c in cells for f in (c.get("flag"), c.get("baseline_flag")) if f in reasons]
    return reasons[flags[0]] if flags else "no ratio"


ITSELF = "itself in optimal state"  # what a system is compared with on /array-state/


_OVER = re.compile(r"\bover\b", re.IGNORECASE)


def _named(label: str) -> str:
    """A system's label in a pair's words, quoted where it holds the word "over" itself: a label
    "itself in optimal state over B" made "A over itself in optimal state over B" (issue #61)."""
    return f"“{label}”" if _OVER.search(label) else label


def systems(row: dict) -> str:
    """The pair of a row in words: the other system over its reference (or over itself in optimal state)."""
    reference = ITSELF if row["reference"] == row["other"] else _named(row["reference_label"])
    return f"{_named(row['other_label'])} over {reference}"


def evidence_rows(entry: dict, head: dict) -> list[dict]:
    """A study's evidence rows on one facet page, from its entry there (facets.py), each with its pair in
    words (``systems``: what the table, the plot, its CSV and /sql/ show)."""
    meta = study_meta(head, title=entry["title"])
    values = {(p["reference"], p["other"]): (p["reference_value"], p["other_value"]) for p in entry["pairs"]}
    engines = {s["id"]: (s.get("database") or {}).get("engine") for s in head["systems"]}
    out = []
    for group in entry["groups"]:
        for row in group["rows"]:
            if row["system"] == group["reference"]:
                continue
            cells = row["cells"]
            used = [c for c in cells if c["ratio"] is not None]
            ratios = [c["ratio"] for c in used]
            reference = group["reference"] or row["system"]
            ref_value, other_value = values.get((reference, row["system"]), ("optimal", group["state"]))
            out.append({
                "study": entry["study"], "title": entry["title"], **meta,
                "reference": reference, "reference_label": next(
                    (r["label"] for r in group["rows"] if r["system"] == reference), row["label"]),
                "reference_value": ref_value, "other": row["system"], "other_label": row["label"],
                "other_value": other_value, "metric": group["metric"], "metric_label": group["metric_label"],
                "unit": group["unit"], "state": group["state"], "workload": group["workload_test"],
                "by_loads": cells[0]["threads"] is not None,
                "loads": len(used), "median": round(statistics.median(ratios), PLACES) if ratios else None,
                "low": min(ratios) if ratios else None, "high": max(ratios) if ratios else None,
                "rank": max(c["evidence_rank"] for c in (used or cells)),
                "left_out": None if used else _reason(cells),
                "loads_left_out": len(cells) - len(used),
                "ratios": ratios, "engine": engines.get(reference)})
            out[-1]["systems"] = systems(out[-1])
    return out


def plotted(rows: list[dict], metric: str | None) -> list[int]:
    """The rows a facet's evidence plot draws (their places in ``rows``): those of its answer's metric
    that make a ratio."""
    return [i for i, r in enumerate(rows) if metric is not None and r["metric"] == metric and r["left_out"] is None]


HOME_ROWS = 8  # the rows of a facet's chart on the home page, at most


def home_rows(rows: list[dict], found: dict) -> dict:
    """What the home page draws under a facet's answer (``found``: answer's), from the rows its sentence
    is over (the plot's metric, the best grade): each study's lowest and highest, so that every study
    and the answer's whole range show; past HOME_ROWS, the lowest and highest of all and then each
    study's lowest. In the plot's order, with how many rows the sentence is over (``home_of``)."""
    best = [rows[i] for i in plotted(rows, found["metric"]) if rows[i]["rank"] == found["rank"]]
    by_study: dict[str, list[int]] = {}
    for i, r in enumerate(best):
        by_study.setdefault(r["study"], []).append(i)
    median = lambda i: best[i]["median"]  # noqa: E731
    lows = [min(places, key=median) for places in by_study.values()]
    picked = set(lows) | {max(places, key=median) for places in by_study.values()}
    if len(picked) > HOME_ROWS:
        every = range(len(best))
        picked = set(list(dict.fromkeys([min(every, key=median), max(every, key=median), *lows]))[:HOME_ROWS])
    return {"home": [best[i] for i in sorted(picked)], "home_of": len(best)}


def sort_rows(rows: list[dict]) -> list[dict]:
    """Rows as the plot and the table list them: by metric (the registry's order), grade, then median."""
    order = {m.key: i for i, m in enumerate(registry().metrics)}
    return sorted(rows, key=lambda r: (order.get(r["metric"], len(order)), r["metric"], r["left_out"] is not None,
                                       r["rank"], r["median"] if r["median"] is not None else 0, r["study"],
                                       r["other"], r["workload"] or ""))


def ratio_text(low: float, high: float) -> str:
    a, b = f"{low:.2f}×", f"{high:.2f}×"
    return a if a == b else f"{a} to {b}"


def answer(rows: list[dict], *, synthesis: dict) -> dict:
    """The answer of a facet page over its evidence rows, from its synthesis (ingest/synthesis/: the one
    owner of its wording): the first contrast's sentence, every contrast's, the rows left out in words,
    and what the home page shows beside it (the certainty, the grade, the years, the publishers' kinds,
    how many studies and pairs the first contrast is over)."""
    contrasts = synthesis["contrasts"]
    if not contrasts:
        sentence = ("No pair makes a ratio." if rows
                    else "No study in the database has a like-for-like pair for this question yet.")
        return {"sentence": sentence, "sentences": [], "left_out": synthesis["left_out"], "certainty": None,
                "rank": None, "metric": None, "years": [], "kinds": [], "studies": 0, "pairs": 0}
    first, lead = contrasts[0], synthesis["lead"]
    studies = {s["study"]: s for g in first["groups"] for s in g["studies"]}
    sentences = [c["sentence"] for c in contrasts]
    return {"sentence": lead["sentence"] if lead else first["sentence"],
            "sentences": ([lead["sentence"]] if lead else []) + sentences,
            "left_out": synthesis["left_out"], "certainty": lead["certainty"] if lead else first["certainty"],
            "rank": first["rank"],
            "metric": first["metric"], "years": sorted({s["year"] for s in studies.values() if s["year"]}),
            "kinds": sorted({s["source_kind"] for s in studies.values()}), "studies": len(studies),
            "pairs": first["pairs"]}


# The evidence rows as /sql/ loads them (a table named ``evidence``, one row a facet's row): its columns
# and their types. The rows are the publish step's (the like-for-like rule is like.py's), so the table is
# /sql/'s and not the database file's.
SQL_TABLE = "evidence"
SQL_COLUMNS = (("facet", pa.string()), ("study", pa.string()), ("title", pa.string()), ("year", pa.int32()),
               ("source_kind", pa.string()), ("reference", pa.string()), ("reference_label", pa.string()),
               ("reference_value", pa.string()), ("other", pa.string()), ("other_label", pa.string()),
               ("other_value", pa.string()), ("systems", pa.string()), ("workload", pa.string()), ("metric", pa.string()), ("unit", pa.string()),
               ("state", pa.string()), ("by_loads", pa.bool_()), ("loads", pa.int32()), ("median", pa.float64()),
               ("low", pa.float64()), ("high", pa.float64()), ("grade_rank", pa.int32()), ("grade", pa.string()),
               ("left_out", pa.string()), ("loads_left_out", pa.int32()))
SQL_MEANINGS = {
    "facet": "The facet page (its address)", "year": "Earliest year of the study's original sources",
    "source_kind": "Who published the study's original sources (schema/fields.yaml: source_kinds)",
    "reference": "System the ratio is to (= 1)",
    "other": "System whose value is over the reference's",
    "systems": "The pair in words: the other system over its reference (or over itself in optimal state)",
    "workload": "The workload's tool and test",
    "by_loads": "A series over loads (else a single figure)",
    "loads": "Loads (thread counts) with a ratio", "median": "Median ratio over the loads",
    "low": "Lowest ratio over the loads", "high": "Highest ratio over the loads",
    "grade_rank": "Evidence grade, 1 the best (schema/evidence-grades.yaml)", "grade": "Evidence grade",
    "left_out": "Why the row makes no ratio", "loads_left_out": "Loads whose values make no ratio"}


def add_sql_table(evidence: dict[str, dict], *, static_dir: Path, sql_json: Path) -> None:
    """Store the evidence rows of every facet (facets.evidence_data's) as /sql/'s table ``evidence``
    (a table of its database file: sql_page.add_table) and list it in ``sql_json`` (sql_page.export_sql's)."""
    keys = {g["rank"]: g["key"] for g in as_data()["grades"]}
    rows = [{**r, "facet": slug, "grade_rank": r["rank"], "grade": keys[r["rank"]]}
            for slug, e in evidence.items() for r in e["rows"]]
    schema = pa.schema([pa.field(name, kind) for name, kind in SQL_COLUMNS])
    table = pa.Table.from_pylist([{name: r[name] for name, _ in SQL_COLUMNS} for r in rows], schema=schema)
    add_table(table, name=SQL_TABLE, labels=SQL_MEANINGS, types=DUCKDB_TYPES, static_dir=static_dir, sql_json=sql_json)


DUCKDB_TYPES = {pa.string(): "VARCHAR", pa.int32(): "INTEGER", pa.float64(): "DOUBLE", pa.bool_(): "BOOLEAN"}
