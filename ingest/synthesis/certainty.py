"""How sure a contrast's answer is, as GRADE rates a body of evidence (schema/synthesis.yaml: levels and
down): it starts at the evidence grade of the studies that carry most of the weight
(schema/evidence-grades.yaml, whose marks count the levels) and goes down one level for each domain
with a concern, each reason named; never below very low."""

from __future__ import annotations

from ..bundles.fields import registry
from ..database.evidence import grades
from .rules import heterogeneity, rules


def _weights(group: dict) -> list[tuple[dict, float]]:
    studies = group["studies"]
    if group["pooled"]:
        return [(s, s["weight"]) for s in studies]
    return [(s, 1 / len(studies)) for s in studies]


def _share(pairs: list[tuple[dict, float]], test) -> float:
    return sum(w for s, w in pairs if test(s))


def _start(pairs: list[tuple[dict, float]]) -> int:
    """The level the studies with most of the weight start at (ties: the lower)."""
    marks = {i + 1: g.mark.count("⊕") for i, g in enumerate(grades().grades)}
    by_level: dict[int, float] = {}
    for s, w in pairs:
        by_level[marks[s["rank"]]] = by_level.get(marks[s["rank"]], 0) + w
    return max(by_level, key=lambda level: (round(by_level[level], 6), -level))


def rate(group: dict, *, metric: str) -> dict:
    """A group's certainty: its level's key and mark, where it started, and the reasons it went down."""
    r = rules()
    down, band = r.down, r.band
    pairs = _weights(group)
    level = start = _start(pairs)
    reasons: list[str] = []
    concerns = {
        "risk_of_bias": [down["risk_of_bias"]["vendor"]] if _share(pairs, lambda s: s["source_kind"] == "vendor") >= 0.5 else [],
        "inconsistency": ([down["inconsistency"]["opposite"]] if group["opposite"] else []) + (
            [heterogeneity(group["pooled"]["i2"])]
            if group["pooled"] and group["pooled"]["i2"] >= r.i2_inconsistent else []),
        "indirectness": ([down["indirectness"]["raw_io"]] if next(m for m in registry().metrics if m.key == metric).io == "raw" else [])
        + ([down["indirectness"]["not_stated"]] if _share(pairs, lambda s: not s["workload_stated"]) >= 0.5 else []),
        "imprecision": ([down["imprecision"]["one_study"]] if len(pairs) == 1 else [])
        + ([down["imprecision"]["few_loads"]] if len(pairs) == 1 and pairs[0][0]["loads"] == 1 else [])
        + ([down["imprecision"]["wide"]] if group["pooled"] and group["pooled"]["pi_low"] < 1 - band
           and group["pooled"]["pi_high"] > 1 + band else []),
    }
    for domain, said in concerns.items():
        if said:
            level = max(1, level - 1)
            reasons += said
    # a start below moderate is said with its grade's words (schema/evidence-grades.yaml: label)
    below = [g.label for g in grades().grades if g.mark.count("⊕") == start] if start <= 2 else []
    return {"level": r.levels[level].key, "mark": r.levels[level].mark, "rank": len(r.levels) + 1 - level,
            "start": r.levels[start].key, "start_words": below[:1], "reasons": reasons}


def worst(certainties: list[dict]) -> dict:
    """A contrast's certainty: its groups' lowest (their reasons, once each)."""
    low = max(certainties, key=lambda c: c["rank"])
    reasons = list(dict.fromkeys(x for c in certainties for x in c["reasons"]))
    return {**low, "start_words": low["start_words"], "reasons": reasons}
