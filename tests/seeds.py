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


# The seed document each source of the seed studies was transcribed from (the project's shared/seeds/,
# which readers never see: the bundles name the documents as their publishers do).
SEED_FILES = {
    ("graid-supremeraid-mysql-2023", "graid-en"): "000_174c762fa5350cab.txt",
    ("graid-supremeraid-mysql-2023", "dayingke-zh"): "002_120f5a4e0b7f1b83.txt",
    ("netapp-tr3693-mysql-2010", "tr3693"): "001_a9281d2d8b3880e0.txt",
    ("seagate-nytro-mysql-2015", "seagate-tp"): "003_b4b98b638ecc6f21.txt",
    ("scaleflux-csd2000-mysql-2020", "percona-blog"): "004_e72d32b55c12a403.txt",
}


def seed_of(bundle, source_id: str) -> tuple[str, ...] | None:
    """The excerpt of the seed a bundle's source was transcribed from (SEED_FILES), or None."""
    name = SEED_FILES.get((bundle.id, source_id))
    return seed_lines(name) if name else None


def printed_near(lines: tuple[str, ...], line: int, after: int = 4) -> str:
    """Lines ``line`` to ``line + after`` as one text: empty lines dropped, whitespace collapsed."""
    return " ".join(" ".join(lines[line - 1:line + after]).split())


def quoted_pieces(text: str) -> list[str]:
    """The parts of a claim's text that are quoted as printed: what lies outside [square brackets]."""
    return [" ".join(p.split()) for p in re.split(r"\[[^\]]*\]", text) if p.strip()]
