"""A facet's synthesis, as the pages read it: its contrasts (effects.py), each with its certainty
(certainty.py) and its sentence (words.py), the band of no practical difference, and the rows left out
in words."""

from __future__ import annotations

from . import certainty, effects, words
from .rules import rules


def synthesis(rows: list[dict], *, slug: str, name: str, optimal: bool) -> dict:
    """The synthesis of a facet's evidence rows (ingest/publish/evidence.py: evidence_rows, sorted)."""
    found = effects.contrasts(rows, slug=slug, optimal=optimal)
    for c in found:
        c["certainty"] = certainty.worst([certainty.rate(g, metric=c["metric"]) for g in c["groups"]])
        c["sentence"] = words.sentence(c, name=name, optimal=optimal)
    labels = effects.labels_of(rows)
    metric = found[0]["metric"] if found else (rows[0]["metric"] if rows else None)
    first = None if optimal else words.leader(found)
    return {"band": rules().band, "contrasts": found,
            "lead": {"sentence": first[0], "certainty": first[1]} if first else None,
            "left_out": words.left_out(rows, metric=metric, labels=labels) if metric else None}
