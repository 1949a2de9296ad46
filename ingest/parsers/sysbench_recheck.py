"""The cross-checks of a parsed sysbench run, run again on its figures alone: a cited log's figures file
(schema/figures.py) holds what the parser read, never the log, and its figures get the checks a parsed
log's get (sysbench_checks.py) where the figures say enough to run them.

The parser takes each check's tolerance from the printed digits of the figures (half_unit); the figures
file holds numbers, whose shortest text has at most the digits the log printed (10477.20 is 10477.2), so
the tolerance here is never smaller than the parser's: a check that held for the log holds for its
figures. What the figures cannot say (a 'Target transaction rate' header line of a rate-limited run, the
'SQL statistics:' header of a log without a version line) leaves those checks as lenient as the log
would have had them, or skips them.
"""

from __future__ import annotations

import re

from .sysbench import _Parser
from .sysbench_checks import _FROM_FAIRNESS, _cross_check, _figures
from .sysbench_shapes import half_unit

_LINE = re.compile(r"^line \d+: ")


def _half(value) -> float:
    return half_unit(repr(value) if isinstance(value, float) else str(value))


def recheck(run: dict) -> tuple[list[str], float | None]:
    """The warnings the cross-checks give on ``run`` (a run as the parser returns it, its intervals an
    IntervalColumns), each without its 'line N: ' (the line of a heading the figures do not keep), and the
    coefficient of variation of its interval tps they compute."""
    parser = _Parser("<figures>")
    out = {**run, "warnings": [], "interval_tps_cv": None, "totals": dict(run["totals"])}
    parser.out = out
    lat, fair = out["latency_ms"], out["fairness"]
    for key in ("min", "avg", "max", "sum"):
        if lat[key] is not None:
            parser.half[key] = _half(lat[key])
    for rank, value in lat["percentiles"].items():
        parser.half[f"p{rank}"] = _half(value)
    if fair["events_avg"] is not None:
        parser.half["events_avg"] = _half(fair["events_avg"])
    if run.get("command_options") is not None:
        parser.command = (0, run["command_options"])
    if out["threads_source"] == "inferred" and out["totals"]["events"] and fair["events_avg"]:
        parser.threads_how = _FROM_FAIRNESS  # inferred from fairness: the parser does not check it against it
    _cross_check(parser)
    _figures(parser)
    return [_LINE.sub("", w) for w in out["warnings"]], out["interval_tps_cv"]


def unrecorded(run: dict) -> tuple[list[str], float | None]:
    """The warnings ``recheck`` gives that ``run`` does not record (compared without their lines), and
    the coefficient of variation it computes."""
    recorded = {_LINE.sub("", w) for w in run["warnings"]}
    found, cv = recheck(run)
    return [w for w in found if w not in recorded], cv
