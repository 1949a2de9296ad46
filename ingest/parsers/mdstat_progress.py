"""The progress line of /proc/mdstat, read whole or, when it was cut short, as far as it goes.

The kernel prints it in drivers/md/md.c, status_resync():
``[==>..................]  recovery = 12.6% (37043392/292945152) finish=127.5min speed=33440K/sec``
(the bar is 20 steps of 5 %; percent and finish always carry one decimal). A terminal that wraps it
at 80 columns cuts it, often inside ``speed=``: what comes before the cut is still read, field by
field, and only fields whose text ends before the cut; a field the cut runs through is not guessed.
A line that is not a clean beginning of that form is unreadable.
"""

from __future__ import annotations

import re
from typing import NamedTuple

KINDS = ("recovery", "resync", "check", "reshape", "repair")
FIELDS = ("percent", "done/total", "finish", "speed")

# Each piece: (regular expression of the whole piece, of any beginning of it). Built from atoms so that
# "a beginning of the line" is exact: a literal character, or a run of digits.
_Atom = tuple[str, str]


def _literal(text: str) -> list[_Atom]:
    return [(re.escape(c), "") for c in text]


DIGITS: _Atom = (r"\d+", r"\d*")
SPACE: _Atom = (r"\s*", r"\s*")
ONE_DECIMAL = [DIGITS, *_literal("."), (r"\d", "")]
PIECES: list[tuple[str, list[_Atom]]] = [
    ("percent", [SPACE, *_literal("="), SPACE, *ONE_DECIMAL, *_literal("%")]),
    ("done/total", [SPACE, *_literal("("), DIGITS, *_literal("/"), DIGITS, *_literal(")")]),
    ("finish", [SPACE, *_literal("finish="), *ONE_DECIMAL, *_literal("min")]),
    ("speed", [SPACE, *_literal("speed="), DIGITS, *_literal("K/sec")]),
]


def _whole(atoms: list[_Atom]) -> str:
    return "".join(full for full, _ in atoms)


def _beginning(atoms: list[_Atom]) -> str:
    """A regular expression for every beginning of ``atoms`` (the empty one included)."""
    if not atoms:
        return ""
    (full, part), rest = atoms[0], atoms[1:]
    return f"(?:{full}{_beginning(rest)}|{part})"


WHOLE = [(name, re.compile(_whole(atoms))) for name, atoms in PIECES]
BEGINNING = [re.compile(_beginning(atoms) + r"\s*$") for _, atoms in PIECES]
RE_START = re.compile(r"^(?:\[([=>.]*)\]\s*)?(" + "|".join(KINDS) + r")\b")
RE_START_LOOSE = re.compile(r"^(?:\[[=>.]*\]?\s*)?(?:" + "|".join(KINDS) + r")")


def looks_like_progress(line: str) -> bool:
    return bool(RE_START_LOOSE.match(line)) or line.startswith("[")


class Progress(NamedTuple):
    op: dict | None          # None when the line is not a clean beginning of a progress line
    missing: list[str]       # the fields the line does not reach (None in op)
    bar: str | None          # what the bar shows between its brackets
    tail: str = ""           # the text of the field the line ends in


NOT_PROGRESS = Progress(None, [], None)


def read_progress(line: str) -> Progress:
    """A whole or cut progress line (stripped), read as far as it goes."""
    m = RE_START.match(line)
    if not m:
        return NOT_PROGRESS
    bar, kind = m.groups()
    op = {"kind": kind, "percent": None, "done_blocks": None, "total_blocks": None,
          "finish_min": None, "speed_kib_s": None}
    pos = m.end()
    for i, (name, whole) in enumerate(WHOLE):
        w = whole.match(line, pos)
        if w is None:
            if BEGINNING[i].match(line, pos):
                return Progress(op, list(FIELDS[i:]), bar, line[pos:].strip())
            return NOT_PROGRESS
        text = w.group(0)
        if name == "percent":
            op["percent"] = float(re.search(r"\d+\.\d", text).group(0))
        elif name == "done/total":
            done, total = re.findall(r"\d+", text)
            op["done_blocks"], op["total_blocks"] = int(done), int(total)
        elif name == "finish":
            op["finish_min"] = float(re.search(r"\d+\.\d", text).group(0))
        else:
            op["speed_kib_s"] = int(re.search(r"\d+", text).group(0))
        pos = w.end()
    if line[pos:].strip():
        return NOT_PROGRESS
    return Progress(op, [], bar)
