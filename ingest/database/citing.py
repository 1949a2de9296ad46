"""How a value's provenance reads: as a reader would cite it, and the short quote of what its source
prints for it. The one owner of that text; the loader stores it with each value (the ``provenance``
and ``quote`` columns) and every page, download and embed shows it from there.

A citation names the source as people name it (its publisher, title and date; a document without a
web address by its identifier instead; a repository as ``OWNER/REPO at COMMIT, PATH``), then where in
it the value is printed, in words: section, page, table, figure, row and column. A line is named only
where a reader can open it (a repository's file, a log): a document's lines are those of our text
extraction, which is not published.

A quote is only what the bundle holds: a table cell's row label and the value as printed, a derived
value's relation as printed, a carried log's line. A cited log is not republished: its quote is the
figure as parsed, and its citation's link goes to the line at its commit.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from schema.models import Artifact, Cited, Origin, Provenance, Source
from schema.web_address import GITHUB as _GITHUB

QUOTE_CHARS = 120  # a quote longer than this is cut, with an ellipsis
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
# A repository's page at a commit: github.com/OWNER/REPO/blob|tree/COMMIT[/PATH]
# A repository's file or folder at a commit: owner and name as GitHub spells them, and no query or fragment
# (https://github.com/good/repo#/blob/<commit>/x.log opens the default branch: issue #61)


def one_line(text: str) -> str:
    """``text`` as one line: control and format characters as spaces, runs of spaces as one."""
    return " ".join("".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text).split())


def short(text: str) -> str:
    """``text`` on one line, cut at QUOTE_CHARS characters with an ellipsis."""
    text = one_line(text)
    return text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS - 1].rstrip() + "…"


def date_words(date: str | None) -> str | None:
    """A partial date (YYYY, YYYY-MM, YYYY-MM-DD) as people write it: 2023, May 2023, 6 August 2020."""
    if not date:
        return None
    parts = [int(p) for p in str(date).split("-")]
    if len(parts) == 1:
        return str(parts[0])
    month = f"{MONTHS[parts[1] - 1]} {parts[0]}"
    return month if len(parts) == 2 else f"{parts[2]} {month}"


def repository_at(repository: str, commit: str, path: str | None) -> str:
    return f"{repository} at {commit[:7]}" + (f", {path}" if path else "")


def source_name(source: Source) -> str:
    """The source as people name it: a repository's file at its commit; a document by its publisher,
    title and date, or, without a web address, by its identifier (how to find it)."""
    found = _GITHUB.match(source.url or "")
    if source.commit and found and found.group(2) == source.commit:
        return repository_at(found.group(1), source.commit, found.group(3))
    name = f"{source.publisher}, “{source.title}”"
    if source.url is None:
        return f"{name} ({source.identifier})"
    return ", ".join(p for p in (name, date_words(source.date)) if p)


def _is_repository(source: Source) -> bool:
    return bool(source.commit and _GITHUB.match(source.url or ""))


def printed_at(source: Source, where: Provenance, *, row: str | None = None, column: str | None = None,
               line: int | None = None) -> str:
    """Where in ``source`` something is printed, in words, after the source's name."""
    parts = [source_name(source),
             f"section {where.section}" if where.section else None,
             f"page {where.page}" if where.page else None,
             f"table “{where.table}”" if where.table else None,
             f"figure “{where.figure}”" if where.figure else None,
             f"row {row}" if row else None,
             f"column {column}" if column else None]
    line = line or where.line
    if line and _is_repository(source):
        parts.append(f"line {line}")
    return ", ".join(p for p in parts if p)


def interval_report(log: str, t_s: float) -> str:
    """Where a run's interval sample is read: its log (log_name) and the report's time."""
    return f"{log}, interval report at {t_s} s"


def cell_quote(row_label: str, printed: str) -> str:
    """What a table prints for a value: its row's label and the value as printed."""
    return f"“{short(f'{row_label} … {printed}')}”"


def text_quote(text: str) -> str:
    return f"“{short(text)}”"


def log_name(result: Artifact | Cited) -> str:
    """A log as a reader finds it: a cited one (and a carried one copied from a repository) by its
    repository, commit and path; one captured by the study itself by its path among the study's logs."""
    if result.origin is not None:
        o: Origin = result.origin
        return repository_at(o.repository, o.commit, o.path)
    return f"log {result.path}"


def log_line(result: Artifact | Cited, line: int | None) -> str:
    return log_name(result) + (f", line {line}" if line else "")


def trace_lines(artifact: Artifact, first: str, last: str) -> str:
    """Where a rebuild's figures are read from a trace: its first and last lines (of a folder of
    snapshots, each as FILE:LINE)."""
    return f"{trace_name(artifact.path)}, lines {first} to {last}"


def trace_name(path: str) -> str:
    """An mdstat trace of the study's, as a reader finds it among its logs."""
    return f"trace {path}"


def parsed_quote(value_text: str) -> str:
    """A cited log's figure: the log is not republished, so not quoted; the figure as parsed."""
    return f"{value_text} as parsed (the log is cited, not republished)"


def read_lines(path: Path, wanted: set[int]) -> dict[int, str]:
    """The lines ``wanted`` (1-based) of the file at ``path``, as text (bytes that are not UTF-8 as
    U+FFFD), reading no further than the last of them."""
    found: dict[int, str] = {}
    if not wanted or not path.is_file():
        return found
    last = max(wanted)
    with path.open("rb") as f:
        for number, raw in enumerate(f, start=1):
            if number in wanted:
                found[number] = raw.decode("utf-8", errors="replace")
            if number >= last:
                break
    return found
