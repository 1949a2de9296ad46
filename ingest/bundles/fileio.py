"""What validation checks of a sysbench fileio run against its workload: a fileio log belongs in a
workload whose test is its --file-test-mode and whose ``file_test`` gives the options the log prints
(sb_fileio.c file_print_mode, read by ingest/parsers/sysbench_fileio.py); a database run never belongs in
such a workload. Each finding names the bundle's field and the log's file and line."""

from __future__ import annotations

import typing
from dataclasses import dataclass

from schema.models import Artifact, Bundle, Cited, FileTest, FileTestMode, Workload

from .fields import fileio_metrics

FILE_TEST_MODES = frozenset(typing.get_args(FileTestMode))
# A file_test field -> the parsed option it is, and the option line it is printed on (a setting printed
# only when on is read from the mode's line, the last of them, when it is off)
_OPTIONS = {"total_size_mib": ("total_size_mib", "total_size"), "block_size_kib": ("block_size_kib", "block_size"),
            "fsync_every": ("fsync_every", "fsync_every"), "fsync_end": ("fsync_end", "fsync_end"),
            "fsync_all": ("fsync_all", "fsync_all"), "o_direct": ("o_direct", "extra_flags"),
            "io_mode": ("io_mode", "io_mode")}


@dataclass(frozen=True)
class Finding:
    loc: tuple  # the path of the bundle's field, from the bundle's root
    kind: str
    message: str
    severity: str = "error"


def is_fileio_workload(workload: Workload) -> bool:
    return workload.test in FILE_TEST_MODES or workload.file_test is not None


def log_line(run: dict, option: str) -> int | None:
    """The log line of a fileio option (or of the mode's line for one printed only when on)."""
    lines = run["source_lines"]
    return lines.get(f"fileio option {option}") or lines.get("fileio option mode")


def run_findings(*, bundle: Bundle | None, result: Artifact | Cited, run: dict, name: str, loc: tuple,
                 log_field: str) -> list[Finding]:
    """A database run in a database workload, a fileio run in its fileio workload: the findings of the run
    that ``result`` (at ``loc``) places, its log called ``name`` (``bundle``: None when it was not read)."""
    workloads = list(bundle.workloads) if bundle is not None else []
    wanted = result.workload if result.workload is not None else (workloads[0].id if len(workloads) == 1 else None)
    index = next((i for i, w in enumerate(workloads) if w.id == wanted), None)
    return workload_findings(run=run, path=name, artifact_loc=loc, log_field=log_field,
                             workload=workloads[index] if index is not None else None,
                             workload_loc=("workloads", index), named=result.workload is not None)


def workload_findings(*, run: dict, path: str, artifact_loc: tuple, log_field: str, workload: Workload | None,
                      workload_loc: tuple, named: bool) -> list[Finding]:
    """The findings of one sysbench run (``path`` as the bundle gives it) in its workload (None: the bundle
    has no such workload, reported elsewhere); ``log_field``: the result's field naming the log (path, or a
    cited log's figures); ``named``: the result names its workload."""
    kind = run["kind"]
    if kind not in ("oltp", "tpcc", "fileio"):
        return [Finding(artifact_loc + (log_field,), "not-a-database-run",
                        f"{path} is a sysbench {kind or 'unknown'} test, not a database benchmark or a fileio test: "
                        "it cannot be loaded as results")]
    if workload is None:
        return []
    if kind != "fileio":
        if not is_fileio_workload(workload):
            return []
        return [Finding(artifact_loc + ("workload",) if named else artifact_loc, "workload-mismatch",
                        f"{path} is a sysbench {run['test'] or kind} run (a database benchmark), but workload "
                        f"{workload.id!r} is a fileio test ({workload.test}): a database run belongs in a workload "
                        "of its own test")]
    options = (run.get("fileio") or {}).get("options") or {}
    mode, mode_line = options.get("mode"), log_line(run, "mode")
    if workload.test not in FILE_TEST_MODES:
        said = f"{path}:{mode_line} is a sysbench fileio {mode} run" if mode else f"{path} is a sysbench fileio run"
        return [Finding(workload_loc + ("test",), "workload-mismatch",
                        f"{said}, but workload {workload.id!r} is test "
                        f"{workload.test!r}: a fileio run belongs in a workload whose test is its --file-test-mode "
                        f"({', '.join(sorted(FILE_TEST_MODES))})")]
    found = []
    if mode is None:
        found.append(Finding(workload_loc + ("test",), "fileio-options",
                             f"{path} prints no 'Doing ... test' line: its mode cannot be checked against "
                             f"{workload.test!r}", severity="warning"))
    elif mode != workload.test:
        found.append(Finding(workload_loc + ("test",), "workload-mismatch",
                             f"workload {workload.id!r} is test {workload.test!r}, but {path}:{mode_line} is a "
                             f"{mode} run"))
    if workload.file_test is None:
        found.append(Finding(workload_loc, "missing",
                             f"workload {workload.id!r} is a fileio test: give its file_test (total_size_mib, "
                             f"block_size_kib, fsync_every, fsync_end, fsync_all, o_direct, io_mode) as {path} "
                             "prints them"))
        return found
    return found + _options(options, workload.file_test, run=run, path=path, loc=workload_loc + ("file_test",))


def _options(options: dict, stated: FileTest, *, run: dict, path: str, loc: tuple) -> list[Finding]:
    found = []
    for name, (parsed, line_name) in _OPTIONS.items():
        value, printed = getattr(stated, name), options.get(parsed)
        line = log_line(run, line_name)
        if printed is None:
            if value is not None:
                found.append(Finding(loc + (name,), "fileio-options",
                                     f"{path} does not say its {name} (it prints no such option line): "
                                     f"{_text(value)} cannot be checked", severity="warning"))
            continue
        bools = isinstance(printed, bool) or isinstance(value, bool)
        if (value is not printed) if bools else (value != printed):
            found.append(Finding(loc + (name,), "fileio-options",
                                 f"the workload says {name} {_text(value)}, {path}:{line} says {_text(printed)}"))
    return found


def _text(value) -> str:
    if value is None:
        return "not stated"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


def chart_findings(bundle: Bundle) -> list[Finding]:
    """A chart of a fileio metric names its workload where the bundle has several fileio workloads: the
    values of two modes are not one line."""
    fileio = [w.id for w in bundle.workloads if is_fileio_workload(w)]
    metrics = {m.key for m in fileio_metrics()}
    return [Finding(("charts", i), "missing", f"a chart of {chart.metric} needs its workload: the bundle has "
                                              f"{len(fileio)} fileio workloads ({', '.join(fileio)})")
            for i, chart in enumerate(bundle.charts)
            if chart.workload is None and len(fileio) > 1 and chart.metric in metrics]
