"""Draw the standalone SVG and PNG embeds of every chart the exporter listed (embed-specs.json).

The charts found in the embed cache (embed_cache.py) are linked into place; the others are drawn by
site/render/embeds.mjs in Node, on a pool of worker threads, and then kept in the cache.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from . import children
from .cache import CacheCounts
from .embed_cache import EmbedCache, chart_key, drawing_digest
from .problems import BuildError
from .raster_font import raster_fonts

WIDTH = 760  # the width of a standalone embed, in CSS pixels (the SVG's)
PNG_SCALE = 2  # the PNG has this many pixels per CSS pixel


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is needed to render the chart embeds: install Node.js 20 or later")
    return node


def render_embeds(layout, *, export_dir: Path, quiet: bool = False) -> CacheCounts:
    """Write ``<id>.svg`` and ``<id>.png`` into export_dir/static/embed for each chart of the specs."""
    node = _node()
    script = layout.site / "render" / "embeds.mjs"
    fonts = raster_fonts(layout.cache / "fonts")
    common = drawing_digest(layout.root, [script], fonts=fonts.digest, width=WIDTH, scale=PNG_SCALE)
    cache = EmbedCache(layout.cache / "embeds")
    out_dir = export_dir / "static" / "embed"
    out_dir.mkdir(parents=True, exist_ok=True)
    charts = json.loads((export_dir / "embed-specs.json").read_text(encoding="utf-8"))["charts"]
    misses = []
    for chart in charts:
        key = chart_key(common, chart)
        if not cache.fetch(key, out_dir, chart["id"]):
            misses.append((key, chart))
    if misses:
        with tempfile.TemporaryDirectory(prefix="benchdb-embeds-") as tmp:
            job = Path(tmp) / "job.json"
            lines = Path(tmp) / "charts.jsonl"
            lines.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for _, c in misses), encoding="utf-8")
            job.write_text(json.dumps({"charts": str(lines), "count": len(misses), "out": str(out_dir),
                                       "width": WIDTH, "scale": PNG_SCALE,
                                       "fonts": {"family": fonts.family, "files": [str(f) for f in fonts.files],
                                                 "chars": fonts.chars}}), encoding="utf-8")
            done = children.run([node, "--expose-gc", str(script), str(job)], capture_output=True, text=True,
                                  check=False)
        if done.returncode != 0:
            raise BuildError(f"rendering the embeds failed:\n{done.stderr.strip()[-2000:]}")
        for key, chart in misses:
            cache.store(key, out_dir, chart["id"])
    counts = CacheCounts(made=len(misses), cached=len(charts) - len(misses), pruned=cache.prune())
    if not quiet:
        print(f"embeds: {counts.made} drawn, {counts.cached} from the cache"
              + (f", {counts.pruned} old cache entries removed" if counts.pruned else ""), flush=True)
    return counts
