"""Facet pages: for each facet field of the registry, the comparison it exists for within one study.

For a system facet (RAID level, protocol, storage product, doublewrite, compression): every pair of a
study's systems that differ in that facet alone, by the like-for-like rule Compare applies
(``like.py``), as ratios of one system to the other (its reference) at the same metric, unit, state
and load; the systems in no such pair are named with the reason. The reference of a pair is the study's
baseline where it is one of the two; otherwise the one that has the baseline's value of the facet
(SupremeRAID RAID 10 against RAID 6, as MD RAID 10 is the baseline; doublewrite on, compression none in
the measured study); otherwise the one the bundle lists first. Ratios are grouped by reference.

For array state: each system while degraded or rebuilding against itself in optimal state, and the
systems that have no value outside optimal state."""

from __future__ import annotations

import json
from pathlib import Path

from ..bundles.fields import Field, facet_pages, metric_label
from ..database.evidence import as_data as evidence_grades
from ..synthesis.answer import synthesis
from . import alt_text
from .evidence import SQL_TABLE, answer, home_rows, plotted, sort_rows
from .colours import colour_chart
from .db import Snapshot
from .like import NOT_STATED, configurations, like_for_like
from .study import AXIS_LABELS
from .wanted import wanted

RATIO_PLACES = 4  # ratios to a reference, as published (pages print them to 2 places)
FACTS_NAMED = 8  # a system left out names this many of the facts it differs in, then counts the rest
STUDIES_PER_PAGE = 20  # a facet page lists this many studies, then goes on at /<facet>/2/, /<facet>/3/, ...
# A facet page holds in its own HTML at most this many of its studies' ratio cells and pairs (weight); a
# study that would take it past them is drawn from a page of its own, /<facet>/studies/<id>/, which the
# facet page's fold of it links to and fetches when opened (facet.html, js/facet-detail.js). Measured on
# the catalogue: a unit of weight is 65 to 90 bytes of gzip in the page (a table cell, its point in the
# chart's data, its share of the cite boxes, headings and pairs); the scripts, style and icon are 107 KB
# and a facet's evidence view up to 18 KB (/provisioned-iops/: its plot's 398 pairs), which leaves about
# 25 KB of the page budget of 150 KB (tests/test_facet_budget.py). 406 pairs and 1,736 cells of one
# study were 112.7 KB of /provisioned-iops/.
INLINE_WEIGHT = 250
PAGES = "facet_pages"  # the folder of the exported data that holds each facet page's studies, a file a page

# Each value paired with its reference at the same point, for every study at once: {values} names the
# values (c) and {pair} their reference (b); {group} is the reference a value was wanted against.
PAIRS = """
    SELECT c.study, {group} AS wanted_against, c.system, b.system AS reference, c.workload,
           (SELECT wl.tool || ' ' || wl.test FROM workloads AS wl WHERE wl.study = c.study AND wl.workload = c.workload)
             AS workload_test, c.metric, c.unit, c.state, c.threads, c.runs, c.value_text,
           c.value_kind, c.provenance, c.quote, c.source_href, c.printed_as, c.flag, c.note,
           b.value_text AS baseline_text,
           b.value_kind AS baseline_kind, b.flag AS baseline_flag, b.note AS baseline_note,
           CASE WHEN NOT (c.inconsistent OR b.inconsistent) THEN round(c.value / b.value, {places}) END AS ratio,
           CASE WHEN NOT (c.inconsistent OR b.inconsistent) THEN round(c.low / b.value, {places}) END AS low,
           CASE WHEN NOT (c.inconsistent OR b.inconsistent) THEN round(c.high / b.value, {places}) END AS high,
           greatest(c.evidence_rank, b.evidence_rank) AS evidence_rank, c.inconsistent OR b.inconsistent AS inconsistent,
           c.system <> b.system AND spreads_overlap(c.runs, c.low, c.high, b.runs, b.low, b.high) AS overlap,
           {facet} AS facet
    FROM {values} JOIN coordinates AS b
      ON b.study = c.study AND b.value <> 0 AND {pair}
    ORDER BY c.study, wanted_against, c.position"""


def _pairs(db: Snapshot, study: str, *, values: str, pair: str, facet: str, group: str = "NULL") -> list[dict]:
    return db.of(study, PAIRS.format(places=RATIO_PLACES, values=values, pair=pair, facet=facet, group=group))


def _name(label: str) -> str:
    """A field label inside a sentence: "RAID level" and "InnoDB page size" stay, "Buffer pool (MiB)" becomes
    "buffer pool (MiB)"."""
    return label if any(c.isupper() for c in label.split()[0][1:]) else label[:1].lower() + label[1:]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ratio_groups(pairs: list[dict], labels: dict[str, str], *, reference: str, suffix: str) -> list[dict]:
    """Tables and chart specs of ratios to one reference, one group per (metric, unit, state) and
    per-load or single figure; the reference's row first, then the others in the bundle's order."""
    groups: dict[tuple, dict] = {}
    order = [reference, *(s for s in labels if s != reference)]
    several = len({p["workload"] for p in pairs}) > 1  # then each workload is a comparison of its own
    for system in order:
        for p in (p for p in pairs if p["system"] == system):
            by_threads = p["threads"] is not None  # a per-load series and a single figure are separate comparisons
            workload = p["workload"] if several else None
            g = groups.setdefault((p["metric"], p["unit"], p["state"], workload, by_threads),
                                  {"metric": p["metric"], "unit": p["unit"], "state": p["state"], "rows": {},
                                   "workload": p["workload_test"] if workload else None,
                                   "workload_test": p["workload_test"]})  # one, even when not shown
            g["rows"].setdefault(system, []).append(
                {k: p[k] for k in ("threads", "ratio", "low", "high", "runs", "overlap", "value_text", "value_kind",
                                   "printed_as", "flag", "note", "baseline_text", "baseline_kind", "baseline_flag",
                                   "baseline_note", "provenance", "quote", "source_href", "facet", "evidence_rank",
                                   "inconsistent")})
    out = []
    against = "the same system in optimal state" if suffix is None else labels[reference]
    for (metric, unit, state, workload, by_threads), g in groups.items():
        threads = sorted({c["threads"] for cells in g["rows"].values() for c in cells if c["threads"] is not None})
        gid = (f"{metric}-{state or 'any'}" + (f"-{workload}" if workload else "") + ("-by-threads" if by_threads else "")
               + (suffix or ""))
        chart = None
        if by_threads and any(c["ratio"] is not None for cells in g["rows"].values() for c in cells):
            points = [{"series": labels[s], "system": s, "x": c["threads"], "y": c["ratio"],
                       "text": f"{c['ratio']:.2f}×" + (" (spreads overlap)" if c["overlap"] else ""),
                       "low": c["low"] if c["runs"] > 1 else None, "high": c["high"] if c["runs"] > 1 else None,
                       "state": state, "kind": "derived", "provenance": c["provenance"], "printed_as": None}
                      for s, cells in g["rows"].items() for c in cells if c["ratio"] is not None]
            of_workload = f", {g['workload']}" if g["workload"] else ""
            chart = {"id": gid, "title": f"{metric_label(metric)}{f' ({state})' if state else ''}{of_workload}, "
                                         f"relative to {against}", "metric": metric,
                     "unit": "× reference", "embed_prefix": None, "x_label": AXIS_LABELS["threads"],
                     "y_label": f"{metric_label(metric)} / reference",
                     "series": [labels[s] for s in g["rows"]], "switch": None, "points": points,
                     "alt": alt_text.by_x(points)}
        out.append({"id": gid, "reference": reference, "metric": metric, "metric_label": metric_label(metric),
                    "unit": unit, "state": state, "workload": g["workload"], "workload_test": g["workload_test"],
                    "columns": threads or [None], "chart": chart,
                    "rows": [{"system": s, "label": labels[s], "cells": cells} for s, cells in g["rows"].items()]})
    return out


def _name_embeds(groups: list[dict], prefix: str) -> None:
    for group in groups:
        if group["chart"]:
            group["chart"]["embed_prefix"] = f"{prefix}--{group['chart']['id']}"


def _stated_values(db: Snapshot, study: str, facet: Field) -> dict[str, str | None]:
    """Every system of the study (with values or not) and its value of a system facet, as pages write it."""
    return {r["system"]: r["value"] for r in db.of(
        study, f"SELECT s.study, s.system, {facet.shown(facet.sql)} AS value FROM systems AS s ORDER BY s.study, s.position")}


def _reference(a: str, b: str, baseline: str | None, config: dict, facet: Field) -> tuple[str, str, str]:
    """(reference, other, why) of a pair; ``a`` is listed before ``b`` in the bundle."""
    if baseline in (a, b):
        return (a, b, "the study's baseline") if a == baseline else (b, a, "the study's baseline")
    if baseline in config:
        for ref, other in ((a, b), (b, a)):
            if config[ref][facet.key] == config[baseline][facet.key]:
                return ref, other, f"has the baseline's {_name(facet.label)} ({facet.word(config[ref][facet.key])})"
    return a, b, "listed first in the bundle"


def _in_words(differences: list[list]) -> str:
    """The facts that differ (the same in each list), each with one system's value against the other
    system's, or others' (one list of like.Difference per other system)."""
    theirs: dict[str, list[str]] = {}
    for ds in differences:
        for d in ds:
            theirs.setdefault(d.key, []).append(d.values[1])
    named = [f"{_name(d.label)} ({d.values[0]} against {' or '.join(dict.fromkeys(theirs[d.key]))})"
             for d in differences[0][:FACTS_NAMED]]
    rest = len(differences[0]) - FACTS_NAMED
    return _and(named + ([f"{rest} other recorded fact{'s' if rest > 1 else ''} (Compare lists them)"] if rest > 0 else []))


def _left_out(system: str, labels: dict, config: dict, facet: Field) -> str:
    """Why a system is in no pair that differs in ``facet`` alone: the facts it differs in from the
    nearest systems of another value of the facet, with both values."""
    name = _name(facet.label)
    if system not in config:
        return "no printed or measured value"
    if config[system][facet.key] == NOT_STATED:
        return f"its {name} is not stated"
    if len(config) == 1:
        return "the only system of this study with values"
    others = [t for t in config if t != system and config[t][facet.key] not in (config[system][facet.key], NOT_STATED)]
    if not others:
        return f"no other system with values has another {name}"
    breaking = {t: like_for_like(facet.key, config[system], config[t])[1] for t in others}
    if not any(breaking.values()):  # like for like, yet no value at a common point
        return f"no value at the same metric, state and load as {_and([labels[t] for t in others])}"
    facts = {t: tuple(d.key for d in ds) for t, ds in breaking.items() if ds}
    if len(set(facts.values())) == 1 and len(facts) == len(others):
        every = "every other system" if len(others) == len(config) - 1 else f"every system of another {name}"
        return f"differs from {every} in {_in_words(list(breaking.values()))} as well"
    # the nearest systems (the fewest facts apart), grouped by the facts they differ in; the rest counted
    near = min(len(ds) for ds in breaking.values() if ds)
    groups: dict[tuple, list[str]] = {}
    for t in others:
        if len(breaking[t]) == near:
            groups.setdefault(facts[t], []).append(t)
    parts = [f"from {_and([labels[t] for t in ts])} in {_in_words([breaking[t] for t in ts])} as well"
             for ts in groups.values()]
    farther = sum(1 for ds in breaking.values() if len(ds) > near)
    if farther:
        parts.append(f"from {farther} other system{'s' if farther > 1 else ''} of another {name} in more")
    unshared = [labels[t] for t in others if not breaking[t]]
    if unshared:
        parts.append(f"shares no value at the same metric, state and load with {_and(unshared)}")
    return "differs " + "; ".join(parts)


# What _caveats reads, for every study at once (Snapshot.of): one query each, not three a study and facet.
NOTES = "SELECT study, coalesce(CAST(setup->'$.notes' AS VARCHAR[]), []) AS notes FROM studies ORDER BY study"
RUN_LENGTHS = ("SELECT study, system, count(*) AS n, min(elapsed_s) AS low, max(elapsed_s) AS high FROM runs "
               "WHERE complete GROUP BY study, system ORDER BY study, system")
HOSTS = ("SELECT DISTINCT study, system, host_cpu, host_memory_gib FROM systems WHERE host_cpu IS NOT NULL "
         "ORDER BY study, system")


def _caveats(db: Snapshot, study: str, systems: list[str]) -> list[str]:
    """What a measured study says about how it was measured, beside its ratios: the bundle's notes, the
    runs' length by their logs and the host the systems state, all from the database."""
    (row,) = db.of(study, NOTES) or [{"notes": []}]
    out = list(row["notes"])
    runs = [r for r in db.of(study, RUN_LENGTHS) if r["system"] in systems]
    n = sum(r["n"] for r in runs)
    if n:
        low = min((r["low"] for r in runs if r["low"] is not None), default=None)
        high = max((r["high"] for r in runs if r["high"] is not None), default=None)
        length = f"{low:.2f} s" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f} to {high:.2f} s"
        out.append(f"{n} runs compared here, each {length} long by its log's total time.")
    hosts = {(h["host_cpu"], h["host_memory_gib"]) for h in db.of(study, HOSTS) if h["system"] in systems}
    for cpu, memory in sorted(hosts, key=lambda h: (h[0], h[1] is None, h[1] or 0)):  # SQL's order: NULLs last
        out.append(f"Host as the bundle states it: {cpu}" + (f", {memory:g} GiB of memory." if memory else "."))
    return out


def _candidates(db: Snapshot, doc: dict, facet: Field) -> dict[str, list[tuple[str, str, list]]] | None:
    """The pairs of a study's systems that differ in this facet alone, by reference:
    {reference: [(other, why, fields that differ as a consequence)]}; None when the study's systems do
    not take two stated values of the facet."""
    study, baseline = doc["id"], doc.get("baseline")
    labels = {s["id"]: s["label"] for s in doc["systems"]}
    if len({v for v in _stated_values(db, study, facet).values() if v is not None}) < 2:
        return None
    config = configurations(db, study)
    with_values = [s for s in labels if s in config]
    candidates: dict[str, list[tuple[str, str, list]]] = {}  # reference: [(other, why, following)]
    for i, a in enumerate(with_values):
        for b in with_values[i + 1:]:
            if like_for_like(facet.key, config[a], config[b])[0]:
                ref, other, why = _reference(a, b, baseline, config, facet)
                following = like_for_like(facet.key, config[other], config[ref])[2]  # as pages say a pair: other first
                candidates.setdefault(ref, []).append((other, why, following))
    return candidates


def _wanted(db: Snapshot, facet: Field, candidates: dict[str, dict]) -> str:
    """A temporary table of the (study, reference, system) values wanted for the facet's pairs (the
    reference with itself, then each other system): the ratios of every study come from one query."""
    wanted = [(study, ref, system) for study, by_ref in candidates.items() if by_ref
              for ref, others in by_ref.items() for system in (ref, *(o for o, _, _ in others))]
    table = f"wanted_{facet.key}"
    db.con.execute(f"CREATE OR REPLACE TEMP TABLE {table} (study VARCHAR, reference VARCHAR, system VARCHAR)")
    if wanted:
        db.con.execute(f"INSERT INTO {table} SELECT unnest(?), unnest(?), unnest(?)", [list(c) for c in zip(*wanted)])
    return table


def _against_each_other(db: Snapshot, doc: dict, facet: Field, candidates: dict, wanted: str) -> dict:
    """The pairs of a study's systems that differ in this facet alone (``candidates``), their ratios
    grouped by reference, and the systems left out."""
    study, baseline = doc["id"], doc.get("baseline")
    labels = {s["id"]: s["label"] for s in doc["systems"]}
    config = configurations(db, study)
    of_system = (f"(SELECT any_value({facet.shown('r.' + facet.key)}) FROM results AS r "
                 "WHERE r.study = c.study AND r.system = c.system)")
    every = _pairs(db, study, facet=of_system, group="w.reference",
                   values=f"{wanted} AS w JOIN coordinates AS c ON c.study = w.study AND c.system = w.system",
                   pair="b.system = w.reference AND b.workload IS NOT DISTINCT FROM c.workload "
                        "AND same_point(c.metric, c.unit, c.state, c.threads, b.metric, b.unit, b.state, b.threads)")
    references, pairs, groups = [], [], []
    for ref in sorted(candidates, key=lambda s: (s != baseline, list(labels).index(s))):  # the baseline first
        found = [p for p in every if p["wanted_against"] == ref]
        kept = [(o, why, fol) for o, why, fol in candidates[ref] if any(p["system"] == o for p in found)]
        if not kept:
            continue
        keep = {ref, *(o for o, _, _ in kept)}
        ref_groups = _ratio_groups([p for p in found if p["system"] in keep], labels, reference=ref,
                                   suffix="" if ref == baseline else f"-vs-{ref}")
        groups += ref_groups
        references.append({"system": ref, "label": labels[ref], "value": facet.word(config[ref][facet.key]),
                           "why": kept[0][1], "groups": [g["id"] for g in ref_groups]})
        for o, _, following in kept:
            pairs.append({"reference": ref, "reference_label": labels[ref], "other": o, "other_label": labels[o],
                          "reference_value": facet.word(config[ref][facet.key]),
                          "other_value": facet.word(config[o][facet.key]),
                          "compare": f"/compare/?series={study}:{ref},{study}:{o}",
                          "follows": [d.as_data() for d in following]})
    paired = {p["reference"] for p in pairs} | {p["other"] for p in pairs}
    left_out = [{"system": s, "label": labels[s], "reason": _left_out(s, labels, config, facet)}
                for s in labels if s not in paired]
    measured = any(c["value_kind"] == "measured" or c["baseline_kind"] == "measured"
                   for g in groups for r in g["rows"] for c in r["cells"])
    return {"study": study, "title": doc["title"], "baseline": labels.get(baseline), "pairs": pairs,
            "references": references, "groups": groups, "left_out": left_out,
            "caveats": _caveats(db, study, sorted(paired)) if measured else []}


def _against_optimal(db: Snapshot, doc: dict) -> dict | None:
    """Each system while degraded or rebuilding against itself in optimal state; the systems with no
    such value are named."""
    labels = {s["id"]: s["label"] for s in doc["systems"]}
    pairs = _pairs(db, doc["id"], facet="c.state", values="coordinates AS c",
                   pair="b.system = c.system AND b.state = 'optimal' AND c.state <> 'optimal' "
                        "AND b.metric = c.metric AND b.unit = c.unit AND b.threads IS NOT DISTINCT FROM c.threads "
                        "AND b.workload IS NOT DISTINCT FROM c.workload")
    if not pairs:
        return None
    groups: list[dict] = []
    for group in _ratio_groups(pairs, labels, reference=next(iter(labels)), suffix=None):
        group["reference"] = None
        groups.append(group)
    compared = {p["system"] for p in pairs}
    with_values = {r["system"] for r in db.of(doc["id"], "SELECT DISTINCT study, system FROM coordinates ORDER BY ALL")}
    left_out = [{"system": s, "label": labels[s],
                 "reason": "no value outside optimal state with an optimal value at the same metric and load"
                 if s in with_values else "no printed or measured value"}
                for s in labels if s not in compared]
    measured = any(p["value_kind"] == "measured" for p in pairs)
    return {"study": doc["id"], "title": doc["title"], "baseline": "the same system in optimal state",
            "pairs": [], "references": [], "groups": groups, "left_out": left_out,
            "caveats": _caveats(db, doc["id"], sorted(compared)) if measured else []}


def study_facets(db: Snapshot, heads: list[dict], *, colours: dict[tuple[str, str], int]) -> dict[str, dict[str, dict]]:
    """Each study's part of every facet page, for the studies of ``heads`` (``db`` reads those): {study:
    {slug: part}}, a part being {"entry": its comparisons} or {"unpaired": its systems left out}, and no
    part on a facet page the study is not on. A part depends on its study alone (the export's cache
    keeps it, study_cache.py); which page of the facet it is on is for facet_pages_data. Charts are
    coloured like their study's own charts (colours.py: ``colours`` holds the studies' positions)."""
    out: dict[str, dict[str, dict]] = {doc["id"]: {} for doc in heads}
    for facet in facet_pages():
        slug = facet.page.slug
        if facet.page.baseline == "baseline":
            candidates = {doc["id"]: _candidates(db, doc, facet) for doc in heads}
            wanted = _wanted(db, facet, candidates)
        for doc in heads:
            if facet.page.baseline == "baseline":
                found = candidates[doc["id"]]
                entry = None if found is None else _against_each_other(db, doc, facet, found, wanted)
            else:
                entry = _against_optimal(db, doc)
            if entry is None:
                continue
            if not entry["groups"]:
                out[doc["id"]][slug] = {"unpaired": {k: entry[k] for k in ("study", "title", "left_out")}}
                continue
            _name_embeds(entry["groups"], f"facet-{slug}--{doc['id']}")
            for group in entry["groups"]:
                if group["chart"]:
                    colour_chart(group["chart"], doc["id"], colours)
            out[doc["id"]][slug] = {"entry": entry}
    return out


def facet_pages_data(parts: dict[str, dict[str, dict]]) -> dict:
    """Every facet page from its studies' parts (``parts``: {study: {slug: part}}, in the studies'
    order; a part as the export keeps it, publish/__init__.py: facet_parts): each facet's prose, its pages
    (STUDIES_PER_PAGE studies a page) and its studies, each with the path of the page it is on, and the
    studies with no pair."""
    pages = {}
    for facet in facet_pages():
        slug = facet.page.slug
        studies = [{"study": study, "part": on[slug]} for study, on in parts.items() if "text" in on.get(slug, {})]
        count = max(1, -(-len(studies) // STUDIES_PER_PAGE))
        chunks = [{"number": n, "path": f"/{slug}/" + (f"{n}/" if n > 1 else "")} for n in range(1, count + 1)]
        for i, entry in enumerate(studies):
            entry["path"] = chunks[i // STUDIES_PER_PAGE]["path"]
        _place_details(slug, studies)
        pages[slug] = {"chunks": chunks, "title": facet.page.title, "column": facet.key, "label": facet.label,
                       "name": _name(facet.label), "about": facet.page.about, "optimal": facet.page.baseline == "optimal",
                       "studies": studies,
                       "unpaired": [on[slug]["unpaired"] for on in parts.values() if "unpaired" in on.get(slug, {})]}
    return pages


def weight(entry: dict) -> int:
    """How much of a facet page a study's comparisons take (INLINE_WEIGHT): its ratio cells (a chart's
    points, a table's cells) and its pairs."""
    cells = sum(len(g["chart"]["points"]) if g.get("chart") else sum(len(r["cells"]) for r in g["rows"])
                for g in entry["groups"])
    return cells + len(entry["pairs"])


def _place_details(slug: str, studies: list[dict]) -> None:
    """Give each study (in the order of its facet's pages) its ``detail``: None where its comparisons fit
    in what INLINE_WEIGHT leaves on its page, else the path of the page of its own they are drawn on."""
    left: dict[str, int] = {}
    for entry in studies:
        took = weight(json.loads(entry["part"]["text"]))
        room = left.get(entry["path"], INLINE_WEIGHT)
        if took <= room:
            left[entry["path"]] = room - took
            entry["detail"] = None
        else:
            entry["detail"] = f"/{slug}/studies/{entry['study']}/"


def entry_text(entry: dict) -> str:
    """A study's comparisons on a facet page as the page's file holds them, but for the page's path."""
    return json.dumps(entry, ensure_ascii=False)


def _placed(text: str, path: str, detail: str | None) -> str:
    """``entry_text``'s text with the path of the page it is on and of its page of its own (its last
    keys; _place_details)."""
    return f'{text[:-1]}, "path": {json.dumps(path, ensure_ascii=False)}, "detail": {json.dumps(detail, ensure_ascii=False)}}}'


def page_name(slug: str, number: int) -> str:
    """The name of a facet page's file in PAGES (and its key in Hugo's data)."""
    return f"{slug}-{number}"


def write_facets(facets: dict, *, data_dir: Path, evidence: dict[str, dict]) -> None:
    """Write ``facets.json``, each facet's prose and pages (with the ids of each page's studies), and
    ``facet_pages/<slug>-<n>.json``, the studies of each page (and on its last page, the studies with no
    pair; the pages of their own of its studies, ``details``, are rendered with it): a page is rendered,
    and kept in the page cache, from its own file (ingest/build/shards.py).
    ``facets`` is facet_pages_data's, each study's entry as ``entry_text`` wrote it (``part["text"]``);
    each facet's entry of facets.json holds its ``evidence`` (evidence_data's), so that a facet page's
    key in the page cache changes with its own facet's evidence alone."""
    folder = data_dir / PAGES
    folder.mkdir()
    meta = {}
    for slug, facet in facets.items():
        by_page: dict[str, list] = {}
        for study in facet["studies"]:
            by_page.setdefault(study["path"], []).append(study)
        chunks = [{**c, "studies": [s["study"] for s in by_page.get(c["path"], [])],
                   "details": [s["detail"] for s in by_page.get(c["path"], []) if s["detail"]]} for c in facet["chunks"]]
        meta[slug] = {**{k: v for k, v in facet.items() if k not in ("studies", "unpaired")}, "chunks": chunks,
                      "rows_sql": every_row_sql(slug), "evidence": evidence[slug]}
        for chunk in facet["chunks"]:
            entries = ", ".join(_placed(s["part"]["text"], s["path"], s["detail"]) for s in by_page.get(chunk["path"], []))
            unpaired = json.dumps(facet["unpaired"] if chunk is facet["chunks"][-1] else [], ensure_ascii=False)
            (folder / f"{page_name(slug, chunk['number'])}.json").write_text(
                f'{{"studies": [{entries}], "unpaired": {unpaired}}}', encoding="utf-8")
    (data_dir / "facets.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")


def every_row_sql(slug: str) -> str:
    """The query of /sql/'s ``evidence`` table that gives a facet's every row, as its page's table of every
    pair lists them (that table holds the first site.Params.evidence_rows: evidence/view.html)."""
    return (f"SELECT study, systems, workload, metric, state, median, low, high, loads, grade, left_out\n"
            f"FROM {SQL_TABLE}\nWHERE facet = '{slug}'\n")


def evidence_data(facets: dict) -> dict[str, dict]:
    """Each facet's question, answer and evidence rows (evidence.py), in the registry's order (``order``),
    with the places of the rows its plot draws (``plot``: evidence.plotted);
    ``facets`` as facet_pages_data makes them."""
    out = {}
    for order, facet in enumerate(facet_pages()):
        page = facets[facet.page.slug]
        rows = sort_rows([dict(r) for s in page["studies"] for r in s["part"].get("evidence", [])])
        found = synthesis(rows, slug=facet.page.slug, name=page["name"], optimal=facet.page.baseline == "optimal")
        for r in rows:  # each load's ratio is the synthesis's; the rows as pages and /sql/ read them hold the range
            r.pop("ratios", None)
            r.pop("engine", None)
        said = answer(rows, synthesis=found)
        out[facet.page.slug] = {"order": order, "title": page["title"], "question": facet.page.question,
                                "path": f"/{facet.page.slug}/", "answer": said, "synthesis": found, "rows": rows,
                                "wanted": wanted(facet.page, answer=said, synthesis=found),
                                "plot": plotted(rows, said["metric"]), **home_rows(rows, said)}
    return out


def write_answers(evidence: dict[str, dict], *, data_dir: Path) -> None:
    """Write ``answers.json``, each facet's question and answer without its rows but those the home page
    draws (the home page and /facets/ read it; a facet page reads its own entry of facets.json, rows and
    all), and
    ``evidence_grades.json``, the grades' marks and words (schema/evidence-grades.yaml)."""
    answers = {slug: {k: v for k, v in e.items() if k not in ("rows", "plot")} for slug, e in evidence.items()}
    (data_dir / "answers.json").write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    (data_dir / "evidence_grades.json").write_text(json.dumps(evidence_grades(), ensure_ascii=False), encoding="utf-8")


def read_facets(data_dir: Path) -> dict:
    """The facets as the pages read them, from what write_facets wrote: each facet's prose, pages, studies
    (their entries, each with its page's path) and studies with no pair."""
    meta = json.loads((data_dir / "facets.json").read_text(encoding="utf-8"))
    facets = {}
    for slug, facet in meta.items():
        studies, unpaired = [], []
        for chunk in facet["chunks"]:
            part = json.loads((data_dir / PAGES / f"{page_name(slug, chunk['number'])}.json").read_text(encoding="utf-8"))
            studies += part["studies"]
            unpaired += part["unpaired"]
        facets[slug] = {**facet, "chunks": [{k: c[k] for k in ("number", "path")} for c in facet["chunks"]],
                        "studies": studies, "unpaired": unpaired}
    return facets
