"""Each study's headline (its study page's summary): what its first comparison on a facet page shows,
in numbers taken from that page's own ratios (facets.py), never typed. The home page's answers are the
facets' (evidence.py), not these; its claims ledger in one line is claims.py's.

A finding names, for each system compared, the lowest and highest of its ratios over the loads
measured, the reference, the metric and its state, the kinds of the values, and how many of the
ratios are not ranked because the runs' spreads overlap. It says no more than that: no "faster",
no "better" (for latency a higher ratio is worse, and the page says so).
"""

from __future__ import annotations


def study_finding(entry: dict) -> dict | None:
    """The first comparison of a study's entry on a facet page (facets.py), but for the page's facet,
    title and path (``placed`` adds them)."""
    for group in entry["groups"]:
        systems = []
        for row in group["rows"]:
            if row["system"] == group["reference"]:
                continue
            cells = [c for c in row["cells"] if c.get("ratio") is not None]
            if not cells:
                continue
            ratios = [c["ratio"] for c in cells]
            systems.append({"label": row["label"], "low": min(ratios), "high": max(ratios), "loads": len(cells),
                            "not_ranked": sum(1 for c in cells if c.get("overlap")),
                            "kinds": sorted({c["value_kind"] for c in cells})})
        if systems:
            reference = next((r["label"] for r in group["rows"] if r["system"] == group["reference"]), None)
            return {"study": entry["study"], "study_title": entry["title"], "metric": group["metric_label"],
                    "unit": group["unit"], "state": group["state"], "reference": reference, "systems": systems,
                    "chart": (group["chart"] or {}).get("embed_prefix")}
    return None


def _placed(slug: str, page: dict, study: dict) -> dict:
    found = study["part"]["finding"]
    return {"facet": slug, "title": page["title"], "study": found["study"], "study_title": found["study_title"],
            "path": study["path"], **{k: v for k, v in found.items() if k not in ("study", "study_title")}}


def headlines(facets: dict) -> dict[str, dict]:
    """Each study's headline: its first comparison on the first facet page (in the pages' order) that has one."""
    out: dict[str, dict] = {}
    for slug, page in facets.items():
        for study in page["studies"]:
            if study["study"] not in out and study["part"]["finding"]:
                out[study["study"]] = _placed(slug, page, study)
    return out

