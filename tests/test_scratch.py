"""A command's scratch folder (ingest/plumbing/scratch.py): benchdb compare's was left behind when the
command was killed (issue #61's fifth pass, a low finding)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from conftest import ROOT
from ingest.plumbing.scratch import scratch_folder

HOLD = ("import sys, time\nfrom ingest.plumbing.scratch import scratch_folder\n"
        "with scratch_folder('benchdb-test-') as f:\n    (f / 'half.duckdb').write_text('x')\n"
        "    print(f, flush=True)\n    time.sleep(60)\n")


def test_a_folder_is_removed_when_its_command_is_terminated(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", HOLD], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "TMPDIR": str(tmp_path)})
    folder = child.stdout.readline().strip()
    assert folder.startswith(f"{tmp_path}/benchdb-test-{child.pid}-") and os.path.isdir(folder)
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=30) == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []


def test_a_folder_a_killed_command_left_is_removed_by_the_next(tmp_path, monkeypatch):
    child = subprocess.Popen([sys.executable, "-c", HOLD], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "TMPDIR": str(tmp_path)})
    left = child.stdout.readline().strip()
    child.kill()  # SIGKILL: nothing runs
    child.wait(timeout=30)
    assert os.path.isdir(left)
    alive = tmp_path / f"benchdb-test-{os.getpid()}-x"  # a folder of a process that runs: kept
    alive.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    with scratch_folder("benchdb-test-") as mine:
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, mine.name])
    assert [p.name for p in tmp_path.iterdir()] == [alive.name]
