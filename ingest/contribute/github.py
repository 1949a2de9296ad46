"""What GitHub Actions reads from a job's output: workflow commands that annotate a line of a file.

A problem becomes ``::error file=PATH,line=N,title=FIELD::MESSAGE`` (``::warning`` for a warning),
which GitHub shows on that line of the pull request's diff. Values are escaped as the runner reads
them: ``%``, CR and LF everywhere, and ``:`` and ``,`` in the properties too.

The runner reads a workflow command from any line of a step's output, standard output or error: a line
that starts with ``::`` once its leading blanks are trimmed, or one that holds ``##[`` anywhere (the
runner's older form). So every other line printed under ``--github`` goes through ``log_line``: one
line (CR and LF escaped), with neither form left in it. A bundle's text holds no control character
(schema/models.py), but a folder's name may hold a newline.
"""

from __future__ import annotations

from ..bundles.problems import Problem

_DATA = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_PROPERTY = {**_DATA, ":": "%3A", ",": "%2C"}


def _escape(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(c, c) for c in text)


def log_line(text: str) -> str:
    """``text`` as one line of output in which the runner finds no workflow command."""
    line = _escape(text, _DATA).replace("##[", "#%23[")
    stripped = line.lstrip()
    if stripped.startswith("::"):
        line = line[: len(line) - len(stripped)] + "%3A" + stripped[1:]
    return line


def annotation(problem: Problem) -> str:
    properties = [f"file={_escape(problem.path, _PROPERTY)}"]
    if problem.line:
        properties.append(f"line={problem.line}")
    properties.append(f"title={_escape(problem.field or problem.type, _PROPERTY)}")
    command = "warning" if problem.severity == "warning" else "error"
    return f"::{command} {','.join(properties)}::{_escape(problem.message, _DATA)}"
