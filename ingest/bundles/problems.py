"""Validation reports: every problem found, each pointing at a file, a line and a field."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    path: str
    line: int | None
    field: str
    type: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        what = f"{self.field}: {self.message}" if self.field else self.message
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{where}: {prefix}{what}"


class BundleError(Exception):
    """Raised at the library boundary when bundles do not validate."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


class BuildError(Exception):
    """A build step failed; the message names what failed and, where it can, what to do."""
