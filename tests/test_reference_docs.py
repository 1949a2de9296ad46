"""The reference pages of docs/ are generated from the code (ingest/contribute/reference.py): the committed
pages are what `benchdb docs --write` writes now, and what they say is what the code does."""

from __future__ import annotations

import json
import re
import shutil
import typing
from pathlib import Path

import cmarkgfm
import pytest
from click.testing import CliRunner

from ingest.cli import main
from ingest.contribute.reference import BUNDLE_FORMAT, CLI, WIDTH, pages
from ingest.contribute.reference_messages import FIXTURE
from schema import SCHEMA_PATH
from schema.models import RaidLevel

ROOT = Path(__file__).resolve().parents[1]
# the pages of docs/ that are or will be, the only pages a page may link to
DOCS_PAGES = {"contributing.md", "bundle-format.md", "cli.md", "labels-and-grades.md", "citing-and-embedding.md",
              "architecture.md", "performance.md", "using-the-site.md"}


@pytest.fixture(scope="module")
def generated() -> dict[Path, str]:
    return pages(root=ROOT, group=main)


def _line(text: str) -> int:
    """The line of the fixture that is ``text``."""
    return (ROOT / FIXTURE / "bundle.yaml").read_text(encoding="utf-8").splitlines().index(text) + 1


def _row(page: str, field: str) -> str:
    """The line of the fields table that describes ``field`` (the first: the table of published fields,
    at the end, names it again)."""
    return next(line for line in page.splitlines() if line.startswith(f"| `{field}` |"))


def test_the_committed_pages_are_the_generated_ones(generated):
    assert sorted(map(str, generated)) == ["docs/bundle-format.md", "docs/cli.md"]
    for path, text in generated.items():
        committed = (ROOT / path).read_text(encoding="utf-8") if (ROOT / path).is_file() else None
        assert committed == text, f"{path} is stale: run `benchdb docs --write`"


def test_benchdb_docs_prints_the_pages(generated, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["docs"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == generated[BUNDLE_FORMAT] + generated[CLI]


def test_each_page_starts_with_front_matter_and_says_how_it_is_made(generated):
    for path, weight, title in ((BUNDLE_FORMAT, 30, "The bundle format"), (CLI, 40, "The benchdb command")):
        lines = generated[path].splitlines()
        assert lines[:2] == ["---", f"title: {title}"] and lines[2].startswith("description: ")
        assert lines[3:5] == [f"weight: {weight}", "---"]
        assert lines[5] == ""
        assert lines[6].startswith("Generated from ") and "by `benchdb docs --write`" in lines[6]


def test_the_pages_are_commonmark_without_html_and_link_only_docs_pages(generated):
    for path, text in generated.items():
        body = text.split("---\n", 2)[2]
        assert "raw HTML omitted" not in cmarkgfm.github_flavored_markdown_to_html(body), path
        links = re.findall(r"\]\(([^)]*)\)", body)
        assert links and set(links) <= DOCS_PAGES, (path, links)
        # every row of a table has the cells of its header (a pipe in a cell is escaped)
        tables = [block for block in re.split(r"\n\n+", body) if block.startswith("|")]
        for block in tables:
            counts = {len(re.split(r"(?<!\\)\|", line)) for line in block.splitlines()}
            assert len(counts) == 1, block.splitlines()[0]
        assert tables or path == CLI


def test_the_raid_level_lists_the_levels_of_the_model_and_a_real_example(generated):
    line = _row(generated[BUNDLE_FORMAT], "systems[].raid.level")
    assert "| required |" in line
    assert 'one of "0", "1", "5", "6", "10", "50", "60", "raid-dp", "linear", "none"' in line
    assert 'one of ' + ", ".join(f'"{level}"' for level in typing.get_args(RaidLevel)) in line
    assert "Published as \"RAID level\" (`raid_level`)." in line
    assert "`'10'`" in line  # data/graid-supremeraid-mysql-2023: raid: {level: "10", ...}
    drives = _row(generated[BUNDLE_FORMAT], "systems[].raid.drives")
    assert "whole number from 1 to 2147483647" in drives
    assert f"| `drives: 0` | `systems[].raid.drives` | `bundle.yaml:{_line('    drives: 8')}: systems[a].raid.drives: " \
           "Input should be greater than or equal to 1 (got 0)` |" in generated[BUNDLE_FORMAT]


def test_the_message_of_a_misspelt_key_is_what_validate_prints(generated, tmp_path, monkeypatch):
    folder = tmp_path / "every-field"
    shutil.copytree(ROOT / FIXTURE, folder)
    bundle = folder / "bundle.yaml"
    bundle.write_text(bundle.read_text(encoding="utf-8").replace("\n    level: '6'\n", "\n    levle: '6'\n"),
                      encoding="utf-8")
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["validate", "."])
    assert result.exit_code == 1
    printed = result.stderr.splitlines()[:-1]
    raid, level = _line("  raid:"), _line("    level: '6'")
    assert printed == [f"bundle.yaml:{raid}: systems[a].raid.level: missing required field",
                       f"bundle.yaml:{level}: systems[a].raid.levle: unknown key (not part of bundle format v2)"]
    assert f"| `levle: '6'` | a misspelt key (`level`) | {' '.join(f'`{p}`' for p in printed)} |" \
        in generated[BUNDLE_FORMAT]


def test_the_fixture_the_messages_come_from_is_valid():
    result = CliRunner().invoke(main, ["validate", str(ROOT / FIXTURE)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "1 bundle(s) valid\n"


def test_every_field_of_the_json_schema_is_on_the_page(generated):
    """Each property of each model of bundle.schema.json (made from the same models by another road) is
    the last part of a field the page describes."""
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    names = {name for model in [schema, *schema["$defs"].values()] for name in model.get("properties", {})}
    described = set(re.findall(r"^\| `(?:[a-z0-9_\[\].]+\.)?([a-z0-9_]+)` \|", generated[BUNDLE_FORMAT], re.M))
    assert names <= described
    assert len(names) > 90


def test_the_text_rules_are_shown_with_their_messages(generated):
    page = generated[BUNDLE_FORMAT]
    assert f"`product: TO BE STATED` | `bundle.yaml:{_line('    product: Box A')}: systems[a].storage.product: to be " \
           "stated: only the contributor knows it (replace TO BE STATED)` |" in page
    assert "a label may not begin with '@': a spreadsheet opening the published CSV would run it as a formula" in page
    assert "bidirectional control U+202E is not allowed in text" in page
    assert "\u202e" not in page and "\x1b" not in page  # shown escaped, never as the characters themselves


def test_the_cli_page_is_clicks_own_help(generated):
    for command in ["validate", "build", "import", "docs"]:
        result = CliRunner().invoke(main, [command, "--help"], prog_name="benchdb", terminal_width=WIDTH)
        assert result.exit_code == 0
        assert f"## benchdb {command}\n\n```text\n{result.stdout}```\n" in generated[CLI]
    assert "Usage: benchdb validate [OPTIONS] [PATHS]..." in generated[CLI]
    assert "  --github  Also print each problem as a GitHub Actions annotation." in generated[CLI]
