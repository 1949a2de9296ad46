"""Draw the standalone SVG embed of every chart the exporter listed (embed_specs.py: its files).

The charts found in the embed cache (embed_cache.py) are linked into place; the others are drawn by
site/render/embeds.mjs in Node, on a pool of worker threads, and then kept in the cache.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from . import children, embed_specs
from .cache import PRUNE_EVERY, CacheCounts
from .embed_cache import EmbedCache, chart_key, drawing_digest
from .problems import BuildError

WIDTH = 760  # the width of a standalone embed, in CSS pixels (the SVG's)


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is needed to render the chart embeds: install Node.js 20 or later")
    return node


def render_embeds(layout, *, export_dir: Path, quiet: bool = False) -> CacheCounts:
    """Write ``<id>.svg`` into export_dir/static/embed for each chart of the specs."""
    node = _node()
    script = layout.site / "render" / "embeds.mjs"
    common = drawing_digest(layout.root, [script], width=WIDTH)
    cache = EmbedCache(layout.cache / "embeds")
    out_dir = export_dir / "static" / "embed"
    out_dir.mkdir(parents=True, exist_ok=True)
    charts = embed_specs.read_all(export_dir / embed_specs.FOLDER)
    misses = []
    for chart_id, text in charts:
        key = chart_key(common, text)
        if not cache.fetch(key, out_dir, chart_id):
            misses.append((key, chart_id, text))
    if misses:
        with tempfile.TemporaryDirectory(prefix="benchdb-embeds-") as tmp:
            job = Path(tmp) / "job.json"
            lines = Path(tmp) / "charts.jsonl"
            lines.write_bytes(b"".join(text + b"\n" for _, _, text in misses))
            job.write_text(json.dumps({"charts": str(lines), "count": len(misses), "out": str(out_dir),
                                       "width": WIDTH}), encoding="utf-8")
            done = children.run([node, str(script), str(job)], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BuildError(f"rendering the embeds failed:\n{done.stderr.strip()[-2000:]}")
        for key, chart_id, _ in misses:
            cache.store(key, out_dir, chart_id)
    counts = CacheCounts(made=len(misses), cached=len(charts) - len(misses), pruned=cache.prune(every=PRUNE_EVERY))
    if not quiet:
        print(f"embeds: {counts.made} drawn, {counts.cached} from the cache"
              + (f", {counts.pruned} old cache entries removed" if counts.pruned else ""), flush=True)
    return counts
