"""A study's line in the catalogue (/studies/): when it was published, by whom, what kind of party
stands behind its figures, what its evidence is made of, and what it varies: the facet pages that
compare its systems (so the like-for-like rule stays in ``like.py`` and ``facets.py``)."""

from __future__ import annotations

from collections import Counter

from ..bundles.fields import source_kind

UNSTATED = "not stated"  # a study whose sources do not say who stands behind them
MIXED = "mixed"  # a study whose original sources are of more than one kind


def _year(date: str | None) -> int | None:
    return int(date[:4]) if date else None


def entry(doc: dict) -> dict:
    """The catalogue's fields of a study document (study.py: study_doc): its year (the earliest date of
    its original sources), publishers, source kind, and its evidence counted by kind: measured runs by
    run-quality grade, transcribed values by value kind."""
    originals = [s for s in doc["sources"] if s.get("role", "original") == "original"] or doc["sources"]
    years = [y for y in (_year(s.get("date")) for s in originals) if y is not None]
    kinds = sorted({source_kind(s["kind"]).label if s.get("kind") else UNSTATED for s in originals})
    grades = Counter((r.get("quality") or {}).get("grade", "not graded") for r in doc["runs"])
    return {
        "year": min(years) if years else None,
        "publishers": list(dict.fromkeys(s["publisher"] for s in originals)),
        "kind": kinds[0] if len(kinds) == 1 else MIXED,
        "runs": [{"name": g, "count": n} for g, n in sorted(grades.items(), key=lambda kv: (-kv[1], kv[0]))],
        "values": doc["value_kinds"],
    }


def varies(facets: dict[str, dict]) -> dict[str, list[dict]]:
    """study -> the facet pages that hold it ({slug, title, path}: the page it is on), by title, from the
    facet pages' data (facets.py: facet_pages_data)."""
    out: dict[str, list[dict]] = {}
    for slug, facet in sorted(facets.items(), key=lambda kv: kv[1]["title"]):
        for entry in facet["studies"]:
            out.setdefault(entry["study"], []).append({"slug": slug, "title": facet["title"], "path": entry["path"]})
    return out
