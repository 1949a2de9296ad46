"""A facet's evidence rows (ingest/publish/evidence.py) as contrasts, each study's effect in them, and
their pooled estimate (schema/synthesis.yaml is the rule; pooling.py the statistics).

A contrast is one pair of the facet's values in one direction (doublewrite off against on; XFS against
ext4): the reference is the value most studies hold as their reference, and a study that paired them the
other way round has its ratios turned over (1/ratio). A facet of sizes (``widest``) has one contrast,
each study's largest value against its smallest. Each contrast is read at one metric (the registry's
first that it has) and splits into groups that never mix: array state and storage engine. In a group,
a study's effect is the log of the median of its ratios at its best evidence grade, with the variance
of a median (rules: ``effect``); three studies or more with variances are pooled (``pool``), with each
study left out in turn."""

from __future__ import annotations

import math
import re
import statistics

from ..bundles.fields import registry
from .pooling import pool
from .rules import engine, rules

PLACES = 4  # ratios as the evidence rows hold them


def verdict(low: float, high: float) -> str:
    """What an interval of ratios says: within the band, no practical difference; wholly above or below
    1x, more or less; else unclear."""
    band = rules().band
    if low >= 1 - band and high <= 1 + band:
        return "no practical difference"
    if low > 1:
        return "more"
    if high < 1:
        return "less"
    return "unclear"


def _number(value: str) -> float | None:
    m = re.match(r"^\s*(\d+(?:\.\d+)?)", value or "")
    return float(m.group(1)) if m else None


def _oriented(rows: list[dict], *, slug: str) -> list[dict]:
    """Each usable row with its contrast (other, reference) and its ratios in that direction."""
    usable = [r for r in rows if r["left_out"] is None and r.get("ratios")]
    out = []
    if slug in rules().widest:  # each study at its widest pair: the largest value over the smallest
        spans: dict[tuple, float] = {}
        for r in usable:
            a, b = _number(r["other_value"]), _number(r["reference_value"])
            if a and b:
                key = (r["study"], r["metric"], r["state"])
                spans[key] = max(spans.get(key, 0.0), max(a, b) / min(a, b))
        for r in usable:
            a, b = _number(r["other_value"]), _number(r["reference_value"])
            if a and b and max(a, b) / min(a, b) == spans[(r["study"], r["metric"], r["state"])]:
                flip = a < b
                out.append({**r, "contrast": ("largest", "smallest"), "flipped": flip,
                            "span": (r["reference_value"], r["other_value"]) if flip else (r["other_value"], r["reference_value"]),
                            "ratios": [1 / x for x in r["ratios"]] if flip else r["ratios"]})
        return out
    held: dict[frozenset, dict[str, set]] = {}  # values: {value: studies that hold it as the reference}
    for r in usable:
        held.setdefault(frozenset((r["other_value"], r["reference_value"])), {}).setdefault(
            r["reference_value"], set()).add(r["study"])
    for r in usable:
        values = held[frozenset((r["other_value"], r["reference_value"]))]
        both = sorted({r["other_value"], r["reference_value"]})
        reference = max(both, key=lambda v: (len(values.get(v, ())), -both.index(v)))
        flip = r["reference_value"] != reference
        out.append({**r, "contrast": (r["reference_value"], r["other_value"]) if flip else (r["other_value"], r["reference_value"]),
                    "flipped": flip, "span": None, "ratios": [1 / x for x in r["ratios"]] if flip else r["ratios"]})
    return out


def labels_of(rows: list[dict]) -> dict[str, str]:
    """Each study's short label, its publisher and year ("Percona 2018"); two studies of one label are
    told apart by letters, as references are ("Percona 2018a", "Percona 2018b")."""
    first = {}
    for r in rows:
        first.setdefault(r["study"], f"{r['publisher']} {r['year']}" if r["year"] else r["publisher"])
    out = {}
    for label in set(first.values()):
        studies = sorted(s for s, lab in first.items() if lab == label)
        for i, s in enumerate(studies):
            out[s] = label if len(studies) == 1 else f"{label}{'abcdefghijklmnopqrstuvwxyz'[i % 26]}"
    return out


def _study(rows: list[dict], *, label: str) -> dict:
    """One study's effect in a group, from its rows at its best evidence grade."""
    best = min(r["rank"] for r in rows)
    rows = [r for r in rows if r["rank"] == best]
    ratios = [x for r in rows for x in r["ratios"]]
    logs = [math.log(x) for x in ratios]
    n = len(logs)
    variance = None
    if n >= 2:
        variance = math.pi / 2 * max(statistics.stdev(logs), rules().effect.min_sd) ** 2 / n
    r0 = rows[0]
    return {"study": r0["study"], "label": label, "title": r0["title"], "year": r0["year"],
            "source_kind": r0["source_kind"], "rank": best, "workload_stated": not (r0["workload"] or "not stated").startswith("not stated"),
            "pairs": len({(r["reference"], r["other"]) for r in rows}), "loads": n,
            "effect": math.log(statistics.median(ratios)), "variance": variance, "imputed": False,
            "flipped": any(r["flipped"] for r in rows), "min": round(min(ratios), PLACES), "max": round(max(ratios), PLACES),
            "span": r0["span"], "path": f"/studies/{r0['study']}/"}


def _interval(effect: float, variance: float) -> tuple[float, float]:
    z = statistics.NormalDist().inv_cdf(0.5 + rules().pool.level / 2)
    half = z * math.sqrt(variance)
    return round(math.exp(effect - half), PLACES), round(math.exp(effect + half), PLACES)


def _pooled(studies: list[dict], *, widest: bool) -> tuple[dict | None, list[dict]]:
    """The pooled estimate of a group's studies and each left out in turn, when there are enough (never
    for a facet of sizes: each study's widest pair spans other sizes, no one contrast)."""
    p = rules().pool
    if widest or len(studies) < p.min_studies or any(s["variance"] is None for s in studies):
        return None, []
    effects, variances = [s["effect"] for s in studies], [s["variance"] for s in studies]
    found = pool(effects, variances, method=p.method, level=p.level, prediction=p.prediction)
    weights = [1 / (v + found.tau2) for v in variances]
    for s, w in zip(studies, weights):
        s["weight"] = round(w / sum(weights), PLACES)
    without = []
    for i, s in enumerate(studies):
        rest = pool(effects[:i] + effects[i + 1:], variances[:i] + variances[i + 1:], method=p.method, level=p.level,
                    prediction=None) if len(studies) > 2 else None
        if rest:
            without.append({"study": s["study"], "label": s["label"], "source_kind": s["source_kind"],
                            "ratio": round(math.exp(rest.estimate), PLACES), "low": round(math.exp(rest.ci_low), PLACES),
                            "high": round(math.exp(rest.ci_high), PLACES)})
    e = math.exp
    return ({"ratio": round(e(found.estimate), PLACES), "low": round(e(found.ci_low), PLACES),
             "high": round(e(found.ci_high), PLACES), "pi_low": round(e(found.pi_low), PLACES),
             "pi_high": round(e(found.pi_high), PLACES), "tau2": round(found.tau2, 6), "i2": round(found.i2, 4),
             "k": found.k, "method": p.method_label}, without)


def _group(rows: list[dict], *, labels: dict[str, str], key: str, label: str | None, state: str | None,
           engine_label: str | None) -> dict:
    by_study: dict[str, list[dict]] = {}
    for r in rows:
        by_study.setdefault(r["study"], []).append(r)
    studies = [_study(rs, label=labels[s]) for s, rs in by_study.items()]
    known = [s["variance"] for s in studies if s["variance"] is not None]
    for s in studies:
        if s["variance"] is None and known:  # a single figure borrows the largest variance of the others
            s["variance"], s["imputed"] = max(known), True
        s["weight"] = None
    studies.sort(key=lambda s: (s["year"] or 0, s["label"]))
    pooled, without = _pooled(studies, widest=studies[0]["span"] is not None)
    for s in studies:
        s["ratio"] = round(math.exp(s["effect"]), PLACES)
        s["low"], s["high"] = _interval(s["effect"], s["variance"]) if s["variance"] is not None else (None, None)
    band = rules().band
    opposite = (any(s["min"] > 1 + band for s in studies) and any(s["max"] < 1 - band for s in studies))
    if pooled:
        said = verdict(pooled["low"], pooled["high"])
    else:
        each = {verdict(s["low"], s["high"]) if s["low"] is not None else verdict(s["min"], s["max"]) for s in studies}
        said = "studies disagree" if opposite else (each.pop() if len(each) == 1 else "unclear")
    for s in studies:
        del s["effect"], s["variance"]
    return {"id": key, "label": label, "state": state, "engine": engine_label, "studies": studies, "pooled": pooled,
            "without": without, "verdict": said, "opposite": opposite}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "value"


def contrasts(rows: list[dict], *, slug: str, optimal: bool) -> list[dict]:
    """The contrasts of a facet's evidence rows, the one with most studies first: each with its values,
    its metric and its groups (``_group``)."""
    oriented = _oriented(rows, slug=slug)
    labels = labels_of(oriented)
    order = {m.key: i for i, m in enumerate(registry().metrics)}
    by_contrast: dict[tuple, list[dict]] = {}
    for r in oriented:
        by_contrast.setdefault(r["contrast"], []).append(r)
    out = []
    for (other, reference), here in by_contrast.items():
        metric = min((r["metric"] for r in here), key=lambda m: (order.get(m, len(order)), m))
        here = [r for r in here if r["metric"] == metric]
        by_group: dict[tuple, list[dict]] = {}  # (state, engine's key, its label): the rows of that group
        for r in here:
            eng = engine(r["engine"])
            by_group.setdefault((None if optimal else r["state"], eng.key, eng.label), []).append(r)
        states = {k[0] for k in by_group}
        engines = {k[1] for k in by_group}
        groups = []
        for key in sorted(by_group, key=lambda k: (k[0] != "optimal", k[0] or "", k[1] != rules().engines.default.key, k[1])):
            words = [w for w, varies in ((key[0] or "state not stated", len(states) > 1), (key[2], len(engines) > 1)) if varies]
            groups.append(_group(by_group[key], labels=labels,
                                 key=_slug("-".join(x for x in (key[0], key[1]) if x)),
                                 label=", ".join(words) if words else None,
                                 state=key[0] if len(states) > 1 else None,
                                 engine_label=key[2] if len(engines) > 1 else None))
        out.append({"id": _slug(f"{other}-vs-{reference}"), "other": other, "reference": reference, "metric": metric,
                    "metric_label": here[0]["metric_label"], "groups": groups,
                    "studies": len({r["study"] for r in here}), "pairs": len({(r["study"], r["reference"], r["other"]) for r in here}),
                    "rank": min(r["rank"] for r in here), "order": order.get(metric, len(order)),
                    "latest": max(r["year"] or 0 for r in here)})
    # most studies first, then the best grade, the registry's first metric, the newest evidence, most pairs
    out.sort(key=lambda c: (-c["studies"], c["rank"], c["order"], -c["latest"], -c["pairs"], c["id"]))
    seen: dict[str, int] = {}
    for c in out:  # ids unique within the facet
        seen[c["id"]] = seen.get(c["id"], 0) + 1
        if seen[c["id"]] > 1:
            c["id"] = f"{c['id']}-{seen[c['id']]}"
    return out

