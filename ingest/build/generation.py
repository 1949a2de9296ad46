"""A build's outputs as one generation, switched into place with one rename.

A build writes the database, the exported data and the site into a folder of its own,
``build/gen-<time>-<pid>/`` (``benchmarks.duckdb``, ``export/``, ``public/``). Only when all three are
complete does it point the symbolic link ``build/current`` at that folder, by renaming a new link over
the old one (rename(2) is atomic). The paths everyone uses are fixed links into ``current``:

    build/benchmarks.duckdb -> current/benchmarks.duckdb
    build/export            -> current/export
    public                  -> build/current/public

so the database, the downloads and the site change together, and there is no moment without a
``public/``. A build that fails or is killed leaves its generation folder unlinked; the next build
removes every generation that ``current`` does not name, but for the spare.

The spare, ``build/spare``, is the generation the last build replaced (keep_spare). The next build
takes it as its own folder (new_generation: one rename, then it is a generation like any other,
removed if the build fails) and brings its export and site up to date in place (recycle.py): after one
change at 1,000 bundles, nearly all of their 70,000 files are the spare's already. The first build
after a clean one has no spare and links every file into new folders.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import script_cache
from ..plumbing.recycle import NO_SPARE, Tree

CURRENT = "current"
PREFIX = "gen-"
SPARE = "spare"  # under build/: the generation the last build replaced (keep_spare), kept for the next
RECYCLED = ("export", "public")  # what of the spare a build recycles; the rest is made again
# each fixed link, from the project folder, and its target (relative to the link's folder)
LINKS = {
    Path("build") / "benchmarks.duckdb": f"{CURRENT}/benchmarks.duckdb",
    Path("build") / "export": f"{CURRENT}/export",
    Path("public"): f"build/{CURRENT}/public",
}
EXPORT_MOUNT = "../build/export/"  # how site/hugo.toml mounts the exported data


@dataclass(frozen=True)
class Generation:
    folder: Path

    @property
    def database(self) -> Path:
        return self.folder / "benchmarks.duckdb"

    @property
    def export(self) -> Path:
        return self.folder / "export"

    @property
    def public(self) -> Path:
        return self.folder / "public"


def new_generation(build: Path, *, recycle: bool = False) -> Generation:
    """A folder for a build's outputs. With ``recycle``, the spare (keep_spare) when there is one: its
    export and site are brought up to date in place (recycle.py), the rest of it removed."""
    build.mkdir(parents=True, exist_ok=True)
    folder = build / f"{PREFIX}{time.time_ns()}-{os.getpid()}"
    spare = build / SPARE
    if recycle and spare.is_dir():
        os.replace(spare, folder)  # from here on a generation like any other: removed if the build fails
        for path in folder.iterdir():
            if path.name in RECYCLED:
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        return Generation(folder)
    folder.mkdir()
    return Generation(folder)


def _mounts(site: Path, *, export: Path | None, extra: list[tuple[str, str]], data: Path | None = None) -> list[str]:
    """site/hugo.toml's module mounts as TOML lines (each with the files it takes, where it says: the
    docs mount's Markdown only), the exported data read from ``export`` (and its static files left out)
    when given, its data folder from ``data`` when given, with ``extra`` (source, target) mounts after
    them."""
    config = tomllib.loads((site / "hugo.toml").read_text(encoding="utf-8"))
    mounts = []
    for mount in config["module"]["mounts"]:
        source = mount["source"]
        if export is not None and source == EXPORT_MOUNT + "static":
            continue
        if data is not None and source == EXPORT_MOUNT + "data":
            source = str(data)
        elif export is not None and source.startswith(EXPORT_MOUNT):
            source = str(export / source.removeprefix(EXPORT_MOUNT))
        mounts.append((source, mount["target"], mount.get("files")))
    lines = ["[module]"]
    for source, target, files in mounts + [(source, target, None) for source, target in extra]:
        lines += ["  [[module.mounts]]", f"    source = {json.dumps(source)}", f"    target = {json.dumps(target)}"]
        lines += [f"    files = {json.dumps(files)}"] if files else []
    return lines


def hugo_config(site: Path, generation: Generation, *, data: Path | None = None, name: str = "hugo-mounts.toml",
                lines: list[str] | None = None, scripts: Path | None = None) -> Path:
    """A config file that Hugo reads after site/hugo.toml (``--config a,b``: the later file's module
    mounts replace the earlier's): the same mounts, with the exported data read from ``generation``
    (its data folder from ``data`` when given: a shard's, shards.py), but for the exported static files,
    which the build links into the site itself (link_static): Hugo copied them one by one, 6 to 8 s of
    its 10 to 12 at 1,000 bundles (22,000 files). ``lines``: config lines after the mounts (a segment to
    render, params). ``scripts``: the bundled scripts to mount (script_cache.py), if the cache has them."""
    path = generation.folder / name
    extra = [(str(scripts), script_cache.MOUNT)] if scripts else []
    text = _mounts(site, export=generation.export, extra=extra, data=data) + (lines or [])
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def serve_config(site: Path, *, build: Path) -> Path:
    """The config file of `benchdb build --serve` (read after site/hugo.toml): site/hugo.toml's mounts
    and the published search index (Pagefind writes it beside the pages Hugo rendered, so the live
    server would otherwise have none)."""
    path = build / "hugo-serve.toml"
    index = str((build / "current" / "public" / "pagefind").resolve())
    path.write_text("\n".join(_mounts(site, export=None, extra=[(index, "static/pagefind")])) + "\n",
                    encoding="utf-8")
    return path


def link_static(generation: Generation, *, tree: Tree = NO_SPARE) -> int:
    """Link every file of the export's static folder into the site, where Hugo would have copied it;
    a file the site has already (a page where a download would go) is an error. ``tree``: the site's
    folder as recycle.py places files into it. Returns how many. (Paths are strings: 21,600 files at
    1,000 bundles.)"""
    source, public = os.fspath(generation.export / "static"), os.fspath(generation.public)
    count = 0
    for folder, _, names in os.walk(source):
        target = public + folder[len(source):]
        tree.folder(target)
        for name in names:
            if not tree.keep(f"{folder}/{name}", f"{target}/{name}"):
                os.link(f"{folder}/{name}", f"{target}/{name}")
        count += len(names)
    return count


def _link(path: Path, target: str) -> None:
    """Make ``path`` a link to ``target``, replacing what is there in one rename where it can: a
    folder left by a build before generations existed is moved aside first (once)."""
    if path.is_symlink() and os.readlink(path) == target:
        return
    tmp = path.with_name(f".{path.name}.link-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    os.symlink(target, tmp)
    if path.is_dir() and not path.is_symlink():
        aside = path.with_name(f".{path.name}.old-{os.getpid()}")
        os.replace(path, aside)
        os.replace(tmp, path)
        shutil.rmtree(aside, ignore_errors=True)
    else:
        os.replace(tmp, path)


def switch_to(generation: Generation) -> Path | None:
    """Publish ``generation``: the one rename that moves database, export and site together. Returns
    the generation it replaced, if any."""
    current = generation.folder.parent / CURRENT
    before = os.readlink(current) if current.is_symlink() else None
    _link(current, generation.folder.name)
    return generation.folder.parent / before if before and before != generation.folder.name else None


def keep_spare(replaced: Path | None) -> None:
    """Keep the generation a build replaced (``replaced``, switch_to's) as the spare, which the next
    build recycles (new_generation) instead of removing it; a spare no build took goes to the trash."""
    if replaced is None or not replaced.is_dir():
        return
    spare = replaced.parent / SPARE
    if spare.exists():
        (replaced.parent / TRASH).mkdir(exist_ok=True)
        os.replace(spare, replaced.parent / TRASH / f"{SPARE}-{time.time_ns()}")
    os.replace(replaced, spare)


def fixed_links(root: Path) -> None:
    """Make the fixed links into ``current`` (once: a project built before generations has folders there)."""
    for path, target in LINKS.items():
        _link(root / path, target)


TRASH = "trash"  # under build/: generations moved out of the way, being removed
# removes the folders it is given, in a process of its own (the build does not wait for the disk)
REMOVER = "import shutil, sys\nfor path in sys.argv[1:]:\n    shutil.rmtree(path, ignore_errors=True)"


def remove_stale(build: Path, *, wait: bool = True) -> list[Path]:
    """Remove every generation folder that ``current`` does not name (builds that failed or died,
    and the one the last build replaced), and what earlier builds left in the trash; returns them.
    Without ``wait``, they are moved into the trash (one rename each) and removed by a process of
    their own, which the build does not wait for: at 1,000 bundles a generation is 60,000 files, 3 to
    4.5 s to remove. What it has not removed when the next build starts, that build removes."""
    current = build / CURRENT
    keep = os.readlink(current) if current.is_symlink() else None
    stale = [p for p in build.glob(f"{PREFIX}*") if p.name != keep]
    trash = build / TRASH
    if not wait and stale:
        trash.mkdir(parents=True, exist_ok=True)
        for folder in stale:
            os.replace(folder, trash / folder.name)
        subprocess.Popen([sys.executable, "-c", REMOVER, *(str(trash / f.name) for f in stale)], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return stale
    for folder in [*stale, *(trash.iterdir() if trash.is_dir() else ())]:
        shutil.rmtree(folder, ignore_errors=True)
    return stale
