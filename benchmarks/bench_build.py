"""Build time and memory at community scale. Prints figures; asserts nothing.

Makes N bundles in a temporary copy of the project by copying the project's own bundles under new ids
(a fifth of them copies of those that carry sysbench logs, the rest of the transcribed ones), builds the site from them phase by
phase (validate and derive, load, export, Hugo with the embeds drawn in Node beside it, search index) with an empty cache, and prints each
phase's wall time and, in brackets, the peak resident memory of the whole process tree during the phase (this
process and every process under it, summed; sampled ten times a second) and the peak so far of this process and
of its largest child (Node, Hugo), in GiB, and the CPU time it took (this process and the processes
under it: cpu_seconds), with the growth from the smallest N to the largest. Then it changes one bundle and builds again with
the cache of the first build (the incremental build a pull request's preview makes), and then another, which
recycles the generation the first build made (the spare: ingest/plumbing/recycle.py), as a contributor's builds after
the first do. Before the builds and after them it prints the CPU time of a fixed piece of Python
(machine_speed), as this machine's speed drifts within a day.

    .venv/bin/python benchmarks/bench_build.py [--sizes 100,1000] [--huge]   (--huge adds 10,000)

On a disk of ext4 without a journal (this machine's), start it six minutes after any large removal,
another run's included: until then every file and folder made steps over the inodes freed in them
(benchmarks/HISTORY.md, "what this machine's disk adds").
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy's

from conftest import FIRST_SIX, copy_project  # noqa: E402
from ingest.plumbing import children  # noqa: E402
from ingest.build import exporter as exporter_module  # noqa: E402
from ingest.build.site import Layout, export, export_rest, load, render_site  # noqa: E402
from ingest.build.exporter import Exporter  # noqa: E402
from ingest.build.generation import keep_spare, new_generation, remove_stale, switch_to  # noqa: E402
from ingest.plumbing.memory import fewer_collections  # noqa: E402
from ingest.database.stage import stage_bundles  # noqa: E402


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds() -> float:
    """CPU time so far (user and system) of this process and of the processes it has waited for (and
    theirs): Node, Hugo and Pagefind once they have ended; and of the processes under it still running
    and of those they have waited for: the server the worker processes are forked from
    (ingest/plumbing/children.py), which runs until this process ends, its ended workers, and a worker still
    running (the load's and export's of a large build). A phase's is the difference."""
    t = os.times()
    ticks = sum(sum(int(v) for v in fields[11:15]) for _, fields in _descendants())  # utime, stime, cutime, cstime
    return t.user + t.system + t.children_user + t.children_system + ticks / TICK


def _descendants() -> list[tuple[int, list[bytes]]]:
    """Each process under this one: its id and the fields of its /proc/<pid>/stat after its name."""
    children: dict[int, list[tuple[int, list[bytes]]]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            children.setdefault(int(fields[1]), []).append((int(entry.name), fields))
    found, todo = [], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child[0])
    return found


def _peaks() -> tuple[float, float]:
    """Peak resident memory so far, in GiB: this process, and its largest finished child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    return own, child


class TreeMemory:
    """Samples, every ``every`` seconds on a thread of its own, the resident memory of this process and of
    all its descendants added together (shared pages count once per process: an upper bound); peak()
    gives the highest sum since the last call, in GiB."""

    PAGE = os.sysconf("SC_PAGE_SIZE")

    def __init__(self, every: float = 0.1) -> None:
        self._highest = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._run, args=(every,), daemon=True).start()

    @staticmethod
    def _resident() -> int:
        total = 0
        for pid in [os.getpid(), *(pid for pid, _ in _descendants())]:
            try:
                with open(f"/proc/{pid}/statm", "rb") as f:
                    total += int(f.read().split()[1]) * TreeMemory.PAGE
            except OSError:
                pass
        return total

    def _run(self, every: float) -> None:
        while True:
            now = self._resident()
            with self._lock:
                self._highest = max(self._highest, now)
            time.sleep(every)

    def peak(self) -> float:
        with self._lock:
            highest, self._highest = max(self._highest, self._resident()), 0
        return highest / 2**30


_TREE: list[TreeMemory] = []  # started by the first build, not on import (bench_embeds imports make_bundles)


def tree_memory() -> TreeMemory:
    if not _TREE:
        _TREE.append(TreeMemory())
    return _TREE[0]


def make_bundles(layout: Layout, n: int) -> None:
    """Replace data/ with n bundles, copies of the project's own under new ids: every fifth one of those
    that carry logs or cite them (in turn), the others of those that do not (in turn), so that a fifth
    carry sysbench logs however many bundles of each kind data/ holds."""
    originals = sorted(p for p in layout.data.iterdir() if (p / "bundle.yaml").is_file())
    with_logs = [p for p in originals if (p / "artifacts").is_dir() or (p / "cited").is_dir()]
    without = [p for p in originals if p not in with_logs]
    staging = layout.root / "originals"
    shutil.move(layout.data, staging)
    layout.data.mkdir()
    for i in range(n):
        fifth, rest = divmod(i, 5)
        chosen = with_logs[fifth % len(with_logs)] if rest == 4 else without[(4 * fifth + rest) % len(without)]
        source = staging / chosen.name
        new_id = f"{source.name}-{i:05d}"
        target = layout.data / new_id
        shutil.copytree(source, target)
        text = (target / "bundle.yaml").read_text(encoding="utf-8")
        (target / "bundle.yaml").write_text(re.sub(r"(?m)^id: .*$", f"id: {new_id}", text, count=1),
                                            encoding="utf-8")
    shutil.rmtree(staging)


def change_one(layout: Layout, *, which: int = 0) -> None:
    """Change the title of one measured bundle (the ``which``-th; its sysbench logs are parsed again)."""
    bundle = sorted(layout.data.glob("measured-*/bundle.yaml"))[which]
    text = bundle.read_text(encoding="utf-8")
    bundle.write_text(text.replace("title: '", "title: 'Changed: ", 1), encoding="utf-8")


@fewer_collections()
def build_in_phases(layout: Layout) -> list[tuple[str, float, float, float, float, float]]:
    """The build as `benchdb build` makes it (into a generation folder of its own, then published in
    place of the last one, with Python's collector as build_site sets it), phase by phase: each phase's
    name, seconds, the whole process tree's peak during it, the peak memory so far of this process and
    of its largest child, in GiB, and its CPU seconds (``cpu_seconds``)."""
    generation = new_generation(layout.build, recycle=True)
    phases = []
    tree_memory().peak()
    cpu = [cpu_seconds()]

    def done(name: str, seconds: float) -> None:
        now = cpu_seconds()
        phases.append((name, seconds, tree_memory().peak(), *_peaks(), now - cpu[0]))
        cpu[0] = now

    t = time.perf_counter()
    staged, problems, counts = stage_bundles([layout.data], cache=layout.cache)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise SystemExit(f"{len(errors)} errors, first: {errors[0]}")
    done(f"validate and derive ({counts.made} bundles; {counts.cached} cached)", time.perf_counter() - t)
    with Exporter(bundles=len(staged)) as exporter:
        where = "in a process of its own" if exporter.apart else "in the build's process"
        t = time.perf_counter()
        load(layout, generation, staged, exporter=exporter)
        done("load (and the export's cached studies linked)", time.perf_counter() - t)
        t = time.perf_counter()
        exported = export(layout, generation, staged, exporter=exporter)
    export_rest(layout, generation)  # as prepare() does: /sql/ runs on the benchmark's site
    done(f"export ({exported.made} studies; {exported.cached} cached; {where})", time.perf_counter() - t)
    # embeds (first, or beside Hugo); hugo, static links and the search index (its part of the time after
    # it): one phase for memory
    # (the CPU time of the embeds, Hugo and the search index together, on the second)
    steps = list(render_site(layout, generation).items())
    phases.append((steps[0][0], steps[0][1], None, None, None, None))
    done(*steps[1])
    phases += [(name, seconds, None, None, None, None) for name, seconds in steps[2:]]
    t = time.perf_counter()
    keep_spare(switch_to(generation))  # the generation it replaced, recycled by the next build
    remove_stale(layout.build, wait=False)  # any other, removed by a process of its own
    done("publish", time.perf_counter() - t)
    return phases


def _line(phases) -> str:
    return "; ".join(f"{name} {seconds:.1f} s" + (f" [tree {tree:.2f}; {own:.2f}/{child:.2f} GiB; CPU {cpu:.1f} s"
                                                  + (" with the embeds'" if "search index" in name else "") + "]"
                                                  if tree else "")
                     for name, seconds, tree, own, child, cpu in phases)


def _cpu(phases, seconds: float) -> str:
    used = sum(phase[5] or 0 for phase in phases)
    return f"CPU {used:.1f} s ({used / seconds:.2f} of {children.cores()} cores on average)"


def machine_speed() -> str:
    """The CPU time of two fixed pieces of work, three times each: this machine's speed drifts by up to a
    third within a day (benchmarks/HISTORY.md, "the targets measured again"), and a build's figures are
    comparable only with it. A loop of pure Python that stays in the processor's caches, and reads all
    over 64 MiB, far past them (machine_probe.py, in a process of its own), each showed some of the slow
    stretches the builds saw and missed others (benchmarks/HISTORY.md, "Python's collector run less
    often" and "the targets measured again from a fresh clone"): the build's CPU time, set against other
    runs of the same code, is the surer sign."""
    loops = []
    for _ in range(3):
        start = time.process_time()
        sum(range(10**8))
        loops.append(time.process_time() - start)
    reads = subprocess.run([sys.executable, str(Path(__file__).with_name("machine_probe.py"))], capture_output=True,
                           text=True, check=True)
    return ("sum(range(10**8)) took " + ", ".join(f"{s:.2f}" for s in loops) + " s of CPU; 32 million reads "
            "all over 64 MiB " + reads.stdout.strip() + " s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000", help="bundle counts, comma-separated")
    parser.add_argument("--huge", action="store_true", help="add 10,000 bundles to the sizes")
    parser.add_argument("--templates", choices=["catalogue", "first-six"], default="catalogue",
                        help="the studies the bundles are copies of: the whole catalogue of data/, or the six "
                             "the benchmark used before the catalogue grew (tests/conftest.py: FIRST_SIX), to "
                             "tell a change of the code from a change of the data")
    parser.add_argument("--export-apart-from", type=int, default=exporter_module.APART_FROM,
                        help="bundles from which the export runs in a process of its own (exporter.APART_FROM)")
    args = parser.parse_args()
    exporter_module.APART_FROM = args.export_apart_from
    sizes = [int(s) for s in args.sizes.split(",")] + ([10_000] if args.huge else [])
    totals = {}
    print(f"machine, before the builds: {machine_speed()}", flush=True)
    # every size's project removed at the end, not before the next size's builds (the docstring says why)
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        for n in sizes:
            layout = copy_project(Path(tmp) / f"project-{n}",
                                  studies=None if args.templates == "catalogue" else FIRST_SIX)
            make_bundles(layout, n)
            start = time.perf_counter()
            phases = build_in_phases(layout)
            totals[n] = time.perf_counter() - start
            own, child = _peaks()
            tree = max(phase[2] or 0 for phase in phases)
            print(f"{n:6d} bundles: {totals[n]:7.1f} s in all; " + _line(phases) +
                  f"; peak memory: whole process tree {tree:.2f} GiB, this process {own:.2f} GiB,"
                  f" largest child {child:.2f} GiB; " + _cpu(phases, totals[n]), flush=True)
            change_one(layout)
            start = time.perf_counter()
            phases = build_in_phases(layout)
            took = time.perf_counter() - start
            print(f"{n:6d} bundles, one changed: {took:7.1f} s in all; " + _line(phases) + "; " + _cpu(phases, took),
                  flush=True)
            change_one(layout, which=1)
            start = time.perf_counter()
            phases = build_in_phases(layout)
            took = time.perf_counter() - start
            print(f"{n:6d} bundles, another changed (the spare generation recycled): {took:7.1f} s in all; "
                  + _line(phases) + "; " + _cpu(phases, took), flush=True)
    print(f"machine, after the builds: {machine_speed()}", flush=True)
    if len(sizes) > 1:
        low, high = min(sizes), max(sizes)
        print(f"growth from {low} to {high} bundles: {totals[high] / totals[low]:.1f}x for {high / low:.0f}x the bundles")


if __name__ == "__main__":
    main()
