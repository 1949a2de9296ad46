"""Children of a build die with it (ingest/children.py): a build killed with SIGKILL leaves no Node or
Hugo running, and a failed step stops its worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest import children

ROOT = Path(__file__).resolve().parents[1]

PARENT = """
import sys
sys.path.insert(0, {root!r})
from ingest import children
children.run(["sleep", "60"])
"""


POOL_PARENT = """
import os, sys, time
sys.path.insert(0, {root!r})
from ingest import children
if __name__ == "__main__":
    with children.workers(2) as pool:
        pids = [pool.submit(os.getpid).result() for _ in range(4)]
        pool.submit(time.sleep, 60)
        print(" ".join(map(str, set(pids))), flush=True)
        time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has died and waits for its parent to collect it


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_child_dies_when_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT.format(root=str(ROOT))])
    try:
        deadline = time.monotonic() + 10
        child = None
        while child is None and time.monotonic() < deadline:
            found = Path(f"/proc/{parent.pid}/task/{parent.pid}/children").read_text().split()
            child = int(found[0]) if found else None
            time.sleep(0.05)
        assert child is not None and _alive(child)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child)
    finally:
        parent.kill()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_worker_processes_die_when_their_build_is_killed(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(POOL_PARENT.format(root=str(ROOT)))
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers)
    finally:
        parent.kill()


def test_a_failed_step_stops_its_worker_processes():
    with pytest.raises(RuntimeError):
        with children.workers(2) as pool:
            pid = pool.submit(os.getpid).result()
            assert pid != os.getpid()
            pool.submit(time.sleep, 600)
            raise RuntimeError("a batch failed")
    assert not _alive(pid)
