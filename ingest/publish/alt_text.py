"""Each chart's numbers in words: the text alternative a page shows beside the drawing (and an embed
carries as its SVG's <desc>), generated from the chart's own data, never typed.

A chart by load names, for each line (a series in a state), how many values it has and its lowest and
highest as recorded, with their thread counts, and each value its source's own figures contradict, with
its reason. A chart over time names, for each panel, the lowest and
highest sample and the span of time. The values are written as the data hold them (``text`` as printed,
samples as parsed): nothing is rounded here.
"""

from __future__ import annotations


def _threads(x) -> str:
    return f"{x} thread{'' if x == 1 else 's'}"


def by_x(points: list[dict]) -> str:
    """The lines of a chart by thread count (``points`` with series, state, x, y and text), in words."""
    lines: dict[tuple, list[dict]] = {}
    for p in points:
        lines.setdefault((p["series"], p.get("state")), []).append(p)
    parts = []
    for (series, state), mine in lines.items():
        name = f"{series} ({state})" if state else series
        if len(mine) == 1:
            parts.append(f"{name}: {mine[0]['text']} at {_threads(mine[0]['x'])}")
            continue
        low = min(mine, key=lambda p: p["y"])
        high = max(mine, key=lambda p: p["y"])
        parts.append(f"{name}: {len(mine)} values, lowest {low['text']} at {_threads(low['x'])}, "
                     f"highest {high['text']} at {_threads(high['x'])}")
    flagged = _flagged(points)
    if flagged:
        parts.append(flagged)
    return "; ".join(parts) + "." if parts else ""


def _flagged(points: list[dict]) -> str:
    """The values of a chart by load that its source's own figures contradict, with their reason, in words
    ("" if none). How they are drawn is said under the image by its renderer (site/assets/js/inconsistent.js)."""
    flagged = [p for p in points if p.get("inconsistent")]
    if not flagged:
        return ""
    return (("a value" if len(flagged) == 1 else f"{len(flagged)} values") + " the source's own figures contradict: "
            + "; ".join(f"{p['series']}{' (' + p['state'] + ')' if p.get('state') else ''} {p['text']} "
                        f"at {_threads(p['x'])}: {p['inconsistent']}" for p in flagged))


def over_time(samples: list[list[dict]], panels: list[dict], *, what: str, every: int | None = None) -> str:
    """Charts over time (``samples``: one list of samples with t_s per line), for each panel's key, in words;
    ``every``: only each every-th sample of the runs is drawn."""
    drawn = [s for line in samples for s in line]
    if not drawn:
        return ""
    start, end = min(s["t_s"] for s in drawn), max(s["t_s"] for s in drawn)
    count = f"{len(drawn)} samples (every {every}th of the runs' samples)" if every else f"{len(drawn)} samples"
    parts = [f"{len(samples)} {what}{'' if len(samples) == 1 else 's'}, {count} from {start} s to {end} s"]
    for panel in panels:
        values = [s[panel["key"]] for s in drawn if s.get(panel["key"]) is not None]
        if values:
            parts.append(f"{panel['label']} from {min(values)} to {max(values)}")
        else:
            parts.append(f"{panel['label']}: none recorded")
    return "; ".join(parts) + "."


def tails(rows: list[dict]) -> str:
    """A latency-tail chart's states (rows of latency_by_state: state, events, p95_ms, p99_ms, p999_ms), in words."""
    return "; ".join(f"{r['state']}: p95 {r['p95_ms']} ms, p99 {r['p99_ms']} ms, p99.9 {r['p999_ms']} ms "
                     f"over {r['events']} events" for r in rows) + ("." if rows else "")
