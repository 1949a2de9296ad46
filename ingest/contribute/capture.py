"""``benchdb capture``: run sysbench over thread counts and variants, and write a valid bundle.

It records what was really in effect (SHOW GLOBAL VARIABLES, the tables' row format, server
version, kernel, CPU, memory, the datadir's filesystem, mount options and device), refuses a
variant that did not take effect, samples /proc/mdstat into a trace where it exists, and writes
the bundle beside its destination, moving it into place only once it validates.
"""

from __future__ import annotations

import errno
import os
import platform
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from schema.models import SCHEMA_VERSION

from .bundle_writer import WriteError, publish, staged_bundle
from ..parsers import ParseError
from ..parsers.sysbench_runs import parse_file

# The licence of runs measured here, as a capture's bundle states it (the repository's own).
MEASURED_LICENCE = "MIT, as the rest of this repository (runs this project measured)"
RECORDED_VARIABLES = (
    "version", "innodb_doublewrite", "innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit",
    "innodb_flush_method", "innodb_log_file_size", "innodb_page_size", "innodb_file_per_table",
    "innodb_io_capacity", "sync_binlog", "log_bin", "datadir",
)


class CaptureError(Exception):
    pass


@dataclass
class Connection:
    """How to reach a server: a unix socket, or host and port."""

    socket: str | None = None
    host: str | None = None
    port: int = 3306
    user: str = "root"
    password: str | None = None

    def client_args(self) -> list[str]:
        args = [f"--user={self.user}"]
        if self.password:
            args.append(f"--password={self.password}")
        args += [f"--socket={self.socket}"] if self.socket else [f"--host={self.host}", f"--port={self.port}"]
        return args

    def sysbench_args(self) -> list[str]:
        args = ["--db-driver=mysql", f"--mysql-user={self.user}"]
        if self.password:
            args.append(f"--mysql-password={self.password}")
        args += ([f"--mysql-socket={self.socket}"] if self.socket
                 else [f"--mysql-host={self.host}", f"--mysql-port={self.port}"])
        return args

    def describe(self) -> str:
        return f"socket {self.socket}" if self.socket else f"{self.host}:{self.port}"


@dataclass
class CaptureConfig:
    out: Path
    bundle_id: str
    tests: list[str] = field(default_factory=lambda: ["oltp_read_write"])
    threads: list[int] = field(default_factory=lambda: [1, 2, 4])
    repetitions: int = 3
    time_s: int = 10
    report_interval_s: int = 1
    tables: int = 2
    table_size: int = 10000
    doublewrite: list[bool] = field(default_factory=lambda: [True, False])
    compression: list[bool] = field(default_factory=lambda: [False, True])
    buffer_pool_mib: int = 128
    connection: Connection | None = None  # None: start an embedded MariaDB server
    note: str | None = None


def _run(cmd: list[str], *, what: str, timeout: float = 600) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError:
        raise CaptureError(f"{cmd[0]} is not installed (needed to {what}): run 'make mariadb'") from None
    except subprocess.TimeoutExpired:
        raise CaptureError(f"{what}: no answer after {timeout:.0f} s") from None


def sql(conn: Connection, query: str) -> str:
    done = _run(["mariadb", *conn.client_args(), "--batch", "--skip-column-names", "-e", query],
                what="query the server")
    if done.returncode != 0:
        raise CaptureError(f"cannot query the server at {conn.describe()}: {done.stderr.strip()}")
    return done.stdout


def server_variables(conn: Connection) -> dict[str, str]:
    out = sql(conn, "SHOW GLOBAL VARIABLES")
    return dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)


class EmbeddedServer:
    """A MariaDB server of our own: its datadir and unix socket in a temporary folder."""

    def __init__(self, root: Path, *, buffer_pool_mib: int) -> None:
        self.root = root
        self.datadir = root / "data"
        self.socket = root / "mysqld.sock"
        self.log = root / "error.log"
        self.buffer_pool_mib = buffer_pool_mib
        self.process: subprocess.Popen | None = None

    def install(self) -> None:
        self.datadir.mkdir(parents=True)
        done = _run(["mariadb-install-db", "--no-defaults", f"--datadir={self.datadir}", "--user=root",
                     "--auth-root-authentication-method=normal"], what="create a MariaDB data directory")
        if done.returncode != 0:
            raise CaptureError(f"mariadb-install-db failed: {done.stderr.strip()[-500:]}")

    def start(self, *, doublewrite: bool) -> Connection:
        binary = shutil.which("mariadbd") or ("/usr/sbin/mariadbd" if Path("/usr/sbin/mariadbd").exists() else None)
        if binary is None:
            raise CaptureError("mariadbd is not installed (needed for the embedded server): run 'make mariadb'")
        cmd = [binary, "--no-defaults", f"--datadir={self.datadir}", f"--socket={self.socket}",
               f"--pid-file={self.root / 'mysqld.pid'}", "--skip-networking", "--user=root",
               f"--innodb-doublewrite={1 if doublewrite else 0}", f"--innodb-buffer-pool-size={self.buffer_pool_mib}M",
               f"--log-error={self.log}"]
        self.process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        conn = Connection(socket=str(self.socket))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            if self.socket.exists() and _run(["mariadb", *conn.client_args(), "-e", "SELECT 1"],
                                             what="reach the server").returncode == 0:
                return conn
            time.sleep(0.2)
        tail = self.log.read_text(errors="replace").splitlines()[-5:] if self.log.exists() else []
        self.stop()
        raise CaptureError("the MariaDB server did not start: " + (" | ".join(tail) or "no error log"))

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None


def _proc_text(path: str) -> str | None:
    try:
        return Path(path).read_text()
    except OSError:
        return None


def environment(datadir: str) -> dict:
    """Facts about the machine and the datadir's filesystem, read from /proc."""
    cpuinfo = _proc_text("/proc/cpuinfo") or ""
    cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if line.startswith("model name")), None)
    cores = sum(1 for line in cpuinfo.splitlines() if line.startswith("processor"))
    meminfo = _proc_text("/proc/meminfo") or ""
    mem_kib = next((int(line.split()[1]) for line in meminfo.splitlines() if line.startswith("MemTotal:")), None)
    mounts = []
    for line in (_proc_text("/proc/mounts") or "").splitlines():
        parts = line.split()
        if len(parts) >= 4:
            mounts.append((parts[1].replace("\\040", " "), parts[0], parts[2], parts[3]))
    real = os.path.realpath(datadir)
    mount = max((m for m in mounts if real == m[0] or real.startswith(m[0].rstrip("/") + "/")),
                key=lambda m: len(m[0]), default=None)
    os_name = None
    for line in (_proc_text("/etc/os-release") or "").splitlines():
        if line.startswith("PRETTY_NAME="):
            os_name = line.split("=", 1)[1].strip('"')
    return {
        "cpu": cpu, "cores": cores, "memory_gib": round(mem_kib / 1024 / 1024, 2) if mem_kib else None,
        "kernel": platform.release(), "os": os_name,
        "mount_point": mount[0] if mount else None, "device": mount[1] if mount else None,
        "filesystem": mount[2] if mount else None, "mount_options": mount[3].split(",") if mount else [],
        "mdstat": _proc_text("/proc/mdstat"),
    }


def _slug(doublewrite: bool, compressed: bool) -> str:
    return f"dw-{'on' if doublewrite else 'off'}-{'compressed' if compressed else 'uncompressed'}"


class Capture:
    def __init__(self, config: CaptureConfig, *, log=print) -> None:
        self.config = config
        self.log = log
        self.runs: list[dict] = []
        self.systems: dict[str, dict] = {}
        self.versions: set[str] = set()

    # -- steps ---------------------------------------------------------------------------------

    def check_tools(self) -> None:
        if shutil.which("sysbench") is None:
            raise CaptureError("sysbench is not installed: run 'make mariadb' (Debian packages sysbench, mariadb-server)")
        if shutil.which("mariadb") is None:
            raise CaptureError("the mariadb client is not installed: run 'make mariadb'")

    def verify(self, conn: Connection, *, doublewrite: bool) -> dict[str, str]:
        variables = server_variables(conn)
        effective = variables.get("innodb_doublewrite", "").upper()
        if effective not in ("ON", "OFF"):
            raise CaptureError(f"the server does not report innodb_doublewrite (got {effective!r})")
        if (effective == "ON") != doublewrite:
            raise CaptureError(f"variant did not take effect: asked for innodb_doublewrite={'ON' if doublewrite else 'OFF'},"
                               f" the server reports {effective}")
        return variables

    def prepare_tables(self, conn: Connection, *, test: str, compressed: bool, database: str) -> str:
        sql(conn, f"DROP DATABASE IF EXISTS {database}; CREATE DATABASE {database}")
        engine = "InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8" if compressed else "InnoDB"
        cmd = ["sysbench", test, *conn.sysbench_args(), f"--mysql-db={database}", f"--tables={self.config.tables}",
               f"--table-size={self.config.table_size}", f"--mysql_storage_engine={engine}", "prepare"]
        done = _run(cmd, what="prepare the sysbench tables")
        if done.returncode != 0:
            raise CaptureError(f"sysbench prepare failed: {(done.stdout + done.stderr).strip()[-400:]}")
        tables = sql(conn, "SELECT table_name, engine, row_format, create_options FROM information_schema.tables "
                           f"WHERE table_schema = '{database}' ORDER BY table_name")
        formats = sorted({line.split("\t")[2] for line in tables.splitlines() if line.count("\t") >= 3})
        wanted = "Compressed" if compressed else None
        if compressed and formats != [wanted]:
            raise CaptureError(f"variant did not take effect: asked for ROW_FORMAT=COMPRESSED, the tables are {formats}")
        if not compressed and "Compressed" in formats:
            raise CaptureError(f"variant did not take effect: the tables are compressed ({formats})")
        return "table_name\tengine\trow_format\tcreate_options\n" + tables

    def run_one(self, conn: Connection, *, test: str, threads: int, database: str, log_path: Path,
                mdstat_trace: Path | None) -> str:
        started = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
        self._sample_mdstat(mdstat_trace)
        cmd = ["sysbench", test, *conn.sysbench_args(), f"--mysql-db={database}", f"--tables={self.config.tables}",
               f"--table-size={self.config.table_size}", f"--threads={threads}", f"--time={self.config.time_s}",
               f"--report-interval={self.config.report_interval_s}", "--histogram", "run"]
        done = _run(cmd, what="run sysbench", timeout=self.config.time_s + 120)
        # the log opens with the command as a shell prompt shows it (the parser keeps its --options,
        # which the run-quality grades compare with the bundle), a password never written
        shown = " ".join(a for a in cmd if not a.startswith("--mysql-password="))
        _write(log_path, f"$ {shown}\n{done.stdout}")
        self._sample_mdstat(mdstat_trace)
        try:
            parsed = parse_file(log_path)
        except ParseError as exc:
            raise CaptureError(f"the sysbench run failed: {exc}") from None
        if not parsed["complete"]:
            raise CaptureError(f"the sysbench run did not finish: {log_path.name} has no final statistics")
        return started

    def _sample_mdstat(self, trace: Path | None) -> None:
        if trace is None:
            return
        text = _proc_text("/proc/mdstat")
        if text is not None:
            stamp = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
            with trace.open("a", encoding="utf-8") as f:
                f.write(f"{stamp}\n{text}")

    # -- the whole capture ------------------------------------------------------------------------

    def run(self) -> Path:
        """Capture into a bundle at ``config.out`` (made beside it and moved there once it validates)."""
        self.check_tools()
        try:
            with staged_bundle(self.config.out) as work:
                has_trace = self._capture_into(work)
                publish(self.bundle(has_trace=has_trace), work=work, final=self.config.out)
        except WriteError as exc:
            raise CaptureError(str(exc)) from None
        return self.config.out

    def _capture_into(self, work: Path) -> bool:
        """Run every variant into work/artifacts; whether an mdstat trace was recorded."""
        cfg = self.config
        server_root = Path(tempfile.mkdtemp(prefix="benchdb-mariadb-"))
        server = None if cfg.connection else EmbeddedServer(server_root, buffer_pool_mib=cfg.buffer_pool_mib)
        try:
            (work / "artifacts").mkdir()
            trace = work / "artifacts" / "mdstat.trace" if Path("/proc/mdstat").exists() else None
            if server:
                server.install()
            for doublewrite in cfg.doublewrite:
                if server:
                    conn = server.start(doublewrite=doublewrite)
                else:
                    conn = cfg.connection
                    sql(conn, "SELECT 1")
                try:
                    self._variant(conn, work=work, doublewrite=doublewrite, server_root=server_root, trace=trace)
                finally:
                    if server:
                        server.stop()
            return trace is not None and trace.exists()
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise CaptureError(f"disk full while capturing into {work}") from None
            raise
        finally:
            if server:
                server.stop()
            shutil.rmtree(server_root, ignore_errors=True)

    def _variant(self, conn: Connection, *, work: Path, doublewrite: bool, server_root: Path,
                 trace: Path | None) -> None:
        cfg = self.config
        variables = self.verify(conn, doublewrite=doublewrite)
        self.versions.add(variables.get("version", "unknown"))
        env = environment(variables.get("datadir", str(server_root)))
        for compressed in cfg.compression:
            slug = _slug(doublewrite, compressed)
            _write(work / "artifacts" / f"{slug}-variables.txt",
                   "".join(f"{k}\t{variables[k]}\n" for k in sorted(variables)))
            self.systems[slug] = {"doublewrite": doublewrite, "compressed": compressed,
                                  "variables": variables, "env": env}
            for test in cfg.tests:
                database = f"sb_{slug.replace('-', '_')}"
                self.log(f"{slug}: preparing {test} ({cfg.tables} x {cfg.table_size} rows)")
                tables = self.prepare_tables(conn, test=test, compressed=compressed, database=database)
                _write(work / "artifacts" / f"{slug}-{test}-tables.txt", tables)
                for threads in cfg.threads:
                    for rep in range(1, cfg.repetitions + 1):
                        name = f"{slug}-{test}-t{threads}-r{rep}.log"
                        self.log(f"{slug}: {test}, {threads} threads, repetition {rep}")
                        started = self.run_one(conn, test=test, threads=threads, database=database,
                                               log_path=work / "artifacts" / name, mdstat_trace=trace)
                        self.runs.append({"id": name.removesuffix(".log").replace("_", "-"),
                                          "path": f"artifacts/{name}", "system": slug, "test": test,
                                          "threads": threads, "repetition": rep, "started": started})

    # -- the bundle --------------------------------------------------------------------------------

    def bundle(self, *, has_trace: bool) -> dict:
        cfg = self.config
        env = next(iter(self.systems.values()))["env"]
        today = datetime.now(timezone.utc).date().isoformat()
        systems = []
        for slug, s in self.systems.items():
            v = s["variables"]
            systems.append({
                "id": slug,
                "label": f"doublewrite {'on' if s['doublewrite'] else 'off'}, "
                         f"{'compressed (ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8)' if s['compressed'] else 'uncompressed'}",
                "storage": {"product": f"{env['device'] or 'unknown device'}", "vendor": "not known (virtual machine)",
                            "kind": "device"},
                "protocol": "local",
                "filesystem": {"type": env["filesystem"] or "unknown", "mount_options": env["mount_options"]},
                "database": {
                    "engine": "MariaDB", "version": v.get("version"),
                    "doublewrite": v.get("innodb_doublewrite", "").upper() == "ON",
                    "compression": "innodb-compressed-8k" if s["compressed"] else "none",
                    "buffer_pool_mib": int(v["innodb_buffer_pool_size"]) // (1024 * 1024)
                    if v.get("innodb_buffer_pool_size", "").isdigit() else None,
                    "page_size_kib": int(v["innodb_page_size"]) // 1024 if v.get("innodb_page_size", "").isdigit() else None,
                    "settings": {k: v[k] for k in RECORDED_VARIABLES if k in v and k != "version"},
                },
                "host": {"cpu": env["cpu"], "sockets": None, "memory_gib": env["memory_gib"], "os": env["os"],
                         "kernel": env["kernel"]},
                "notes": f"{env['cores']} CPUs as seen by the kernel; datadir on {env['mount_point']}. "
                         f"Server variables as in effect: artifacts/{slug}-variables.txt; the tables' row format "
                         f"as created: artifacts/{slug}-*-tables.txt.",
            })
        for s in systems:  # drop empty values the model would refuse
            s["host"] = {k: v for k, v in s["host"].items() if v is not None}
            s["database"] = {k: v for k, v in s["database"].items() if v is not None}
        workloads = [{
            "id": test.replace("_", "-"), "tool": "sysbench", "test": test, "tables": cfg.tables,
            "rows_per_table": cfg.table_size, "concurrency": cfg.threads, "duration_s": cfg.time_s,
            "notes": f"{cfg.repetitions} repetitions of each thread count, --report-interval={cfg.report_interval_s}",
        } for test in cfg.tests]
        results = [{"type": "artifact", "id": r["id"], "format": "sysbench", "path": r["path"], "system": r["system"],
                    "workload": r["test"].replace("_", "-"), "threads": r["threads"], "started": r["started"]}
                   for r in self.runs]
        if has_trace:
            results.append({"type": "artifact", "id": "mdstat-trace", "format": "mdstat-trace",
                            "path": "artifacts/mdstat.trace", "system": systems[0]["id"]})
        notes = [cfg.note] if cfg.note else []
        notes.append("Captured by benchdb capture: every value is measured from the sysbench logs in artifacts/.")
        return {
            "schema_version": SCHEMA_VERSION, "id": cfg.bundle_id,
            "title": f"Measured: sysbench {', '.join(cfg.tests)} on MariaDB, doublewrite and compression variants",
            "summary": (f"sysbench {', '.join(cfg.tests)} at {', '.join(map(str, cfg.threads))} threads, "
                        f"{cfg.repetitions} repetitions of {cfg.time_s} s each, {cfg.tables} tables of "
                        f"{cfg.table_size} rows, on MariaDB {', '.join(sorted(self.versions))} with InnoDB doublewrite "
                        "on and off and table compression on and off."),
            "sources": [{"id": "capture", "publisher": "benchdb capture", "title": "Measured runs (this bundle's logs)",
                         "date": today, "language": "en", "identifier": "artifacts/ in this bundle",
                         "kind": "measured-here", "licence": MEASURED_LICENCE}],
            "systems": systems, "workloads": workloads, "results": results, "notes": notes,
            "charts": [{"id": "tps-by-threads", "title": "Transactions per second by threads (mean and spread of runs)",
                        "metric": "tps", "x": "threads"},
                       {"id": "p95-by-threads", "title": "95th percentile latency by threads (mean and spread of runs)",
                        "metric": "latency_p95_ms", "x": "threads"}],
            "baseline": _slug(True, False) if _slug(True, False) in self.systems else systems[0]["id"],
        }


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise CaptureError(f"disk full while writing {path}") from None
        raise
