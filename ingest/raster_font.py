"""The fonts the PNG embeds are rasterised with: a subset of DejaVu Sans (regular and bold).

resvg reads its font file again for every text element it lays out, so its cost grows with the
file: the full DejaVu Sans (760 KB) costs ~0.7 ms a text element, a subset of the characters charts
use costs a tenth of that and draws the same glyphs (its outlines, metrics and kerning are copied).
The subset is made once with fontTools and kept under build/cache/fonts/, named by the hash of the
source fonts, the character ranges and fontTools' version. A chart whose text has a character outside
the subset is rasterised with the system's fonts instead (site/render/embed-worker.mjs), as before.
Only the rasteriser uses these files: the SVG embeds keep their font-family for readers' browsers.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .problems import BuildError

FAMILY = "DejaVu Sans"
# fc-match pattern and the file name of each style, as the fonts-dejavu-core package installs them
STYLES = {"regular": (f"{FAMILY}:style=Book", "DejaVuSans.ttf"), "bold": (f"{FAMILY}:style=Bold", "DejaVuSans-Bold.ttf")}
# where distributions install DejaVu when fontconfig is not there to ask
FOLDERS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
           "/usr/local/share/fonts", "/Library/Fonts", str(Path.home() / "Library" / "Fonts"))
# The characters a chart's text can use: Latin (with accents), Greek (units such as µs, Ω, Δ),
# punctuation (‡ … · – —), super- and subscripts, currency, letterlike symbols, number forms, arrows,
# mathematical operators (− U+2212, the minus Plot writes, × ≤ ≈), technical and geometric symbols.
RANGES = ((0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x2000, 0x206F), (0x2070, 0x209F), (0x20A0, 0x20CF),
          (0x2100, 0x214F), (0x2150, 0x218F), (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2300, 0x23FF),
          (0x25A0, 0x25FF))


@dataclass(frozen=True)
class RasterFonts:
    family: str
    files: tuple[Path, ...]  # the subsets: regular, bold
    chars: str  # every character both subsets draw
    digest: str  # SHA-256 of the subset files, for the embed cache's keys


def _is_dejavu(path: Path, file_name: str) -> bool:
    return path.name == file_name and path.is_file()


def find_dejavu() -> dict[str, Path]:
    """The installed DejaVu Sans files by style, through fc-match or the usual folders."""
    found: dict[str, Path] = {}
    fc_match = shutil.which("fc-match")
    for style, (pattern, file_name) in STYLES.items():
        if fc_match:
            done = subprocess.run([fc_match, "-f", "%{file}", pattern], capture_output=True, text=True, check=False)
            path = Path(done.stdout.strip())
            if done.returncode == 0 and _is_dejavu(path, file_name):  # fc-match names a substitute when missing
                found[style] = path
                continue
        for folder in FOLDERS:
            if _is_dejavu(Path(folder) / file_name, file_name):
                found[style] = Path(folder) / file_name
                break
    missing = [STYLES[s][1] for s in STYLES if s not in found]
    if missing:
        raise BuildError(f"the PNG embeds are drawn with {FAMILY}, but {', '.join(missing)} was not found "
                         f"(asked fc-match, looked in {', '.join(FOLDERS)}): install it, e.g. Debian's "
                         "fonts-dejavu-core")
    return found


def _subset(source: Path, target: Path, codepoints: set[int]) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # not a line per table it drops (FFTM)

    options = subset.Options()
    options.layout_features = ["*"]  # kerning and ligatures, as the full font draws them
    options.name_IDs = ["*"]  # the family name, which the SVG's font-family resolves to
    options.notdef_outline = True
    options.hinting = False  # resvg does not hint
    font = TTFont(source, recalcTimestamp=False)  # the same bytes from the same source: a stable hash
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    font.save(target)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def raster_fonts(cache: Path) -> RasterFonts:
    """The subset fonts, made into ``cache`` when the sources, ranges or fontTools changed."""
    try:
        import fontTools
        from fontTools.ttLib import TTFont
    except ImportError:
        raise BuildError("fontTools is needed to make the embeds' font: run 'make deps'") from None
    sources = find_dejavu()
    key = hashlib.sha256(repr((sorted((s, _sha256(p)) for s, p in sources.items()), RANGES,
                               fontTools.version)).encode()).hexdigest()[:24]
    folder = cache / key
    if not folder.is_dir():
        tmp = cache / f".tmp-{key}-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        codepoints = {c for low, high in RANGES for c in range(low, high + 1)}
        try:
            for style, path in sources.items():
                try:
                    _subset(path, tmp / f"{style}.ttf", codepoints)
                except Exception as exc:  # fontTools raises its own kinds for a damaged font
                    raise BuildError(f"making the embeds' font from {path} failed: {exc}") from None
            os.replace(tmp, folder)
        except OSError:
            if not folder.is_dir():  # not a concurrent build that made it first
                raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    files = tuple(folder / f"{style}.ttf" for style in STYLES)
    cmaps = [set(TTFont(f, lazy=True)["cmap"].getBestCmap()) for f in files]
    chars = "".join(chr(c) for c in sorted(set.intersection(*cmaps)))
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    return RasterFonts(FAMILY, files, chars, digest)
