"""Artifact parsers, by format name: ``benchdb parse FORMAT FILE`` looks them up here.

Each parser takes a path and returns JSON-ready data, or raises ParseError with a message
of the form ``file:line: reason``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable


class ParseError(Exception):
    pass


PARSERS: dict[str, Callable[[Path], dict]] = {}


def _register() -> None:
    from . import sysbench

    PARSERS["sysbench"] = sysbench.parse_file


_register()


def _register_mdstat() -> None:
    from . import mdstat, mdstat_trace

    PARSERS["mdstat"] = mdstat.parse_file
    PARSERS["mdstat-trace"] = mdstat_trace.parse_trace


_register_mdstat()
