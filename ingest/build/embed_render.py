"""Draw the standalone SVG embed of every chart the exporter listed (embed_specs.py: its files).

The charts found in the embed cache (embed_cache.py) are linked into place (plan_embeds); the others
are drawn by site/render/embeds.mjs in Node, on a pool of worker threads (draw_embeds), and then kept in
the cache (keep_embeds).
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..plumbing import children
from ..publish import embed_specs
from ..plumbing.cache import PRUNE_EVERY, CacheCounts
from .embed_cache import EmbedCache, chart_key, drawing_digest
from ..plumbing.memory import hand_back_memory
from ..bundles.problems import BuildError

WIDTH = 760  # the width of a standalone embed, in CSS pixels (the SVG's)


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is needed to render the chart embeds: install Node.js 20 or later")
    return node


# A worker thread costs about 0.4 s of CPU to start (jsdom and Plot loaded) and a chart about 4 ms: a
# second worker shortens the run only past some 200 charts (after one bundle changed, one draws the few).
CHARTS_A_WORKER = 200


@dataclass
class EmbedPlan:
    """What render_embeds has left to draw once the cached charts are in place."""

    out_dir: Path
    script: Path
    cache: EmbedCache
    misses: list[tuple[str, str, bytes]]  # cache key, chart id, spec text
    total: int
    keys: frozenset[str] = frozenset()  # every chart's cache key (kept when the cache is pruned)

    @property
    def workers(self) -> int:
        """Node's worker threads for the charts to draw: one per core, fewer for few charts."""
        return max(1, min(children.cores(), math.ceil(len(self.misses) / CHARTS_A_WORKER)))


def plan_embeds(layout, *, export_dir: Path) -> EmbedPlan:
    """Link each chart of the export's specs that the embed cache has into export_dir/static/embed;
    the rest is the plan's to draw."""
    script = layout.site / "render" / "embeds.mjs"
    common = drawing_digest(layout.root, [script], width=WIDTH)
    cache = EmbedCache(layout.cache / "embeds")
    out_dir = export_dir / "static" / "embed"
    out_dir.mkdir(parents=True, exist_ok=True)
    misses, keys, total = [], set(), 0
    for chart_id, text in embed_specs.read_each(export_dir / embed_specs.FOLDER):  # a study's at a time
        key = chart_key(common, text)
        keys.add(key)
        total += 1
        if not cache.fetch(key, out_dir, chart_id):
            misses.append((key, chart_id, text))
    return EmbedPlan(out_dir=out_dir, script=script, cache=cache, misses=misses, total=total, keys=frozenset(keys))


def draw_embeds(plan: EmbedPlan) -> list[tuple[str, str]]:
    """Draw the plan's charts in Node (``<id>.svg`` in its folder); returns the cache key and id of each
    (for keep_embeds). Their specs are let go once written for Node (the plan's ``misses`` are
    emptied): at 10,000 bundles they were 0.54 GB, which the build held through Hugo."""
    drawn = [(key, chart_id) for key, chart_id, _ in plan.misses]
    if not plan.misses:
        return drawn
    node = _node()
    workers = plan.workers
    # beside the export (out_dir is <export>/static/embed): in a build, in its generation's folder,
    # which the next build removes if this one is killed
    with tempfile.TemporaryDirectory(prefix=".embeds-", dir=plan.out_dir.parents[2]) as tmp:
        job = Path(tmp) / "job.json"
        lines = Path(tmp) / "charts.jsonl"
        with lines.open("wb") as out:
            for _, _, text in plan.misses:
                out.write(text + b"\n")
        plan.misses.clear()
        hand_back_memory()
        job.write_text(json.dumps({"charts": str(lines), "count": len(drawn), "out": str(plan.out_dir),
                                   "width": WIDTH, "workers": workers}), encoding="utf-8")
        done = children.run([node, str(plan.script), str(job)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BuildError(f"rendering the embeds failed:\n{done.stderr.strip()[-2000:]}")
    return drawn


def keep_embeds(plan: EmbedPlan, drawn: list[tuple[str, str]], *, quiet: bool = False) -> CacheCounts:
    """Keep the ``drawn`` charts (draw_embeds) in the cache, then prune it (the plan's charts stay). A
    build does this beside Hugo: no page reads the cache, and at 1,000 bundles it is 6,800 links."""
    for key, chart_id in drawn:
        plan.cache.store(key, plan.out_dir, chart_id)
    counts = CacheCounts(made=len(drawn), cached=plan.total - len(drawn),
                         pruned=plan.cache.prune(every=PRUNE_EVERY, keep=plan.keys))
    if not quiet:
        print(f"embeds: {counts.made} drawn, {counts.cached} from the cache"
              + (f", {counts.pruned} old cache entries removed" if counts.pruned else ""), flush=True)
    return counts


def render_embeds(layout, *, export_dir: Path, quiet: bool = False) -> CacheCounts:
    """Write ``<id>.svg`` into export_dir/static/embed for each chart of the specs, and keep the drawn ones."""
    plan = plan_embeds(layout, export_dir=export_dir)
    return keep_embeds(plan, draw_embeds(plan), quiet=quiet)
