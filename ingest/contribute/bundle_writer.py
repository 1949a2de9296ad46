"""The one bundle writer of ``benchdb capture`` and ``benchdb import``.

A bundle is made in a hidden folder beside its destination, under the bundle's own name (so that
it validates as itself), and moved into place only once ``bundle.yaml`` validates: a failed or
interrupted writer leaves nothing at the destination. The YAML is plain (no anchors), so a written
bundle reads like a hand-written one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import yaml

from ..bundles.problems import Problem
from ..plumbing.scratch import terminate_as_exit
from ..bundles.yamlfile import MAX_BYTES, YamlProblem, check_shape
from ..bundles.validate import validate_paths


class WriteError(Exception):
    pass


class _PlainDumper(yaml.CSafeDumper):  # libyaml's emitter: 10 MB in seconds, not 30 s (issue #61)
    def ignore_aliases(self, data) -> bool:
        return True


def dump(doc: dict) -> str:
    return yaml.dump(doc, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True, width=110)


@contextmanager
def staged_bundle(final: Path) -> Iterator[Path]:
    """The folder to make the bundle in; removed afterwards unless ``publish`` moved it into place."""
    if final.exists():
        raise WriteError(f"{final} exists already: choose another --out or remove it")
    final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=final.parent))
    work = staging / final.name
    work.mkdir()
    try:
        with terminate_as_exit():  # (a terminated import left its staging folder beside the destination)
            yield work
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def publish(doc: dict, *, work: Path, final: Path, allowed: frozenset[str] = frozenset()) -> list[Problem]:
    """Write ``doc`` as work/bundle.yaml and move the bundle to ``final`` if it validates, but for
    errors of the ``allowed`` types (an imported bundle's values "to be stated"); returns the problems
    of the bundle at ``final``."""
    text = dump(doc)
    if len(text.encode("utf-8")) > MAX_BYTES:  # said before validation's "larger than 4 MiB: refused" (issue #61)
        results = len(doc.get("results", []))
        raise WriteError(f"the bundle would be {len(text.encode('utf-8')):,} bytes, more than the {MAX_BYTES:,} a "
                         f"bundle.yaml may be ({results:,} results): make it of fewer runs, a subfolder at a time")
    try:  # likewise the values a bundle.yaml may hold (5,000 runs were refused as an alias bomb: issue #61)
        check_shape(text)
    except YamlProblem as exc:
        results = len(doc.get("results", []))
        raise WriteError(f"the bundle of {results:,} results would be refused ({exc.message.removesuffix(': refused')}):"
                         " make it of fewer runs, a subfolder at a time") from None
    (work / "bundle.yaml").write_text(text, encoding="utf-8")
    _, problems = validate_paths([work])
    errors = [p for p in problems if p.severity == "error" and p.type not in allowed]
    if errors:
        raise WriteError("the bundle written does not validate:\n" + "\n".join(map(str, errors)))
    os.replace(work, final)
    return validate_paths([final])[1] if problems else []
