"""The banner of a Netlify deploy preview: which pull request it shows and the study pages it changes.

On a deploy preview (Netlify sets ``CONTEXT=deploy-preview``, ``REVIEW_ID`` to the pull request's number
and ``REPOSITORY_URL``), the build writes ``preview.json`` into the site data; every page then opens
with the banner (``_partials/preview-banner.html``). Production builds and local ones write none.
The changed studies come from ``benchdb diff`` of the base (``PREVIEW_BASE``, by default
``origin/main``) against the data being built; when that cannot be worked out, the banner says why
instead of listing them, and the build goes on.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .diff import diff
from ..bundles.problems import BuildError

DEFAULT_BASE = "origin/main"


def preview_data(*, data: Path, repo: Path, environ=os.environ) -> dict | None:
    """What the banner shows, or None when this is not a deploy preview."""
    if environ.get("CONTEXT") != "deploy-preview":
        return None
    number = environ.get("REVIEW_ID", "")
    repository = environ.get("REPOSITORY_URL", "").removesuffix(".git")
    base = environ.get("PREVIEW_BASE", DEFAULT_BASE)
    out = {"number": number, "url": f"{repository}/pull/{number}" if repository and number else "", "base": base}
    try:
        report = diff(base, str(data), repo=repo)
    except BuildError as exc:
        return {**out, "studies": None, "why": str(exc)}
    gone = {s["study"] for s in report["studies"] if s["change"] == "removed"}
    return {**out, "studies": [s for s in report["studies_touched"] if s not in gone],
            "removed": sorted(gone)}


def write_preview(*, data: Path, repo: Path, out_dir: Path, environ=os.environ) -> None:
    preview = preview_data(data=data, repo=repo, environ=environ)
    if preview is not None:
        (out_dir / "preview.json").write_text(json.dumps(preview, ensure_ascii=False), encoding="utf-8")
