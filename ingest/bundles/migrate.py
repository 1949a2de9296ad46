"""Bundle format versions: a bundle of an older format rewritten to the current one (``benchdb migrate``),
one step at a time, as asv keeps its result files readable across versions.

Each step rewrites the file's text, not a YAML round trip, so that its comments, anchors, layout and
line numbers (which provenance cites) stay as they are. From format 1 to 2 nothing of a bundle changes
meaning: format 2 only adds (schema/models.py), so the step is its ``schema_version`` line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from schema.models import SCHEMA_VERSION

from .yamlfile import YamlProblem, load_yaml

VERSION_LINE = re.compile(r"^(\s*schema_version\s*:\s*)(['\"]?)(\d+)\2(\s*(?:#.*)?)$")


class MigrateError(Exception):
    pass


def _version_line(text: str, *, line: int, to: int) -> str:
    lines = text.split("\n")
    match = VERSION_LINE.match(lines[line - 1])
    if match is None:
        raise MigrateError(f"line {line}: schema_version is not written on one line of its own")
    lines[line - 1] = f"{match.group(1)}{to}{match.group(4)}"
    return "\n".join(lines)


# format N -> its rewrite to N + 1: the file's text, and the line of its schema_version
STEPS: dict[int, Callable[..., str]] = {
    1: lambda text, *, line: _version_line(text, line=line, to=2),
}


def version_of(file: Path) -> tuple[int, int]:
    """A bundle file's format and the line that states it."""
    try:
        doc = load_yaml(file)
    except YamlProblem as exc:
        raise MigrateError(f"{exc.line or '-'}: {exc.message}") from None
    version = doc.data.get("schema_version") if isinstance(doc.data, dict) else None
    if not isinstance(version, int) or isinstance(version, bool):
        raise MigrateError("no schema_version that is a whole number")
    return version, doc.line_of(("schema_version",))


def migrated(file: Path) -> tuple[str, list[int]] | None:
    """The text of ``file`` rewritten to the current format and the formats it went through, or None
    when it is already of the current format."""
    version, line = version_of(file)
    if version == SCHEMA_VERSION:
        return None
    if version not in STEPS and version < SCHEMA_VERSION or version > SCHEMA_VERSION:
        raise MigrateError(f"format {version}: this version of benchdb reads format {SCHEMA_VERSION} and migrates "
                           f"formats {', '.join(map(str, sorted(STEPS)))}")
    text, path = file.read_text(encoding="utf-8"), []
    while version < SCHEMA_VERSION:
        text = STEPS[version](text, line=line)
        path.append(version)
        version += 1
    return text, path + [SCHEMA_VERSION]


def needs(version: object) -> str | None:
    """What validate says of a bundle's format when it is not the current one (None when it is)."""
    if version == SCHEMA_VERSION or not isinstance(version, int) or isinstance(version, bool):
        return None
    if version in STEPS:
        return (f"bundle format {version}: this version reads format {SCHEMA_VERSION}; `benchdb migrate` rewrites "
                f"it (run it with --write)")
    return f"bundle format {version}: this version of benchdb reads format {SCHEMA_VERSION}"
