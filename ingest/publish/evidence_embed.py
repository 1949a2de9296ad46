"""A facet's evidence plot as an embed, made as a chart's is (embeds.py): an embed page ``/embed/evidence-
<facet>/`` with its oEmbed answer (Hugo makes them with the facet's first page, from the facet's evidence
in facets.json), the SVG site/render/embeds.mjs draws at build time (renderer ``evidence``: the facet page's
plot, site/assets/js/plot-evidence.js, framed with its question, answer, grades in words and sources), the
CSV of exactly the rows plotted (with a synthesis, the forest of its first contrast: a row a study and a
pooled estimate), its reference (BibTeX and CSL-JSON beside the CSV, citation.py) and its
entry in ``/embed/index.json``. The query that gives the same rows
from /sql/'s ``evidence`` table (evidence.py: SQL_TABLE) is written here too, beside the CSV's columns (a
forest's: the evidence rows of its metric its studies' effects are taken from, as /sql/ holds no synthesis).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..database.evidence import as_data
from . import embed_specs
from .citation import reference, write_references
from .embeds import csv_bytes
from .evidence import SQL_TABLE, ratio_text

COLUMNS = ["study", "title", "systems", "workload", "metric", "state", "median", "low", "high", "grade", "year",
           "source_kind"]
# a forest's CSV (a facet with a synthesis): a row a study of each group ("study") and a pooled estimate ("pooled")
FOREST_COLUMNS = ["contrast", "group", "row", "study", "title", "year", "source_kind", "grade", "pairs", "loads", "ratio",
                  "low", "high", "min", "max", "weight", "imputed", "flipped", "pi_low", "pi_high", "i2", "tau2", "k",
                  "method"]
SPECS = "_evidence.json"  # the evidence embeds' file of embed_specs.FOLDER: no study's id begins with "_"


def embed_id(slug: str) -> str:
    return f"evidence-{slug}"


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def sql(slug: str, metric: str) -> str:
    """The query of /sql/'s ``evidence`` table that gives the plot's rows, in its order and with its CSV's
    columns."""
    return (f"SELECT study, title,\n"
            f"       systems, workload, metric, state, median, low, high, grade, year, source_kind\n"
            f"FROM {SQL_TABLE}\n"
            f"WHERE facet = {_quoted(slug)} AND metric = {_quoted(metric)} AND left_out IS NULL\n"
            f"ORDER BY grade_rank, median, study, other, coalesce(workload, '')\n")


def _sources(rows: list[dict]) -> list[str]:
    """Each study of ``rows`` once, with its year and who published it."""
    return list(dict.fromkeys(r["study_label"] for r in rows))  # (evidence.study_meta)


def _alt(rows: list[dict]) -> str:
    """The plot's numbers in words (its text alternative)."""
    studies = len({r["study"] for r in rows})
    ratios = ratio_text(min(r["low"] for r in rows), max(r["high"] for r in rows))
    medians = ratio_text(min(r["median"] for r in rows), max(r["median"] for r in rows))
    return (f"{rows[0]['metric_label']}: {len(rows)} {'pair' if len(rows) == 1 else 'pairs'} in {studies} "
            f"{'study' if studies == 1 else 'studies'}, ratios from {ratios} (medians {medians}).")


def _embed(slug: str, entry: dict, *, out: Path, site_url: str) -> tuple[dict, str] | None:
    """Write a facet's evidence CSV; its entry and render spec (JSON text), or None if it plots nothing. With
    a synthesis (``entry["synthesis"]``), the forest of its first contrast, as the facet page draws it first;
    else the plot of its pairs."""
    contrasts = (entry.get("synthesis") or {}).get("contrasts") or []
    if contrasts:
        return _forest(slug, entry, band=entry["synthesis"]["band"], contrast=contrasts[0], out=out, site_url=site_url)
    rows = [entry["rows"][i] for i in entry["plot"]]
    if not rows:
        return None
    grades = as_data()["grades"]
    key = {g["rank"]: g["key"] for g in grades}
    data = csv_bytes(COLUMNS, [[r["study"], r["title"], r["systems"], r["workload"] or "", r["metric"], r["state"] or "",
                                repr(r["median"]), repr(r["low"]), repr(r["high"]), key[r["rank"]],
                                "" if r["year"] is None else r["year"], r["source_kind"]] for r in rows])
    lead = [entry["answer"]["sentence"],
            f"{rows[0]['metric_label']}: each row one pair within one study, the point its median ratio over the "
            "loads, the bar its lowest to highest; the dashed line is 1× (no difference)."]
    return _finish(slug, entry, data=data, rows=len(rows), alt=_alt(rows), sources=_sources(rows),
                   metric=rows[0]["metric"], ranks={r["rank"] for r in rows}, lead=lead, kinds=["ratio"],
                   renderer="evidence", spec={"rows": rows, "grades": grades}, out=out, site_url=site_url)


def _number(x: float | None) -> str:
    return "" if x is None else repr(x)


def _forest(slug: str, entry: dict, *, band: float, contrast: dict, out: Path, site_url: str) -> tuple[dict, str]:
    """The forest of one contrast of the facet's synthesis: its CSV holds one row a study of each group and
    one a pooled estimate (FOREST_COLUMNS; the leave-one-out estimates are the image's and the page's)."""
    key = {g["rank"]: g["key"] for g in as_data()["grades"]}
    rows, ranks = [], set()
    for group in contrast["groups"]:
        for s in group["studies"]:
            ranks.add(s["rank"])
            rows.append([contrast["id"], group["id"], "study", s["study"], s["title"], _number(s["year"]), s["source_kind"],
                         key[s["rank"]], s["pairs"], s["loads"], *map(_number, (s["ratio"], s["low"], s["high"], s["min"],
                         s["max"], s["weight"])), str(s["imputed"]).lower(), str(s["flipped"]).lower(), "", "", "", "", "", ""])
        if p := group["pooled"]:
            rows.append([contrast["id"], group["id"], "pooled", "", "", "", "", "", "", "",
                         *map(_number, (p["ratio"], p["low"], p["high"])), "", "", "", "", "",
                         *map(_number, (p["pi_low"], p["pi_high"], p["i2"], p["tau2"])), p["k"], p["method"]])
    studies = [s for g in contrast["groups"] for s in g["studies"]]
    pair = f"{contrast['other']} over {contrast['reference']}"
    lead = [contrast["sentence"],
            f"{contrast['metric_label']}, {pair}: each row one study, its effect the median of its like-for-like "
            "ratios; a group's pooled estimate under its studies."]
    return _finish(slug, entry, data=csv_bytes(FOREST_COLUMNS, rows), rows=len(rows), alt=_forest_alt(contrast),
                   sources=list(dict.fromkeys(f"{s['label']} ({s['source_kind']})" for s in studies)),
                   metric=contrast["metric"], ranks=ranks, lead=lead, kinds=["ratio", "pooled"], renderer="forest",
                   spec={"band": band, "contrast": contrast, "grades": as_data()["grades"]}, out=out, site_url=site_url)


def _forest_alt(contrast: dict) -> str:
    """The forest's numbers in words (its text alternative): each group's studies and pooled estimate."""
    parts = []
    for group in contrast["groups"]:
        n = len(group["studies"])
        words = f"{group['label'] + ': ' if group['label'] else ''}{n} {'study' if n == 1 else 'studies'}"
        ratios = [s["ratio"] for s in group["studies"]]
        words += f", effects {ratio_text(min(ratios), max(ratios))}"
        if p := group["pooled"]:
            words += (f", pooled {ratio_text(p['ratio'], p['ratio'])} ({ratio_text(p['low'], p['high'])}), "
                      f"prediction interval {ratio_text(p['pi_low'], p['pi_high'])}")
        parts.append(words)
    return f"{contrast['metric_label']}, {contrast['other']} over {contrast['reference']}: {'; '.join(parts)}."


def _finish(slug: str, entry: dict, *, data: bytes, rows: int, alt: str, sources: list[str], metric: str,
            ranks: set[int], lead: list[str], kinds: list[str], renderer: str, spec: dict, out: Path,
            site_url: str) -> tuple[dict, str]:
    """Write the CSV ``data`` and its references; the embed's entry and render spec (JSON text)."""
    grades = as_data()["grades"]
    chart_id = embed_id(slug)
    (out / f"{chart_id}.csv").write_bytes(data)
    title = f"Evidence: {entry['question']}"
    found = {
        "id": chart_id, "title": title, "kind": "evidence", "part": None, "study": None, "facet": slug,
        "page": f"/embed/{chart_id}/", "full_page": entry["path"],
        "svg": f"/embed/{chart_id}.svg", "csv": f"/embed/{chart_id}.csv",
        "sha256": hashlib.sha256(data).hexdigest(), "rows": rows, "alt": alt,
        "sources": sources, "sql": sql(slug, metric),
        "cite_key": f"benchdb-{chart_id}", "bib": f"/embed/{chart_id}.bib", "csl": f"/embed/{chart_id}.csl.json",
    }
    site = site_url.rstrip("/")
    # its reference, beside its CSV (a study's charts' are in their study's files: this is of many studies)
    write_references({chart_id: [reference(
        key=found["cite_key"], title=title, url=f"{site}{found['page']}", sha256=found["sha256"],
        about=f"The evidence of the facet page {site}{entry['path']}; values from: {'; '.join(found['sources'])}.")]},
        folder=out)
    context = {
        "lead": lead, "notes": [f"{g['mark']} {g['label']}: {g['about']}" for g in grades if g["rank"] in ranks],
        "sources": found["sources"], "kinds": kinds,
        "address": f"{site}{found['page']} · the question: {site}{entry['path']}", "sha256": found["sha256"],
        "alt": found["alt"]}
    spec = {"id": chart_id, "title": title, "renderer": renderer, "spec": spec, "option": None, "context": context}
    return found, json.dumps(spec, ensure_ascii=False)


def evidence_embeds(evidence: dict[str, dict], *, static_dir: Path, out_dir: Path, site_url: str) -> list[dict]:
    """Each facet's evidence embed (facets.evidence_data's ``evidence``): its CSV written, its render spec
    written into embed_specs.FOLDER's SPECS of the export ``out_dir``, its entry put in the facet's evidence
    as ``embed`` (the facet page and its embed page read it there). Returns the entries (index.json's)."""
    out = static_dir / "embed"
    out.mkdir(parents=True, exist_ok=True)
    entries, texts = [], []
    for slug, entry in evidence.items():
        made = _embed(slug, entry, out=out, site_url=site_url)
        entry["embed"] = made[0] if made else None
        if made:
            entries.append(made[0])
            texts.append(made[1])
    if texts:
        folder = out_dir / embed_specs.FOLDER
        folder.mkdir(exist_ok=True)
        embed_specs.write(folder / SPECS, texts)
    return entries
