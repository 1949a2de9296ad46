"""Where bundles are (a bundle file, a bundle folder, a folder of bundles), how their paths are shown,
and the files a bundle names (its artifacts, its cited logs' figures files): found inside the bundle's
folder, through no symbolic link."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from .problems import Problem

BUNDLE_FILE = "bundle.yaml"


def display_path(path: Path) -> str:
    """Paths inside the working folder are shown relative to it, others in full."""
    absolute = path.absolute()
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)


def linked(file: Path) -> str | None:
    """Why a bundle file cannot be read as one (it, or its bundle folder, is a symbolic link: what it
    points at may be outside the folder, and a rewrite would change that file), or None."""
    if file.is_symlink():
        return f"{BUNDLE_FILE} is a symbolic link: a bundle file must be a file of its folder (links are not followed)"
    if file.parent.is_symlink():
        return f"the bundle folder {file.parent.name} is a symbolic link: a bundle is a folder of its own (links are not followed)"
    return None


def find_bundle_files(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """Expand each path (a bundle.yaml, a bundle folder, or a folder of bundles)."""
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_file():
            files.append(path)
        elif (path / BUNDLE_FILE).is_file():
            files.append(path / BUNDLE_FILE)
        elif path.is_dir():
            for sub in sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")):
                if (sub / BUNDLE_FILE).is_file():
                    files.append(sub / BUNDLE_FILE)
                else:
                    problems.append(Problem(display_path(sub), None, "", "missing-file", f"no {BUNDLE_FILE} in this bundle folder"))
        else:
            problems.append(Problem(display_path(path), None, "", "missing-file", "no such file or folder"))
    return files, problems


def bundle_file(folder: Path, rel: Path, *, folder_ok: bool) -> tuple[Path | None, str, str]:
    """The file (or, with ``folder_ok``, the folder of files) ``rel`` names inside ``folder``, or None, the
    kind of problem and why (with ``{path}`` for the path as the bundle gives it). No symbolic link is followed: a link on
    the way, or among a folder's files, is refused even when it points inside the bundle; nor is a path that
    leaves the folder (absolute, or with a ``..``: migrate rewrote and removed files outside its bundle so,
    issue #61's seventh pass)."""
    if rel.is_absolute() or ".." in rel.parts:
        return None, "path-escapes", "artifact path {path!r} leaves the bundle folder"
    target = folder
    for part in rel.parts:
        target = target / part
        if target.is_symlink():
            return None, "symlink", f"artifact path {{path!r}} goes through a symbolic link ({part}): links are not followed"
    if target.is_file():
        return target, "", ""
    if target.is_dir():
        if not folder_ok:
            return None, "not-a-file", "artifact path {path!r} is a folder: this format is one file"
        links = sorted(e.name for e in os.scandir(target) if e.is_symlink())
        if links:
            return None, "symlink", f"artifact folder {{path!r}} holds a symbolic link ({links[0]}): links are not followed"
        return target, "", ""
    return None, "missing-file", "artifact file {path!r} does not exist"
