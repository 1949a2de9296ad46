"""Your log as a bundle of one run, validated and loaded into a database of its own, graded.

Nothing here reads the log but ``benchdb import`` (contribute/importer.py, with the project's parser):
what it cannot say is what you state (the facts of ``FACTS``), and what you do not state is written
"not stated", as a bundle says it; the bundle then goes through validation and the load as every
bundle does, so your run has the figures, workload and grade a published run would have."""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import duckdb

from schema.models import TO_BE_STATED

from ..bundles.validate import validate_file
from ..contribute.bundle_writer import WriteError
from ..contribute.importer import MAX_FILE_BYTES, ImportFailed, import_folder, survey
from ..contribute.bundle_writer import dump
from ..database.load import build_database
from ..bundles.yamlfile import load_yaml
from ..plumbing.text import printable

STUDY = "your-run"
LABEL = "your run"
NOT_STATED = "not stated"
# The facts a log cannot say, as benchdb compare takes them: the import answer each one is.
FACTS = {"product": "storage product (e.g. 'Linux MD RAID', 'Samsung PM9A3')",
         "vendor": "storage product's vendor",
         "device_class": "class of the devices the data is on: nvme-ssd, sas-ssd, sata-ssd, pcie-flash-card, hdd, "
                         "cloud-volume",
         "raid_level": "RAID level: 0, 1, 5, 6, 10, 50, 60, raid-dp, linear, or none",
         "drives": "how many drives the array has",
         "protocol": "how the host reaches the storage: local, fcp, iscsi, nfs, smb or nvme-of",
         "engine": "database server and engine (e.g. 'MySQL 8.0 (InnoDB)', 'MariaDB (MyRocks)')"}
# What an unstated value of the bundle is written as, by where it is (the rest: "not stated")
UNSTATED = {("storage", "kind"): "not-stated", ("protocol",): "not-stated"}


_PROBLEM = re.compile(r"^.*?bundle\.yaml:\d+: (.*)$")  # a problem of the bundle written, as WriteError lists it


class CompareFailed(Exception):
    """A log compare cannot take, or facts it refuses: the message names the file and what is wrong."""


@dataclass(frozen=True)
class YourRun:
    database: Path  # your run's own database (the schema of the catalogue's), graded
    log: Path


def _not_stated(doc, path: tuple = ()):
    """``doc`` with each TO BE STATED of the import written as a bundle says "not stated"."""
    if isinstance(doc, dict):
        return {k: _not_stated(v, (*path, k)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_not_stated(v, path) for v in doc]
    if doc == TO_BE_STATED:
        return UNSTATED.get(path[-2:], UNSTATED.get(path[-1:], NOT_STATED))
    return doc


def _fill(doc: dict, *, facts: dict[str, str]) -> dict:
    (system,) = doc["systems"]
    system["label"] = LABEL
    system["database"]["engine"] = facts.get("engine") or system["database"].get("engine", TO_BE_STATED)
    system["host"] = {k: v for k, v in system["host"].items() if v != TO_BE_STATED}
    raid = system.get("raid")
    if raid and raid.get("level") == TO_BE_STATED:  # no RAID level given: the bundle states no array
        del system["raid"]
    elif raid and raid.get("drives") == TO_BE_STATED:
        del raid["drives"]
    doc["sources"][0]["publisher"] = "you"
    return _not_stated(doc)


def _copy(log: Path, to: Path, *, named: str) -> None:
    """``log`` copied to ``to`` from one opened file (no link followed, no FIFO waited on), refused before
    a byte is copied where it is no regular file or is larger than import reads (a sparse file of 3 GB was
    copied whole, 2.9 GB written, before import refused it: issue #61's seventh pass)."""
    try:
        fd = os.open(log, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise CompareFailed(f"{named}: " + ("a symbolic link: give the log itself" if exc.errno == errno.ELOOP
                                            else f"cannot be read ({exc.strerror})")) from None
    with os.fdopen(fd, "rb") as source:
        info = os.fstat(source.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise CompareFailed(f"{named}: not a file")
        if info.st_size > MAX_FILE_BYTES:
            raise CompareFailed(f"{named}: {info.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} a log may be")
        with open(to, "wb") as out:
            copied = 0
            while chunk := source.read(min(2**20, MAX_FILE_BYTES + 1 - copied)):
                out.write(chunk)
                copied += len(chunk)
                if copied > MAX_FILE_BYTES:
                    raise CompareFailed(f"{named}: it grew past the {MAX_FILE_BYTES:,} bytes a log may be as it was read")


def load_your_run(log: Path, *, facts: dict[str, str], work: Path) -> YourRun:
    """``log`` (one sysbench run) with ``facts`` (FACTS' keys) as a bundle in ``work``, validated, loaded
    into work/your-run.duckdb and graded. CompareFailed names what cannot be compared."""
    named = printable(str(log))  # (a newline in its name forged a line of the error: issue #61's fifth pass)
    folder = work / "log"
    folder.mkdir()
    _copy(log, folder / log.name, named=named)
    answers = {k: v for k, v in facts.items() if v and k in FACTS and k != "engine"}
    try:
        found, grouping = survey(folder, one_system=True)
    except ImportFailed as exc:  # the one file's reason, as import gives it (all were said alike: the seventh pass)
        why = exc.skipped[0][1] if len(exc.skipped) == 1 else str(exc).split(": ", 1)[-1]
        why = why.replace(f"{folder / log.name}: ", "")  # (the copy's path, in a folder removed by now)
        raise CompareFailed(f"{named}: {printable(why)}") from None
    if len(found.runs) != 1:
        raise CompareFailed(f"{named}: {len(found.runs)} runs in one file; compare takes a log of one run "
                            "(benchdb import splits such a file into one log a run)")
    run = found.runs[0]["run"]
    if not run["complete"]:
        raise CompareFailed(f"{named}: the run is cut before its summary (no transactions per second to compare)")
    if run.get("kind") != "oltp" and run.get("test") != "tpcc":
        raise CompareFailed(f"{named}: a sysbench {run.get('test') or run.get('kind')} run: the catalogue compares "
                            "database runs (oltp_* and tpcc) by transactions per second")
    bundle = work / STUDY
    try:
        import_folder(folder, out=bundle, answers=answers, surveyed=(found, grouping))
    except ImportFailed as exc:
        raise CompareFailed(f"{named}: {exc}") from None
    except WriteError as exc:  # a fact the format refuses: named by its field, not the temporary file's line
        fields = [m.group(1) for line in str(exc).splitlines()[1:] if (m := _PROBLEM.match(line))]
        raise CompareFailed("the facts given do not make a valid system:\n"
                            + "\n".join(f"  {f}" for f in fields or [str(exc)])) from None
    doc = _fill(load_yaml(bundle / "bundle.yaml").data, facts=facts)
    (bundle / "bundle.yaml").write_text(dump(doc), encoding="utf-8")
    loaded, problems = validate_file(bundle / "bundle.yaml")
    errors = [p for p in problems if p.severity == "error"]
    if loaded is None or errors:  # a fact given that the format refuses: its message, of the fact's name
        raise CompareFailed("the facts given do not make a valid system:\n"
                            + "\n".join(f"  {p.field}: {p.message}" for p in errors))
    db = build_database([loaded], db_path=work / f"{STUDY}.duckdb")
    return YourRun(database=db, log=log)


def run_row(db: Path) -> dict:
    """Your run's figures and grade, from its database."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        cur = con.execute(
            "SELECT r.artifact, r.test, r.threads, r.sysbench_version, r.elapsed_s, w.test AS workload_test, "
            "g.grade, g.reasons, g.samples, (SELECT value FROM measurements m WHERE m.result = r.artifact AND "
            "m.column_label = 'tps') AS tps FROM runs r JOIN workloads w USING (study, workload) "
            "LEFT JOIN run_grades g USING (study, artifact)")
        names = [d[0] for d in cur.description]
        return dict(zip(names, cur.fetchone()))
    finally:
        con.close()
