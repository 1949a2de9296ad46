"""benchdb capture against MariaDB from Debian's packages (installed by 'make test')."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from ingest.contribute import capture as capture_module
from ingest.contribute.capture import Capture, CaptureConfig, CaptureError, Connection, EmbeddedServer
from ingest.cli import main
from ingest.database.load import build_database
from ingest.bundles.validate import validate_paths


@pytest.fixture(scope="module", autouse=True)
def tools():
    for tool in ("sysbench", "mariadb", "mariadb-install-db"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: run 'make test', which installs mariadb-server and sysbench")


def tiny(out: Path, **kw) -> CaptureConfig:
    defaults = dict(threads=[1, 2], repetitions=1, time_s=2, tables=1, table_size=300)
    defaults.update(kw)
    return CaptureConfig(out=out, bundle_id=out.name, **defaults)


def test_a_tiny_capture_validates_and_loads(tmp_path):
    out = tmp_path / "data" / "tiny-capture"
    written = Capture(tiny(out), log=lambda m: None).run()
    assert written == out
    bundles, problems = validate_paths([out])
    assert [p for p in problems if p.severity == "error"] == []
    bundle = bundles[0].bundle
    assert {s.id for s in bundle.systems} == {"dw-on-uncompressed", "dw-on-compressed", "dw-off-uncompressed",
                                             "dw-off-compressed"}
    effective = {s.id: (s.database.doublewrite, s.database.compression) for s in bundle.systems}
    assert effective["dw-off-compressed"] == (False, "innodb-compressed-8k")
    assert effective["dw-on-uncompressed"] == (True, "none")
    assert len([r for r in bundle.results if r.format == "sysbench"]) == 8  # 4 variants x 2 thread counts
    assert "&id" not in (out / "bundle.yaml").read_text()
    assert [(s.kind, s.licence) for s in bundle.sources] == [
        ("measured-here", "MIT, as the rest of this repository (runs this project measured)")]
    tables = (out / "artifacts" / "dw-on-compressed-oltp_read_write-tables.txt").read_text().splitlines()
    assert tables[0] == "table_name\tengine\trow_format\tcreate_options"
    assert tables[1].split("\t")[:3] == ["sbtest1", "InnoDB", "Compressed"]
    db = build_database(bundles, db_path=tmp_path / "db.duckdb")
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT count(*), count(DISTINCT system), min(value) FROM results "
                       "WHERE metric = 'tps' AND value_kind = 'measured'").fetchone()
    assert rows[0] == 8 and rows[1] == 4 and rows[2] > 0
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["tiny-capture"]  # no staging folder left
    # each log opens with its command (no password) and keeps sysbench's --histogram whole
    log = (out / "artifacts" / "dw-on-uncompressed-oltp_read_write-t1-r1.log").read_text()
    assert log.startswith("$ sysbench oltp_read_write --db-driver=mysql") and "--histogram run\n" in log
    assert "password" not in log
    assert con.execute("SELECT value FROM run_options WHERE artifact = 'dw-on-uncompressed-oltp-read-write-t1-r1' "
                       "AND name = 'threads'").fetchone() == ("1",)
    events, counted = con.execute(
        "SELECT sum(count), (SELECT count(*) FROM histograms) > 0 FROM histograms "
        "WHERE artifact = 'dw-on-uncompressed-oltp-read-write-t1-r1'").fetchone()
    assert counted and events > 0
    assert con.execute("SELECT status FROM run_checks WHERE artifact = 'dw-on-uncompressed-oltp-read-write-t1-r1' "
                       "AND rule = 'settings'").fetchone() == ("pass",)


def test_a_server_that_refuses_connections(tmp_path):
    result = CliRunner().invoke(main, ["capture", "--out", str(tmp_path / "x"), "--socket",
                                       str(tmp_path / "nothing.sock"), "--doublewrite", "on", "--compression", "off"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: cannot query the server at socket {tmp_path / 'nothing.sock'}: ")
    assert not (tmp_path / "x").exists()


def test_a_variant_that_does_not_take_effect(tmp_path):
    server = EmbeddedServer(tmp_path / "server", buffer_pool_mib=64)
    server.install()
    conn = server.start(doublewrite=True)
    try:
        config = tiny(tmp_path / "out" / "dw-test", doublewrite=[False], compression=[False], connection=conn)
        with pytest.raises(CaptureError, match="variant did not take effect: asked for innodb_doublewrite=OFF, "
                                               "the server reports ON"):
            Capture(config, log=lambda m: None).run()
        assert not (tmp_path / "out" / "dw-test").exists()
    finally:
        server.stop()


def test_no_sysbench(tmp_path, monkeypatch):
    real_which = shutil.which
    monkeypatch.setattr(capture_module.shutil, "which", lambda name: None if name == "sysbench" else real_which(name))
    with pytest.raises(CaptureError, match="sysbench is not installed: run 'make mariadb'"):
        Capture(tiny(tmp_path / "x"), log=lambda m: None).run()


def test_ctrl_c_leaves_no_half_bundle_and_stops_the_server(tmp_path, monkeypatch):
    started = []

    def interrupted(self, conn, **kw):
        started.append(conn)
        raise KeyboardInterrupt

    monkeypatch.setattr(Capture, "run_one", interrupted)
    out = tmp_path / "data" / "stopped"
    capture = Capture(tiny(out), log=lambda m: None)
    with pytest.raises(KeyboardInterrupt):
        capture.run()
    assert list((tmp_path / "data").iterdir()) == []
    assert started and not Path(started[0].socket).exists()  # the server's folder is gone with it


def test_existing_destination_is_refused(tmp_path):
    (tmp_path / "taken").mkdir()
    with pytest.raises(CaptureError, match="exists already"):
        Capture(tiny(tmp_path / "taken"), log=lambda m: None).run()


def test_connection_arguments():
    assert Connection(host="db", port=3307).sysbench_args() == [
        "--db-driver=mysql", "--mysql-user=root", "--mysql-host=db", "--mysql-port=3307"]
