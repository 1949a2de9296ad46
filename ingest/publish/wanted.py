"""Evidence wanted: a facet whose answer rests on fewer studies than a pooled answer takes (the synthesis'
pool.min_studies, schema/synthesis.yaml), or a subgroup of it that does (array state: degraded,
rebuilding), says so in one sentence with the command that measures what is missing (its facet's
``wanted`` in schema/fields.yaml). The facet pages and /facets/ show it (facet/wanted.html)."""

from __future__ import annotations

from ..bundles.fields import FacetPage
from ..synthesis.rules import rules

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _studies(n: int) -> str:
    word = _NUMBERS[n] if n < len(_NUMBERS) else f"{n:,}"
    return f"{word} {'study' if n == 1 else 'studies'}"


def wanted(page: FacetPage, *, answer: dict, synthesis: dict | None) -> dict | None:
    """``{"sentence", "command", "studies", "groups": [{"name", "studies"}]}`` for a thin facet (its
    evidence's ``answer`` and ``synthesis``, evidence.py's), or None when every count reaches the pool's."""
    most = rules().pool.min_studies
    contrasts = (synthesis or {}).get("contrasts", [])
    groups = [{"name": g, "studies": max((c["studies"] for c in contrasts if c["other"] == g), default=0)}
              for g in page.wanted.groups]
    studies = answer.get("studies", 0)
    if studies >= most and all(g["studies"] >= most for g in groups):
        return None
    by_group = "; ".join(f"{g['name']}: {_studies(g['studies'])}" for g in groups)
    sentence = (f"{_studies(studies)} {'varies' if studies == 1 else 'vary'} {page.wanted.varies}"
                + (f" ({by_group})" if by_group else "") + f", where a pooled answer takes {_studies(most)}.")
    return {"sentence": sentence[0].upper() + sentence[1:], "command": page.wanted.command, "studies": studies,
            "groups": groups}
