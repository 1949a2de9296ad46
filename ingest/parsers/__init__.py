"""Artifact parsers, by format name: ``benchdb parse FORMAT FILE`` looks them up here.

Each parser takes a path and returns JSON-ready data, or raises ParseError with a message
of the form ``file:line: reason`` (reading.py: what every parser reads a file with).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from . import mdstat, mdstat_trace, sysbench_runs
from .reading import (PIECE_BYTES, ParseError, artifact_digest, artifact_pieces, no_cyclic_gc, read_artifact,
                      split_pieces)

__all__ = ["PARSERS", "PIECE_BYTES", "ParseError", "artifact_digest", "artifact_pieces", "no_cyclic_gc",
           "read_artifact", "split_pieces"]

PARSERS: dict[str, Callable[[Path], dict]] = {
    "sysbench": sysbench_runs.parse_log,  # one run, or {"runs": [...]} for a file of several
    "mdstat": mdstat.parse_file,
    "mdstat-trace": mdstat_trace.parse_trace,
}
