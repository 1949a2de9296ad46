"""The server's settings as they were in effect, from a folder's my.cnf (groups, !include, units), its
scripts' command lines and its variables dumps (issue #51: "settings read wrong or lost"). The files
are made here in the shapes the issue names; each expected value is read off the file above it."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from conftest import FIXTURES
from ingest.contribute.importer import import_folder
from ingest.contribute.server_settings import in_effect, read_cnf, read_commands, read_variables, size_bytes

CNF = """\
# the server's groups, then mysqld_multi's
[client]
port = 3306
[mysqld]
innodb_buffer_pool_size = 200G
innodb_flush_method=fsync
loose-innodb-doublewrite = 0
sync_binlog = 1
innodb_log_file_size = 512M
!include conf.d/extra.cnf
!include /etc/mysql/secret.cnf
[mysqld3]
innodb_flush_log_at_trx_commit = 2
"""
EXTRA = "[mariadb]\ninnodb_io_capacity = 2000\n"
SCRIPT = """\
#!/bin/sh
BP=$1
# mysqld --innodb_buffer_pool_size=1G   (a comment: not a command)
numactl --interleave=all mysqld --defaults-file=my.cnf --innodb_buffer_pool_size=${BP}G \\
  --innodb_flush_method=O_DIRECT &
"""


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    (folder / "conf.d").mkdir(parents=True)
    (folder / "my.cnf").write_text(CNF)
    (folder / "conf.d" / "extra.cnf").write_text(EXTRA)
    (folder / "run.sh").write_text(SCRIPT)
    return folder


def test_sizes_are_read_as_the_server_reads_them():
    assert [size_bytes(t) for t in ("512M", "200G", "16k", "134217728", "1.5G", "O_DIRECT")] == [
        536870912, 214748364800, 16384, 134217728, None, None]


def test_a_my_cnf_gives_its_server_groups_and_what_it_includes(tmp_path):
    folder = _folder(tmp_path)
    read = read_cnf(folder / "my.cnf", root=folder, text=CNF)
    got = {name: (s.value, s.file, s.line, s.group) for name, s in read.settings.items()}
    assert got == {
        "innodb_buffer_pool_size": ("200G", "my.cnf", 5, "mysqld"),
        "innodb_flush_method": ("fsync", "my.cnf", 6, "mysqld"),
        "innodb_doublewrite": ("0", "my.cnf", 7, "mysqld"),  # loose- dropped, dashes as underscores
        "sync_binlog": ("1", "my.cnf", 8, "mysqld"),
        "innodb_log_file_size": ("512M", "my.cnf", 9, "mysqld"),
        "innodb_io_capacity": ("2000", "conf.d/extra.cnf", 2, "mariadb"),
        "innodb_flush_log_at_trx_commit": ("2", "my.cnf", 13, "mysqld3"),  # the file's one instance
    }
    assert read.files == ["my.cnf", "conf.d/extra.cnf"]
    assert read.notes == ["my.cnf line 11: !include /etc/mysql/secret.cnf is not in the folder: not read",
                          "[mysqld3] (mysqld_multi's one instance in the file) is applied over the server's groups"]


def test_several_instances_apply_none(tmp_path):
    text = "[mysqld]\ninnodb_page_size = 16k\n[mysqld1]\nsync_binlog = 0\n[mysqld2]\nsync_binlog = 1\n"
    read = read_cnf(tmp_path / "my.cnf", root=tmp_path, text=text)
    assert {n: s.value for n, s in read.settings.items()} == {"innodb_page_size": "16k"}
    assert read.notes == ["[mysqld1], [mysqld2]: mysqld_multi's instances; none is applied, as which one ran is "
                          "not in the folder"]


def test_a_script_s_command_line_beats_the_option_files_and_hides_a_shell_variable(tmp_path):
    folder = _folder(tmp_path)
    commands = read_commands(SCRIPT, rel="run.sh")
    assert {n: (s.value, s.line, s.hidden) for n, s in commands.settings.items()} == {
        "innodb_buffer_pool_size": ("${BP}G", 4, True)}  # the continued line is not read as a command
    cnf = read_cnf(folder / "my.cnf", root=folder, text=CNF)
    variables = read_variables("Variable_name\tValue\ninnodb_flush_method\tO_DSYNC\ninnodb_page_size\t16384\n",
                               rel="vars.txt")
    merged, _ = in_effect([("variables", variables), ("command line", commands), ("my.cnf", cnf)])
    assert (merged["innodb_buffer_pool_size"].group, merged["innodb_flush_method"].value) == ("command line", "O_DSYNC")


def test_an_import_keeps_every_setting_as_it_was_in_effect(tmp_path):
    folder = _folder(tmp_path)
    shutil.copy(FIXTURES / "sysbench" / "handmade-1.0.17-oltp-ro-rhel-prompt.log", folder / "run.log")
    found, problems = import_folder(folder, out=tmp_path / "data" / "x", answers={})
    doc = yaml.safe_load((tmp_path / "data" / "x" / "bundle.yaml").read_text(encoding="utf-8"))
    database = doc["systems"][0]["database"]
    assert database["buffer_pool_mib"] == "TO BE STATED"  # ${BP}G on the command line beats my.cnf's 200G
    assert database["doublewrite"] is False
    assert database["settings"] == {"innodb_flush_method": "fsync", "innodb_flush_log_at_trx_commit": "2",
                                    "innodb_log_file_size": "512M", "innodb_io_capacity": "2000",
                                    "sync_binlog": "1", "innodb_doublewrite": "0",
                                    "innodb_buffer_pool_size": "TO BE STATED"}
    notes = doc["systems"][0]["notes"]
    assert ("innodb_buffer_pool_size is given by a shell variable on the server's command line "
            "(artifacts/run.sh line 4: ${BP}G): to be stated") in notes
    assert "innodb_log_file_size = 512M ([mysqld] of artifacts/my.cnf line 9, 536,870,912 bytes)" in notes
    assert "innodb_io_capacity = 2000 ([mariadb] of artifacts/conf.d-extra.cnf line 2)" in notes
    assert sorted(p.name for p in (tmp_path / "data" / "x" / "artifacts").iterdir()) == [
        "conf.d-extra.cnf", "my.cnf", "run.log", "run.sh"]
    assert ("systems[system].database.settings.innodb_buffer_pool_size", "to-be-stated") in {
        (p.field, p.type) for p in problems}


def test_an_include_that_is_no_regular_file_is_named_and_not_read(tmp_path):
    """A FIFO opened to read waits for a writer for ever: an !include of one is named, never opened."""
    import os

    os.mkfifo(tmp_path / "pipe.cnf")
    (tmp_path / "conf.d").mkdir()
    os.mkfifo(tmp_path / "conf.d" / "also.cnf")
    text = "[mysqld]\nsync_binlog = 1\n!include pipe.cnf\n!includedir conf.d\n"
    read = read_cnf(tmp_path / "my.cnf", root=tmp_path, text=text)
    assert {n: s.value for n, s in read.settings.items()} == {"sync_binlog": "1"}
    assert read.notes == [
        "my.cnf line 3: pipe.cnf is not a regular file of at most 16,777,216 bytes: not read",
        "my.cnf line 4: conf.d/also.cnf is not a regular file of at most 16,777,216 bytes: not read"]
