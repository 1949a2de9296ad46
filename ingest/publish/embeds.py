"""Chart embeds: for every chart on the site, the CSV of exactly the data it draws, the list
Hugo makes the ``/embed/<id>/`` pages from, ``/embed/index.json`` (with a SHA-256 of each CSV, so
a citation can tell when the data behind it changed), and the specs site/render/embeds.mjs draws
the standalone SVG and PNG from with the same Plot functions the pages use.

An embed is one drawn panel: a by-x chart in one switch state, or one metric of a chart over time.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path
from typing import Iterator

from . import embed_specs
from . import alt_text
from ..database import citing
from .citation import chart_reference, files, sources_line
from .csv_cells import defused

# "inconsistency": why the source's own figures contradict a value, in words (as results.csv's column), and its note
BY_X_COLUMNS = ["series", "x", "value", "value_text", "low", "high", "unit", "state", "value_kind", "provenance",
                "inconsistency", "note"]
RUN_COLUMNS = ["run", "t_s", "metric", "value", "latency_pct", "status", "provenance"]
REBUILD_COLUMNS = ["element", "t_s", "t_end_s", "time", "state", "metric", "value", "label", "flag", "provenance"]


def _num(value) -> str:
    return "" if value is None else repr(value)


def _by_x(doc: dict, chart: dict, full_page: str) -> Iterator[dict]:
    for state in chart["switch"]["values"] if chart["switch"] else [None]:
        points = [p for p in chart["points"] if state is None or p["state"] == state]
        yield {
            "id": "--".join(x for x in (chart["embed_prefix"], state) if x), "prefix": chart["embed_prefix"],
            "part": state, "study": doc["id"],
            "title": f"{chart['title']}{f' ({state})' if state else ''}: {doc['title']}",
            "full_page": full_page, "renderer": "by-x", "spec": chart, "option": state, "columns": BY_X_COLUMNS,
            "alt": alt_text.by_x(points),
            "rows": [[p["series"], p["x"], _num(p["y"]), p["text"], _num(p.get("low")), _num(p.get("high")),
                      chart["unit"], p["state"] or "", p["kind"], p["provenance"], p.get("inconsistent") or "",
                      p.get("note") or ""] for p in points],
        }


def _runs(doc: dict) -> Iterator[dict]:
    for chart in doc["runs_charts"]:
        if not chart["drawn"]:
            continue
        for panel in chart["panels"]:
            metric = panel["key"]
            rows = [[run["label"], s["t_s"], metric, _num(s[metric]),
                     _num(s["latency_pct"]) if metric == "latency_ms" else "",
                     "finished" if run["complete"] else "unfinished",
                     citing.interval_report(run["log"], s["t_s"])]
                    for run in chart["runs"] for s in run["intervals"] if s[metric] is not None]
            yield {
                "id": f"{chart['embed_prefix']}--{metric}", "prefix": chart["embed_prefix"], "part": panel["name"],
                "study": doc["id"],
                "title": f"{chart['title']} ({panel['name']}): {doc['title']}",
                "full_page": f"/studies/{doc['id']}/#{chart['id']}", "renderer": "runs", "spec": chart,
                "option": metric, "columns": RUN_COLUMNS, "rows": rows,
                "alt": alt_text.over_time([run["intervals"] for run in chart["runs"]], [panel], what="run",
                                          every=chart.get("every")),
            }


def _rebuilds(doc: dict) -> Iterator[dict]:
    for trace in doc["traces"]:
        for panel in trace["panels"]:
            metric = panel["key"]
            where = citing.trace_name(trace["path"])
            rows = [["run", r["start_s"], r["end_s"], r["started"], "", "tps", r["tps"] or "", r["label"], r["flag"] or "",
                     f"{r['log']}: started as the bundle states, length from the log's total time"]
                    for r in trace["runs"]]
            rows += [["sample", s["t_s"], "", s["time"], s["state"], metric, _num(s[metric]), trace["array"], "",
                      f"{where}, snapshot at {s['time']}"] for s in trace["samples"] if s[metric] is not None]
            yield {
                "id": f"{trace['embed_prefix']}--{metric}", "prefix": trace["embed_prefix"], "part": panel["name"],
                "study": doc["id"],
                "title": f"{trace['title']} ({panel['name']}): {doc['title']}",
                "full_page": f"/studies/{doc['id']}/#rebuild-{trace['artifact']}", "renderer": "rebuild",
                "spec": trace, "option": metric, "columns": REBUILD_COLUMNS, "rows": rows,
                "alt": alt_text.over_time([trace["samples"]], [panel], what="trace"),
            }


def _own(doc: dict) -> Iterator[dict]:
    """A study's own charts' embeds (its page's charts, runs over time and rebuilds)."""
    for chart in doc["charts"]:
        yield from _by_x(doc, chart, f"/studies/{doc['id']}/#chart-{chart['id']}")
    yield from _runs(doc)
    yield from _rebuilds(doc)


def _kinds(embed: dict) -> list[str]:
    """The kinds of the values an embed draws (a ratio chart's values are derived from printed ones)."""
    if "value_kind" in embed["columns"]:
        i = embed["columns"].index("value_kind")
        return sorted({row[i] for row in embed["rows"]})
    return ["measured"]


def csv_bytes(columns: list[str], rows: list[list]) -> bytes:
    """An embed's CSV: its header and rows, each text cell defused (csv_cells.py)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([defused(cell) for cell in row] for row in rows)
    return buffer.getvalue().encode("utf-8")


def _listed(embed: dict, doc: dict, *, out: Path, site_url: str) -> dict:
    """Write an embed's CSV; its listing: the prefix Hugo looks it up by, its entry in the index, its
    reference (citation.py) and its render spec as JSON text."""
    data = csv_bytes(embed["columns"], embed["rows"])
    chart_id = embed["id"]
    (out / f"{chart_id}.csv").write_bytes(data)
    entry = {
        "id": chart_id, "title": embed["title"], "kind": embed["renderer"], "part": embed["part"],
        "study": embed["study"],
        "page": f"/embed/{chart_id}/", "full_page": embed["full_page"],
        "svg": f"/embed/{chart_id}.svg", "csv": f"/embed/{chart_id}.csv",
        "sha256": hashlib.sha256(data).hexdigest(), "rows": len(embed["rows"]), "alt": embed["alt"],
    }
    cited = chart_reference(entry, doc, site_url=site_url.rstrip("/"))
    where = files(doc["id"])
    entry.update(cite_key=cited["key"], bib=where["bib_url"], csl=where["csl_url"])
    context = {"study": doc["title"], "sources": sources_line(doc), "kinds": _kinds(embed),
               "address": f"{site_url.rstrip('/')}/embed/{chart_id}/", "sha256": entry["sha256"],
               "alt": embed["alt"]}
    spec = {"id": chart_id, "title": embed["title"], "renderer": embed["renderer"], "spec": embed["spec"],
            "option": embed["option"], "context": context}
    return {"prefix": embed["prefix"], "entry": entry, "reference": cited,
            "spec": json.dumps(spec, ensure_ascii=False)}


def study_embeds(doc: dict, *, static_dir: Path, site_url: str) -> list[dict]:
    """Write the CSVs of a study's own charts' embeds; their listings (``_listed``), which depend on
    that study alone (the export's cache keeps them, study_cache.py)."""
    out = static_dir / "embed"
    out.mkdir(parents=True, exist_ok=True)
    return [_listed(embed, doc, out=out, site_url=site_url) for embed in _own(doc)]


def facet_embeds(head: dict, entry: dict, *, static_dir: Path, site_url: str) -> list[dict]:
    """Write the CSVs of the embeds of a study's charts on a facet page (``entry``, its comparisons
    there: facets.py); their listings, with the chart's anchor for a full page (``placed`` puts the
    page's path before it: which page of the facet the study is on depends on the other studies)."""
    out = static_dir / "embed"
    out.mkdir(parents=True, exist_ok=True)
    return [_listed(embed, head, out=out, site_url=site_url) for group in entry["groups"] if group["chart"]
            for embed in _by_x(head, group["chart"], f"#chart-{head['id']}-{group['chart']['id']}")]


def placed(listing: dict, path: str) -> dict:
    """A facet chart's embed listing with its full page: ``path``, the page its chart is drawn on."""
    return {**listing, "entry": {**listing["entry"], "full_page": path + listing["entry"]["full_page"]}}


def export_embeds(own: dict[str, list[dict]], facets: dict, *, static_dir: Path, data_dir: Path,
                  evidence: list[dict] = ()) -> None:
    """Write ``/embed/index.json`` and Hugo's embed pages (``embeds.json``: each chart's embed prefix -> its
    panels, which pages look up by prefix rather than search), from the listings of every study's own
    embeds (``own``, by study) and of the facet charts' (each study's part of a facet page holds them:
    ``facets`` as facet_pages_data makes them), their specs written already (write_specs). The CSVs are
    written by study_embeds and facet_embeds. ``evidence``: the entries of the facets' evidence plots'
    embeds (evidence_embed.py), listed in index.json only: their pages are made with their facets'."""
    every = [item for study in sorted(own) for item in own[study]]
    # a facet chart's full page: the facet page its study is on, or its study's page of its own there
    every += [placed(item, study["detail"] or study["path"]) for page in facets.values() for study in page["studies"]
              for item in study["part"]["embeds"]]
    # each chart's entry encoded once, by json's C encoder (with indent=, Python's own took 1.4 s of a
    # one-change export at 1,000 bundles), for both files: one chart a line in the first, and in the
    # second the bytes json.dumps(groups) writes
    texts = [json.dumps(item["entry"], ensure_ascii=False) for item in every]
    groups: dict[str, list[str]] = {}
    for item, text in zip(every, texts):
        groups.setdefault(item["prefix"], []).append(text)
    (static_dir / "embed").mkdir(parents=True, exist_ok=True)
    charts = ",\n".join(texts + [json.dumps(entry, ensure_ascii=False) for entry in evidence])
    (static_dir / "embed" / "index.json").write_text(f'{{"charts": [\n{charts}\n]}}\n', encoding="utf-8")
    grouped = ", ".join(f"{json.dumps(prefix, ensure_ascii=False)}: [{', '.join(entries)}]"
                        for prefix, entries in groups.items())
    (data_dir / "embeds.json").write_text(f"{{{grouped}}}", encoding="utf-8")


def write_specs(study: str, listings: list[dict], *, out_dir: Path) -> bool:
    """Write the render specs of a study's embeds (its own charts' and its facet charts' ``listings``)
    into its file of embed_specs.FOLDER in the export ``out_dir``, each as its own text, one a line (the
    renderer parses none that its cache has), and take them off the listings: the export keeps the
    listings of every study until the end, and at 10,000 bundles the specs were a third of them. Returns
    whether the study has any."""
    texts = [listing.pop("spec") for listing in listings]
    if texts:
        folder = out_dir / embed_specs.FOLDER
        folder.mkdir(exist_ok=True)
        embed_specs.write(folder / f"{study}.json", texts)
    return bool(texts)
