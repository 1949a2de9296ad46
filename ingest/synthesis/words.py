"""A contrast's answer in one sentence of at most MAX_WORDS words, in the question's direction: what is
compared, the typical size of the difference, where a new setting may land (when studies are pooled),
the certainty and its reasons, the studies. Values in words (schema/fields.yaml), up to their first
bracket: "Fibre Channel", not "fcp" or "Fibre Channel (FCP)". The facet pages, /facets/, the home page
and the evidence embed print the sentence made here."""

from __future__ import annotations

import re

from ..bundles.fields import registry

MAX_WORDS = 30
STATE_WORDS = {"optimal": "when optimal", "degraded": "while degraded", "rebuilding": "while rebuilding"}


def short(value: str) -> str:
    """A value as a sentence names it: its words up to the first bracket."""
    return value.split(" (")[0].strip() or value


def _metric(key: str) -> tuple[str, str, str]:
    """(words, more, less) of a metric: "transactions per second", "more", "fewer"; for a level rather
    than a count, "higher", "lower"."""
    m = next(m for m in registry().metrics if m.key == key)
    words = re.sub(r"\s*\([^)]*\)", "", m.label).strip()
    words = words[:1].lower() + words[1:] if not words[:2].isupper() else words
    return (words, "more", "fewer") if " per " in words else (words, "higher", "lower")


def _size(ratio: float, *, more: str, less: str, the: bool = True) -> str:
    if ratio >= 1.5:
        return f"{ratio:.1f}× the" if the else f"{ratio:.1f}×"
    pct = round(abs(ratio - 1) * 100)
    return f"{pct}% {more if ratio >= 1 else less}"


def _signed(low: float, high: float) -> str:
    if low < 0.5 or high > 2:
        return f"{low:.2g}× to {high:.2g}×"
    return f"{(low - 1) * 100:+.0f}% to {(high - 1) * 100:+.0f}%".replace("-", "−")


def subject(contrast: dict, *, name: str, optimal: bool) -> str:
    """What is compared, in the question's direction: "Doublewrite off against on", "XFS against ext4";
    values that do not say what they are (on, off, 5, 10) follow the facet's name."""
    if optimal:
        return f"{short(contrast['other']).capitalize()} against optimal"
    if contrast["other"] == "largest":
        return f"The largest {re.sub(r' [(][^)]*[)]', '', name)} against the smallest"
    other, reference = short(contrast["other"]), short(contrast["reference"])
    if len(other) <= 3 and len(reference) <= 3:
        return f"{name[:1].upper()}{name[1:]} {other} against {reference}"
    return f"{other} against {reference}"  # a name keeps its case: iSCSI, ext4


def _group_words(group: dict) -> str:
    parts = []
    if group.get("state") in STATE_WORDS:
        parts.append(STATE_WORDS[group["state"]])
    elif group.get("state"):
        parts.append(group["state"])
    if group.get("engine"):
        parts.append(f"on {group['engine']}")
    return " ".join(parts)


def _studies(contrast: dict) -> list[dict]:
    return list({s["study"]: s for g in contrast["groups"] for s in g["studies"]}.values())


def sentence(contrast: dict, *, name: str, optimal: bool) -> str:
    """The answer of one contrast; the shortest of its forms that keeps within MAX_WORDS."""
    words, more, less = _metric(contrast["metric"])
    certainty = contrast["certainty"]
    certainty = {**certainty, "reasons": certainty.get("start_words", []) + certainty["reasons"]}
    studies = _studies(contrast)
    head = subject(contrast, name=name, optimal=optimal)
    main = contrast["groups"][0]
    forms = []
    for reasons, named, groups in ((certainty["reasons"], True, None), (certainty["reasons"][:2], True, None),
                                   (certainty["reasons"][:2], False, None), (certainty["reasons"][:1], False, 2),
                                   ([], False, 1)):
        if main["pooled"] and len(contrast["groups"]) == 1:
            p = main["pooled"]
            said = (f"no practical difference in {words}" if main["verdict"] == "no practical difference"
                    else f"about {_size(p['ratio'], more=more, less=less)} {words}")
            text = f"{head}: {said}; a new setting may see {_signed(p['pi_low'], p['pi_high'])}."
            count = f"{p['k']} studies"
        else:
            parts = []
            for g in contrast["groups"][:groups]:
                ratios = sorted(s["ratio"] for s in g["studies"])
                the = not parts  # the metric's words once, after the first group's size
                if g["pooled"]:
                    size = f"about {_size(g['pooled']['ratio'], more=more, less=less, the=the)}"
                elif g["verdict"] == "no practical difference":
                    size = "no practical difference in" if the else "no practical difference"
                elif len(ratios) == 1 or f"{ratios[0]:.2f}" == f"{ratios[-1]:.2f}":
                    size = _size(ratios[0], more=more, less=less, the=the)
                elif ratios[-1] < 1.5 and (ratios[0] >= 1) == (ratios[-1] >= 1):  # "2% to 29% more"
                    a, b = sorted(round(abs(x - 1) * 100) for x in (ratios[0], ratios[-1]))
                    size = f"{a}% to {b}% {more if ratios[0] >= 1 else less}"
                else:
                    size = (f"{_size(ratios[0], more=more, less=less, the=False)} to "
                            f"{_size(ratios[-1], more=more, less=less, the=the)}")
                parts.append(f"{size}{' ' + words if the else ''}{' ' + _group_words(g) if _group_words(g) else ''}")
            text = f"{head}: {', '.join(parts)}"
            count = ", ".join(s["label"] for s in studies) if named and len(studies) <= 2 else \
                f"{len(studies)} {'study' if len(studies) == 1 else 'studies'}"
            if count == "1 study" and "one study" in reasons:
                count = None
            text += "."
        inside = "; ".join(x for x in (count, *reasons) if x)
        forms.append(f"{text} Certainty: {certainty['level']} ({inside}).")
    return next((f for f in forms if count_words(f) <= MAX_WORDS), forms[-1])


def count_words(text: str) -> int:
    return len(text.split())


def left_out(rows: list[dict], *, metric: str, labels: dict[str, str]) -> str | None:
    """The rows of the answer's metric that make no ratio, as what they are: "Left out: Graid 2023's single
    figures of SupremeRAID RAID 10 over Linux MD RAID 10 (optimal, rebuilding): the figure is in no cell
    of the source's own per-load table." """
    left: dict[tuple, list] = {}
    for r in rows:
        if r["left_out"] is not None and r["metric"] == metric:
            what = "single figures" if not r["by_loads"] else "figures"
            left.setdefault((labels.get(r["study"], r["title"]), what, r["systems"], r["left_out"]), []).append(
                r["state"] or "state not stated")
    if not left:
        return None
    return "Left out: " + "; ".join(f"{study}'s {what} of {systems} ({', '.join(dict.fromkeys(states))}): {reason}"
                                    for (study, what, systems, reason), states in left.items()) + "."


def _typical(group: dict) -> float:
    return group["pooled"]["ratio"] if group["pooled"] else sorted(s["ratio"] for s in group["studies"])[
        len(group["studies"]) // 2]


def leader(contrasts: list[dict]) -> tuple[str, dict] | None:
    """Where two contrasts or more of one metric share a reference and each gives less than it (NFS and
    iSCSI each against Fibre Channel), the sentence that names the reference as the one that gave the
    most, with each other's size, and its certainty (theirs, the lowest); else None."""
    by_reference: dict[tuple, list[dict]] = {}
    for c in contrasts:
        if len(c["groups"]) == 1 and c["other"] != "largest":
            by_reference.setdefault((c["reference"], c["metric"]), []).append(c)
    for (reference, metric), here in by_reference.items():
        words, more, less = _metric(metric)
        if len(here) < 2 or not all(_typical(c["groups"][0]) < 1 for c in here):
            continue
        if next(m for m in registry().metrics if m.key == metric).better == "lower":
            continue  # the lowest latency "gave the most" would read wrong
        low = max((c["certainty"] for c in here), key=lambda c: c["rank"])
        reasons = list(dict.fromkeys(x for c in here for x in c["certainty"]["reasons"]))
        studies = list(dict.fromkeys(s["label"] for c in here for g in c["groups"] for s in g["studies"]))
        sizes = ", ".join(f"{short(c['other'])} {_size(_typical(c['groups'][0]), more=more, less=less)}" for c in here)
        for named in (reasons, reasons[:2], reasons[:1], []):
            inside = "; ".join([", ".join(studies) if len(studies) <= 2 else f"{len(studies)} studies", *named])
            text = (f"{short(reference)} gave the most {words}: {sizes}. "
                    f"Certainty: {low['level']} ({inside}).")
            if count_words(text) <= MAX_WORDS:
                return text, {**low, "reasons": reasons}
    return None
