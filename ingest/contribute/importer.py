"""``benchdb import FOLDER --out data/<id>``: a bundle from a folder of logs.

It reads every file of the folder and keeps what it recognises: sysbench logs (each run an artifact
with its test, version and thread count; a file of several runs is split into one file a run, each
named by its lines in the original), ``/proc/mdstat`` snapshots and traces, and the database
settings as they were in effect (server_settings.py: a ``SHOW GLOBAL VARIABLES`` dump, a ``my.cnf``
with its groups and includes, the server's command line in a script; each cited by file, line and
group in the system's notes). Runs are grouped into systems by what differs between them (grouping.py:
subfolders, the settings files that apply to them, the varying part of their file names; each system's
rule in its notes) and into one workload a sysbench test. What only the contributor knows (storage
product, RAID level, drives, protocol, host...) is given by ``answers`` for every system, or by the
mapping for one, or written as ``TO BE STATED``, which ``benchdb validate`` reports with its line.
Every file it does not use is named with the reason in ``skipped``; nothing is left out silently.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from schema.models import SCHEMA_VERSION, TO_BE_STATED, refused_characters

from .bundle_writer import publish, staged_bundle
from .citing import Citation, cite_runs, cited_note, source_entry
from .fileio_workloads import fileio_charts, fileio_workloads
from .grouping import REPETITION_FOLDER, Grouping, System, group
from .query_mix import workload_notes
from .server_settings import MAX_SETTINGS, MAX_SMALL_BYTES, Read, database_section, in_effect, read_cnf, read_commands, read_variables
from ..parsers import ParseError
from ..parsers.mdstat import parse_file as parse_mdstat
from ..parsers.mdstat_trace import parse_trace
from ..parsers.sysbench_runs import parse_runs
from ..bundles.cited import write_figures
from ..bundles.devices import give_device_class
from ..bundles.problems import Problem

# What only the contributor knows: the answer's name, and where it goes in the bundle.
QUESTIONS = {
    "label": "a short name of the system (e.g. 'MD RAID 10 on 4 NVMe')",
    "product": "the storage product (e.g. 'Linux MD RAID', 'SupremeRAID SR-1010')",
    "vendor": "the storage product's vendor",
    "kind": "the kind of storage: gpu-raid, software-raid, hardware-raid, storage-array or device",
    "raid_level": "the RAID level (0, 1, 5, 6, 10, 50, 60, raid-dp, linear, or none)",
    "drives": "how many drives the array has",
    "drive_model": "the drives' model",
    "protocol": "how the host reaches the storage: local, fcp, iscsi, nfs, smb or nvme-of",
    "cpu": "the host's CPU",
    "publisher": "who ran the benchmark (you, or your organisation)",
}
MDADM = re.compile(r"^\s*(Raid Level|Raid Devices|Chunk Size)\s*:\s*(\S+)\s*$")
# a member line of mdadm --detail: "   0     259        1        0      active sync set-A   /dev/nvme0n1p1"
# on a stripped line (fullmatch); one \s before the lazy .*?, which takes the rest: "\s+.*?" and a trailing
# "\s*$" backtracked over a long run of spaces (issue #61)
MDADM_MEMBER = re.compile(r"\d+\s+\d+\s+\d+\s+(?:\d+|-)\s.*?/dev/(\S+)")
NUMBER = re.compile(r"\d+\.\d+")
TREE = re.compile(r"^[\s│├└─`|-]+")  # lsblk's tree in front of a partition's name


# Import reads regular files only, each of at most MAX_FILE_BYTES (a log is read a piece at a time,
# never whole); a settings file, mdadm's or lsblk's output is read whole, so at most MAX_SMALL_BYTES.
# An artifact's file name is at most MAX_NAME bytes (a longer one is shortened, a hash of it kept).
MAX_FILE_BYTES = 2**30  # the benchmark's big log (benchmarks/bench_biglog.py) is 200 MB
MAX_NAME = 120
MAX_DEPTH = 32  # folders inside folders that import reads (1,100 ended its walk in a RecursionError)
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"))


class ImportFailed(Exception):
    """Why nothing can be imported; ``skipped``: the files skipped, (path, why), where none was a log."""

    def __init__(self, message: str, *, skipped: list[tuple[str, str]] | None = None) -> None:
        super().__init__(message)
        self.skipped = skipped or []


@dataclass
class Found:
    root: Path
    runs: list[dict] = field(default_factory=list)         # {name, source, lines, run}
    traces: list[dict] = field(default_factory=list)       # {name, source, format, arrays}
    settings: list[tuple[str, Read]] = field(default_factory=list)  # (kind, what it gave): server_settings.KINDS
    cited: dict[str, str] = field(default_factory=dict)  # a settings file of the folder -> artifacts/<name>
    copies: dict[str, Path] = field(default_factory=dict)  # artifacts/<name> -> the file copied whole
    between: dict[str, list[int]] = field(default_factory=dict)  # a split file -> its lines in no run
    raid: dict[str, tuple[str, str, int]] = field(default_factory=dict)  # from mdadm --detail: (value, file, line)
    members: list[tuple[str, str, int]] = field(default_factory=list)  # mdadm --detail's devices: (name, file, line)
    models: dict[str, tuple[str, str, int]] = field(default_factory=dict)  # lsblk: device -> (model, file, line)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    cite: Citation | None = None  # with --cite: files are cited by their repository path, never copied

    def keep(self, path: Path, rel: str, name: str) -> str:
        """How the bundle names a file read for the settings, RAID or drives: ``artifacts/<name>``, a copy
        of it, or with --cite its path in the repository (not copied)."""
        if self.cite is not None:
            return self.cite.ref(rel)
        self.copies[f"artifacts/{name}"] = path
        return f"artifacts/{name}"


def _slug(text: str) -> str:
    """An id made of ``text``: at most 60 characters, a longer one cut with a hash of the whole kept."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "run"
    if len(slug) > 60:
        slug = f"{slug[:47].rstrip('-')}-{hashlib.sha256(slug.encode()).hexdigest()[:12]}"
    return slug


def _small_text(path: Path) -> str | None:
    """A small file's text, read whole; None for a file larger than MAX_SMALL_BYTES (not of these kinds)."""
    if path.stat().st_size > MAX_SMALL_BYTES:
        return None
    return path.read_text(encoding="utf-8", errors="replace")


def _settings(path: Path, rel: str, found: Found, taken: set[str]) -> bool:
    """Read a my.cnf (and what it includes), a variables dump or a script that starts the server with
    options (server_settings.py); whether it was one."""
    text = _small_text(path)
    if text is None:
        return False
    for kind, read in (("my.cnf", lambda: read_cnf(path, root=found.root, text=text)),
                       ("variables", lambda: read_variables(text, rel=rel)),
                       ("command line", lambda: read_commands(text, rel=rel))):
        got = read()
        if got is not None:
            break
    else:
        return False
    if len(got.settings) > MAX_SETTINGS:
        found.skipped.append((rel, f"{len(got.settings):,} settings (read as {kind}), more than the {MAX_SETTINGS:,} "
                                   "one file may give (a server has about 650): not read"))
        return True
    found.settings.append((kind, got))
    for file in got.files:
        if file not in found.cited:
            found.cited[file] = found.keep(found.root / file, file, _unique(file, taken))
    return True


def _mdadm(path: Path, rel: str, found: Found, taken: set[str]) -> bool:
    """Read `mdadm --detail` output (its "Raid Level", "Raid Devices" and "Chunk Size" lines); whether it was one."""
    read, members = {}, []
    for number, line in enumerate((_small_text(path) or "").splitlines(), 1):
        if match := MDADM.match(line):
            read[match.group(1).lower()] = (match.group(2), number)
        elif match := MDADM_MEMBER.fullmatch(line.strip()):
            members.append((match.group(1), number))
    if "raid level" not in read or "raid devices" not in read:
        return False
    kept = found.keep(path, rel, _unique(rel, taken))
    found.raid = {key: (value, kept, n) for key, (value, n) in read.items()}
    found.members = [(device, kept, n) for device, n in members]
    return True


def _lsblk(path: Path, rel: str, found: Found, taken: set[str]) -> bool:
    """Read lsblk output with a MODEL column (``lsblk -o NAME,MODEL,...``); whether it was one."""
    lines = (_small_text(path) or "").splitlines()
    header = lines[0] if lines else ""
    if not header.startswith("NAME") or " MODEL" not in header:
        return False
    start = header.index(" MODEL") + 1
    kept = found.keep(path, rel, _unique(rel, taken))
    for number, line in enumerate(lines[1:], 2):
        device = TREE.sub("", line[:start]).split()
        # the model is left-aligned in its column; the next column (SIZE is right-aligned) follows after
        # two spaces or more, which no model name holds
        model = re.split(r"\s{2,}", line[start:].strip())[0] if line[start:start + 1].strip() else ""
        if device and model:
            found.models[device[0]] = (model, kept, number)
    return True


def _disk(device: str) -> str:
    """The disk a partition is on (nvme0n1p1 -> nvme0n1, sdb1 -> sdb); a disk is itself."""
    match = re.fullmatch(r"(nvme\d+n\d+)p\d+", device) or re.fullmatch(r"((?:sd|vd|hd|xvd)[a-z]+)\d+", device)
    return match.group(1) if match else device


def _drive_model(found: Found) -> tuple[str | None, str | None]:
    """The model of the array's drives where lsblk names one for every member mdadm lists, and the note."""
    if not found.members or not found.models:
        return None, None
    seen = {device: found.models.get(_disk(device)) for device, _, _ in found.members}
    models = {m[0] for m in seen.values() if m}
    cited = "; ".join(f"{device}: {m[0]} ({m[1]} line {m[2]})" if m else f"{device}: no model in lsblk"
                      for device, m in seen.items())
    if len(models) == 1 and all(seen.values()):
        return models.pop(), f"Drive model as lsblk prints it for the array's members: {cited}."
    return None, f"The array's members have no single model in lsblk: {cited}."


def _unique(rel: str, taken: set[str], *, run: int | None = None) -> str:
    """The artifact's file name: its path in the folder with "-" for "/" (and "-runN" for the Nth run
    of a file of several), made unique."""
    path = Path(rel)
    name = _shortened("-".join((*path.parent.parts, path.stem)), tail=(f"-run{run}" if run else "") + (path.suffix or ".log"))
    stem, suffix, n = Path(name).stem, Path(name).suffix, 2
    while name in taken:
        name, n = f"{stem}-{n}{suffix}", n + 1
    taken.add(name)
    return name


def _shortened(stem: str, *, tail: str) -> str:
    """``stem + tail`` (``tail``: "-run2.log", say) if it has at most MAX_NAME bytes; else the start of
    ``stem``, the first 12 hex digits of its SHA-256 (so two long names stay two), and ``tail`` (cut to
    32 bytes), within MAX_NAME bytes."""
    if len((stem + tail).encode()) <= MAX_NAME:
        return stem + tail
    tail = tail.encode()[-32:].decode("utf-8", errors="ignore")
    tag = f"-{hashlib.sha256(stem.encode()).hexdigest()[:12]}{tail}"
    return stem.encode()[:MAX_NAME - len(tag.encode())].decode("utf-8", errors="ignore") + tag


def _files(folder: Path, found: Found) -> Iterator[tuple[Path, str]]:
    """Every regular file under ``folder`` (path, path in the folder), in name order. Anything else is
    named in ``found.skipped`` with what it is and is never opened: links (not followed), FIFOs (opening
    one waits for a writer), sockets, devices (/dev/zero never ends), folders that cannot be read,
    files that cannot be read or are larger than MAX_FILE_BYTES."""
    def unreadable(exc: OSError) -> None:
        found.skipped.append((Path(exc.filename).relative_to(folder).as_posix() or ".",
                              f"a folder that cannot be read ({exc.strerror})"))

    listed = []
    for top, folders, names in os.walk(folder, onerror=unreadable):
        listed += [Path(top, name) for name in names + [f for f in folders if os.path.islink(os.path.join(top, f))]]
        if folders and len(Path(top).relative_to(folder).parts) >= MAX_DEPTH:  # os.walk recurses (issue #61)
            found.skipped += [(Path(top, f).relative_to(folder).as_posix(),
                               f"a folder more than {MAX_DEPTH} deep in the folder: not read") for f in sorted(folders)]
            folders.clear()
    for path in sorted(listed):
        rel = path.relative_to(folder).as_posix()
        named = refused_characters(rel, "a file name")  # the bundle would be refused for it (issue #61)
        why = f"{named}: not read (rename it)" if named else _not_read(path)
        if why:
            found.skipped.append((rel, why))
        else:
            yield path, rel


def _not_read(path: Path) -> str | None:
    """Why the file at ``path`` is not read, or None. It is opened without following a link and without
    waiting (a FIFO put in its place since the listing does not block), and checked on what was opened."""
    try:
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode):
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
            try:
                info = os.fstat(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link (not followed)"
    for test, kind in _KINDS:
        if test(info.st_mode):
            return f"{kind}: not read"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file: not read"
    if info.st_size > MAX_FILE_BYTES:
        return f"{info.st_size:,} bytes: larger than the {MAX_FILE_BYTES:,} bytes import reads"
    return None


def _lines(path: Path) -> Iterator[bytes]:
    """A file's lines (with their line breaks, as bytes.splitlines keeps them), read as it goes."""
    with path.open("rb") as f:
        for line in f:  # split at LF; a CR alone also ends a line for splitlines
            yield from line.splitlines(keepends=True)


def scan(folder: Path, *, cite: Citation | None = None) -> Found:
    found = Found(root=folder, cite=cite)
    taken: set[str] = set()
    for path, rel in _files(folder, found):
        try:
            runs = parse_runs(path)
        except ParseError as exc:
            runs, why = [], str(exc)
        if runs and runs[0].get("kind") in ("oltp", "fileio"):
            if len(runs) > 1:
                inside = {n for run in runs for n in range(run["lines"][0], run["lines"][1] + 1)}
                found.between[rel] = [n for n, _ in enumerate(_lines(path), 1) if n not in inside]
            for index, run in enumerate(runs, 1):
                name = _unique(rel, taken, run=index if len(runs) > 1 else None)
                found.runs.append({"name": name, "source": rel, "lines": run["lines"] if len(runs) > 1 else None,
                                   "run": run})
            continue
        if runs:
            test = runs[0].get("test") or runs[0].get("kind")
            found.skipped.append((rel, f"a sysbench {test} test, not a database run" if test else
                                  "a sysbench run whose test the log does not name, and not a database run"))
            continue
        for fmt, parser in (("mdstat-trace", parse_trace), ("mdstat", parse_mdstat)):
            try:
                parsed = parser(path)
            except (ParseError, ValueError):
                continue
            if cite is not None:
                found.skipped.append((rel, f"{fmt} output: with --cite only sysbench runs are imported (a /proc/"
                                           "mdstat file is carried as a file, which the repository does not allow)"))
                break
            arrays = sorted({a["name"] for s in parsed.get("snapshots", [parsed]) for a in s.get("arrays", [])})
            name = _unique(rel, taken)
            found.traces.append({"name": name, "source": rel, "format": fmt, "arrays": arrays})
            found.copies[f"artifacts/{name}"] = path
            break
        else:
            if not any(read(path, rel, found, taken) for read in (_settings, _mdadm, _lsblk)):
                size = path.stat().st_size
                read_whole = "" if size <= MAX_SMALL_BYTES else (  # the settings files are read whole, if small
                    f"; at {size:,} bytes, larger than the {MAX_SMALL_BYTES:,} a settings file, mdadm's or lsblk's "
                    "output may be, it was not read as one")
                found.skipped.append((rel, "not a sysbench log, /proc/mdstat output, variables dump, my.cnf, mdadm "
                                           f"--detail or lsblk output ({why}{read_whole})"))
    return found


def _raid(read: dict[str, tuple[str, str, int]]) -> tuple[dict, str | None]:
    """The raid section mdadm --detail states (level, drives, chunk), and the notes citing it."""
    raid: dict = {}
    level = read.get("raid level", ("",))[0].removeprefix("raid")
    if level:
        raid["level"] = level
    if read.get("raid devices", ("",))[0].isdigit():
        raid["drives"] = int(read["raid devices"][0])
    chunk = re.fullmatch(r"(\d+)K", read.get("chunk size", ("",))[0])
    if chunk:
        raid["chunk_kib"] = int(chunk.group(1))
    if not read:
        return raid, None
    cited = "; ".join(f"{k} {v} ({f} line {n})" for k, (v, f, n) in sorted(read.items()))
    return raid, f"RAID as mdadm --detail prints it: {cited}."


def _system(found: Found, system: System, *, answers: dict[str, str], several: bool) -> dict:
    """A system's section: its settings files' settings, the mdadm and lsblk figures, the answers."""
    answers = {**answers, **system.answers}

    def ask(name: str) -> str:
        return answers.get(name) or TO_BE_STATED

    settings, not_applied = in_effect(system.reads)
    if settings:
        database, read = database_section(settings, cited=found.cited, to_be_stated=TO_BE_STATED)
        cited = ("Database settings in effect, as benchdb import read them (a variables dump beats the server's "
                 "command line, which beats its option files): " + "; ".join(read + not_applied) + ".")
    else:
        database, cited = {"engine": TO_BE_STATED}, None
    label = system.label or ask("label")  # what tells it apart, after the label given for every system
    if "label" in system.answers:
        label = system.answers["label"]
    elif several and system.label and answers.get("label"):
        label = f"{answers['label']}, {system.label}"
    out = {"id": system.id, "label": label,
           "storage": {"product": ask("product"), "vendor": ask("vendor"), "kind": ask("kind"),
                       **({"device_class": answers["device_class"]} if answers.get("device_class") else {})},
           "protocol": ask("protocol"),
           **({"volume": _volume(answers)} if answers.get("volume_service") or answers.get("volume_type") else {}),
           **({"filesystem": {"type": system.filesystem}} if system.filesystem else {}),
           "database": database, "host": {"cpu": ask("cpu")}}
    raid, raid_cited = _raid(found.raid)
    model, model_cited = _drive_model(found)
    if model:
        raid["drive_model"] = model
    raid_cited = " ".join(c for c in (raid_cited, model_cited) if c) or None
    for name, key in (("raid_level", "level"), ("drives", "drives"), ("drive_model", "drive_model")):
        if answers.get(name) and key in raid and str(raid[key]) != answers[name]:
            where = {"level": "raid level", "drives": "raid devices"}.get(key)
            said = f"mdadm --detail says {raid[key]} ({found.raid[where][1]})" if where else f"lsblk says {raid[key]}"
            raise ImportFailed(f"--{name.replace('_', '-')} {answers[name]} but {said}")
    if answers.get("raid_level") != "none":
        drives = answers.get("drives")
        out["raid"] = {"level": raid.get("level") or ask("raid_level"),
                       "drives": raid.get("drives") or (int(drives) if drives and drives.isdigit() else ask("drives")),
                       "drive_model": raid.get("drive_model") or ask("drive_model"),
                       **({"chunk_kib": raid["chunk_kib"]} if "chunk_kib" in raid else {})}
    grouped = f"Grouped by benchdb import: {system.rule}." if several else None
    notes = [c for c in (grouped, *system.notes, cited, raid_cited, give_device_class(out)) if c]
    if notes:
        out["notes"] = " ".join(notes)
    return out


def _volume(answers: dict[str, str]) -> dict:
    """The cloud volume a --systems mapping's answers state (volume_service, volume_type, volume_size_gb,
    provisioned_iops, provisioned_mb_s); a figure that is no plain number stays text, for validate to name."""
    def number(text: str | None):
        return None if text is None else int(text) if text.isdigit() else float(text) if NUMBER.fullmatch(text) else text

    volume = {"service": answers.get("volume_service") or TO_BE_STATED, "type": answers.get("volume_type") or TO_BE_STATED,
              "size_gb": number(answers.get("volume_size_gb")), "provisioned_iops": number(answers.get("provisioned_iops")),
              "provisioned_throughput_mb_s": number(answers.get("provisioned_mb_s"))}
    return {k: v for k, v in volume.items() if v is not None}


def _trace_system(trace: dict, systems: list[System]) -> str:
    """The system a /proc/mdstat file belongs to: the one of its folder, else the only one."""
    if len(systems) == 1:
        return systems[0].id
    folder = "/".join(p for p in Path(trace["source"]).parent.parts if not REPETITION_FOLDER.match(p))
    mine = [s.id for s in systems if folder in s.folders]
    return mine[0] if len(mine) == 1 else TO_BE_STATED


def _seen(runs: list[dict], workload: str) -> dict:
    """The sysbench versions and thread counts the runs of a workload print."""
    mine = [r["run"] for r in runs if r["workload"] == workload]
    return {"tool_version": ", ".join(sorted({run["sysbench_version"] for run in mine if run.get("sysbench_version")}))
            or None, "concurrency": sorted({run["threads"] for run in mine if run["threads"]})}


def bundle_doc(found: Found, *, bundle_id: str, folder_name: str, answers: dict[str, str],
               grouping: Grouping | None = None) -> dict:
    def ask(name: str) -> str:
        return answers.get(name) or TO_BE_STATED

    grouping = grouping or group(runs=found.runs, reads=found.settings, root=found.root)
    several = len(grouping.systems) > 1
    systems = [_system(found, s, answers=answers, several=several) for s in grouping.systems]
    system_of = {j: s.id for s in grouping.systems for j in s.runs}
    variants = grouping.variants or [""] * len(found.runs)
    for r, (test, _), variant in zip(found.runs, grouping.tests, variants):  # TO BE STATED where nothing names it
        r["test"], r["variant"] = test, variant
        r["workload"] = _slug(f"{test} {variant}") if test != TO_BE_STATED else _slug(f"sysbench {variant}")
    fileio = fileio_workloads(found.runs)  # a fileio run's workload: its mode and file-test options
    for j, w in fileio.items():
        found.runs[j]["workload"] = w["id"]
    kinds = sorted({(r["test"], r["variant"], r["workload"]) for j, r in enumerate(found.runs) if j not in fileio})
    named = sorted({r["test"] for r in found.runs} - {TO_BE_STATED})
    mixes = workload_notes(runs=found.runs, tests=grouping.tests, cite=found.cite)
    workloads = [{"id": workload, "tool": "sysbench", "test": test, **_seen(found.runs, workload),
                  "notes": " ".join(filter(None, (f"The runs whose file names say {variant}." if variant else None,
                                                  mixes.get(workload)))) or None}
                 for test, variant, workload in kinds]
    workloads += [{**w, **_seen(found.runs, w["id"])} for w in {w["id"]: w for w in fileio.values()}.values()]
    workloads = [{k: v for k, v in w.items() if v not in (None, [])} for w in workloads]
    results, ids = [], set()
    for j, r in enumerate(found.runs):
        run_id = _slug(Path(r["name"]).stem)
        if run_id in ids:  # "a b.log" beside "a-b.log": its own name's digest, not "-x" (which read as "a-b-x.log")
            run_id = f"{run_id[:70]}-{hashlib.sha256(r['name'].encode()).hexdigest()[:8]}"
        while run_id in ids:
            run_id = f"{run_id[:70]}-{hashlib.sha256(run_id.encode()).hexdigest()[:8]}"
        ids.add(run_id)
        result = {"type": "artifact", "id": run_id, "format": "sysbench", "path": f"artifacts/{r['name']}",
                  "system": system_of[j], "workload": r["workload"]}
        if not r["run"]["complete"]:
            result["incomplete"] = True
        results.append(result)
    for t in found.traces:
        result = {"type": "artifact", "id": _slug(Path(t["name"]).stem), "format": t["format"],
                  "path": f"artifacts/{t['name']}", "system": _trace_system(t, grouping.systems)}
        if len(workloads) > 1:  # which workload it was taken with: only the contributor knows
            result["workload"] = TO_BE_STATED
        if t["format"] == "mdstat-trace":
            result["array"] = t["arrays"][0] if len(t["arrays"]) == 1 else TO_BE_STATED
        results.append(result)
    split = [f"artifacts/{r['name']} is lines {r['lines'][0]}-{r['lines'][1]} of {r['source']}"
             for r in found.runs if r["lines"]]
    notes = [f"Imported by benchdb import from a folder of logs ({folder_name}); every value is measured "
             "from the logs in artifacts/."]
    if found.cite is not None:  # the logs are cited whole: nothing is split
        notes, split, found.between = [cited_note(found.cite, folder_name, licence=answers.get("licence"))], [], {}
    if split:
        notes.append("Files that held several runs were split, one run a file: " + "; ".join(split) + ".")
    for source, between in found.between.items():
        outside = set(between)
        written = [n for n, line in enumerate(_lines(found.root / source), 1) if n in outside and line.strip()]
        if written:
            notes.append(f"Lines {', '.join(map(str, written))} of {source} are in no run and are not in artifacts/.")
        if len(written) < len(between):
            notes.append(f"The other {len(between) - len(written)} line(s) of {source} outside its runs are blank.")
    if any(t["format"] == "mdstat-trace" for t in found.traces):
        notes.append("The runs carry no start time: add `started` to each to align them with the trace.")
    return {
        "schema_version": SCHEMA_VERSION, "id": bundle_id,
        "title": f"Measured: sysbench {', '.join(named) or 'runs'} ({len(found.runs)} runs)",
        "summary": f"sysbench {', '.join(named) or 'runs'} imported from logs; "
                   + ("the systems are" if several else "the system is") + " described below.",
        "sources": [source_entry(answers, cite=found.cite, to_be_stated=TO_BE_STATED)],
        "systems": systems, "workloads": workloads, "results": results,
        **({"charts": charts} if (charts := fileio_charts(found.runs, fileio)) else {}), "notes": notes,
    }


def survey(folder: Path, *, mapping: list[tuple[str, dict]] | None = None, one_system: bool = False,
           cite: Citation | None = None) -> tuple[Found, Grouping]:
    """What ``folder`` holds and the systems its runs make (grouping.py), before anything is written;
    ``cite``: the folder is a copy of a repository's folder at a commit, its logs to be cited (citing.py)."""
    if not folder.is_dir():
        raise ImportFailed(f"{folder}: not a folder")
    found = scan(folder, cite=cite)
    if not found.runs:
        raise ImportFailed(f"{folder}: no sysbench log of a database or fileio test in it "
                           f"({len(found.skipped)} file(s) skipped)", skipped=found.skipped)
    return found, group(runs=found.runs, reads=found.settings, root=folder, mapping=mapping, one_system=one_system)


def import_folder(folder: Path, *, out: Path, answers: dict[str, str], mapping: list[tuple[str, dict]] | None = None,
                  one_system: bool = False, surveyed: tuple[Found, Grouping] | None = None
                  ) -> tuple[Found, list[Problem]]:
    """Write the bundle of ``folder`` at ``out``; what was found (and skipped), and the bundle's
    problems (the values still to be stated). ``surveyed``: what ``survey`` returned, shown already."""
    found, grouping = surveyed or survey(folder, mapping=mapping, one_system=one_system)
    doc = bundle_doc(found, bundle_id=out.name, folder_name=folder.name, answers=answers, grouping=grouping)
    with staged_bundle(out) as work:
        if found.cite is not None:
            runs = {f"artifacts/{r['name']}": r for r in found.runs}
            for path, (run, origin) in cite_runs(doc["results"], runs, folder=folder, cite=found.cite,
                                                 licence=answers.get("licence")).items():
                write_figures(run, work / path, origin=origin)
            return found, publish(doc, work=work, final=out, allowed=frozenset({"to-be-stated"}))
        artifacts = work / "artifacts"
        artifacts.mkdir()
        for r in found.runs:
            if not r["lines"]:
                shutil.copyfile(folder / r["source"], artifacts / r["name"])
                continue
            first, last = r["lines"]
            with open(artifacts / r["name"], "wb") as copy:
                copy.writelines(line for n, line in enumerate(_lines(folder / r["source"]), 1) if first <= n <= last)
        for name, source in found.copies.items():
            shutil.copyfile(source, work / name)
        problems = publish(doc, work=work, final=out, allowed=frozenset({"to-be-stated"}))
    return found, problems
