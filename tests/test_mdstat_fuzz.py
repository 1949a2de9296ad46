"""Seeded mutation fuzzing of every mdstat fixture and of a trace (issue #16).

Each mutant changes a digit, drops, duplicates or truncates a line, or flips a bit of one byte. Whatever
comes of it, the parser returns a result or raises ParseError, nothing else; and when a mutant's figures
break a relation the kernel keeps (ingest/parsers/mdstat_checks.py, which also names each relation) that
held in the original, the result carries that warning, on the line of the figures.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ingest.parsers import ParseError
from ingest.parsers.mdstat import parse_snapshot_lines, read_text
from ingest.parsers.mdstat_checks import finish_off, past_the_end, percent_off, size_off
from ingest.parsers.mdstat_trace import parse_trace

FIXTURES = Path(__file__).parent / "fixtures" / "mdstat"
TRACE = Path(__file__).parent / "fixtures" / "bundles" / "rebuild-trace-fixture" / "artifacts" / "mdstat.trace"
SEED = 16
MUTANTS_PER_SNAPSHOT = 120
MUTANTS_OF_THE_TRACE = 600
RELATIONS = {"past the end": lambda a, op: past_the_end(op), "percent": lambda a, op: percent_off(op),
             "finish": lambda a, op: finish_off(op), "size": size_off}


def mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    how = rng.choice(["digit", "digit", "drop", "duplicate", "truncate", "flip"])
    if how == "digit":
        spots = [k for k, c in enumerate(data) if 48 <= c <= 57]
        if spots:
            k = rng.choice(spots)
            return data[:k] + rng.choice(b"0123456789").to_bytes(1, "big") + data[k + 1:]
        return data
    if how == "drop":
        return b"\n".join(lines[:i] + lines[i + 1:])
    if how == "duplicate":
        return b"\n".join(lines[: i + 1] + lines[i:])
    if how == "truncate":
        return b"\n".join(lines[:i] + [lines[i][: rng.randrange(len(lines[i]) + 1)]] + lines[i + 1:])
    k = rng.randrange(len(data))
    return data[:k] + (data[k] ^ (1 << rng.randrange(8))).to_bytes(1, "big") + data[k + 1:]


def _held(arrays: list[dict]) -> set[tuple[str, str]]:
    """(array, relation) pairs that hold in a parse result."""
    return {(a["name"], name) for a in arrays if a["operation"] and None not in a["operation"].values()
            for name, check in RELATIONS.items() if check(a, a["operation"]) is None}


def _broken_without_warning(arrays: list[dict], warnings: list[str], held: set) -> list[str]:
    missing = []
    for a in arrays:
        op = a["operation"]
        if op and None not in op.values():
            for name, check in RELATIONS.items():
                text = check(a, op)
                if text and (a["name"], name) in held and f"line {op['line']}: {a['name']}: {text}" not in warnings:
                    missing.append(f"{a['name']} {name}: {text}")
        bitmap = a["bitmap"]
        if bitmap and bitmap["pages_used"] > bitmap["pages_total"] and not any(
                f"{a['name']}: bitmap uses {bitmap['pages_used']} of {bitmap['pages_total']} pages" in w
                for w in warnings):
            missing.append(f"{a['name']} bitmap pages")
    return missing


def _snapshot(path: Path) -> dict:
    text = read_text(path)
    return parse_snapshot_lines(list(enumerate(text.split("\n"), start=1)), name=str(path), keep_lines=True)


def _fuzz(*, original: Path, parse, count: int, tmp_path: Path) -> None:
    """``count`` mutants of ``original`` through ``parse``: a result or ParseError, and no relation that
    held in the original broken without its warning."""
    rng = random.Random(f"{SEED}:{original.name}")
    data = original.read_bytes()
    got = parse(original)
    held = set().union(*(_held(s["arrays"]) for s in got.get("snapshots", [got])))
    path = tmp_path / original.name
    for n in range(count):
        mutant = mutate(data, rng)
        path.write_bytes(mutant)
        try:
            got = parse(path)
        except ParseError:
            continue
        for snap in got.get("snapshots", [got]):
            missing = _broken_without_warning(snap["arrays"], got["warnings"], held)
            assert not missing, (n, mutant.decode("utf-8", "replace"), missing, got["warnings"])


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.txt")))
def test_mutated_snapshots(tmp_path, name):
    _fuzz(original=FIXTURES / name, parse=_snapshot, count=MUTANTS_PER_SNAPSHOT, tmp_path=tmp_path)


def test_mutated_trace(tmp_path):
    _fuzz(original=TRACE, parse=parse_trace, count=MUTANTS_OF_THE_TRACE, tmp_path=tmp_path)


def _without_lines(arrays: list[dict]) -> list[dict]:
    return [{**a, "line": None, "operation": a["operation"] and {**a["operation"], "line": None}} for a in arrays]


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.txt") if "-80" not in p.name))
def test_every_wrap_of_a_long_line_reads_the_same(name):
    """A terminal may wrap at any width from 40 columns on: split a Personalities, array, size, progress or
    bitmap line at each of those columns, and the snapshot reads the same, with a warning naming both lines
    when the second part is more than blanks."""
    lines = read_text(FIXTURES / name).split("\n")
    original = parse_snapshot_lines(list(enumerate(lines, start=1)), name="x", keep_lines=True)
    for i, line in enumerate(lines):
        if not re.match(r"\s*(Personalities|md|\d+ blocks|bitmap:)|.*finish=", line):
            continue
        for cut in range(40, len(line)):
            head, tail = line[:cut], line[cut:]
            got = parse_snapshot_lines(list(enumerate(lines[:i] + [head, tail] + lines[i + 1:], start=1)),
                                       name="x", keep_lines=True)
            assert (got["personalities"], _without_lines(got["arrays"])) == (
                original["personalities"], _without_lines(original["arrays"])), (name, head, tail)
            added = [w for w in got["warnings"] if "(wrapped): read as one line" in w]
            if head.strip() and tail.strip():
                assert len(added) == 1 and added[0].startswith(f"line {i + 1}: "), (name, head, tail, got["warnings"])
