"""Load validated bundles into a DuckDB database, built from scratch at a temporary path.

The database only appears at its final path once it is complete (``os.replace``), so an
interrupted or failed load never leaves a half-written database behind.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

import duckdb
import numpy as np
import pyarrow as pa

from schema.models import Artifact, Bundle, Cited, Derived, Origin, Provenance, ResultTable, Source

from ..bundles.align import run_seconds
from ..bundles.derive import Trace
from ..bundles.fields import fileio_metrics, metric_unit, results_columns_sql
from ..plumbing.memory import drop_cached_blocks
from ..parsers import artifact_digest
from ..parsers.mdstat import array_state
from ..parsers.sysbench_fileio import figure_line
from ..parsers.sysbench_intervals import STORED_COLUMNS, IntervalColumns
from . import citing
from .evidence import create_macros
from .lines import create_line_macro
from .quality import grade_runs
from ..bundles.validate import LoadedBundle

SQL_DIR = Path(__file__).with_name("sql")
# The parts of a bundle the study page shows as its setup (studies.setup); every figure is in a table.
SETUP = {"sources", "systems", "workloads", "transcriptions", "notes"}


def measurement(*, printed_as: str | None = None, correction: str | None = None, spread_cv: float | None = None,
                flag: str | None = None, note: str | None = None, line: int | None = None,
                quote: str | None = None, **columns) -> dict:
    """One row of the measurements table; the columns most values leave empty default to NULL."""
    return {**columns, "printed_as": printed_as, "correction": correction, "spread_cv": spread_cv, "flag": flag,
            "note": note, "line": line, "quote": quote}


def table_cells(table: ResultTable, *, index: int, single_workload: str | None,
                source: Source) -> Iterator[dict]:
    """Every cell of a transcribed table with its merged coordinates, cited in ``source``."""
    fixes = {(c.row, c.column): c for c in table.corrections}
    notes: dict[tuple, list] = {}
    for n in table.cell_notes:
        notes.setdefault((n.row, n.column), []).append(n)
    for r, row in enumerate(table.rows):
        for c, (col, text) in enumerate(zip(table.columns, row.cells(), strict=True)):
            fix = fixes.get((row.system, col.label))
            remarks = notes.get((row.system, col.label), [])
            yield measurement(
                result=table.id, result_index=index, row_index=r, col_index=c, row_label=row.label,
                column_label=col.label, source=table.provenance.source, system=row.system,
                workload=col.workload or table.defaults.workload or single_workload,
                threads=col.threads or row.threads or table.defaults.threads,
                state=col.state or row.state or table.defaults.state,
                metric=col.metric or table.defaults.metric, unit=metric_unit(col.metric or table.defaults.metric),
                value=float(Decimal(text)), value_text=text, value_kind=table.value_kind,
                provenance=citing.printed_at(source, table.provenance, row=row.label, column=col.label,
                                             line=col.line or row.line),
                quote=citing.cell_quote(row.label, fix.printed if fix else text),
                line=col.line or row.line or table.provenance.line,
                printed_as=fix.printed if fix else None, correction=fix.reason if fix else None,
                flag=", ".join(n.flag for n in remarks) or None, note="; ".join(n.note for n in remarks) or None,
            )


# The run totals that become results rows: (metric, where in the parsed run, source line key); each is
# stored with its metric's unit (schema/fields.yaml), as every value is.
RUN_METRICS = [
    ("tps", ("totals", "tps"), "tps"),
    ("qps", ("totals", "qps"), "qps"),
    ("latency_avg_ms", ("latency_ms", "avg"), "latency_avg"),
    ("latency_p95_ms", ("latency_ms", "percentiles", "95"), "latency_p95"),
    ("latency_p99_ms", ("latency_ms", "percentiles", "99"), "latency_p99"),
]


def _dig(data: dict, keys: tuple):
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def origin_href(origin: Origin) -> str:
    """The file an origin names, at its commit, on GitHub (its lines: this and '#L<line>')."""
    return (f"https://github.com/{quote(origin.repository, safe='/')}/blob/{origin.commit}/"
            f"{quote(origin.path, safe='/')}")


def log_path(result: Artifact | Cited) -> str:
    """The path a run names its log by: in the bundle, or, for a cited log, in its repository."""
    return result.path if isinstance(result, Artifact) else result.origin.path


def _origin_row(study: str, result: Artifact | Cited) -> dict:
    o = result.origin
    return {"study": study, "artifact": result.id, "carried": isinstance(result, Artifact),
            "repository": o.repository, "commit_hash": o.commit, "path": o.path, "sha256": o.sha256,
            "licence": o.licence, "href": origin_href(o)}


def run_cells(artifact: Artifact | Cited, run: dict, *, index: int, workload: str,
              lines: dict[int, str]) -> Iterator[dict]:
    """The results rows of one complete sysbench run: measured values citing the log's line (quoted
    from ``lines``, those of a carried log)."""
    for col, (metric, keys, line_key) in enumerate(RUN_METRICS):
        value = _dig(run, keys)
        if value is None:
            continue
        line = run["source_lines"].get(line_key)
        yield measurement(
            result=artifact.id, result_index=index, row_index=0, col_index=col, row_label=artifact.id,
            column_label=metric, source=log_path(artifact), system=artifact.system, workload=workload,
            threads=artifact.threads or run["threads"], state=artifact.state, metric=metric, unit=metric_unit(metric),
            value=float(value), value_text=str(value), value_kind="measured",
            provenance=citing.log_line(artifact, line), quote=_log_quote(artifact, lines, line, str(value)), line=line,
            spread_cv=run["interval_tps_cv"] if metric == "tps" else None,
        )


def fileio_cells(artifact: Artifact | Cited, run: dict, *, index: int, workload: str,
                 lines: dict[int, str]) -> Iterator[dict]:
    """The results rows of a complete sysbench fileio run's own figures (schema/fields.yaml names which,
    and their units): measured values citing file:line, after the run's latency (run_cells)."""
    figures = run.get("fileio") or {}
    for col, metric in enumerate(fileio_metrics(), start=len(RUN_METRICS)):
        value = figures.get(metric.fileio)
        if value is None:
            continue
        line = figure_line(run, metric.fileio)
        yield measurement(
            result=artifact.id, result_index=index, row_index=0, col_index=col, row_label=artifact.id,
            column_label=metric.key, source=log_path(artifact), system=artifact.system, workload=workload,
            threads=artifact.threads or run["threads"], state=artifact.state, metric=metric.key, unit=metric.unit,
            value=float(value), value_text=str(value), value_kind="measured",
            provenance=citing.log_line(artifact, line), quote=_log_quote(artifact, lines, line, str(value)), line=line,
        )


def _log_quote(artifact: Artifact | Cited, lines: dict[int, str], line: int | None, value_text: str) -> str | None:
    """A carried log's line as printed; a cited log's figure as parsed."""
    if isinstance(artifact, Cited):
        return citing.parsed_quote(value_text)
    return citing.text_quote(lines[line]) if line in lines else None


def _run_lines(folder: Path, artifact: Artifact | Cited, run: dict) -> dict[int, str]:
    """The lines of a carried log its run's values are read from (a cited log is not in the bundle)."""
    if isinstance(artifact, Cited) or not run["complete"]:
        return {}
    wanted = {n for n in run["source_lines"].values() if isinstance(n, int)}
    return citing.read_lines(folder / artifact.path, wanted)


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict], types: dict[str, str]) -> None:
    """Insert ``rows`` in one statement, a column at a time: the columns go in as one Arrow table, each
    column cast to its type in the table (row-by-row inserts took ~2 ms per interval row). A column of
    values Arrow cannot hold as one type goes in as one list of Python values instead."""
    if not rows:
        return
    cols = list(rows[0])
    values = [[row[c] for row in rows] for c in cols]
    try:
        columns = pa.table(dict(zip(cols, (pa.array(v) for v in values))))
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        lists = ", ".join(f"unnest(CAST(? AS {types[c]}[]))" for c in cols)
        con.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {lists}", values)
        return
    con.register("table_rows", columns)
    try:
        con.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT "
                    + ", ".join(f"CAST({c} AS {types[c]})" for c in cols) + " FROM table_rows")
    finally:
        con.unregister("table_rows")


def interval_parts(runs: list[tuple[str, str, IntervalColumns]], types: dict[str, str]) -> Iterator[pa.Table]:
    """Each part of each run's interval samples, its columns typed as Arrow holds the intervals table's
    (whole numbers as 64-bit integers, the others as doubles) and labelled with its study and artifact
    (a dictionary of one: a byte a row), for DuckDB to take in bulk."""
    schema = pa.schema([(c, pa.int64() if types[c] in ("INTEGER", "BIGINT") else pa.float64())
                        for c in STORED_COLUMNS])
    for study, artifact, intervals in runs:
        for part in intervals.tables():
            yield (part.cast(schema).append_column("study", _label(study, len(part)))
                   .append_column("artifact", _label(artifact, len(part))))


def _label(text: str, rows: int) -> pa.DictionaryArray:
    # typed: an untyped pa.array tries to import python-dateutil on every call (46 against 2.7 µs without it)
    return pa.DictionaryArray.from_arrays(np.zeros(rows, np.int8), pa.array([text], pa.string()))


def _insert_intervals(con: duckdb.DuckDBPyConnection, runs: list[tuple[str, str, IntervalColumns]],
                      types: dict[str, str]) -> None:
    """The interval samples of every run in one statement, straight from their Arrow columns (no row
    becomes a Python object), all parts joined into one table."""
    parts = list(interval_parts(runs, types))
    if not parts:
        return
    con.register("run_intervals", pa.concat_tables(parts))
    try:
        con.execute("INSERT INTO intervals BY NAME SELECT * FROM run_intervals")
    finally:
        con.unregister("run_intervals")


def _bundle_rows(loaded: LoadedBundle) -> dict[str, list]:
    b: Bundle = loaded.bundle
    study = b.id
    languages = {s.id: s.language for s in b.sources}  # a claim is printed in its source's language
    sources = {s.id: s for s in b.sources}

    def cited(where: Provenance) -> str:  # where in its source something is printed, as a reader cites it
        return citing.printed_at(sources[where.source], where)
    out: dict[str, list] = {
        "studies": [{
            "study": study, "title": b.title, "summary": b.summary, "schema_version": b.schema_version,
            "bundle_path": f"{study}/{loaded.file.name}", "baseline": b.baseline,
            "setup": json.dumps(_setup(b, sources), ensure_ascii=False),
        }],
        "result_tables": [{
            "study": study, "result": t.id, "position": i, "title": t.title, "value_kind": t.value_kind,
            "provenance": cited(t.provenance), "notes": t.notes, "columns": [c.label for c in t.columns],
        } for i, t in enumerate(b.results) if isinstance(t, ResultTable)],
        "charts": [{
            "study": study, "chart": c.id, "position": i, "title": c.title, "metric": c.metric, "x": c.x,
            "switch": c.switch, "workload": c.workload,
        } for i, c in enumerate(b.charts)],
        "graph_only": [{
            "study": study, "position": i, "title": g.title, "shows": g.shows, "provenance": cited(g.where),
            "text_says": g.text_says,
        } for i, g in enumerate(b.graph_only)],
        "sources": [{
            "study": study, "source": s.id, "publisher": s.publisher, "title": s.title, "date": s.date,
            "language": s.language, "role": s.role, "url": s.url, "identifier": s.identifier,
            "kind": s.kind, "author": s.author, "licence": s.licence, "commit_hash": s.commit,
        } for s in b.sources],
        "systems": [{
            "study": study, "system": s.id, "position": i, "label": s.label,
            "storage_product": s.storage.product, "storage_vendor": s.storage.vendor, "storage_kind": s.storage.kind,
            # as stated, else as its drive model names it (schema/devices.yaml, derived: device_class_from)
            "device_class": (derived.device_class if (derived := loaded.derivation.device_classes.get(s.id))
                             else s.storage.device_class),
            "device_class_from": derived.reason if derived else None,
            "volume_service": s.volume.service if s.volume else None, "volume_type": s.volume.type if s.volume else None,
            "volume_size_gb": s.volume.size_gb if s.volume else None,
            "provisioned_iops": s.volume.provisioned_iops if s.volume else None,
            "provisioned_mb_s": s.volume.provisioned_throughput_mb_s if s.volume else None,
            "raid_level": s.raid.level if s.raid else None, "drives": s.raid.drives if s.raid else None,
            "device": s.raid.drive_model if s.raid else None, "chunk_kib": s.raid.chunk_kib if s.raid else None,
            "drive_capacity_tb": s.raid.drive_capacity_tb if s.raid else None,
            "protocol": s.protocol,
            "filesystem": s.filesystem.type if s.filesystem else None,
            "mount_options": ",".join(s.filesystem.mount_options) if s.filesystem else None,
            "db_engine": s.database.engine, "db_version": s.database.version,
            "doublewrite": s.database.doublewrite, "compression": s.database.compression,
            "buffer_pool_mib": s.database.buffer_pool_mib,
            "flush_method": _setting(s.database.settings, "innodb_flush_method"),
            "flush_log_at_trx_commit": _setting(s.database.settings, "innodb_flush_log_at_trx_commit"),
            "host_cpu": s.host.cpu, "host_memory_gib": s.host.memory_gib,
            "usable_capacity": loaded.derivation.usable[s.id],
        } for i, s in enumerate(b.systems)],
        "workloads": [{
            "study": study, "workload": w.id, "tool": w.tool, "tool_version": w.tool_version, "test": w.test,
            "tables": w.tables, "rows_per_table": w.rows_per_table, "data_size": w.data_size,
            "distribution": w.distribution, "data_gb": w.data_gb,
        } for w in b.workloads],
        "system_settings": [{
            "study": study, "system": s.id, "name": name, "value": setting_text(value),
        } for s in b.systems for name, value in s.database.settings.items()],
        "measurements": [],
        "artifacts": [],
        "origins": [_origin_row(study, r) for r in b.results if isinstance(r, (Artifact, Cited)) and r.origin],
        "runs": [],
        "run_options": [],
        "histograms": [],
        "intervals": [],
        "trace_samples": [],
        "claims": [{
            "study": study, "claim": c.id, "kind": c.kind, "text": c.text, "reading": c.reading,
            "language": languages.get(c.where.source), "source": cited(c.where), "line": c.where.line,
            "stated": c.stated, "unit": c.unit, "computed": loaded.derivation.claims.get(c.id), "verdict": c.verdict,
            "formula": c.formula, "reason": c.reason, "position": i,
        } for i, c in enumerate(b.claims)],
    }
    single = b.workloads[0].id if len(b.workloads) == 1 else None
    for index, result in enumerate(b.results):
        if isinstance(result, ResultTable):
            cells = table_cells(result, index=index, single_workload=single,
                                source=sources[result.provenance.source])
            out["measurements"].extend({"study": study, **cell} for cell in cells)
        elif isinstance(result, Artifact):
            size, digest = artifact_digest(loaded.folder / result.path)  # a file, or a folder of snapshots
            out["artifacts"].append({
                "study": study, "artifact": result.id, "format": result.format, "path": result.path,
                "bytes": size, "sha256": digest,
            })
            parsed = loaded.artifacts.get(result.id)
            if result.format == "sysbench" and parsed is not None:
                _add_run(out, study, result, parsed, index=index, workload=result.workload or single,
                         alignment=loaded.derivation.alignments.get(result.id), folder=loaded.folder)
            elif result.format == "mdstat-trace" and parsed is not None:
                _add_trace(out, study, result, parsed, index=index, workload=result.workload or single,
                           traced=loaded.derivation.traces[result.id])
        elif isinstance(result, Cited):
            parsed = loaded.artifacts.get(result.id)
            if parsed is not None:
                _add_run(out, study, result, parsed, index=index, workload=result.workload or single,
                         alignment=loaded.derivation.alignments.get(result.id), folder=loaded.folder)
        elif isinstance(result, Derived):
            value = loaded.derivation.derived[result.id]
            out["measurements"].append(measurement(
                study=study, result=result.id, result_index=index, row_index=0, col_index=0,
                row_label=result.title, column_label=result.metric, source=result.provenance.source,
                system=result.system, workload=result.workload or single, threads=result.threads,
                state=result.state, metric=result.metric, unit=metric_unit(result.metric), value=value,
                value_text=f"{value:.{result.decimals}f}", value_kind="derived",
                provenance=cited(result.provenance),
                quote=citing.text_quote(result.relation), line=result.provenance.line,
            ))
    out["intervals"].sort(key=lambda run: run[1])  # by artifact: IN_ORDER
    return out


def _setup(b: Bundle, sources: dict[str, Source]) -> dict:
    """The setup as described, each vendor specification with where it is printed as a reader cites it."""
    setup = b.model_dump(mode="json", include=SETUP)
    for system, dumped in zip(b.systems, setup["systems"], strict=True):
        for spec, out in zip(system.storage.specifications, dumped["storage"]["specifications"], strict=True):
            out["cited"] = citing.printed_at(sources[spec.where.source], spec.where)
    return setup


def setting_text(value: str | int | float | bool) -> str:
    """A recorded setting as text, as a server prints it: a YAML boolean is ON or OFF."""
    if isinstance(value, bool):
        return "ON" if value else "OFF"
    return str(value)


def _setting(settings: dict, name: str) -> str | None:
    """A server setting as the bundle states it (its name in any case, with - or _), as text; None when
    the bundle does not state it."""
    for key, value in settings.items():
        if key.lower().replace("-", "_") == name:
            return setting_text(value)
    return None


def _add_trace(out: dict, study: str, artifact: Artifact, trace: dict, *, index: int, workload: str,
               traced: Trace) -> None:
    array = traced.array
    for snap in trace["snapshots"]:
        a = next((x for x in snap["arrays"] if x["name"] == array), None)
        op = a["operation"] if a else None
        out["trace_samples"].append({
            "study": study, "artifact": artifact.id, "array_name": array, "t_s": snap["t_s"], "time": snap["time"],
            "state": "absent" if a is None else array_state(a), "operation": op["kind"] if op else None,
            "percent": op["percent"] if op else None, "done_blocks": op["done_blocks"] if op else None,
            "speed_kib_s": op["speed_kib_s"] if op else None,
        })
    figures = traced.rebuild
    if figures is None:
        return
    first, last = figures["first_line"], figures["last_line"]
    where = citing.trace_lines(artifact, first, last)
    rows = [("rebuild_mb_s", figures["mb_s"])]
    if figures["duration_s"] is not None:
        rows.append(("rebuild_duration_s", figures["duration_s"]))
    for col, (metric, value) in enumerate(rows):
        out["measurements"].append(measurement(
            study=study, result=artifact.id, result_index=index, row_index=0, col_index=col,
            row_label=artifact.id, column_label=metric, source=artifact.path, system=artifact.system,
            workload=workload, threads=None, state="rebuilding", metric=metric, unit=metric_unit(metric),
            value=float(value), value_text=str(value), value_kind="measured",
            provenance=f"{where} ({array}, blocks done over time)",
            line=figures["first_line"] if isinstance(figures["first_line"], int) else None,
        ))


def _add_run(out: dict, study: str, artifact: Artifact | Cited, run: dict, *, index: int, workload: str,
             alignment: tuple | None, folder: Path) -> None:
    trace_id, aligned = alignment if alignment else (None, None)
    out["runs"].append({
        "study": study, "artifact": artifact.id, "path": log_path(artifact), "log": citing.log_name(artifact),
        "system": artifact.system,
        "workload": workload, "threads": artifact.threads or run["threads"],
        "threads_source": "bundle" if artifact.threads else run["threads_source"], "state": artifact.state,
        "sysbench_version": run["sysbench_version"], "test": run["test"], "kind": run["kind"],
        "complete": run["complete"], "report_interval_s": run["report_interval_s"],
        "interval_tps_cv": run["interval_tps_cv"], "started": artifact.started, "elapsed_s": run_seconds(run),
        "warnings": run["warnings"],
        "trace": trace_id, "computed_state": aligned.computed if aligned else None,
        "state_flag": aligned.flag if aligned else None,
    })
    out["intervals"].append((study, artifact.id, run["intervals"]))
    out["run_options"].extend({"study": study, "artifact": artifact.id, "name": name, "value": value}
                              for name, value in run.get("command_options", {}).items())
    out["histograms"].extend({"study": study, "artifact": artifact.id, "position": i, "value_ms": row["value_ms"],
                              "count": row["count"], "line": row.get("line")}
                             for i, row in enumerate(run["histogram"]))
    if run["complete"]:
        lines = _run_lines(folder, artifact, run)
        cells = run_cells(artifact, run, index=index, workload=workload, lines=lines)
        out["measurements"].extend({"study": study, **cell} for cell in cells)
        cells = fileio_cells(artifact, run, index=index, workload=workload, lines=lines)
        out["measurements"].extend({"study": study, **cell} for cell in cells)



# Tables whose rows the load stores in the order of all their columns: their first columns are their
# key (intervals: study, artifact, t_s) and they go in by study, artifact and time (a run's samples
# follow each other in time: the parser keeps no other). A scan gives them in that order (DuckDB keeps
# the order rows went in), which /sql/'s file is written in without a sort (sql_page.py: a 200 MB log's
# samples took 200 MB to sort).
IN_ORDER = ("intervals",)
# The tables of a bundle, in the order they are filled (every one has a study column).
TABLES = ("studies", "sources", "systems", "system_settings", "workloads", "result_tables", "charts", "graph_only",
          "measurements", "artifacts", "origins", "runs", "run_options", "histograms", "intervals", "trace_samples", "claims")


def create_schema(con: duckdb.DuckDBPyConnection, *, keyed: bool = True) -> dict[str, dict[str, str]]:
    """The tables and views of a new database; returns each table's column types. ``keyed``: with the
    unique indexes of keys.sql, which check the keys of the tables that make bundles' rows (a database
    loaded from staged bundles, whose rows were checked so, goes without: schema.sql says why)."""
    con.execute("SET enable_progress_bar = false")  # no progress bar in the build log
    con.execute((SQL_DIR / "schema.sql").read_text(encoding="utf-8"))
    if keyed:
        con.execute((SQL_DIR / "keys.sql").read_text(encoding="utf-8"))
    create_macros(con)  # evidence.sql: the results view words a flag by them, publish.sql's views grade values
    create_line_macro(con)  # lines.py: the results view links a value to its artifact's line by it
    con.execute((SQL_DIR / "results.sql").read_text(encoding="utf-8").replace("{fields}", results_columns_sql()))
    con.execute((SQL_DIR / "publish.sql").read_text(encoding="utf-8"))
    types: dict[str, dict[str, str]] = {}
    for table, column, kind in con.execute("SELECT table_name, column_name, data_type FROM "
                                           "information_schema.columns").fetchall():
        types.setdefault(table, {})[column] = kind
    return types


def bundle_rows(bundles: list[LoadedBundle]) -> dict[str, list]:
    """The rows of ``bundles`` (in the order of their ids) by table, in the order of TABLES: dicts, and
    for intervals each run's (study, artifact, IntervalColumns)."""
    rows: dict[str, list] = {table: [] for table in TABLES}
    for loaded in sorted(bundles, key=lambda lb: lb.bundle.id):
        for table, found in _bundle_rows(loaded).items():
            rows[table].extend(found)
    return rows


def insert_rows(con: duckdb.DuckDBPyConnection, rows: dict[str, list], types: dict[str, dict[str, str]]) -> None:
    """``rows`` (bundle_rows) into their tables, one statement per table for all bundles: a statement
    per bundle and table took 1 to 2 ms each, 33 s at 1,000 bundles."""
    for table, found in rows.items():
        if table == "intervals":
            _insert_intervals(con, found, types[table])
        else:
            _insert(con, table, found, types[table])


def insert_bundles(con: duckdb.DuckDBPyConnection, bundles: list[LoadedBundle], types: dict[str, dict[str, str]]) -> None:
    """The rows of ``bundles`` into their tables (bundle_rows, insert_rows)."""
    insert_rows(con, bundle_rows(bundles), types)


@contextmanager
def new_database(db_path: Path, *, keyed: bool = True) -> Iterator[tuple[duckdb.DuckDBPyConnection,
                                                                        dict[str, dict[str, str]]]]:
    """A new database with its schema (create_schema: ``keyed``) at a temporary path beside
    ``db_path``, moved there only when the block has filled it without an error."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        con = duckdb.connect(str(tmp))
        try:
            yield con, create_schema(con, keyed=keyed)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(tmp, db_path)
    except BaseException:
        for path in (tmp, tmp.with_name(f"{tmp.name}.wal")):  # DuckDB's write-ahead log, where it stopped mid-write
            path.unlink(missing_ok=True)
        raise


def build_database(bundles: list[LoadedBundle], *, db_path: Path) -> Path:
    """Create ``db_path`` from scratch; it is replaced only once the load has succeeded."""
    with new_database(db_path) as (con, types):
        insert_bundles(con, bundles, types)
        drop_cached_blocks(con)
        grade_runs(con)
    return db_path
