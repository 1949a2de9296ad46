"""Seeded mutation fuzzing of every sysbench fixture log (issue #16).

Each log is mutated a few hundred times, deterministically: a digit changed, a line dropped,
duplicated or cut short, a byte flipped. Whatever comes in, the parser answers with its result or
its own ParseError, never another exception, and its result can be printed as JSON. And where a
mutation changes a printed figure so that a relation between figures that held in the original
log no longer holds, the parser must say so with a warning the original did not have.

The relations below are this test's own, written from sysbench's source and the precision it
prints each figure with; where unsure they are looser than the parser's checks, never tighter.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from ingest.parsers import ParseError
from ingest.parsers.sysbench_runs import parse_runs
from ingest.parsers.sysbench_intervals import IntervalColumns

FIXTURES = Path(__file__).parent / "fixtures" / "sysbench"
LOGS = sorted(FIXTURES.glob("*.log"))
MUTANTS_PER_LOG = 200
SEED = 16
# Half a bucket of sysbench 1.0's latency histogram (1024 log buckets over 0.001..100000 ms): how
# far a printed percentile may lie outside the measured min and max, plus a little.
BUCKET = 1.0091


def _mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One mutation of ``data`` and its kind."""
    lines = data.split(b"\n")
    kind = rng.choice(["digit", "digit", "digit", "drop", "duplicate", "truncate", "flip"])
    places = [m.start() for m in re.finditer(rb"\d", data)] if kind == "digit" else []
    if places:
        at = rng.choice(places)
        new = rng.choice([d for d in b"0123456789" if d != data[at]])
        return kind, data[:at] + bytes([new]) + data[at + 1:]
    kind = "flip" if kind == "digit" else kind  # a log without a digit
    i = rng.randrange(len(lines))
    if kind == "drop":
        return kind, b"\n".join(lines[:i] + lines[i + 1:])
    if kind == "duplicate":
        return kind, b"\n".join(lines[: i + 1] + lines[i:])
    if kind == "truncate":
        line = lines[i]
        cut = rng.randrange(len(line) + 1)
        # a cut inside a number changes how precisely it is printed: only "no crash" is asserted then
        inside = 0 < cut < len(line) and line[cut - 1:cut + 1].strip(b"0123456789.") == b""
        return "truncate-number" if inside else kind, b"\n".join(lines[:i] + [line[:cut]] + lines[i + 1:])
    at = rng.randrange(len(data))
    return kind, data[:at] + bytes([data[at] ^ rng.randrange(1, 256)]) + data[at + 1:]


def _relations(run: dict) -> dict[str, bool | None]:
    """Whether each relation holds in a parsed run (None: the figures it needs are not there)."""
    t, lat, fair = run["totals"], run["latency_ms"], run["fairness"]
    out: dict[str, bool | None] = {}
    rows = [r for r in run["intervals"].to_rows() if None not in (r["qps"], r["reads_s"], r["writes_s"], r["other_s"])]
    out["interval qps = r + w + o"] = (all(abs(r["qps"] - r["reads_s"] - r["writes_s"] - r["other_s"]) <= 0.0201
                                           for r in rows) if rows else None)
    low, avg, high = lat["min"], lat["avg"], lat["max"]
    out["min <= avg"] = None if None in (low, avg) else low <= avg + 0.0101
    out["avg <= max"] = None if None in (avg, high) else avg <= high + 0.0101
    for p, value in lat["percentiles"].items():
        out[f"p{p} <= max"] = None if high is None else value <= high * BUCKET + 0.0101
        out[f"p{p} >= min"] = None if low is None else value * BUCKET + 0.0101 >= low
    events = t["events"]
    out["sum = events x avg"] = (None if None in (events, avg, lat["sum"]) else
                                 abs(lat["sum"] - events * avg) <= events * 0.005 + 0.0501 + 1e-9 * lat["sum"])
    version = run["sysbench_version"]
    out["events = transactions"] = (None if None in (events, t["transactions"], version) or version.startswith("0.5")
                                    else events == t["transactions"])
    out["histogram = events"] = (None if not run["histogram"] or events is None
                                 else sum(r["count"] for r in run["histogram"]) == events)
    out["time > 0"] = None if t["time_s"] is None else t["time_s"] > 0
    threads = run["threads"]
    out["fairness avg x threads = events"] = (
        None if None in (fair["events_avg"], events, threads) or run["threads_source"] == "inferred"
        else abs(fair["events_avg"] * threads - events) <= threads * 0.0001 + 1e-9 * events)
    parts = (t["reads"], t["writes"], t["other"])
    out["r + w + o = queries"] = None if None in parts or t["queries"] is None else sum(parts) == t["queries"]
    out["transactions / time = tps"] = (
        None if None in (t["transactions"], t["time_s"], t["tps"]) or t["time_s"] <= 0
        else abs(t["transactions"] / t["time_s"] - t["tps"]) <= 0.006 * t["tps"] + 0.011)
    return out


def _json(value):
    if isinstance(value, IntervalColumns):
        return value.to_rows()
    raise TypeError(type(value).__name__)


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_mutants_never_crash_and_broken_relations_are_named(log, tmp_path):
    data = log.read_bytes()
    original = parse_runs(log)
    before = [_relations(run) for run in original]
    rng = random.Random(f"{SEED}:{log.name}")
    target = tmp_path / log.name
    silent = []
    for number in range(MUTANTS_PER_LOG):
        kind, mutant = _mutate(data, rng)
        target.write_bytes(mutant)
        try:
            runs = parse_runs(target)
        except ParseError:
            continue  # the parser's own answer: a clean error
        json.dumps(runs, ensure_ascii=False, default=_json).encode("utf-8")  # printable as `benchdb parse` does
        if kind == "truncate-number" or len(runs) != len(original):
            continue  # a run more or less: `benchdb parse` shows it and a bundle artifact is refused
        for was, run, held in zip(original, runs, before):
            new_warnings = set(run["warnings"]) - set(was["warnings"])
            for name, holds in _relations(run).items():
                if held.get(name) and holds is False and not new_warnings:
                    silent.append(f"mutant {number} ({kind}): {name} broken without a warning")
    assert silent == []
