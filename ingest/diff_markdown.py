"""A diff report (diff.py) as Markdown: for a pull request's job summary and the terminal."""

from __future__ import annotations

from .diff import SHOWN_PER_STUDY


def _cell(value: object) -> str:
    text = "—" if value is None or value == "" else str(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


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
        lines += ["", f"### Values of `{study}`", "",
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
        name = " / ".join(f"`{row[k]}`" for k in key)
        if row["change"] != "changed":
            lines.append(f"- {name}: {row['change']}")
            continue
        changes = "; ".join(f"{field}: {_cell(old)} → {_cell(new)}" for field, (old, new) in row["fields"].items())
        lines.append(f"- {name}: {changes}")
    return lines


def markdown(report: dict) -> str:
    lines = [f"## What `{report['head']}` changes in the data of `{report['base']}`", "", _summary(report)]
    lines += _keyed("Studies", report["studies"], ("study",))
    lines += _values(report)
    lines += _keyed("Systems", report["systems"], ("study", "system"))
    lines += _keyed("Claims", report["claims"], ("study", "claim"))
    if report["facet_pages"]:
        lines += ["", "### Facet pages that show a changed study", ""]
        lines += [f"- {page}: " + ", ".join(f"`{s}`" for s in studies)
                  for page, studies in report["facet_pages"].items()]
    return "\n".join(lines) + "\n"
