"""What GitHub Actions reads from a job's output: workflow commands that annotate a line of a file.

A problem becomes ``::error file=PATH,line=N,title=FIELD::MESSAGE`` (``::warning`` for a warning),
which GitHub shows on that line of the pull request's diff. Values are escaped as the runner reads
them: ``%``, CR and LF everywhere, and ``:`` and ``,`` in the properties too.
"""

from __future__ import annotations

from .problems import Problem

_DATA = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_PROPERTY = {**_DATA, ":": "%3A", ",": "%2C"}


def _escape(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(c, c) for c in text)


def annotation(problem: Problem) -> str:
    properties = [f"file={_escape(problem.path, _PROPERTY)}"]
    if problem.line:
        properties.append(f"line={problem.line}")
    properties.append(f"title={_escape(problem.field or problem.type, _PROPERTY)}")
    command = "warning" if problem.severity == "warning" else "error"
    return f"::{command} {','.join(properties)}::{_escape(problem.message, _DATA)}"
