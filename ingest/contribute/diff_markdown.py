"""A diff report (diff.py) as Markdown: for a pull request's job summary and the terminal.

Every value that comes from the data (labels, ids, values, refs) is written as a code span: GitHub's
Markdown (cmark-gfm) reads no markup, HTML, entity or bare address inside one, where backslash escapes
would still leave a bare address to be made a link. Line breaks become spaces, a span's backticks are
longer than any run in the value, and in a table a pipe is escaped (GFM reads ``\\|`` as a pipe even in a
code span). tests/test_diff.py renders a summary of hostile labels with cmark-gfm and finds no element
they made (issue #49).
"""

from __future__ import annotations

import re

from .diff import SHOWN_PER_STUDY

_BREAK = re.compile(r"\r\n|[\r\n]")  # what Markdown takes for a line ending


def _code(value: object, *, cell: bool = False) -> str:
    """``value`` as one code span (an em dash where there is none)."""
    if value is None or value == "":
        return "—"
    text = _BREAK.sub(" ", str(value))
    if cell:
        text = text.replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    # a span strips one space from each side when both are there, and one is needed beside a backtick
    pad = " " if text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(value: object) -> str:
    return _code(value, cell=True)


def _count(rows: list[dict], change: str) -> int:
    return sum(1 for r in rows if r["change"] == change)


def _summary(report: dict) -> str:
    parts = []
    for name, rows in (("studies", report["studies"]), ("systems", report["systems"]), ("values", report["values"]),
                       ("claims", report["claims"])):
        counts = [f"{_count(rows, c)} {c}" for c in ("added", "removed", "changed") if _count(rows, c)]
        if counts:
            parts.append(f"{name}: {', '.join(counts)}")
    if report["verdicts"]:
        parts.append(f"claim verdicts that change: {len(report['verdicts'])}")
    return "; ".join(parts) + "." if parts else "No study, system, value or claim changes."


def _value(row: dict, side: str) -> str:
    text = row[f"{side}_value_text"]
    return "" if text is None else f"{text} {row[f'{side}_unit']} ({row[f'{side}_value_kind']})"


def _values(report: dict) -> list[str]:
    lines = []
    for study in report["studies_touched"]:
        mine = [r for r in report["values"] if r["study"] == study]
        if not mine:
            continue
        lines += ["", f"### Values of {_code(study)}", "",
                  "| Result | Row | Column | Change | Before | After | Provenance (after, or before) |",
                  "| --- | --- | --- | --- | --- | --- | --- |"]
        for row in mine[:SHOWN_PER_STUDY]:
            lines.append("| " + " | ".join(_cell(v) for v in (
                row["result"], row["row_label"], row["column_label"], row["change"], _value(row, "old"),
                _value(row, "new"), row["new_provenance"] or row["old_provenance"])) + " |")
        if len(mine) > SHOWN_PER_STUDY:
            lines += ["", f"and {len(mine) - SHOWN_PER_STUDY} more values of this study (`benchdb diff --json` "
                          "lists every one)."]
    return lines


def _keyed(title: str, rows: list[dict], key: tuple[str, ...]) -> list[str]:
    if not rows:
        return []
    lines = ["", f"### {title}", ""]
    for row in rows:
        name = " / ".join(_code(row[k]) for k in key)
        if row["change"] != "changed":
            lines.append(f"- {name}: {row['change']}")
            continue
        changes = "; ".join(f"{field}: {_code(old)} → {_code(new)}" for field, (old, new) in row["fields"].items())
        lines.append(f"- {name}: {changes}")
    return lines


def markdown(report: dict) -> str:
    lines = [f"## What {_code(report['head'])} changes in the data of {_code(report['base'])}", "", _summary(report)]
    lines += _keyed("Studies", report["studies"], ("study",))
    lines += _values(report)
    lines += _keyed("Systems", report["systems"], ("study", "system"))
    lines += _keyed("Claims", report["claims"], ("study", "claim"))
    if report["facet_pages"]:
        lines += ["", "### Facet pages that show a changed study", ""]
        lines += [f"- {page}: " + ", ".join(_code(s) for s in studies)
                  for page, studies in report["facet_pages"].items()]
    return "\n".join(lines) + "\n"
