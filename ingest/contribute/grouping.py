"""How ``benchdb import`` makes one study of many systems: a folder's runs grouped into systems by
what differs between them, and each run's sysbench test (issue #51).

Runs are one system unless they differ in

1. the subfolder they are in (``ext4/``, ``xfs/``; nested ones by their path). A folder named as a
   repetition (``run2``, ``rep1``, ``3``) is not a system: its runs repeat those of its parent;
2. the server's settings in effect (server_settings.py): a settings file applies to the runs of its
   folder and the folders below (one in a folder without logs, to every run); where a folder holds
   several of one kind, each applies to the runs whose file names hold the word that tells it apart
   from the others (``vars-dwoff.txt`` to ``ps-dwoff.log``);
3. the varying part of file names the log does not explain: among files named alike (the same words
   around the values), a value that varies (``res_iops5000``: iops 5000) and is not the log's thread
   count, a repetition number (``run2``, ``rep3``), a test's name or a date (six digits or more).

A mapping file (``--systems``) overrides it: each entry, a glob of a log's path in the folder or a
word of its file name, puts the runs it matches in one system; the first entry that matches wins. An
entry without an id only states facts for the runs it matches (``"*": {answers: {test: tpcc}}``): their
test where the log names none, and the other answers for their systems, ``{key}`` in an answer standing
for the system's value of that key in its file names (``provisioned_iops: "{iops}"``).
Systems are listed in the order of their folders' and file names' values read as numbers.
``--one-system`` makes every run one system, as import did before.

Nested subfolders, or ones named with a date, are labelled by the words that tell them apart
(``res-tpcc-inno-XFS-sync1-2018-04-18-15-23/mysql57.BP60/thr56``: "XFS-sync1/BP60"). A subfolder
named exactly as a filesystem type, or whose path holds one filesystem type as a word (``XFS``), gives
the system's filesystem; nothing else is read from a name. A run's test is the log's, else the one a
script beside it runs (``sysbench ... oltp_read_write`` or ``./tpcc.lua ... run``), else its file name's
(``point_select``; 0.5's ``ro``, ``rw``), else the one its query mix shows (query_mix.py: ``write: 0``,
read-only); a mapping's test beats all but the log's. Nothing here writes a file: importer.py does, from
what ``group`` returns.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml

from schema.models import TO_BE_STATED

from .query_mix import HOW as MIX, MIX_TESTS, read_mix, summary_lines
from .server_settings import Read, in_effect
from ..parsers.sysbench_command import read_command

FILESYSTEMS = {"ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "jfs", "reiserfs", "nilfs2", "bcachefs",
               "tmpfs", "ntfs", "vfat", "exfat", "ocfs2", "gfs2"}
REPETITION_WORDS = ("run", "rep", "repeat", "repetition", "iter", "iteration", "try", "trial", "attempt", "round",
                    "pass", "r")
REPETITION_FOLDER = re.compile(rf"^(?:(?:{'|'.join(REPETITION_WORDS)})[-_]?)?\d+$", re.I)
# sysbench's tests as file names write them, longest first (so "oltp_read_only" before "read_only")
TESTS_IN_NAMES = ("oltp_update_non_index", "oltp_update_index", "oltp_point_select", "oltp_read_write",
                  "oltp_read_only", "oltp_write_only", "oltp_delete", "oltp_insert", "select_random_points",
                  "select_random_ranges", "bulk_insert", "update_non_index", "update_index", "point_select",
                  "read_write", "read_only", "write_only")
# the short words of sysbench 0.5's result files (sysbench.ro.64.res, sysbench.rw.64.res): oltp.lua read-only or not
TEST_WORDS = {"ro": MIX_TESTS["read-only"], "rw": MIX_TESTS["read-write"], "wo": MIX_TESTS["write-only"]}
# a script that runs a sysbench Lua script itself (sysbench-tpcc's "./tpcc.lua --threads=... run")
LUA_COMMAND = re.compile(r"^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(\S+\.lua)(?:\s|$)")
SCRIPTS = (".sh", ".bash")
MAX_SCRIPT_BYTES = 2**20
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
KEYED = re.compile(r"^([a-z]+)(\d+(?:\.\d+)?)([a-z]*)$|^(\d+(?:\.\d+)?)([a-z]+)$")


class MappingError(Exception):
    pass


@dataclass
class System:
    id: str
    label: str  # what tells it apart from the study's other systems ("" when it is the only one)
    rule: str  # how it was told apart, in words
    runs: list[int] = field(default_factory=list)  # indexes of the runs in the importer's list
    reads: list[tuple[str, Read]] = field(default_factory=list)  # the settings files that apply to it
    folders: set[str] = field(default_factory=set)  # the folders of its logs (repetitions' folders left out)
    filesystem: str | None = None  # from a subfolder named exactly as a filesystem type
    answers: dict[str, str] = field(default_factory=dict)  # the mapping's answers for it alone
    notes: list[str] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)  # its file names' keyed values (res_iops5000: iops 5000)


@dataclass
class Grouping:
    systems: list[System]
    tests: list[tuple[str, str]]  # each run's test and where it was read ("log", a script, "file name", "query mix")
    notes: list[str] = field(default_factory=list)  # what was not taken as a system's difference, and why
    unapplied: list[str] = field(default_factory=list)  # settings files that apply to no run
    variants: list[str] = field(default_factory=list)  # each run's workload variant: its file name's words ("long")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-") or "system"


def read_mapping(path: Path) -> list[tuple[str, dict]]:
    """The entries of a ``--systems`` file: a YAML mapping of a glob or a file name's word to a system id,
    or to ``{id: ..., label: ..., answers: {product: ..., ...}}``."""
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise MappingError(f"{path}: cannot be read as YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(doc, dict) or not doc:
        raise MappingError(f"{path}: not a mapping of a glob or a file name's word to a system id")
    entries = []
    for pattern, spec in doc.items():
        spec = {"id": spec} if isinstance(spec, str) else spec
        facts_only = isinstance(spec, dict) and "id" not in spec and isinstance(spec.get("answers"), dict)
        if not facts_only and (not isinstance(spec, dict) or not isinstance(spec.get("id"), str)
                               or not ID.match(spec["id"])):
            raise MappingError(f"{path}: {pattern!r}: give a system id of lower-case letters, digits and dashes "
                               "(e.g. xfs-nvme), or {id: ..., label: ..., answers: {...}}")
        unknown = set(spec) - {"id", "label", "answers"}
        if unknown:
            raise MappingError(f"{path}: {pattern!r}: {', '.join(sorted(unknown))}: not id, label or answers")
        if not isinstance(spec.get("answers", {}), dict):
            raise MappingError(f"{path}: {pattern!r}: answers: a mapping of a question to its answer")
        if facts_only and "label" in spec:
            raise MappingError(f"{path}: {pattern!r}: a label names a system: give its id too")
        entries.append((str(pattern), spec))
    return entries


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9.]+", name.lower()) if w]


def test_in_name(name: str) -> str | None:
    """The sysbench test a file's name holds (``point_select``, ``oltp_read_only``), or None."""
    text = re.sub(r"[^a-z0-9]+", "_", name.lower())
    for test in TESTS_IN_NAMES:
        if re.search(rf"(?:^|_){test}(?:_|$)", text):
            return test if test.startswith(("oltp_", "select_", "bulk_")) else f"oltp_{test}"
    words = set(text.split("_")) & set(TEST_WORDS)
    return TEST_WORDS[words.pop()] if len(words) == 1 else None


def _script_test(folder: Path) -> tuple[str, str] | None:
    """The one sysbench test the scripts of ``folder`` run, and the script; None when none or several."""
    found = set()
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        if path.suffix not in SCRIPTS or path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_SCRIPT_BYTES:
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lstrip().startswith("#"):
                continue
            test = read_command(line)[0] if "sysbench" in line else None
            lua = LUA_COMMAND.match(line)
            test = test or (lua and PurePosixPath(lua.group(1)).stem.replace("-", "_"))
            if test:
                found.add((test, path.name))
    return next(iter(found)) if len({t for t, _ in found}) == 1 else None


def run_tests(runs: list[dict], *, root: Path) -> list[tuple[str, str]]:
    """Each run's sysbench test: the log's (its header or its command line), else the one test a script
    beside it runs, else its file name's, else the one its query mix shows (query_mix.py; a mapping's
    test, given later, beats it); TO BE STATED when none says."""
    out = []
    for r in runs:
        source = PurePosixPath(r["source"])
        if r["run"].get("kind") == "fileio":  # its test is its --file-test-mode, which the log prints
            mode = ((r["run"].get("fileio") or {}).get("options") or {}).get("mode")
            out.append((mode, "log") if mode else (TO_BE_STATED, "nothing names it"))
        elif r["run"].get("test"):
            out.append((r["run"]["test"], "log"))
        elif (script := _script_test(root / source.parent)) is not None:
            out.append((script[0], f"script {(source.parent / script[1]).as_posix()}"))
        elif (test := test_in_name(source.name)) is not None:
            out.append((test, "file name"))
        elif (mix := read_mix(r["run"])) is not None and mix.test:
            out.append((mix.test, MIX))
        else:
            out.append((TO_BE_STATED, "nothing names it"))
    return out


def _folder(source: str) -> str:
    """A log's folder in the folder imported, without the folders named as repetitions."""
    return "/".join(p for p in PurePosixPath(source).parent.parts if not REPETITION_FOLDER.match(p))


def _kin(source: str) -> str:
    """What a log's folder tells of its system: its folder without the dates and repetitions' words of
    the folders' names (res-tpcc-XFS-try2-2018-04-20-18-43/: res-tpcc-XFS)."""
    return "/".join(p for p in (_undated(p) for p in _folder(source).split("/")) if p)


def _undated(part: str) -> str:
    words = re.split(r"([-_ ]+)", DATE_IN_NAME.sub("", part))
    kept = [w for w in words if not REPETITION_FOLDER.match(w) or w.isdigit()]
    return re.sub(r"[-_ ]+$|^[-_ ]+", "", re.sub(r"([-_ ])[-_ ]+", r"\1", "".join(kept)))


def _parent(rel: str) -> str:
    parent = PurePosixPath(rel).parent.as_posix()
    return "" if parent == "." else parent


def _applies(reads: list[tuple[str, Read]], runs: list[dict]) -> list[list[int]]:
    """For each settings file read, the runs it applies to (indexes). Each step indexes the runs and the
    reads once: a pass over all of them for each read took 3,000 folders of a log and a my.cnf past five
    minutes (issue #61)."""
    # the runs in each folder or below it, by that folder ("" the top: every run)
    below: dict[str, list[int]] = {}
    for j, r in enumerate(runs):
        folder = _parent(r["source"])
        parts = folder.split("/") if folder else []
        for depth in range(len(parts) + 1):
            below.setdefault("/".join(parts[:depth]), []).append(j)
    homes = []
    for _, read in reads:
        home = _parent(read.files[0])
        homes.append(home if home in below else "")
    # an included file (conf.d/extra.cnf) is read with the file that includes it: not one of several
    included = {f for _, other in reads for f in other.files[1:]}
    # the reads of each kind in each folder, but included ones
    alike_of: dict[tuple[str, str], list[int]] = {}
    for k, (kind, r) in enumerate(reads):
        if r.files[0] not in included:
            alike_of.setdefault((kind, _parent(r.files[0])), []).append(k)
    out = []
    for i, (kind, read) in enumerate(reads):
        mine = list(below.get(homes[i], []))
        alike = [i] if read.files[0] in included else alike_of.get((kind, _parent(read.files[0])), [])
        if len(alike) > 1:  # several of one kind in one folder: each to the runs its distinct word names
            words = [set(_words(PurePosixPath(reads[k][1].files[0]).stem)) for k in alike]
            own = words[alike.index(i)] - set.intersection(*words)
            mine = [j for j in mine if own & set(_words(PurePosixPath(runs[j]["source"]).stem))]
        elif read.files[0] not in included:
            mine = _named_in_folders(read.files[0], runs=runs, mine=mine, home=homes[i])
        out.append(mine)
    return out


# words of a settings file's name that say what it is, not whose it is
SETTINGS_WORDS = {"my", "cnf", "conf", "ini", "variables", "vars", "global", "status", "settings", "server", "mysqld",
                  "show", "txt", "log", "sh", "run", "start", "config", "options"}


def _named_in_folders(rel: str, *, runs: list[dict], mine: list[int], home: str) -> list[int]:
    """The runs a settings file of a folder above all of theirs applies to: where its name has words beyond
    what it is (aurora.variables.txt: aurora; my-mgr.cnf: mgr), the runs whose folders below it have one of
    them as a word (res-tpcc-Aurora-3nodes/), and none when no folder has (it is another server's);
    otherwise every run."""
    own = {w.lower() for w in FOLDER_WORD.split(PurePosixPath(rel).name) if w} - SETTINGS_WORDS
    if not own or any(_parent(runs[j]["source"]) == home for j in mine):
        return mine
    below = {j: _with_numbers(_folder_words(_parent(runs[j]["source"])[len(home):])) for j in mine}
    return [j for j in mine if own & below[j]]


def _with_numbers(words: list[str]) -> set[str]:
    """Words, and the number of each word that is a name and a number (res01: res01 and 01)."""
    out = {w.lower() for w in words}
    return out | {m.group(2) for w in out if (m := KEYED.match(w)) and m.group(1)}


def _name_values(runs: list[dict], tests: list[tuple[str, str]]) -> tuple[list[tuple], list[str]]:
    """Each run's varying values of its file name (key, value), and notes of the values not taken."""
    shapes, tokens = [], []
    for r in runs:
        stem = PurePosixPath(r["source"]).stem.lower()
        for test in TESTS_IN_NAMES:
            stem = re.sub(rf"(?:^|(?<=[^a-z0-9])){test}(?=[^a-z0-9]|$)", " ", stem.replace("-", "_")).replace("_", " ")
        items, shape, position = [], [], 0
        for word in (w for w in FOLDER_WORD.split(stem) if w):  # dots split too, not those of 1.2 or 10.6
            m = KEYED.match(word)
            if m and m.group(1):
                key, value = m.group(1), m.group(2) + m.group(3)
            elif m:
                key, value = m.group(5), m.group(4)
            else:
                key, value, position = f"#{position}", word, position + 1
            items.append((key, value))
            shape.append(key)
        shapes.append(tuple(shape))
        tokens.append(items)
    # a keyed value (iops5000) is compared across every file that has its key; a bare word or number
    # only across files named alike (the same keys and words in the same order)
    slots: dict[tuple, list[tuple[int, str]]] = {}
    for i, items in enumerate(tokens):
        seen = set()
        for position, (key, value) in enumerate(items):
            slot = (shapes[i], position) if key.startswith("#") else (key,)
            if slot not in seen:
                seen.add(slot)
                slots.setdefault(slot, []).append((i, value))
    out: list[tuple] = [() for _ in runs]
    notes = []
    for slot, members in sorted(slots.items(), key=lambda item: item[1][0][0]):
        values = {v for _, v in members}
        if len(values) < 2:
            continue
        key = slot[0] if len(slot) == 1 else slot[0][slot[1]]
        if len(slot) == 2 and not any(len({tokens[i][p][1] for i, _ in members}) == 1
                                      for p in range(len(slot[0])) if p != slot[1]):
            continue  # bare words of names with nothing in common ("good.log", "other.log"): no varying part
        shown = ", ".join(f"{key if len(slot) == 1 else ''}{v}" for v in sorted(values, key=_order))
        test_of: dict[str, set] = {v: set() for v in values}  # one pass: 20,000 files of one value each (issue #61)
        for i, w in members:
            test_of[w].add(tests[i][0])
        options = set.intersection(*({o for o, given in (runs[i]["run"].get("command_options") or {}).items()
                                      if str(given) == v} for i, v in members))
        if all(str(runs[i]["run"].get("threads")) == v for i, v in members):
            notes.append(f"file names' {shown}: the logs' thread counts")
        elif options:
            notes.append(f"file names' {shown}: the logs' --{min(options)}")
        elif key in REPETITION_WORDS:
            notes.append(f"file names' {shown}: repetitions")
        elif all(re.fullmatch(r"\d{6,}", v) for v in values):
            notes.append(f"file names' {shown}: dates or times")
        elif all(len(t) == 1 for t in test_of.values()) and len({min(t) for t in test_of.values()}) == len(values):
            notes.append(f"file names' {shown}: the logs' tests")
        else:
            for i, v in members:
                out[i] += ((key, v),)
    return out, sorted(set(notes))


def _natural(text: str) -> list:
    """``text`` in pieces that sort as people read them: its numbers as numbers ("bp5" before "bp25")."""
    return [(0, float(piece), "") if re.fullmatch(r"\d+(?:\.\d+)?", piece) else (1, 0.0, piece)
            for piece in re.findall(r"\d+(?:\.\d+)?|[^\d]+", text.lower())]


def _order(value: str) -> tuple:
    number = re.match(r"\d+(?:\.\d+)?", value)
    return (0, float(number.group()), value) if number else (1, 0.0, value)


def group(*, runs: list[dict], reads: list[tuple[str, Read]], root: Path,
          mapping: list[tuple[str, dict]] | None = None, one_system: bool = False) -> Grouping:
    """The systems the runs make (see the module's text) and each run's test."""
    tests = run_tests(runs, root=root)
    applies = _applies(reads, runs)
    run_reads = [[reads[k] for k, mine in enumerate(applies) if j in mine] for j in range(len(runs))]
    names, notes = _name_values(runs, tests)
    repeated = sorted({p for r in runs for p in PurePosixPath(r["source"]).parent.parts if REPETITION_FOLDER.match(p)})
    if repeated:
        notes.append(f"folder(s) {', '.join(p + '/' for p in repeated)}: named as repetitions, not systems")
    cleaned = sorted({p for r in runs for p in PurePosixPath(r["source"]).parent.parts
                      if not REPETITION_FOLDER.match(p) and _undated(p) != p})
    if cleaned:
        notes.append(f"folder(s) {', '.join(p + '/' for p in cleaned)}: the dates and repetitions' numbers in their "
                     "names, not systems")
    settings = [tuple(sorted((n, s.value) for n, s in in_effect(rr)[0].items())) for rr in run_reads]
    names, variants, note = _variants(names, homes=[(_kin(r["source"]), settings[j]) for j, r in enumerate(runs)])
    notes += note
    keys = [("", (), ()) if one_system else (_kin(r["source"]), settings[j], names[j]) for j, r in enumerate(runs)]
    placing = [(pattern, spec) for pattern, spec in mapping or [] if "id" in spec]
    facts = [(pattern, spec["answers"]) for pattern, spec in mapping or [] if "id" not in spec]
    mapped: dict[int, tuple[str, dict]] = {}
    for j, r in enumerate(runs):
        words = set(_words(PurePosixPath(r["source"]).stem))
        for pattern, spec in placing:
            if fnmatch.fnmatch(r["source"], pattern) or pattern.lower() in words:
                mapped[j] = (pattern, spec)
                break
    systems = _auto([j for j in range(len(runs)) if j not in mapped], keys=keys, runs=runs)
    if mapped and len(systems) == 1:  # the runs the mapping leaves, beside the systems it names
        systems[0].id, systems[0].label, systems[0].rule = "other-runs", "other runs", "matched by no entry of the mapping"
    by_id = {s.id: s for s in systems}
    for j, (pattern, spec) in mapped.items():
        system = by_id.get(spec["id"])
        if system is None:
            system = by_id[spec["id"]] = System(id=spec["id"], label=spec.get("label") or spec["id"],
                                                rule=f"the mapping's {pattern!r}")
            systems.append(system)
        elif f"the mapping's {pattern!r}" not in system.rule:
            system.rule = (system.rule + f"; the mapping's {pattern!r}")
        if spec.get("label"):
            system.label = spec["label"]
        system.answers.update({k: str(v) for k, v in (spec.get("answers") or {}).items()})
        system.runs.append(j)
        system.folders.add(_folder(runs[j]["source"]))
    for system in systems:
        system.runs.sort()
        system.reads = [read for k, read in enumerate(reads) if any(j in applies[k] for j in system.runs)]
        differing = sorted({settings[j] for j in system.runs})
        if len(differing) > 1:
            names_ = sorted({n for s in differing for n in s if sum(n in t for t in differing) < len(differing)})
            system.notes.append("Its runs' settings files do not agree (" + ", ".join(f"{n} {v}" for n, v in names_)
                                + "): the later file of a kind wins in its settings.")
    _give_facts(facts, systems=systems, runs=runs, tests=tests)
    ids = [s.id for s in systems]
    if len(set(ids)) < len(ids):
        raise MappingError(f"two systems have the id {next(i for i in ids if ids.count(i) > 1)!r}: give each its own")
    unapplied = [read.files[0] for k, (_, read) in enumerate(reads) if not applies[k]]
    return Grouping(systems=systems, tests=tests, notes=notes, unapplied=unapplied, variants=variants)


def _variants(names: list[tuple], *, homes: list[tuple]) -> tuple[list[tuple], list[str], list[str]]:
    """The words of file names that tell workloads apart, not systems: a varying word (not a keyed value
    such as iops5000) of which every folder (with its settings), of several, holds each value
    (res01/sysbench.ro.long.8.res and res01/sysbench.ro.short.8.res, likewise in res02/...)."""
    slots: dict[str, dict] = {}
    for j, name in enumerate(names):
        for key, value in name:
            if key.startswith("#"):
                slots.setdefault(key, {}).setdefault(homes[j], set()).add(value)
    taken = sorted(key for key, by_home in slots.items() if len(by_home) > 1 and len(set(homes)) == len(by_home)
                   and len({frozenset(v) for v in by_home.values()}) == 1 and len(next(iter(by_home.values()))) > 1)
    variants = ["-".join(v for k, v in name if k in taken) for name in names]
    notes = [f"file names' {', '.join(sorted(set().union(*slots[k].values()), key=_order))}: workloads, as every folder "
             "holds each" for k in taken]
    return [tuple((k, v) for k, v in name if k not in taken) for name in names], variants, notes


# a date or time in a folder's name (res-tpcc-2018-04-17-15-46, run_20240501_1200): when, not what
DATE_IN_NAME = re.compile(r"(?<![0-9])(?:\d{4}-\d{2}-\d{2}(?:[-_T]\d{2}[-:]\d{2}(?:[-:]\d{2})?)?|\d{8}(?:[-_]?\d{4,6})?)(?![0-9])")
FOLDER_WORD = re.compile(r"[-_ ]+|(?<![0-9])\.|\.(?![0-9])")  # not the dot of 1.2TB or 10.6


def _folder_words(folder: str) -> list[str]:
    return [w for part in PurePosixPath(folder).parts for w in FOLDER_WORD.split(DATE_IN_NAME.sub(" ", part)) if w]


def _folder_labels(folders: list[str]) -> dict[str, str]:
    """Short labels of nested subfolders or ones named with a date: each level's words without the
    words every folder of that level begins or ends with, nor dates (res-tpcc-inno-EXT4-sync1-2018-04-17/
    mysql57.BP60/thr56/ among others: "EXT4-sync1/BP60"). A single level of names without dates keeps
    its names. A folder whose words are all shared keeps its name."""
    split = [PurePosixPath(f).parts for f in folders]
    if all(len(parts) <= 1 for parts in split) and not any(DATE_IN_NAME.search(f) for f in folders):
        return {}
    depth = max(len(parts) for parts in split)
    levels = [[[w for w in FOLDER_WORD.split(DATE_IN_NAME.sub(" ", parts[i])) if w] if i < len(parts) else []
               for parts in split] for i in range(depth)]
    shown: list[list[str]] = [[] for _ in folders]
    for words in levels:
        head = 0
        while all(len(w) > head for w in words) and len({w[head] for w in words}) == 1:
            head += 1
        tail = 0
        while all(len(w) > head + tail for w in words) and len({w[-1 - tail] for w in words}) == 1:
            tail += 1
        for n, w in enumerate(words):
            kept = w[head:len(w) - tail]
            if kept:
                shown[n].append("-".join(kept))
    labels = ["/".join(parts) for parts in shown]
    return {f: label for f, label in zip(folders, labels) if label} if len(set(labels)) == len(labels) else {}


def _give_facts(facts: list[tuple[str, dict]], *, systems: list[System], runs: list[dict],
                tests: list[tuple[str, str]]) -> None:
    """A mapping's entries without an id state facts for the runs they match, placing none: their test
    (where the log names none; a log that names another is a mistake), the other answers for their systems."""
    for pattern, answers in facts:
        matched = [j for j, r in enumerate(runs) if fnmatch.fnmatch(r["source"], pattern)
                   or pattern.lower() in set(_words(PurePosixPath(r["source"]).stem))]
        if not matched:
            raise MappingError(f"{pattern!r}: matches no log of the folder")
        test = answers.get("test")
        for j in matched:
            if test and tests[j][1] == "log" and tests[j][0] != test:
                raise MappingError(f"{pattern!r}: test {test}, but {runs[j]['source']} names {tests[j][0]}")
            if test and (tests[j][0] != test or tests[j][1] == MIX):  # what names it and agrees stays its source
                tests[j] = (str(test), f"mapping's {pattern!r}")
        rest = {k: str(v) for k, v in answers.items() if k != "test"}
        for system in systems:
            if rest and set(system.runs) & set(matched):
                system.answers = {**{k: _filled(v, system, pattern=pattern, answer=k) for k, v in rest.items()},
                                  **system.answers}


def _filled(text: str, system: System, *, pattern: str, answer: str) -> str:
    """An answer with each ``{key}`` replaced by the system's value of that key in its file names
    (``provisioned_iops: "{iops}"`` for res_iops5000.txt: 5000)."""
    def value(match: re.Match) -> str:
        if match.group(1) not in system.values:
            raise MappingError(f"{pattern!r}: {answer}: {{{match.group(1)}}} is no value of {system.id}'s file names "
                               f"({', '.join(system.values) or 'it has none'})")
        return system.values[match.group(1)]
    return re.sub(r"\{([a-z]+)\}", value, text)


def _auto(members: list[int], *, keys: list[tuple], runs: list[dict]) -> list[System]:
    """The systems of the runs the mapping does not place: one a distinct key (folder, settings, name)."""
    # each key's runs, in one pass over them (a pass a key was quadratic: 20,000 logs, issue #61)
    of_key: dict[tuple, list[int]] = {}
    for j in members:
        of_key.setdefault(keys[j], []).append(j)
    # in the order of their folders' and file names' values as numbers (iops 1000, 5000, 15000; BP5, BP25)
    distinct = sorted(of_key, key=lambda k: ([_natural(p) for p in k[0].split("/")],
                                             [(n, _natural(v)) for n, v in k[2]], of_key[k][0]))
    if len(distinct) <= 1:
        if not members:
            return []
        return [System(id="system", label="", rule="one system: its runs differ in no subfolder, setting or file name",
                       runs=list(members), folders={_folder(runs[j]["source"]) for j in members})]
    folders_vary = len({k[0] for k in distinct}) > 1
    short = _folder_labels(sorted({k[0] for k in distinct})) if folders_vary else {}
    names_vary = len({k[2] for k in distinct}) > 1
    settings_names = {n for k in distinct for n, _ in k[1]}
    varying = sorted(n for n in settings_names if len({dict(k[1]).get(n) for k in distinct}) > 1)
    systems, taken = [], set()
    for key in distinct:
        folder, settings, name = key
        rule, label, notes = [], [], []
        real = sorted({_folder(runs[j]["source"]) for j in of_key[key]})
        if folders_vary:
            rule.append(f"subfolder {', '.join(f + '/' for f in real)}" if folder else "the folder's top level")
            label.append(short.get(folder) or folder or "top level")
        # the label: the folder, a file name's value (iops 5000), else the settings, else a file name's word
        words = []
        if names_vary:
            shown = [f"{k}={v}" if not k.startswith("#") else v for k, v in name]
            rule.append(f"file names' {', '.join(shown)}" if name else "file names without the varying part")
            keyed = ", ".join(f"{k} {v}" for k, v in name if not k.startswith("#"))
            label += [keyed] if keyed else []
            words = [", ".join(v for k, v in name if k.startswith("#")) or "other files"]
        if varying:
            given = dict(settings)
            shown = ", ".join(f"{n} {given.get(n, '(not set)')}" for n in varying)
            rule.append(f"settings: {shown}")
            label += [] if label else [shown]
        label += [] if label else words
        base = slug(", ".join(label))
        system_id, n = base, 2
        while system_id in taken:
            system_id, n = f"{base}-{n}", n + 1
        taken.add(system_id)
        filesystem = None
        named = sorted({w.lower() for w in _folder_words(folder)} & FILESYSTEMS) if folder else []
        if folders_vary and folder and PurePosixPath(folder).name.lower() in FILESYSTEMS:
            filesystem = PurePosixPath(folder).name.lower()
            notes.append(f"Filesystem {filesystem}: the name of its subfolder {folder}/.")
        elif folders_vary and len(named) == 1:
            filesystem = named[0]
            notes.append(f"Filesystem {filesystem}: a word of its subfolder's name {', '.join(f + '/' for f in real)}.")
        elif folders_vary and folder:
            notes.append(f"Its logs are in the subfolder {', '.join(f + '/' for f in real)}; what that name means is "
                         "not read from it.")
        systems.append(System(id=system_id, label=", ".join(label), rule="; ".join(rule),
                              runs=list(of_key[key]), folders=set(real), filesystem=filesystem,
                              notes=notes, values={k: v for k, v in name if not k.startswith("#")}))
    return systems


def describe(grouping: Grouping, *, runs: list[dict]) -> list[str]:
    """The grouping in words, a line each: printed before the bundle is written."""
    lines = [f"{len(grouping.systems)} system(s):"]
    for s in grouping.systems:
        tests = sorted({" ".join(filter(None, (grouping.tests[j][0], (grouping.variants or [""] * len(runs))[j])))
                        for j in s.runs})
        lines.append(f"  {s.id} ({s.label or 'the only system'}): {s.rule}; {len(s.runs)} run(s) of "
                     f"{', '.join(tests)}: " + ", ".join(sorted({runs[j]['source'] for j in s.runs})))
    lines += [f"  not a system's difference: {note}" for note in grouping.notes]
    lines += [f"  {rel}: a settings file whose name shares no word with a log's or its folder's: applied "
              "to no run" for rel in grouping.unapplied]
    guessed = sorted({(t, how) for t, how in grouping.tests if how not in ("log", MIX)})
    lines += [f"  test {t}: from the {how}" if how != "nothing names it" else "  a test that nothing names: to be stated"
              for t, how in guessed]
    return lines + summary_lines(runs=runs, tests=grouping.tests)
