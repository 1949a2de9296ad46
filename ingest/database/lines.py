"""Where an artifact's line is shown: the one rule of its pages of lines.

An artifact's lines are shown ``LINES_A_PAGE`` at a time, however long the file: lines 1 to 500 on its
page, ``/artifacts/<study>/<artifact>/``, and each later 500 on a page of their own named by its first
line, ``/artifacts/<study>/<artifact>/lines-501/`` (ingest/publish/artifacts.py writes each page's lines).
A page's name needs no count of the file's lines, so a value's link to its line (the ``source_href`` of
schema/fields.yaml) is made in SQL by ``artifact_line_href``, a macro made from this rule on every new
database (load.py's create_schema)."""

from __future__ import annotations

import duckdb

LINES_A_PAGE = 500


def page_first_line(line: int) -> int:
    """The first line of the page that shows ``line`` (1-based)."""
    return (line - 1) // LINES_A_PAGE * LINES_A_PAGE + 1


def page_path(first: int) -> str:
    """The page of lines from ``first`` on, under its artifact's page ('' for the artifact's own)."""
    return "" if first == 1 else f"lines-{first}/"


MACRO = f"""CREATE MACRO artifact_line_href(study, artifact, line) AS
    '/artifacts/' || study || '/' || artifact || '/'
    || CASE WHEN line > {LINES_A_PAGE} THEN 'lines-' || ((line - 1) // {LINES_A_PAGE} * {LINES_A_PAGE} + 1) || '/' ELSE '' END
    || coalesce('#L' || line, '')"""


def create_line_macro(con: duckdb.DuckDBPyConnection) -> None:
    """``artifact_line_href(study, artifact, line)``: the link to an artifact's line (its page when the line
    is NULL), as page_first_line and page_path name it."""
    con.execute(MACRO)
