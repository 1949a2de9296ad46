"""Parse ``/proc/mdstat`` as the kernel prints it, one snapshot at a time.

Forms handled (each from the kernel's print functions, see tests/fixtures/mdstat/PROVENANCE.md):
tabs and odd indentation, a leading ``# cat /proc/mdstat``, a missing ``unused devices`` line,
``64k chunks`` (raid0), ``512K chunks`` with near/far/offset copies (raid10), ``level 5, 64k chunk,
algorithm 2`` (raid4/5/6), ``64k rounding`` (linear), ``super 1.2``/``super external:…``/``super
non-persistent``, member flags (W)(J)(F)(S)(R), inactive arrays without a level, read-only states,
bitmaps (with a bitmap file), progress bars, ``resync=DELAYED``/``PENDING`` and the cluster's
``=REMOTE`` forms, the ``read_ahead`` line of 2.4 kernels. A line wrapped by a terminal is read as
one line when the next line carries on with it; a Personalities or progress line cut short is read
as far as its whole fields go.
Anything the parser cannot read becomes a warning with its line number, never a guess; so do figures
that break a relation the kernel keeps between them (mdstat_checks.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from .reading import ParseError, read_artifact
from .mdstat_checks import MAX_COUNT, bitmap_off, progress_problems, size_off
from .mdstat_progress import looks_like_progress, read_progress

RE_PERSONALITIES = re.compile(r"^Personalities\s*:\s*(.*)$")
RE_ARRAY = re.compile(r"^(md[\w/-]*)\s*:\s*(active|inactive)\b\s*(?:\((read-only|auto-read-only)\))?\s*(.*)$")
RE_LEVEL = re.compile(r"^(raid\d+|linear|multipath|faulty)$")
RE_MEMBER = re.compile(r"^([^\s\[\]()]+)\[(\d+)\]((?:\([A-Z]\))*)$")
RE_BLOCKS = re.compile(r"^(\d+) blocks\b(.*)$")
RE_SUPER = re.compile(r"\bsuper (\S+)")
RE_SUPER_TEXT = re.compile(r"^(?:\d+\.\d+|external:\S+|non-persistent)$")
RE_CHUNK = re.compile(r"\b(\d+)[kK] chunks?\b")
RE_ROUNDING = re.compile(r"\b(\d+)k rounding\b")
RE_ALGORITHM = re.compile(r"\balgorithm (\d+)\b")
RE_COPIES = re.compile(r"\b(\d+ (?:near|far|offset)-copies|\d+ devices per set)\b")
RE_LEVEL_WORD = re.compile(r"\blevel (\d+),")
RE_DISKS = re.compile(r"\[(\d+)/(\d+)\]\s*\[([U_]*)\]")
# md_bitmap_status; seq_file_path escapes blanks in the file's path
RE_BITMAP = re.compile(r"^bitmap:\s*(\d+)/(\d+) pages \[(\d+)KB\],\s*(\d+)(KB|B) chunk(?:, file: (\S+))?$")
RE_PENDING = re.compile(r"^(resync|recovery|recover|check|reshape|repair)\s*=\s*(DELAYED|PENDING|REMOTE)$")
RE_PERSONALITY_NAMES = re.compile(r"^(?:\s*\[[\w-]+\])*\s*$")
RE_PERSONALITY_CUT = re.compile(r"^((?:\s*\[[\w-]+\])*)\s*(\[[\w-]*)$")
SIZE_PIECES = (RE_SUPER, RE_CHUNK, RE_COPIES, RE_ALGORITHM, RE_ROUNDING, RE_LEVEL_WORD, RE_DISKS)
RE_PROGRESS_START = re.compile(r"^(?:\[[=>.]|(?:recovery|recover|resync|check|reshape|repair)\b)")
RE_KNOWN_START = re.compile(r"^(?:Personalities\b|md[\w/-]*\s*:|unused devices:|bitmap:|\d+ blocks\b)")
RE_UNUSED = re.compile(r"^unused devices:\s*(.*)$")
RE_READ_AHEAD = re.compile(r"^read_ahead (?:(\d+) sectors|not set)$")  # kernels 2.4 and 2.5
RE_PROMPT = re.compile(r"cat\s+/proc/mdstat")
FLAGS = {"F": "faulty", "S": "spare", "W": "write-mostly", "R": "replacement", "J": "journal"}
OPERATION_WORDS = ("recovery", "resync", "check", "reshape", "repair")


class _Snapshot:
    def __init__(self, first_line: int, name: str) -> None:
        self.name = name
        self.out = {"personalities": None, "read_ahead_sectors": None, "arrays": [], "unused_devices": None,
                    "warnings": []}
        self.array: dict | None = None
        self.first_line = first_line
        self.seen_content = False

    def warn(self, line_no: int, message: str) -> None:
        self.out["warnings"].append(f"line {line_no}: {message}")

    def feed(self, line_no: int, raw: str) -> None:
        line = raw.replace("\t", " ").rstrip("\r\n").strip()
        if not line:
            return
        if m := RE_PERSONALITIES.match(line):
            self.seen_content = True
            if self.out["personalities"] is not None:
                self.warn(line_no, "a second 'Personalities' line: two snapshots run together")
            self.out["personalities"] = self._personalities(line_no, m.group(1))
            self.array = None
            return
        if self.array is None and (m := RE_READ_AHEAD.match(line)):
            self.out["read_ahead_sectors"] = int(m.group(1)) if m.group(1) else None
            return
        if m := RE_ARRAY.match(line):
            self.seen_content = True
            self._array(line_no, m)
            return
        if m := RE_UNUSED.match(line):
            self.seen_content = True
            rest = m.group(1).strip()
            self.out["unused_devices"] = [] if rest in ("", "<none>") else rest.split()
            self.array = None
            return
        if not self.seen_content and RE_PROMPT.search(line):
            return
        if self.array is None:
            self.warn(line_no, f"not /proc/mdstat content: {line[:80]!r}")
            return
        self._detail(line_no, line)

    def _personalities(self, line_no: int, rest: str) -> list[str]:
        """md_seq_show prints "[name] " for each personality; a cut line keeps the names it holds whole."""
        if RE_PERSONALITY_NAMES.match(rest):
            return re.findall(r"\[([^\]]+)\]", rest)
        if cut := RE_PERSONALITY_CUT.match(rest):
            self.warn(line_no, f"the 'Personalities' line ends inside {cut.group(2)!r}: read the whole names only")
            return re.findall(r"\[([^\]]+)\]", cut.group(1))
        self.warn(line_no, f"unreadable 'Personalities' line {rest.strip()[:80]!r}: no personalities read")
        return []

    def _array(self, line_no: int, m: re.Match) -> None:
        name, state, read_only, rest = m.groups()
        words = rest.split()
        level = None
        if words and RE_LEVEL.match(words[0]):
            level = words.pop(0)
        members = []
        for word in words:
            mm = RE_MEMBER.match(word)
            if not mm:
                self.warn(line_no, f"{name}: unreadable member {word!r}")
                continue
            flags = [FLAGS.get(f, f"unknown:{f}") for f in re.findall(r"\(([A-Z])\)", mm.group(3))]
            for flag in (f for f in flags if f.startswith("unknown:")):
                self.warn(line_no, f"{name}: member {word!r} carries a flag md_seq_show does not print ({flag[8:]})")
            members.append({"device": mm.group(1), "index": int(mm.group(2)), "flags": flags})
        self.array = {
            "name": name, "state": state, "read_only": read_only, "level": level, "members": members,
            "blocks": None, "super": None, "chunk_kib": None, "layout": None, "raid_disks": None,
            "active_disks": None, "status": None, "bitmap": None, "operation": None, "pending": None,
            "line": line_no,
        }
        self.out["arrays"].append(self.array)

    def _detail(self, line_no: int, line: str) -> None:
        a = self.array
        if m := RE_BLOCKS.match(line):
            if a["blocks"] is not None:
                self.warn(line_no, f"{a['name']}: a second size line")
                return
            if int(m.group(1)) > MAX_COUNT:
                self.warn(line_no, f"{a['name']}: {m.group(1)} blocks is more than the kernel can count: not read")
                return
            a["blocks"] = int(m.group(1))
            self._size(line_no, a, m.group(2))
            return
        if m := RE_BITMAP.match(line):
            used, total, kib, chunk, unit, file = m.groups()
            a["bitmap"] = {"pages_used": int(used), "pages_total": int(total),
                           "chunk_kib": int(chunk) if unit == "KB" else int(chunk) / 1024, "file": file}
            if problem := bitmap_off(a["bitmap"], int(kib)):
                self.warn(line_no, f"{a['name']}: {problem}")
            return
        if m := RE_PENDING.match(line):
            a["pending"] = m.group(2)
            return
        op, missing, bar, tail = read_progress(line)
        if op is not None and (big := [v for v in op.values() if isinstance(v, int) and v > MAX_COUNT]):
            self.warn(line_no, f"{a['name']}: {big[0]} in the progress line is more than the kernel can count: "
                               "not read")
            return
        if op is not None:
            if missing:
                ends = f"ends in {tail!r}" if tail else "ends"
                self.warn(line_no, f"{a['name']}: the progress line {ends} before {' and '.join(missing)}: not read")
            a["operation"] = {**op, "line": line_no}
            for problem in progress_problems(a, op, bar):
                self.warn(line_no, problem)
            return
        if any(word in line for word in OPERATION_WORDS) or line.startswith("["):
            self.warn(line_no, f"{a['name']}: unreadable progress line {line[:80]!r}")
            return
        self.warn(line_no, f"{a['name']}: unreadable line {line[:80]!r}")

    def _size(self, line_no: int, a: dict, rest: str) -> None:
        """What follows "N blocks": md_seq_show's superblock, then the personality's status function."""
        if s := RE_SUPER.search(rest):
            if RE_SUPER_TEXT.match(s.group(1)):
                a["super"] = s.group(1)
            else:
                self.warn(line_no, f"{a['name']}: unreadable superblock version {s.group(1)!r}")
        if c := RE_CHUNK.search(rest):
            a["chunk_kib"] = int(c.group(1))
        layout = RE_COPIES.findall(rest)
        if alg := RE_ALGORITHM.search(rest):
            layout.append(f"algorithm {alg.group(1)}")
        if r := RE_ROUNDING.search(rest):
            layout.append(f"{r.group(1)}k rounding")
        a["layout"] = ", ".join(layout) or None
        if lv := RE_LEVEL_WORD.search(rest):
            if a["level"] is None:
                a["level"] = f"raid{lv.group(1)}"
            elif a["level"] != f"raid{lv.group(1)}":
                self.warn(line_no, f"{a['name']}: level {lv.group(1)} differs from {a['level']}")
        if d := RE_DISKS.search(rest):
            a["raid_disks"], a["active_disks"], a["status"] = int(d.group(1)), int(d.group(2)), d.group(3)
            if len(a["status"]) != a["raid_disks"] or a["status"].count("U") != a["active_disks"]:
                self.warn(line_no, f"{a['name']}: [{d.group(1)}/{d.group(2)}] disagrees with [{d.group(3)}]")
        elif "[" in rest:
            self.warn(line_no, f"{a['name']}: unreadable disk count {rest.strip()[:60]!r}")
            return
        residue = rest
        for piece in SIZE_PIECES:
            residue = piece.sub(" ", residue)
        if residue := " ".join(residue.replace(",", " ").split()):
            self.warn(line_no, f"{a['name']}: unreadable text in the size line: {residue[:60]!r}")

    def finish(self, *, keep_lines: bool = False) -> dict:
        if not self.seen_content:
            raise ParseError(f"{self.name}: not /proc/mdstat (no 'Personalities' line, array or 'unused devices')")
        if self.out["personalities"] is None:
            self.warn(self.first_line, "no 'Personalities' line")
        for a in self.out["arrays"]:
            if a["blocks"] is None:
                self.warn(a["line"], f"{a['name']}: no size line")
            if a["operation"] and (problem := size_off(a, a["operation"])):
                self.warn(a["operation"]["line"], f"{a['name']}: {problem}")
            if not keep_lines:
                a.pop("line")
                if a["operation"]:
                    a["operation"].pop("line")
        return self.out


def _goes_on(line: str, following: str) -> str | None:
    """For a Personalities or progress line (stripped): "'Personalities'" or "progress" when ``following``
    (as read) carries on with it, the way a terminal wraps a long line; else None."""
    after = following.replace("\t", " ").rstrip("\r\n")
    if m := RE_PERSONALITIES.match(line):
        if not RE_PERSONALITY_NAMES.match(m.group(1)) and RE_PERSONALITY_NAMES.match(m.group(1) + after):
            return "'Personalities'"
        if RE_PERSONALITY_NAMES.match(m.group(1)) and RE_PERSONALITY_NAMES.match(after):
            return "'Personalities'"
        return None
    if looks_like_progress(line) and not RE_PENDING.match(line):
        alone = read_progress(line)
        if (alone.op is None or alone.missing) and (joined := read_progress(line + after)).op and not joined.missing:
            return "progress"
    return None


def _reading(context: str | None, line: str) -> tuple[list, list]:
    """What one line gives (arrays, warnings), read after ``context`` (the array line it belongs to)."""
    snap = _Snapshot(1, "wrapped")
    if context:
        snap.feed(1, context)
    snap.feed(2, line)
    return snap.out["arrays"], snap.out["warnings"]


def _figures(arrays: list[dict]) -> int:
    """How much a reading holds: the fields read, members counted one by one."""
    return sum(v not in (None, [], {}) for a in arrays for v in a.values()) + sum(len(a["members"]) for a in arrays)


def _worse(one: tuple[list, list], other: tuple[list, list]) -> bool:
    """One reading is worse than the other: more warnings, or as many and fewer figures read."""
    return (len(one[1]), -_figures(one[0])) > (len(other[1]), -_figures(other[0]))


def _rejoined(snap: _Snapshot, raw: str, following: str) -> tuple[str, str] | None:
    """For an array, size or bitmap line (``raw`` as read): (what it is, the line rejoined) when ``following``
    carries on with it, else None. The kernel prints nothing after such a line that the parser would not
    recognise, so the test is what follows: joined as it is or with a blank between (a terminal's copy may
    drop the blank it wrapped at), the better reading is kept; when the two read differently and equally
    well, or the join reads worse than the two lines apart, nothing is joined."""
    text, after = raw.replace("\t", " ").rstrip("\r\n"), following.replace("\t", " ").rstrip("\r\n")
    if RE_PENDING.match(after.strip()) or RE_PROGRESS_START.match(after.strip()):
        return None
    a = snap.array
    if RE_ARRAY.match(text.strip()):
        what, context = "array", None
    elif a is not None and (RE_BLOCKS.match(text.strip()) or text.strip().startswith("bitmap:")):
        what = "size" if RE_BLOCKS.match(text.strip()) else "bitmap"
        context = f"{a['name']} : {a['state']}" + (f" {a['level']}" if a["level"] else "")
    else:
        return None
    glued, spaced = text + after, text.rstrip() + " " + after.lstrip()
    read_glued, read_spaced = _reading(context, glued), _reading(context, spaced)
    if glued == spaced or read_glued[0] == read_spaced[0] or _worse(read_spaced, read_glued):
        joined, reading = glued, read_glued
    elif _worse(read_glued, read_spaced):
        joined, reading = spaced, read_spaced
    else:
        return None
    # joined, the line must read more than alone, or as much with no more warnings (text that only adds a
    # warning does not carry the line on)
    alone = _reading(context, text)
    more, same = _figures(reading[0]) - _figures(alone[0]), reading[0] == alone[0]
    return (what, joined) if more > 0 or (more == 0 and not same) or len(reading[1]) <= len(alone[1]) else None


def parse_snapshot_lines(lines: list[tuple[int, str]], *, name: str, keep_lines: bool = False) -> dict:
    snap = _Snapshot(lines[0][0] if lines else 1, name)
    i = 0
    while i < len(lines):
        line_no, line = lines[i]
        text = line.replace("\t", " ").rstrip("\r\n").strip()
        following_no, following = lines[i + 1] if i + 1 < len(lines) else (None, "")
        goes_on = text and following.strip() and not RE_KNOWN_START.match(following.replace("\t", " ").strip())
        if goes_on and (what := _goes_on(text, following)):
            line = text + following.replace("\t", " ").rstrip("\r\n")
        elif goes_on and (found := _rejoined(snap, line, following)):
            what, line = found
        else:
            what = None
        if what:
            m = RE_ARRAY.match(text)
            array = m.group(1) if m else snap.array["name"] if what != "'Personalities'" and snap.array else None
            where = f"{array}: " if array else ""
            snap.warn(line_no, f"{where}the {what} line goes on at line {following_no} (wrapped): read as one line")
            i += 1
        snap.feed(line_no, line)
        i += 1
    return snap.finish(keep_lines=keep_lines)


# What every /proc/mdstat snapshot prints (md.c md_seq_show: its first and last lines, each array's)
MARKERS = (b"Personalities :", b"unused devices:", b" : active ", b" : inactive ")


def read_text(path: Path) -> str:
    return read_artifact(path, kind="/proc/mdstat", markers=MARKERS)


def parse_file(path: Path) -> dict:
    if Path(path).is_symlink():
        raise ParseError(f"{path}: a symbolic link is not followed: put the snapshot itself in the bundle")
    text = read_text(path)
    return parse_snapshot_lines(list(enumerate(text.split("\n"), start=1)), name=str(path))


def array_state(array: dict) -> str:
    """optimal, degraded, recovering, resyncing, reshaping or checking (inactive when not running)."""
    if array["state"] == "inactive":
        return "inactive"
    op = array["operation"]
    if op is not None:
        return {"recovery": "recovering", "resync": "resyncing", "reshape": "reshaping",
                "check": "checking", "repair": "checking"}[op["kind"]]
    if array["status"] and "_" in array["status"]:
        return "degraded"
    # A faulty member beyond a full status line (e.g. a failed spare with [5/5] [UUUUU]) leaves the
    # array's redundancy intact: the status line decides.
    return "optimal"
