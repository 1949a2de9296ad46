"""The workloads and charts ``benchdb import`` gives sysbench fileio runs: one workload a mode and set of
file-test options (its id from the mode and the block size), never shared with a database run, and by
default a chart of each figure the runs print against their thread counts, one a workload."""

from __future__ import annotations

from schema.models import TO_BE_STATED, FileTest

from ..bundles.fields import fileio_metrics, metric_label

# The parsed options (ingest/parsers/sysbench_fileio.py) a workload's file_test records
FILE_TEST_FIELDS = tuple(FileTest.model_fields)


def is_fileio(run: dict) -> bool:
    return run.get("kind") == "fileio"


def mode_of(run: dict) -> str | None:
    """The --file-test-mode a fileio log prints ("Doing random r/w test": rndrw), or None."""
    return ((run.get("fileio") or {}).get("options") or {}).get("mode")


def file_test(run: dict) -> dict | str:
    """A fileio run's file_test as its log prints it; TO BE STATED where the log does not print them all
    (only o_direct may be unknown: 0.4 prints the open flags as a number)."""
    options = (run.get("fileio") or {}).get("options") or {}
    given = {name: options.get(name) for name in FILE_TEST_FIELDS}
    if any(value is None for name, value in given.items() if name != "o_direct"):
        return TO_BE_STATED
    return given


def workload_id(test: str, options: dict | str, taken: set[str]) -> str:
    """``fileio-<mode>-<block>k`` (e.g. fileio-rndrw-16k), with a number after it where another workload
    of that mode and block size differs in its other options."""
    block = options["block_size_kib"] if isinstance(options, dict) else None
    base = f"fileio-{test}" + (f"-{format(block, 'g').replace('.', 'p')}k" if block is not None else "")
    base = base if test != TO_BE_STATED else "fileio"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def fileio_workloads(runs: list[dict]) -> dict[int, dict]:
    """Each fileio run's workload (by its index in ``runs``, each {run, test, ...}): the same dict for
    runs of one mode and file_test."""
    by_key: dict[tuple, dict] = {}
    out: dict[int, dict] = {}
    for j, r in enumerate(runs):
        if not is_fileio(r["run"]):
            continue
        options = file_test(r["run"])
        key = (r["test"], tuple(sorted(options.items())) if isinstance(options, dict) else options)
        if key not in by_key:
            workload = {"id": workload_id(r["test"], options, {w["id"] for w in by_key.values()}),
                        "tool": "sysbench", "test": r["test"], "file_test": options}
            by_key[key] = workload
        out[j] = by_key[key]
    return out


def fileio_charts(runs: list[dict], workload_of: dict[int, dict]) -> list[dict]:
    """A chart of each fileio figure against the thread count, one a workload; none of a figure that
    every run of the workload prints as 0 (the reads of a write test)."""
    charts = []
    for workload in {w["id"]: w for w in workload_of.values()}.values():
        figures = [(runs[j]["run"].get("fileio") or {}) for j, w in workload_of.items() if w is workload]
        for metric in fileio_metrics():
            if not any(f.get(metric.fileio) for f in figures):
                continue
            charts.append({"id": f"{workload['id']}-{metric.fileio.replace('_', '-')}",
                           "title": f"{metric_label(metric.key)}: {workload['id']}", "metric": metric.key,
                           "x": "threads", "workload": workload["id"]})
    return charts
