"""Reading an artifact: its bytes a piece of whole lines at a time, its text, its digest, and the error
every parser raises (``file:line: reason``)."""

from __future__ import annotations

import gc
import hashlib
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class ParseError(Exception):
    pass


PIECE_BYTES = 4 << 20  # artifacts are read this much at a time, cut after the last whole line
# A file larger than this is read on only where its first piece holds something of what its kind prints
# (artifact_pieces: markers): 1 GB that is not a log took import 7 minutes and 7.3 GB to skip (issue #61).
SNIFF_FROM = 16 << 20


def split_pieces(data: bytes, *, size: int | None = None) -> Iterator[bytes]:
    """``data`` as pieces of whole lines of about ``size`` bytes (each ending in a newline), then
    what follows the last newline (perhaps nothing), as artifact_pieces gives a file."""
    size = size or PIECE_BYTES
    start = 0
    while (cut := data.rfind(b"\n", start, start + size) + 1) or (cut := data.find(b"\n", start) + 1):
        yield data[start:cut]
        start = cut
    yield data[start:]


def artifact_pieces(path: Path, *, kind: str, markers: tuple[bytes, ...] = (),
                    size: int | None = None) -> Iterator[bytes]:
    """An artifact's bytes read a piece at a time, cut as split_pieces cuts them; a clean error for an
    unreadable or binary file ("not <kind> (binary data)"), raised before the first piece, and for a line
    longer than a piece, raised where it starts: no more than a piece is ever held, whatever follows
    (a log followed by gigabytes of zeros was read whole: issue #49). A file of more than SNIFF_FROM
    bytes whose first piece holds none of ``markers`` (what every file of the kind prints early) is
    refused before it is read further."""
    size = size or PIECE_BYTES
    line = 1
    try:
        with Path(path).open("rb") as f:
            piece = f.read(size)
            if b"\0" in piece[:4096]:
                raise ParseError(f"{path}: not {kind} (binary data)")
            if b"\r" in piece and b"\n" not in piece:
                raise ParseError(f"{path}: not {kind} as it is: its lines end in CR alone (the old Mac way); "
                                 "convert them to LF or CRLF")
            total = os.fstat(f.fileno()).st_size
            if markers and total > SNIFF_FROM and not any(m in piece for m in markers):
                raise ParseError(f"{path}: not {kind}: {total:,} bytes, and its first {len(piece):,} hold nothing "
                                 f"{kind} prints ({', '.join(repr(m.decode()) for m in markers)}); not read further")
            while len(piece) == size:
                cut = piece.rfind(b"\n") + 1
                if not cut:
                    raise ParseError(f"{path}:{line}: a line longer than {size:,} bytes: not {kind}")
                f.seek(cut - len(piece), 1)  # the part line after the cut is read again with the next piece
                yield piece[:cut]
                line += piece.count(b"\n", 0, cut)
                piece = f.read(size)
    except OSError as exc:
        raise ParseError(f"{path}: cannot read: {exc.strerror or exc}") from None
    yield from split_pieces(piece, size=size)  # the end of the file: less than a piece


def read_artifact(path: Path, *, kind: str, markers: tuple[bytes, ...] = ()) -> str:
    """An artifact's text; a clean error for an unreadable or binary file ("not <kind> (binary data)") and
    for a large one that is not of its kind (artifact_pieces)."""
    return b"".join(artifact_pieces(path, kind=kind, markers=markers)).decode("utf-8", errors="replace")


def artifact_digest(path: Path) -> tuple[int, str]:
    """(bytes, SHA-256) of an artifact file; for a folder (an mdstat trace of snapshot files), the bytes of
    its files together and the SHA-256 of its listing, one "name NUL bytes NUL SHA-256 of the file" line
    per file in name order, so that a changed, added or removed file changes it."""
    path = Path(path)
    if not path.is_dir():
        with path.open("rb") as f:
            return path.stat().st_size, hashlib.file_digest(f, "sha256").hexdigest()
    listing = hashlib.sha256()
    total = 0
    for f in sorted(p for p in path.iterdir() if p.is_file() and not p.is_symlink()):
        size, digest = artifact_digest(f)
        total += size
        listing.update(f"{f.name}\0{size}\0{digest}\n".encode())
    return total, listing.hexdigest()


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
