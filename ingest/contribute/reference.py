"""The reference pages of the documentation, generated from the code: ``docs/bundle-format.md`` from the
bundle models, schema/fields.yaml and what validate says (reference_fields.py, reference_messages.py), and
``docs/cli.md`` from click's own help of the ``benchdb`` command.

``benchdb docs --write`` writes them; tests/test_reference_docs.py finds them equal to what this module
makes. The command's group is passed in (``group``): ingest/cli.py imports this module, never the reverse.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path

import click
from pydantic import BaseModel

from schema import models as m

from ..bundles.fields import Field as Published, never_negative, registry
from .reference_fields import Row, Section, flow, member_tag, members, model, needed, short, shown, tag, without_none, \
    words
from .reference_limits import limits
from .reference_messages import FIXTURE, Fixture, Wrong, fixture, general, misspelt, wrongs

DOCS = Path("docs")
BUNDLE_FORMAT = DOCS / "bundle-format.md"
CLI = DOCS / "cli.md"
COMMAND = "benchdb docs --write"
WIDTH = 100  # the help's width, fixed: click would take the terminal's
_ROLES = {"download": "the downloads", "filter": "a filter of Explore", "column": "a column of Explore's table",
          "compare": "Compare's like-for-like check"}
_PATH = re.compile(r"(?<![\w`/])((?:schema|ingest|site|tests|data|docs)/[\w./<>-]*[\w/])")


# --- Markdown ---------------------------------------------------------------------------------------


def front_matter(*, title: str, description: str, weight: int) -> str:
    """A page's front matter (docs/_index.md lists the pages by weight, with their descriptions)."""
    return f"---\ntitle: {title}\ndescription: {description}\nweight: {weight}\n---\n\n"


def code(text: str, *, cell: bool = True) -> str:
    """A code span (in a table cell, its pipes escaped as GFM asks)."""
    fence = "`" * (max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    span = f"{fence}{pad}{text}{pad}{fence}"
    return span.replace("|", "\\|") if cell else span


def prose(text: str, *, cell: bool = True) -> str:
    """Text of the code as Markdown: reStructuredText's ``x`` as a code span, paths of the repository as code
    spans, white space folded; in a table cell, pipes escaped."""
    text = " ".join(text.split())
    text = re.sub(r"``(.+?)``", lambda match: code(match.group(1), cell=cell), text)
    parts = re.split(r"(`[^`]*`)", text)
    text = "".join(part if part.startswith("`") else _PATH.sub(lambda x: code(x.group(1), cell=cell), part)
                   for part in parts)
    parts = re.split(r"(`[^`]*`)", text)
    text = "".join(part if part.startswith("`") else part.replace("<", "&lt;") for part in parts)
    return text.replace("|", "\\|") if cell else text


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def docstring(model_class: type) -> str:
    return prose((model_class.__dict__.get("__doc__") or "").strip(), cell=False)


# --- docs/bundle-format.md --------------------------------------------------------------------------


def _heading(section: Section) -> str:
    place = code(shown(section.path), cell=False) if section.path else "The top level"
    kind = tag(section.path)
    if kind and section.path[-1] == ("type", kind):
        return f"### {place} of type {code(kind, cell=False)}"
    return f"### {place}" + (f" (in a result of type {code(kind, cell=False)})" if kind else "")


def _example(row: Row) -> str:
    hint = without_none(row.hint)
    inner = without_none(typing.get_args(hint)[0]) if typing.get_origin(hint) is list else hint
    if members(inner) or (isinstance(inner, type) and issubclass(inner, BaseModel)):
        return "see its fields"
    if not row.examples:
        return "none used yet"
    return ", ".join(code(flow(short(value))) for value in row.examples)


def _published(entries: list[Published]) -> str:
    return " ".join(f'Published as "{e.label}" ({code(e.key)}).' for e in entries)


def _said(wrong: Wrong) -> str:
    text = " ".join(code(line) for line in wrong.said)
    if wrong.elsewhere:
        text += f" (and {wrong.elsewhere} more, of other fields)"
    return text


def _section(section: Section, all_sections: list[Section], *, fx: Fixture) -> str:
    out = [_heading(section), ""]
    if docstring(section.model):
        out += [docstring(section.model), ""]
    also = sorted({shown(p) for p in section.also} - {shown(section.path)})
    if also:
        places = ", ".join(code(a, cell=False) for a in also)
        out += [f"The same fields (`{section.model.__name__}`) are also at {places}.", ""]
    rows = []
    for row in section.rows:
        said = prose(row.info.description or "")
        said = " ".join(x for x in (said + ("." if said and not said.endswith(".") else ""),
                                    _published(row.published)) if x)
        rows.append([code(shown(row.path)), prose(words(row.hint, all_sections)), needed(row.info), said,
                     _example(row)])
    out.append(table(["Field", "Type", "Required", "Description", "Example"], rows))
    key = misspelt(fx=fx, section=section)
    wrong_rows = [[code(key.given), f"a misspelt key ({code(section.rows[0].name)})", _said(key)]]
    for row in section.rows:
        for wrong in wrongs(fx=fx, row=row):
            wrong_rows.append([code(wrong.given), code(shown(row.path)), _said(wrong)])
    out += ["When it is wrong:", "", table(["The file gives", "Field", "`benchdb validate` says"], wrong_rows)]
    return "\n".join(out)


def _metrics() -> str:
    entries = {x.key: x for x in registry().metrics}
    rows = [[code(metric), entries[metric].label, code(entries[metric].unit),
             ", ".join(code(u) for u in entries[metric].also_printed) or "none",
             "yes" if never_negative(metric) else "no"]
            for metric in typing.get_args(m.Metric)]
    return table(["Metric", "How pages name it", "Its unit (a stated one must be this)",
                  "Printed spellings `benchdb migrate` rewrites to it", "Never negative (a negative value is refused)"],
                 rows)


def _published_table(all_sections: list[Section]) -> str:
    rows = []
    for section in all_sections:
        for row in section.rows:
            for entry in row.published:
                roles = ", ".join(_ROLES[r] for r in entry.roles) or "none"
                page = f"{code('/' + entry.page.slug + '/')}: {prose(entry.page.about)}" if entry.page else ""
                rows.append([code(shown(row.path)), entry.label, code(entry.key), roles, page])
    return table(["Field", "Published as", "Key", "In", "Facet page"], rows)


def _general(rules: list[tuple[str, Wrong]]) -> str:
    return table(["Rule broken", "The file gives", "`benchdb validate` says"],
                 [[prose(what), code(wrong.given), _said(wrong)] for what, wrong in rules])


def bundle_format_page(*, root: Path) -> str:
    """The bundle format: every field of every model, with what validate says when it is wrong."""
    all_sections = model(data_dir=root / "data")
    with fixture(root=root) as fx:
        if fx.said(data=fx.data):
            raise ValueError(f"{FIXTURE} does not validate: {fx.said(data=fx.data)}")
        rules = general(fx=fx)
        body = [_section(section, all_sections, fx=fx) for section in all_sections]
    union = " or ".join(code(member_tag(k), cell=False) for k in members(typing.get_args(m.Result)[0]))
    head = [
        front_matter(title="The bundle format", weight=30, description="Every field, its type, an example, and "
                     "what benchdb validate says when it is wrong (generated).")
        + f"Generated from `schema/models.py`, `schema/fields.yaml`, the bundles in `data/` and `{FIXTURE}/` by "
          f"`{COMMAND}`: edit those, not this page.",
        "",
        docstring(m.Bundle) + " " + prose(m.__doc__.split("\n\n", 1)[1], cell=False),
        "",
        "To write one from a folder of logs, see [Contributing](contributing.md); the commands that read it are in "
        "[the benchdb command](cli.md), and how its values are labelled and graded in "
        "[Labels and grades](labels-and-grades.md).",
        "",
        "## How to read this page",
        "",
        "- **Field**: where the field is. `systems[].raid.level` is `level` in the mapping `raid` of each item of "
        "the list `systems`.",
        f"- **Required**: a required field left out is an error; an optional one takes its default. `results[]` "
        f"holds mappings of type {union}: each has its own fields, chosen by its `type`.",
        "- **Example**: up to three values the bundles in `data/` give the field; \"none used yet\" when none does.",
        f"- **When it is wrong**: what `benchdb validate` prints when that one field is made wrong in "
        f"`{FIXTURE}/bundle.yaml`, a small valid bundle that gives every field a value: first a value of the wrong "
        f"type or outside its rule, then each rule beyond its type. `LINE` in `bundle.yaml:LINE` is the line in "
        f"that file. validate reports every problem of every bundle at once, never only the first.",
        "",
        "## Rules of every field",
        "",
        _general(rules),
    ]
    tail = ["## Metrics", "",
            "`metric` (of a table's defaults or columns, of a derived value, of a chart) is one of these "
            "(`schema/fields.yaml`, `metrics` and `never_negative`). Each has one unit, which every value of it is "
            "stored and shown with: a bundle need not state a value's `unit`, and where it does, validate refuses any "
            "other spelling (a label keeps the word a source prints).", "", _metrics(),
            "## Limits", "",
            "What validate reads is hostile input: past these limits a file is refused, naming the limit, before "
            "it is read whole (each figure is read from the constant its reader enforces).", "",
            table(["What", "Of", "At most", "Enforced by"], [[what, of, most, code(owner)] for what, of, most, owner in limits()]),
            "## Published fields", "",
            "The fields of a bundle that the site and its downloads publish with each value (`schema/fields.yaml`). "
            "A facet page compares, within each study, the systems that differ in that field alone.", "",
            _published_table(all_sections)]
    return "\n".join(head) + "\n## Fields\n\n" + "\n".join(body) + "\n" + "\n".join(tail)


# --- docs/cli.md ------------------------------------------------------------------------------------


def cli_page(*, group: click.Group, name: str = "benchdb") -> str:
    """Every command of ``group`` with its help, as click writes it for ``--help``."""
    parent = click.Context(group, info_name=name, terminal_width=WIDTH, max_content_width=WIDTH)
    out = [front_matter(title=f"The {name} command", weight=40,
                        description="Every command and option (generated from its help).")
           + f"Generated from click's own help of `ingest/cli.py` by `{COMMAND}`: edit the commands' help there, "
             "not this page. `benchdb --help` and `benchdb COMMAND --help` print the same.",
           "", "The bundles it reads are described in [Bundle format](bundle-format.md); making one from a folder of "
           "logs, in [Contributing](contributing.md).", "", f"## {name}", "", "```text", group.get_help(parent), "```"]
    for command_name in group.list_commands(parent):
        command = group.get_command(parent, command_name)
        context = click.Context(command, info_name=command_name, parent=parent)
        out += ["", f"## {name} {command_name}", "", "```text", command.get_help(context), "```"]
    return "\n".join(out) + "\n"


def pages(*, root: Path, group: click.Group) -> dict[Path, str]:
    """The generated pages by their path in the repository."""
    return {BUNDLE_FORMAT: bundle_format_page(root=root), CLI: cli_page(group=group)}
