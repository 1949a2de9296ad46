"""Builds that cannot be half done: killed at any phase, out of disk space, or two at once, a build
leaves the previous site, database and downloads whole and together, and the next build cleans up."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path

import duckdb
import pytest

from conftest import ROOT, copy_project
from ingest.build.site import Layout, build_site
from ingest.build.generation import SPARE, TRASH, new_generation, remove_stale, switch_to

STUDY = "graid-supremeraid-mysql-2023"
CHANGED = "Changed on purpose"

# A build in a process of its own that kills itself (SIGKILL: no cleanup of any kind runs) at one
# phase, by wrapping the function that starts that phase. Hugo and Node are started in a thread, and
# the process is killed while they run.
DRIVER = textwrap.dedent("""
    import os, signal, sys, threading, time
    from pathlib import Path
    from ingest.build import site as build
    from ingest.build import embed_render
    from ingest.build import exporter
    from ingest.build import generation
    from ingest.database import stage
    from ingest.build.site import Layout, build_site

    def die():
        mine = [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(p) == os.getpid()]
        print("children:", *mine, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

    def _parent(proc):
        try:
            return int((proc / "stat").read_bytes().rsplit(b")", 1)[1].split()[1])
        except OSError:
            return None

    def after(module, name):
        original = getattr(module, name)
        def wrapped(*args, **kwargs):
            original(*args, **kwargs)
            die()
        setattr(module, name, wrapped)

    def before(module, name):
        setattr(module, name, lambda *args, **kwargs: die())

    def during(module, name, seconds):
        original = getattr(module, name)
        def wrapped(*args, **kwargs):
            threading.Thread(target=original, args=args, kwargs=kwargs, daemon=True).start()
            time.sleep(seconds)
            die()
        setattr(module, name, wrapped)

    phase = sys.argv[2]
    if phase == "load":
        after(stage, "insert_rows")  # the rows of the bundles are being staged
    elif phase == "export":
        after(exporter, "export_all")
    elif phase == "export apart":  # the export in a process of its own (killed with the build)
        exporter.APART_FROM = 1
        during(build, "export", 1.0)
    elif phase == "embeds":
        during(embed_render.children, "run", 0.5)
    elif phase == "hugo":
        during(build, "run_hugo", 1.0)
    elif phase == "switch":
        before(build, "switch_to")
    elif phase == "links":
        before(build, "fixed_links")  # build/current names the new generation already
    build_site(Layout(Path(sys.argv[1])))
""")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Layout:
    """A project built twice (the previous site every test starts from), so that it has a spare
    generation, which the build the tests kill recycles (recycle.py)."""
    layout = copy_project(tmp_path_factory.mktemp("built"))
    build_site(layout)
    build_site(layout)
    assert (layout.build / SPARE).is_dir()
    return layout


@pytest.fixture
def project(built, tmp_path) -> Layout:
    """A copy of the built project (links kept as links), with one study's title changed."""
    for name in ("site", "content", "docs", "data", "build", "public", "node_modules"):
        source = built.root / name
        if source.is_symlink() or source.is_file():
            os.symlink(os.readlink(source), tmp_path / name)
        else:
            shutil.copytree(source, tmp_path / name, symlinks=True)
    layout = Layout(tmp_path)
    bundle = layout.data / STUDY / "bundle.yaml"
    text = bundle.read_text(encoding="utf-8")
    bundle.write_text(text.replace('\ntitle: "', f'\ntitle: "{CHANGED} ', 1), encoding="utf-8")
    return layout


def published_title(layout: Layout) -> tuple[bool, bool, bool]:
    """Whether the changed title is in the published database, the download and the site."""
    def in_db(path: Path) -> bool:
        con = duckdb.connect(str(path), read_only=True)
        try:
            title = con.execute("SELECT title FROM studies WHERE study = ?", [STUDY]).fetchone()[0]
        finally:
            con.close()
        return title.startswith(CHANGED)
    page = (layout.public / "studies" / STUDY / "index.html").read_text(encoding="utf-8")
    assert page.rstrip().endswith("</html>")  # whole
    return in_db(layout.database), in_db(layout.public / "data" / "benchmarks.duckdb"), CHANGED in page


def kill_at(layout: Layout, phase: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", DRIVER, str(layout.root), phase], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def alive(pid: str) -> bool:
    """Whether a process runs (a zombie, which the container may not reap, has ended)."""
    try:
        return (Path("/proc") / pid / "stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def children_of(layout: Layout) -> list[str]:
    """Command lines of live processes that name this project (a Hugo or Node left running)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if str(layout.root) in cmdline and "-c" not in cmdline.split()[:2]:
            found.append(cmdline)
    return found


@pytest.mark.parametrize("phase", ["load", "export", "export apart", "embeds", "hugo", "switch", "links"])
def test_a_build_killed_at_any_phase_leaves_the_outputs_whole_and_together(project, phase):
    done = kill_at(project, phase)
    assert done.returncode == -9, done.stderr[-2000:]
    # before the switch, everything is the previous build's; after it, everything is the new one's
    assert published_title(project) == ((True,) * 3 if phase == "links" else (False,) * 3)
    # the killed build's (the spare it took) and the current one, or, killed after the switch, the one it
    # replaced, the spare now
    assert len(list(project.build.glob("gen-*"))) == (1 if phase == "links" else 2)
    assert (project.build / SPARE).is_dir() == (phase == "links")
    deadline = time.monotonic() + 5
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("children:")]
    pids = line.split()[1:]
    if phase == "export apart":
        assert pids  # the exporter (and multiprocessing's resource tracker)
    while (children_of(project) or any(map(alive, pids))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children_of(project) == []  # Hugo and Node died with the build
    assert [pid for pid in pids if alive(pid)] == []  # and so did every other child
    build_site(project)
    assert published_title(project) == (True, True, True)
    assert [p.name for p in project.build.glob("gen-*")] == [os.readlink(project.build / "current")]
    assert [p.name for p in project.build.iterdir() if p.name.startswith(".") and p.name != ".lock"] == []


def test_two_builds_at_once_one_builds_the_other_stops_with_one_line(project):
    benchdb = Path(sys.executable).parent / "benchdb"
    runs = [subprocess.Popen([str(benchdb), "build"], cwd=project.root, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = sorted((r.wait(timeout=300), *r.communicate()) for r in runs)
    (ok, out, _), (failed, _, err) = results
    assert (ok, out.splitlines()[-1]) == (0, f"built {project.public}")
    assert failed == 1
    assert err.startswith(f"Error: another build is running in {project.root} (process ")
    assert err.endswith("): wait for it to finish\n") and err.count("\n") == 1
    assert published_title(project) == (True, True, True)


# The largest file the build may write, in the next test (the new database is larger).
FILE_LIMIT = 2 * 2**20
FULL_DISK = textwrap.dedent(f"""
    import resource, signal, subprocess, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, ({FILE_LIMIT}, {FILE_LIMIT}))
    sys.exit(subprocess.run([sys.argv[1], "build"]).returncode)
""")


def test_a_write_that_fails_stops_the_build_with_one_line_and_nothing_left(project):
    assert (project.database.stat().st_size > FILE_LIMIT)
    benchdb = Path(sys.executable).parent / "benchdb"
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(benchdb)], cwd=project.root, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 1
    last = done.stderr.splitlines()[-1]
    assert last.startswith("Error: the build stopped (") and last.endswith(
        "; nothing was published: the site, database and downloads are as they were"), done.stderr
    assert "Traceback" not in done.stderr
    assert published_title(project) == (False, False, False)
    assert [p.name for p in project.build.glob("gen-*")] == [os.readlink(project.build / "current")]
    assert [p for p in project.build.rglob("*") if p.name.endswith((".wal", ".tmp")) or ".tmp-" in p.name] == []


def test_a_project_built_before_generations_is_moved_to_them(project):
    """public/, build/export/ and build/benchmarks.duckdb as plain folders and files (older builds)."""
    for name in ("public", "build/export", "build/benchmarks.duckdb"):
        path = project.root / name
        target = path.resolve()
        path.unlink()
        (shutil.copytree if target.is_dir() else shutil.copyfile)(target, path)
    (project.build / "current").unlink()
    build_site(project)
    assert all((project.root / name).is_symlink() for name in ("public", "build/export", "build/benchmarks.duckdb"))
    assert published_title(project) == (True, True, True)
    assert [p.name for p in project.root.iterdir() if p.name.startswith(".")] == []


def test_netlify_publishes_a_real_folder_holding_the_site(built):
    """Netlify's deploy does not follow links: its publish path must end in a folder, the site's."""
    publish = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))["build"]["publish"]
    folder = built.root / publish
    assert stat.S_ISDIR(os.lstat(folder).st_mode)
    assert folder.resolve() == built.public.resolve() and (folder / "index.html").is_file()


def test_the_generation_a_build_replaced_is_moved_aside_at_once_and_removed_in_the_background(tmp_path: Path):
    build = tmp_path / "build"
    old, new = new_generation(build), new_generation(build)
    (old.folder / "public" / "deep").mkdir(parents=True)
    (old.folder / "public" / "deep" / "index.html").write_text("old", encoding="utf-8")
    switch_to(new)
    assert remove_stale(build, wait=False) == [old.folder]
    assert [p.name for p in build.glob("gen-*")] == [new.folder.name]
    deadline = time.monotonic() + 10
    while list((build / TRASH).iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list((build / TRASH).iterdir()) == []
