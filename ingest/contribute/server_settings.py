"""The database server's settings as they were in effect, from the files beside a folder's logs: a
``SHOW GLOBAL VARIABLES`` dump, a ``my.cnf`` (its groups and ``!include`` files followed as the
server reads them), and the ``mysqld``/``mariadbd`` command lines of scripts, whose options beat the
option files. Every setting keeps the text it was given as and where (file, line, group); a size
with a unit suffix (``512M``, ``200G``) is also read as bytes, as the server reads it.

A value the files do not give (a script's ``--innodb_buffer_pool_size=${BP}G``: the shell variable's
value is not in the folder) is "to be stated", with the script and line that hide it. Nothing is
guessed: a ``!include`` outside the folder is named and not followed, and a my.cnf of several
``[mysqldN]`` groups (mysqld_multi's instances) applies none of them, since which one ran is the
contributor's to say.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

# The option groups the server reads (MySQL and MariaDB), in the order of the file: a later one wins.
SERVER_GROUP = re.compile(r"^(mysqld|server|mariadb|mariadbd|client-server|galera)(-\d+(\.\d+)*)?$")
INSTANCE_GROUP = re.compile(r"^mysqld(\d+)$")  # mysqld_multi's [mysqld1], [mysqld2], ...
GROUP = re.compile(r"^\s*\[([^\]]+)\]\s*(?:[#;].*)?$")
# Matched on a stripped line, so that no pattern ends in \s*$ after a lazy group: 60 KB of spaces inside
# a line took OPTION 26 s, 3 KB VARIABLE 86 s, backtracking (issue #61); the value is stripped after.
OPTION = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)(?:\s*=\s*(.*))?")
INCLUDE = re.compile(r"^\s*!(include|includedir)\s+(\S.*?)\s*$")
# mariadb -B, the client's table, or columns its tabs were expanded into (two spaces or more)
VARIABLE = re.compile(r"\|?\s*([a-z_][a-z0-9_]*)(?:\t|[ ]*\||\s{2,})(.*)")
SERVER_COMMAND = re.compile(r"(?:^|[\s/;&|(])(mysqld|mariadbd|mysqld_safe|mariadbd-safe)\b(.*)$")
COMMAND_OPTION = re.compile(r"--(?:loose[-_])?([A-Za-z][A-Za-z0-9_-]*)=(\"[^\"]*\"|'[^']*'|\S+)")
UNITS = {"K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}
SIZE = re.compile(r"^(\d{1,20})([KMGTPE])?$", re.I)  # 20 digits: a 64-bit size; 5,000 were a traceback (issue #61)
MAX_INCLUDES = 16  # !include within !include (600 ended in a RecursionError)
MAX_INCLUDED = 32  # files (and folders) one my.cnf includes in all, however deep (a server's: a few)
MAX_SMALL_BYTES = 16 * 2**20  # a settings file (and mdadm's or lsblk's output) is read whole: at most this
RELEVANT = re.compile(r"^(innodb_\w+|sync_binlog|version|log_bin|binlog_format|max_connections|table_open_cache)$")


@dataclass(frozen=True)
class Setting:
    value: str  # as the file gives it
    file: str  # the file's path in the folder
    line: int
    group: str | None = None  # the option group of a my.cnf, or "command line", or None (a variables dump)
    hidden: bool = False  # a shell variable stands for the value: to be stated


@dataclass
class Read:
    settings: dict[str, Setting] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # the files read (an included one too)
    notes: list[str] = field(default_factory=list)  # what was not followed or not applied, in words


# Settings of one file: the server's own are about 650 (MariaDB's SHOW GLOBAL VARIABLES), of which a
# few dozen are recorded. A dump of 500,000 made a bundle.yaml of 25 MB, refused with advice to import
# fewer runs (issue #61's fourth pass, L4).
MAX_SETTINGS = 5_000
MAX_VALUE = 1_000  # characters of a setting's value (a path, a size); 15 MB took the YAML writer 53 s (issue #61)


def too_long(name: str, setting: Setting) -> str | None:
    """The note for a setting whose value is too long to record, or None."""
    if len(setting.value) <= MAX_VALUE:
        return None
    return (f"{setting.file} line {setting.line}: {name}'s value of {len(setting.value):,} characters is longer than "
            f"the {MAX_VALUE:,} a setting's may be: not read")


def name_of(option: str) -> str:
    """An option's name as the server knows it: dashes as underscores, ``loose-`` dropped."""
    name = option.strip().lower().replace("-", "_")
    return name.removeprefix("loose_")


def size_bytes(text: str) -> int | None:
    """A size as the server reads it (``512M``: 512 x 1024^2 bytes), or None when it is not one."""
    match = SIZE.match(text.strip().strip("\"'"))
    if not match:
        return None
    return int(match.group(1)) * 1024 ** UNITS.get((match.group(2) or "").upper(), 0)


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def read_cnf(path: Path, *, root: Path, text: str) -> Read | None:
    """The settings a my.cnf gives the server, with its ``!include`` files; None when it is no my.cnf
    (no group the server reads, nor a mysqld_multi instance's)."""
    groups = [g.group(1).strip().lower() for g in map(GROUP.match, text.splitlines()) if g]
    if not any(SERVER_GROUP.match(g) or INSTANCE_GROUP.match(g) for g in groups):
        return None
    read, instances = Read(), {}
    _read_cnf_file(path, root=root, text=text, into=read, instances=instances, seen=set(), depth=0)
    if len(instances) == 1:
        (group, settings), = instances.items()
        read.settings.update(settings)
        read.notes.append(f"[{group}] (mysqld_multi's one instance in the file) is applied over the server's groups")
    elif instances:
        names = ", ".join(f"[{g}]" for g in sorted(instances))
        read.notes.append(f"{names}: mysqld_multi's instances; none is applied, as which one ran is not in the folder")
    return read


def _read_cnf_file(path: Path, *, root: Path, text: str, into: Read, instances: dict, seen: set, depth: int) -> None:
    rel = _rel(path, root)
    seen.add(path.resolve())
    into.files.append(rel)
    group = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(("#", ";")) or not line.strip():
            continue
        if (match := GROUP.match(line)) is not None:
            group = match.group(1).strip().lower()
            continue
        if (match := INCLUDE.match(line)) is not None:
            _include(match.group(1), match.group(2), base=path.parent, root=root, rel=rel, number=number,
                     into=into, instances=instances, seen=seen, depth=depth + 1)
            continue
        match = OPTION.fullmatch(line.split(" #")[0].strip())
        if match is None or group is None:
            continue
        name, value = name_of(match.group(1)), (match.group(2) or "").strip().strip("\"'")
        setting = Setting(value=value, file=rel, line=number, group=group)
        if (note := too_long(name, setting)) is not None:
            into.notes.append(note)
        elif SERVER_GROUP.match(group):
            into.settings[name] = setting
        elif INSTANCE_GROUP.match(group):
            instances.setdefault(group, {})[name] = setting


def _rel(path: Path, root: Path) -> str:
    """A file's path in the folder, however the folder was named (relative, through a link) and the file
    reached (an absolute !include): both resolved, as _inside resolves them."""
    return path.resolve().relative_to(root.resolve()).as_posix()


def _include(kind: str, target: str, *, base: Path, root: Path, rel: str, number: int, into: Read,
             instances: dict, seen: set, depth: int) -> None:
    path = Path(target) if Path(target).is_absolute() else base / target
    if not _inside(path, root) or not path.exists():
        into.notes.append(f"{rel} line {number}: !{kind} {target} is not in the folder: not read")
        return
    if depth > MAX_INCLUDES:
        into.notes.append(f"{rel} line {number}: !{kind} {target} is more than {MAX_INCLUDES} includes deep: not read")
        return
    if kind == "includedir":  # a folder is read once (N files each saying !includedir . cost N^3: the eighth pass)
        if ("folder", path.resolve()) in seen:
            return
        seen.add(("folder", path.resolve()))
    files = sorted(path.glob("*.cnf")) if kind == "includedir" else [path]
    for file in files:
        if file.resolve() in seen:
            continue
        shown = Path(os.path.relpath(file, root)).as_posix()
        if len(seen) > MAX_INCLUDED:
            into.notes.append(f"{rel} line {number}: {shown} and the rest: more than the {MAX_INCLUDED:,} files one "
                              "my.cnf may include: not read")
            return
        try:
            text = _small_file(file)
        except OSError as exc:  # (unreadable, or gone since the listing: a traceback, issue #61's seventh pass)
            into.notes.append(f"{rel} line {number}: {shown} cannot be read ({exc.strerror or exc}): not read")
            continue
        if text is None:
            into.notes.append(f"{rel} line {number}: {shown} is not a regular file of at most {MAX_SMALL_BYTES:,} "
                              "bytes: not read")
            continue
        _read_cnf_file(file, root=root, text=text, into=into, instances=instances, seen=seen, depth=depth)


def _small_file(path: Path) -> str | None:
    """The text of ``path`` read from one opened file (no link followed, no FIFO waited on), or None when
    it is no regular file of at most MAX_SMALL_BYTES. OSError where it cannot be opened."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SMALL_BYTES:
            return None
        data = f.read(MAX_SMALL_BYTES + 1)
    return None if len(data) > MAX_SMALL_BYTES else data.decode("utf-8", errors="replace")


def read_variables(text: str, *, rel: str) -> Read | None:
    """A ``SHOW GLOBAL VARIABLES`` dump's settings, or None when it holds fewer than two InnoDB variables
    (a table of two columns is not enough to tell)."""
    read = Read(files=[rel])
    for number, line in enumerate(text.splitlines(), 1):
        if (match := VARIABLE.fullmatch(line.rstrip("\r\n"))) is not None and RELEVANT.match(match.group(1)):
            value = match.group(2).strip()
            setting = Setting(value=value.removesuffix("|").rstrip() if value.endswith("|") else value, file=rel, line=number)
            if (note := too_long(match.group(1), setting)) is not None:
                read.notes.append(note)
            else:
                read.settings[match.group(1)] = setting
    innodb = [name for name in read.settings if name.startswith("innodb_")]
    return read if len(innodb) >= 2 else None


def read_commands(text: str, *, rel: str) -> Read | None:
    """The options of the server's command lines in a script (``mysqld --innodb_buffer_pool_size=4G``):
    each beats a my.cnf's; a value made of a shell variable is hidden. None when the script starts no
    server with an option."""
    read = Read(files=[rel])
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#") or (match := SERVER_COMMAND.search(line)) is None:
            continue
        for option in COMMAND_OPTION.finditer(match.group(2)):
            name, value = name_of(option.group(1)), option.group(2).strip("\"'")
            if RELEVANT.match(name):
                setting = Setting(value=value, file=rel, line=number, group="command line",
                                  hidden="$" in value or "`" in value)
                if (note := too_long(name, setting)) is not None:
                    read.notes.append(note)
                else:
                    read.settings[name] = setting
    return read if read.settings else None


KINDS = ("my.cnf", "command line", "variables")  # a later kind beats an earlier: a dump is what was in effect
# The settings a bundle's database section keeps as text (its settings mapping), beside the fields
# read from some of them (doublewrite, buffer pool, page size)
KEPT = ("innodb_flush_method", "innodb_flush_log_at_trx_commit", "innodb_log_file_size", "innodb_io_capacity",
        "innodb_file_per_table", "sync_binlog", "innodb_doublewrite", "innodb_buffer_pool_size", "innodb_page_size",
        "innodb_compression_algorithm", "log_bin", "skip_log_bin", "disable_log_bin", "binlog_format")


def in_effect(reads: list[tuple[str, Read]]) -> tuple[dict[str, Setting], list[str]]:
    """The settings of every file read, as they were in effect (KINDS' order; within a kind, the later
    file), and the notes of what was not followed or applied."""
    merged: dict[str, Setting] = {}
    for kind in KINDS:
        for read_kind, read in reads:
            if read_kind == kind:
                merged.update(read.settings)
    return merged, [note for _, read in reads for note in read.notes]


def _flag(setting: Setting) -> bool | None:
    """A boolean setting's value: a my.cnf's option given alone is on."""
    text = setting.value.strip().lower()
    if text == "" and setting.group not in (None, "command line"):
        return True
    return {"on": True, "1": True, "true": True, "off": False, "0": False, "false": False}.get(text)


def _whole(setting: Setting, unit: int) -> int | None:
    """A size setting in whole ``unit`` bytes (None when it is none, or not a whole number of them:
    nothing is rounded away)."""
    size = size_bytes(setting.value)
    return size // unit if size and size % unit == 0 else None


def database_section(settings: dict[str, Setting], *, cited: dict[str, str], to_be_stated: str) -> tuple[dict, list[str]]:
    """A bundle's database fields from the settings in effect, and the notes citing each one's file,
    line and group (``cited``: a file of the folder -> its path in the bundle)."""
    section: dict = {}
    version = settings.get("version")
    if version:
        section["engine"] = "MariaDB" if "mariadb" in version.value.lower() else to_be_stated
        section["version"] = version.value
    else:
        section["engine"] = to_be_stated
    for name, field_name, read in (("innodb_doublewrite", "doublewrite", _flag),
                                   ("innodb_buffer_pool_size", "buffer_pool_mib", lambda s: _whole(s, 2**20)),
                                   ("innodb_page_size", "page_size_kib", lambda s: _whole(s, 1024))):
        setting = settings.get(name)
        if setting is not None:
            value = to_be_stated if setting.hidden else read(setting)
            if value is not None:
                section[field_name] = value
    if "skip_innodb_doublewrite" in settings and "doublewrite" not in section:
        section["doublewrite"] = False
    section["compression"] = to_be_stated  # table compression is a table's, not a server variable
    section["settings"] = {name: to_be_stated if settings[name].hidden else settings[name].value
                           for name in KEPT if name in settings}
    notes = []
    for name, setting in sorted(settings.items()):
        where = f"{cited.get(setting.file, setting.file)} line {setting.line}"
        where = f"[{setting.group}] of {where}" if setting.group not in (None, "command line") else where
        size = size_bytes(setting.value)
        bytes_read = f", {size:,} bytes" if size is not None and not setting.value.strip().isdigit() else ""
        if setting.hidden:
            notes.append(f"{name} is given by a shell variable on the server's command line ({where}: "
                         f"{setting.value}): to be stated")
        else:
            kind = "command line, " if setting.group == "command line" else ""
            notes.append(f"{name} = {setting.value} ({kind}{where}{bytes_read})")
    return section, notes
