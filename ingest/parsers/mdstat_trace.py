"""Timed sequences of /proc/mdstat snapshots, and the rebuild story they tell.

A trace is either one file from a capture loop such as
``while sleep 5; do date --iso-8601=seconds; cat /proc/mdstat; done > mdstat.trace``
(separators may also be ``date``'s default format or epoch seconds), or a folder of snapshot
files whose names carry the time. Samples that go backwards, arrays that come and go, and
unreadable progress lines are reported with their line numbers, never smoothed over. A time that
does not exist (``12:00:60``, ``Feb 30``) is an error naming its file and line; a symbolic link (the
trace itself or a file in its folder) is refused, never followed.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

from .reading import ParseError, no_cyclic_gc
from .mdstat import array_state, parse_snapshot_lines, read_text

RE_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?$")
RE_DATE = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\d{1,2}) "
                     r"(\d{2}):(\d{2}):(\d{2}) (?:([A-Z]{1,5}) )?(\d{4})$")
RE_EPOCH = re.compile(r"^\d{9,11}(?:\.\d+)?$")
RE_NAME_TIME = re.compile(r"(\d{4}-\d{2}-\d{2}[T_ ]\d{2}[:\-]?\d{2}[:\-]?\d{2}(?:Z|[+-]\d{2}:?\d{2})?|\b\d{9,11}\b)")
MONTHS = {m: i for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), start=1)}
UTC_NAMES = {"UTC", "GMT", "Z"}
WEEKDAYS = "Mon Tue Wed Thu Fri Sat Sun".split()


class NoSuchTime(ValueError):
    """A line in a time format whose date or clock does not exist."""


def parse_time(text: str) -> datetime | None:
    """A separator line's time, or None when the line is not a timestamp; NoSuchTime when it has the
    form of one but names a time that does not exist."""
    try:
        return _parse_time(text.strip())
    except (ValueError, OverflowError, OSError) as exc:
        raise NoSuchTime(f"{text.strip()!r} is not a time that exists ({exc})") from None


def _parse_time(text: str) -> datetime | None:
    if RE_EPOCH.match(text):
        return datetime.fromtimestamp(float(text), tz=timezone.utc)
    if RE_ISO.match(text):
        value = text.replace(",", ".").replace(" ", "T")
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    if m := RE_DATE.match(text):
        weekday, month, day, hh, mm, ss, zone, year = m.groups()
        tz = timezone.utc if zone in UTC_NAMES else None
        stamp = datetime(int(year), MONTHS[month], int(day), int(hh), int(mm), int(ss), tzinfo=tz)
        if WEEKDAYS[stamp.weekday()] != weekday:  # date prints the weekday of the date it prints
            raise ValueError(f"{int(day)} {month} {year} is a {WEEKDAYS[stamp.weekday()]}")
        return stamp
    return None


def _name_time(name: str) -> datetime | None:
    m = RE_NAME_TIME.search(name)
    if not m:
        return None
    text = m.group(1)
    if text.isdigit():
        return parse_time(text)
    date, clock = re.split(r"[T_ ]", text, maxsplit=1)
    zone = re.search(r"(Z|[+-]\d{2}:?\d{2})$", clock)
    bare = clock[: zone.start()] if zone else clock
    digits = bare.replace(":", "").replace("-", "")
    iso = f"{date}T{digits[0:2]}:{digits[2:4]}:{digits[4:6]}" + (zone.group(1) if zone else "")
    return parse_time(iso)


def _split_file(path: Path) -> list[tuple[datetime, int, list[tuple[int, str]]]]:
    """(time, line of the separator, the snapshot's numbered lines) for each sample of a trace file."""
    samples: list = []
    lines = read_text(path).split("\n")
    current = None
    for number, line in enumerate(lines, start=1):
        try:
            stamp = parse_time(line) if line.strip() else None
        except NoSuchTime as exc:
            raise ParseError(f"{path}:{number}: {exc}") from None
        if stamp is not None:
            current = (stamp, number, [])
            samples.append(current)
        elif current is not None:
            current[2].append((number, line))
        elif line.strip():
            raise ParseError(f"{path}:{number}: a trace must start with a time line "
                             f"(date --iso-8601=seconds, date, or epoch seconds), not {line.strip()[:60]!r}")
    if not samples:
        raise ParseError(f"{path}: not an mdstat trace (no time lines)")
    return samples


def _snapshots(path: Path) -> tuple[list[dict], list[str]]:
    warnings: list[str] = []
    snapshots = []
    if path.is_dir():
        files = []
        for f in sorted(path.iterdir()):
            if f.is_symlink():
                raise ParseError(f"{f}: a symbolic link in a trace folder is not followed: put the file itself there")
            if not f.is_file():
                warnings.append(f"{f.name}: not a file; not used")
                continue
            try:
                stamp = _name_time(f.name)
            except NoSuchTime as exc:
                raise ParseError(f"{f}: the time in its name, {exc}") from None
            if stamp is None:
                warnings.append(f"{f.name}: no time in the file name; not used")
                continue
            files.append((stamp, f))
        if not files:
            raise ParseError(f"{path}: no snapshot files named by time")
        if len({stamp.tzinfo is not None for stamp, _ in files}) > 1:
            raise ParseError(f"{path}: some file names carry a time zone and some do not")
        for stamp, f in sorted(files, key=lambda x: x[0]):
            text = read_text(f)
            snap = parse_snapshot_lines(list(enumerate(text.split("\n"), start=1)), name=str(f), keep_lines=True)
            warnings.extend(f"{f.name} {w}" for w in snap.pop("warnings"))
            snapshots.append({"time": stamp, "file": f.name, "line": None, **snap})
    else:
        for stamp, line, body in _split_file(path):
            try:
                snap = parse_snapshot_lines(body, name=f"{path}:{line}", keep_lines=True)
            except ParseError:
                warnings.append(f"line {line}: no /proc/mdstat content after this time line")
                continue
            warnings.extend(snap.pop("warnings"))
            snapshots.append({"time": stamp, "file": None, "line": line, **snap})
    aware = {s["time"].tzinfo is not None for s in snapshots}
    if len(aware) > 1:
        raise ParseError(f"{path}: some times carry a time zone and some do not")
    for before, after in zip(snapshots, snapshots[1:]):
        if after["file"] and after["time"] == before["time"]:
            raise ParseError(f"{path}: {before['file']} and {after['file']} name the same time")
        if after["time"] <= before["time"]:
            raise ParseError(f"{path}:{after['line']}: {after['time'].isoformat()} does not come after the sample at "
                             f"line {before['line']} ({before['time'].isoformat()}): a trace goes forward in time")
    return snapshots, warnings


def _where(snap: dict, line: int | None) -> str:
    if snap["file"]:
        return f"{snap['file']}" + (f" line {line}" if line else "")
    return f"line {line or snap['line']}"


def analyse(snapshots: list[dict], warnings: list[str]) -> dict:
    start = snapshots[0]["time"]
    names = list(dict.fromkeys(a["name"] for s in snapshots for a in s["arrays"]))
    arrays = {}
    for name in names:
        timeline: list[dict] = []
        throughput: list[dict] = []
        previous = None  # (t_s, array, snapshot)
        present_before = False
        for snap in snapshots:
            t = (snap["time"] - start).total_seconds()
            array = next((a for a in snap["arrays"] if a["name"] == name), None)
            if array is None:
                if present_before:
                    warnings.append(f"{_where(snap, None)}: {name} is missing from this sample")
                state = "absent"
            else:
                if not present_before and timeline:
                    warnings.append(f"{_where(snap, array['line'])}: {name} appears only from this sample on")
                present_before = True
                state = array_state(array)
            if timeline and timeline[-1]["state"] == state:
                timeline[-1]["end_s"] = t
            else:
                timeline.append({"state": state, "start_s": t, "end_s": t})
            op = array["operation"] if array else None
            if op and previous and previous[1]["operation"] and previous[1]["operation"]["kind"] == op["kind"]:
                t0, a0, _ = previous
                before = a0["operation"]
                if None in (op["done_blocks"], before["done_blocks"]):
                    pass  # a progress line cut short: reported where it was read
                elif op["total_blocks"] != before["total_blocks"]:
                    warnings.append(f"{_where(snap, op['line'])}: {name} {op['kind']} total changed from "
                                    f"{before['total_blocks']} to {op['total_blocks']} blocks")
                elif op["done_blocks"] < before["done_blocks"]:
                    warnings.append(f"{_where(snap, op['line'])}: {name} {op['kind']} went backwards from "
                                    f"{before['done_blocks']} to {op['done_blocks']} blocks")
                elif t > t0:
                    throughput.append({
                        "t_s": t, "kind": op["kind"], "percent": op["percent"],
                        "measured_kib_s": round((op["done_blocks"] - before["done_blocks"]) / (t - t0), 1),
                        "kernel_speed_kib_s": op["speed_kib_s"],
                    })
            if array is not None:
                previous = (t, array, snap)
        arrays[name] = {"timeline": timeline, "rebuild": _rebuild(timeline), "throughput": throughput}
    return {
        "start": start.isoformat(),
        "snapshots": [{"time": s["time"].isoformat(), "t_s": (s["time"] - start).total_seconds(),
                       "file": s["file"], "line": s["line"], "personalities": s["personalities"],
                       "arrays": s["arrays"], "unused_devices": s["unused_devices"]} for s in snapshots],
        "arrays": arrays,
        "warnings": warnings,
    }


def _rebuild(timeline: list[dict]) -> dict | None:
    """The first recovery: from its first sample to the first sample after it (None if none)."""
    for i, seg in enumerate(timeline):
        if seg["state"] == "recovering":
            after = timeline[i + 1] if i + 1 < len(timeline) else None
            end = after["start_s"] if after else None
            return {"start_s": seg["start_s"], "end_s": end,
                    "duration_s": None if end is None else end - seg["start_s"],
                    "finished": after is not None and after["state"] == "optimal",
                    "state_after": after["state"] if after else None}
    return None


def parse_trace(path: Path) -> dict:
    path = Path(path)
    if path.is_symlink():
        raise ParseError(f"{path}: a symbolic link is not followed: put the trace itself in the bundle")
    if not path.exists():
        raise ParseError(f"{path}: cannot read: No such file or directory")
    with no_cyclic_gc():
        snapshots, warnings = _snapshots(path)
        if not snapshots:
            raise ParseError(f"{path}: not an mdstat trace (no snapshot with /proc/mdstat content)")
        return analyse(snapshots, warnings)
