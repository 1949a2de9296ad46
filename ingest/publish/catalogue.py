"""A study's line in the catalogue (/studies/): when it was published, by whom, what kind of party
stands behind its figures, what its evidence is made of, and what it varies: the facet pages that
compare its systems (so the like-for-like rule stays in ``like.py`` and ``facets.py``)."""

from __future__ import annotations

from collections import Counter

from ..bundles.fields import source_kind
from ..database.evidence import grades as evidence_grades

UNSTATED = "not stated"  # a study whose sources do not say who stands behind them
MIXED = "mixed"  # a study whose original sources are of more than one kind


def _year(date: str | None) -> int | None:
    return int(date[:4]) if date else None


def _originals(sources: list[dict]) -> list[dict]:
    return [s for s in sources if s.get("role", "original") == "original"] or sources


def published(sources: list[dict]) -> dict:
    """When and by what kind of party a study was published, from its sources: the earliest year of its
    original sources, and their kind's label (schema/fields.yaml: source_kinds; UNSTATED, MIXED). The
    catalogue and the facet pages' evidence rows (evidence.py) say it alike."""
    originals = _originals(sources)
    years = [y for y in (_year(s.get("date")) for s in originals) if y is not None]
    kinds = sorted({source_kind(s["kind"]).label if s.get("kind") else UNSTATED for s in originals})
    return {"year": min(years) if years else None, "kind": kinds[0] if len(kinds) == 1 else MIXED}


def entry(doc: dict, *, best_rank: int | None) -> dict:
    """The catalogue's fields of a study document (study.py: study_doc): its year and source kind
    (``published``), publishers, its best evidence grade (``best_rank``: the best evidence_rank of its
    consistent values, schema/evidence-grades.yaml; None: it has none), and its evidence counted by kind:
    measured runs by run-quality grade, transcribed values by value kind."""
    originals = _originals(doc["sources"])
    best = evidence_grades().grades[best_rank - 1] if best_rank else None
    grades = Counter((r.get("quality") or {}).get("grade", "not graded") for r in doc["runs"])
    return {
        **published(doc["sources"]),
        "publishers": list(dict.fromkeys(s["publisher"] for s in originals)),
        "runs": [{"name": g, "count": n} for g, n in sorted(grades.items(), key=lambda kv: (-kv[1], kv[0]))],
        "values": doc["value_kinds"],
        "grade": {"rank": best_rank, "mark": best.mark, "label": best.label} if best else None,
    }


def varies(facets: dict[str, dict]) -> dict[str, list[dict]]:
    """study -> the facet pages that hold it ({slug, title, path}: the page it is on), by title, from the
    facet pages' data (facets.py: facet_pages_data)."""
    out: dict[str, list[dict]] = {}
    for slug, facet in sorted(facets.items(), key=lambda kv: kv[1]["title"]):
        for entry in facet["studies"]:
            out.setdefault(entry["study"], []).append({"slug": slug, "title": facet["title"], "path": entry["path"]})
    return out
