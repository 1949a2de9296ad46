"""The seed excerpts in tests/fixtures/seeds/ (see PROVENANCE.md there): line N of an excerpt is line N
of the seed, or empty where the tests read nothing. Tests read these, never ``shared/``, so none skips."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"


@cache
def seed_lines(name: str) -> tuple[str, ...]:
    """The lines of a seed excerpt, by file name or by its number (``"000"``); line N is index N - 1."""
    path = SEEDS / name if name.endswith(".txt") else next(SEEDS.glob(f"{name}_*.txt"))
    return tuple(path.read_text(encoding="utf-8").split("\n"))


def seed_of(bundle, source_id: str) -> tuple[str, ...] | None:
    """The excerpt of the seed a bundle's source names in its identifier (``shared/seeds/NNN_….txt``)."""
    source = next(s for s in bundle.sources if s.id == source_id)
    found = re.search(r"seeds/(\S+?\.txt)", source.identifier or "")
    return seed_lines(found.group(1)) if found else None


def printed_near(lines: tuple[str, ...], line: int, after: int = 4) -> str:
    """Lines ``line`` to ``line + after`` as one text: empty lines dropped, whitespace collapsed."""
    return " ".join(" ".join(lines[line - 1:line + after]).split())


def quoted_pieces(text: str) -> list[str]:
    """The parts of a claim's text that are quoted as printed: what lies outside [square brackets]."""
    return [" ".join(p.split()) for p in re.split(r"\[[^\]]*\]", text) if p.strip()]
