"""The ``benchdb`` command. Library errors become messages here, and nowhere else."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from schema import SCHEMA_PATH, json_schema

from .build import BuildError, Layout, build_site, find_root, serve
from .parsers import PARSERS, ParseError
from .problems import BundleError, Problem
from .validate import validate_paths


def _report(problems: list[Problem]) -> None:
    for problem in problems:
        click.echo(str(problem), err=True)


@click.group()
def main() -> None:
    """Validate result bundles, load them into DuckDB and build the site."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check bundles (default: every bundle in data/) and report every problem."""
    if not paths:
        try:
            paths = (Layout(find_root()).data,)
        except BuildError as exc:
            raise click.ClickException(str(exc)) from None
    bundles, problems = validate_paths(paths)
    _report(problems)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        files = len({p.path for p in errors})
        click.echo(f"{len(errors)} error(s) in {files} file(s)", err=True)
        sys.exit(1)
    warnings = len(problems)
    click.echo(f"{len(bundles)} bundle(s) valid" + (f", {warnings} warning(s)" if warnings else ""))


@main.command()
@click.option("--serve", "live", is_flag=True, help="Serve a live preview on 127.0.0.1:1313 instead.")
def build(live: bool) -> None:
    """Validate, load build/benchmarks.duckdb, export, and build the site into public/."""
    try:
        layout = Layout(find_root())
        if live:
            serve(layout)
            return
        public = build_site(layout)
    except BundleError as exc:
        _report(exc.problems)
        click.echo(f"build stopped: {len(exc.problems)} error(s) in the bundles", err=True)
        sys.exit(1)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"built {public}")


@main.command()
@click.argument("format_name", metavar="FORMAT")
@click.argument("file", type=click.Path(path_type=Path))
def parse(format_name: str, file: Path) -> None:
    """Print the parsed JSON of one artifact FILE of the given FORMAT."""
    parser = PARSERS.get(format_name)
    if parser is None:
        known = ", ".join(sorted(PARSERS)) or "none yet"
        raise click.ClickException(f"unknown format {format_name!r} (known: {known})")
    try:
        result = parser(file)
    except ParseError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))


@main.command()
@click.option("--write", is_flag=True, help=f"Write {SCHEMA_PATH.name} instead of printing it.")
def schema(write: bool) -> None:
    """Print (or write) the JSON Schema generated from the bundle models."""
    text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
    if write:
        SCHEMA_PATH.write_text(text, encoding="utf-8")
        click.echo(f"wrote {SCHEMA_PATH}")
    else:
        click.echo(text, nl=False)
