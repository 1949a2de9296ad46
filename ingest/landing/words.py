"""A landing in words, as ``benchdb compare`` prints it: your run, where it stands, the series nearest
it, and the next step to a pull request."""

from __future__ import annotations

from ..plumbing.text import printable
from .comparable import ENGINES, Landing, Series, fragment

SHOWN = 10  # series listed by TPS besides the nearest


def _tps(value: float) -> str:
    return f"{value:,.2f}"


def _ratio(ratio: float) -> str:
    return f"{ratio:.2f}x" if ratio >= 0.1 else f"{ratio:.3f}x"


def _series(s: Series) -> str:
    said = (f"{s.system_label} ({s.study}), {s.threads} threads: {_tps(s.tps)} tx/s"
            f"{f' (median of {s.n_values})' if s.n_values > 1 else ''}, {s.value_kind}; yours is {_ratio(s.ratio)}")
    differs = "; ".join(f"{d.label}: yours {d.values[0]}, theirs {d.values[1]}" for d in s.differs)
    unknown = ", ".join(s.unknown)
    return "\n      ".join(printable(part) for part in (
        said, f"differs in {differs}" if differs else "differs in nothing you recorded",
        *([f"not stated there: {unknown}"] if unknown else [])))


NEXT = """Next, to publish it (docs/contributing.md):
  1. benchdb import FOLDER --out data/<id>   (FOLDER: this log, with the server's settings beside it)
  2. replace each TO BE STATED in data/<id>/bundle.yaml (what only you know: the system, the source)
  3. benchdb validate data/<id>
  4. open a pull request with data/<id>/: its checks build the site with your study in it"""


def landing_lines(landing: Landing, *, log: str) -> list[str]:
    run = landing.run
    grade = f"{run['grade']}" + (f" ({run['reasons']})" if run["reasons"] else "")
    lines = [printable(f"Your run ({log}): sysbench {run['sysbench_version'] or '(version not printed)'} "
                       f"{run['workload_test']}, {run['threads']} threads, {_tps(run['tps'])} transactions a second "
                       f"over {run['elapsed_s']:g} s"),
             printable(f"  its quality by the run-quality rules (/grades/): {grade}")]
    if landing.why_none:
        return [*lines, f"Nothing published is comparable: {landing.why_none}.", "", NEXT]
    at = sum(s.threads == run["threads"] for s in landing.series)
    lines += [f"Compared with {len(landing.series)} published series of {landing.test} on {ENGINES[landing.engine]}, "
              f"in optimal state or no array state, by transactions a second ({at} at {run['threads']} threads, "
              f"{len(landing.series) - at} at their nearest thread count)",
              f"It lands at percentile {landing.percentile:g}: above {sum(s.tps < run['tps'] for s in landing.series)} "
              f"of them, below {sum(s.tps > run['tps'] for s in landing.series)}.",
              "", "Nearest yours by the facts you recorded (fewest differences first):"]
    lines += [f"  {i}. {_series(s)}" for i, s in enumerate(landing.nearest, 1)]
    lines += ["", f"By transactions a second{f' (the first {SHOWN})' if len(landing.series) > SHOWN else ''}:"]
    listed = [(s.tps, printable(f"  {_tps(s.tps):>12}  {s.system_label} ({s.study}), {s.threads} threads"))
              for s in landing.series[:SHOWN]]
    below_all = len(landing.series) > SHOWN and run["tps"] < landing.series[SHOWN - 1].tps
    above = sum(s.tps > run["tps"] for s in landing.series)
    mine = f"  {_tps(run['tps']):>12}  <- your run" + (f" ({above - SHOWN} more above it not listed)" if below_all else "")
    at = sum(tps >= run["tps"] for tps, _ in listed)
    lines += [line for _, line in listed[:at]] + [mine] + [line for _, line in listed[at:]]
    return [*lines, "", f"On the site, your run among the published series: /compare/yours/#{fragment(landing)}",
            "", NEXT]
