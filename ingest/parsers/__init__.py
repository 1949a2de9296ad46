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


PIECE_BYTES = 4 << 20  # artifacts are read this much at a time, cut after the last whole line


def split_pieces(data: bytes, *, size: int | None = None) -> Iterator[bytes]:
    """``data`` as pieces of whole lines of about ``size`` bytes (each ending in a newline), then
    what follows the last newline (perhaps nothing), as artifact_pieces gives a file."""
    size = size or PIECE_BYTES
    start = 0
    while (cut := data.rfind(b"\n", start, start + size) + 1) or (cut := data.find(b"\n", start) + 1):
        yield data[start:cut]
        start = cut
    yield data[start:]


def artifact_pieces(path: Path, *, kind: str, size: int | None = None) -> Iterator[bytes]:
    """An artifact's bytes read a piece at a time, cut as split_pieces cuts them; a clean error for an
    unreadable or binary file ("not <kind> (binary data)"), raised before the first piece."""
    size = size or PIECE_BYTES
    try:
        with Path(path).open("rb") as f:
            piece = f.read(size)
            if b"\0" in piece[:4096]:
                raise ParseError(f"{path}: not {kind} (binary data)")
            while len(piece) == size and (cut := piece.rfind(b"\n") + 1):
                f.seek(cut - len(piece), 1)  # the part line after the cut is read again with the next piece
                yield piece[:cut]
                piece = f.read(size)
            rest = piece + f.read()  # the end of the file, or a line longer than a piece: read whole
    except OSError as exc:
        raise ParseError(f"{path}: cannot read: {exc.strerror or exc}") from None
    yield from split_pieces(rest, size=size)


def read_artifact(path: Path, *, kind: str) -> str:
    """An artifact's text; a clean error for an unreadable or binary file ("not <kind> (binary data)")."""
    return b"".join(artifact_pieces(path, kind=kind)).decode("utf-8", errors="replace")


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

    PARSERS["sysbench"] = sysbench.parse_log  # one run, or {"runs": [...]} for a file of several


_register()


def _register_mdstat() -> None:
    from . import mdstat, mdstat_trace

    PARSERS["mdstat"] = mdstat.parse_file
    PARSERS["mdstat-trace"] = mdstat_trace.parse_trace


_register_mdstat()
