"""Children of a build die with it (ingest/plumbing/children.py): a build killed with SIGKILL leaves no Node or
Hugo running, and a failed step stops its worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.plumbing import children

ROOT = Path(__file__).resolve().parents[1]

PARENT = """
import sys
sys.path.insert(0, {root!r})
from ingest.plumbing import children
children.run(["sleep", "60"])
"""


# A build's pool of workers (validation, the export), and a pool of a worker's own (the export's, on the
# worker that loads and exports for a large build: exporter.py): the process that made the innermost
# pool writes its own id and those of the pool's two workers to the file named first, then all wait.
POOL_PARENT = """
import os, sys, time
sys.path.insert(0, {root!r})
from ingest.plumbing import children

def pid_after(seconds):
    time.sleep(seconds)
    return os.getpid()

def workers(out, depth):
    with children.workers(2 if depth == 1 else 1) as pool:
        if depth > 1:
            pool.submit(workers, out, depth - 1)
        else:
            pids = {{f.result() for f in [pool.submit(pid_after, 0.3) for _ in range(2)]}}  # (both workers)
            pool.submit(time.sleep, 60)
            with open(out + ".tmp", "w") as f:
                f.write(" ".join(map(str, pids | {{os.getpid()}})))
            os.rename(out + ".tmp", out)
        time.sleep(60)

if __name__ == "__main__":
    workers(sys.argv[1], int(sys.argv[2]))
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
@pytest.mark.parametrize("depth", [1, 2], ids=["a pool", "a pool of a worker's"])
def test_worker_processes_die_when_their_build_is_killed(tmp_path, depth):
    script, out = tmp_path / "parent.py", tmp_path / "pids"
    script.write_text(POOL_PARENT.format(root=str(ROOT)))
    parent = subprocess.Popen([sys.executable, str(script), str(out), str(depth)])
    try:
        deadline = time.monotonic() + 30
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = [int(pid) for pid in out.read_text().split()]
        assert len(workers) == 3 and all(_alive(pid) for pid in workers)
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


def test_a_worker_starts_without_the_parent_death_signal_where_there_is_none(monkeypatch):
    """Elsewhere than on Linux there is no prctl: a worker's start does without it (the pools' initializer)."""
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(children.ctypes, "CDLL", lambda *a, **k: pytest.fail("prctl called off Linux"))
    # a server of its own (none started): this process's, if it has one, keeps its pipe
    monkeypatch.setattr(children.forkserver, "_forkserver", children.forkserver.ForkServer())
    monkeypatch.setattr(children, "collect_less", lambda: None)  # (this process's collector left as it is)
    children._worker_starts()
