"""Artifact parsers, by format name: ``benchdb parse FORMAT FILE`` looks them up here.

Each parser takes a path and returns JSON-ready data, or raises ParseError with a message
of the form ``file:line: reason``.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator


class ParseError(Exception):
    pass


PARSERS: dict[str, Callable[[Path], dict]] = {}


def read_artifact(path: Path, *, kind: str) -> str:
    """An artifact's text; a clean error for an unreadable or binary file ("not <kind> (binary data)")."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ParseError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if b"\0" in data[:4096]:
        raise ParseError(f"{path}: not {kind} (binary data)")
    return data.decode("utf-8", errors="replace")


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a parser builds many small, acyclic objects:
    its full collections otherwise rescan the growing result and make parsing superlinear."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _register() -> None:
    from . import sysbench

    PARSERS["sysbench"] = sysbench.parse_file


_register()


def _register_mdstat() -> None:
    from . import mdstat, mdstat_trace

    PARSERS["mdstat"] = mdstat.parse_file
    PARSERS["mdstat-trace"] = mdstat_trace.parse_trace


_register_mdstat()
