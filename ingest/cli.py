"""The ``benchdb`` command. Library errors become messages here, and nowhere else."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from schema import SCHEMA_PATH, json_schema

from .build.site import BuildError, Layout, build_site, find_root, serve
from .contribute.citing import SOURCE_FLAGS
from .contribute.github import annotation, log_line
from .parsers import PARSERS, ParseError
from .parsers.sysbench_intervals import IntervalColumns
from .bundles.problems import BundleError, Problem
from .bundles.validate import validate_paths
from .plumbing.text import printable


def _report(problems: list[Problem], *, github: bool = False) -> None:
    for problem in problems:
        if github:  # the annotation on standard output; the runner reads commands on both streams
            click.echo(annotation(problem))
            click.echo(log_line(str(problem)), err=True)
        else:
            click.echo(str(problem), err=True)


def _data_folder() -> tuple[Path]:
    """The project's data/, for a command given no path."""
    try:
        return (Layout(find_root()).data,)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None


@click.group()
def main() -> None:
    """Validate result bundles, load them into DuckDB and build the site."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--github", is_flag=True, help="Also print each problem as a GitHub Actions annotation.")
def validate(paths: tuple[Path, ...], github: bool) -> None:
    """Check bundles (default: every bundle in data/) and report every problem."""
    paths = paths or _data_folder()
    bundles, problems = validate_paths(paths)
    _report(problems, github=github)
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
    click.echo(json.dumps(result, indent=2, ensure_ascii=False, default=_json_value))


@main.command()
@click.argument("base")
@click.argument("head")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for tools instead of Markdown.")
def diff(base: str, head: str, as_json: bool) -> None:
    """What HEAD changes in the data of BASE: each a git ref, a folder of bundles or a .duckdb file."""
    from .contribute.diff import diff as diff_report
    from .contribute.diff_markdown import markdown

    try:
        report = diff_report(base, head, repo=find_root())
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(json.dumps(report, indent=1, ensure_ascii=False, default=str) if as_json else markdown(report),
               nl=as_json)


def _at_a_terminal() -> bool:
    return sys.stdin.isatty()


@main.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--product", help="The storage product.")
@click.option("--vendor", help="The storage product's vendor.")
@click.option("--device-class", "device_class",
              type=click.Choice(["nvme-ssd", "sas-ssd", "sata-ssd", "pcie-flash-card", "hdd", "cloud-volume"]),
              help="The class of the devices the data is on.")
@click.option("--raid-level", "raid_level", help="0, 1, 5, 6, 10, 50, 60, raid-dp, linear, or none.")
@click.option("--drives", help="How many drives the array has.")
@click.option("--protocol", type=click.Choice(["local", "fcp", "iscsi", "nfs", "smb", "nvme-of"]),
              help="How the host reaches the storage.")
@click.option("--engine", help="The database server and engine, e.g. 'MySQL 8.0 (InnoDB)'.")
@click.option("--database", "catalogue", type=click.Path(path_type=Path),
              help="The catalogue's database (default: build/benchmarks.duckdb, which benchdb build writes).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for tools instead of words.")
@click.option("--no-input", is_flag=True, help="Ask nothing, even at a terminal.")
def compare(log: Path, catalogue: Path | None, as_json: bool, no_input: bool, **facts: str | None) -> None:
    """Where LOG, a sysbench log of one run of your own, lands among the catalogue's published runs.

    The log is read as benchdb import reads it and graded by the run-quality rules; the facts a log
    cannot say are yours to give (asked at a terminal). It is compared with the published series of the
    same test and engine, by transactions a second at the nearest thread count: the percentile it is
    at, the series nearest it by the facts you recorded, with the ratio to each and what differs.
    """
    from .landing.comparable import land
    from .landing.words import landing_lines
    from .landing.your_run import FACTS, CompareFailed, load_your_run
    from .plumbing.scratch import scratch_folder

    if catalogue is None:
        try:
            catalogue = Layout(find_root()).database
        except BuildError as exc:
            raise click.ClickException(str(exc)) from None
    if not catalogue.is_file():
        raise click.ClickException(f"no catalogue database at {printable(str(catalogue))}: run benchdb build first")
    if _at_a_terminal() and not no_input and not as_json:
        for name, question in FACTS.items():
            if not facts.get(name):
                facts[name] = click.prompt(f"The {question} (Enter: not stated)", default="", show_default=False)
    given = {k: v for k, v in facts.items() if v}
    with scratch_folder("benchdb-compare-") as work:
        try:
            landing = land(load_your_run(log, facts=given, work=work), catalogue=catalogue, facts=given)
        except CompareFailed as exc:
            raise click.ClickException("\n".join(map(printable, str(exc).split("\n")))) from None
    if as_json:
        click.echo(json.dumps(landing.as_data(), indent=2, ensure_ascii=False, default=_json_value))
    else:
        for line in landing_lines(landing, log=str(log)):
            click.echo(line)


@main.command(name="import")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The bundle to write: data/<id>.")
@click.option("--label", help="A short name of the system.")
@click.option("--product", help="The storage product.")
@click.option("--vendor", help="The storage product's vendor.")
@click.option("--kind", help="gpu-raid, software-raid, hardware-raid, storage-array or device.")
@click.option("--raid-level", "raid_level", help="0, 1, 5, 6, 10, 50, 60, raid-dp, linear, or none.")
@click.option("--drives", help="How many drives the array has.")
@click.option("--drive-model", "drive_model", help="The drives' model.")
@click.option("--protocol", help="local, fcp, iscsi, nfs, smb or nvme-of.")
@click.option("--cpu", help="The host's CPU.")
@click.option("--publisher", help="Who ran the benchmark.")
@click.option("--no-input", is_flag=True, help="Ask nothing, even at a terminal: what is not given is to be stated.")
@click.option("--systems", "systems_file", type=click.Path(path_type=Path),
              help="A YAML file placing runs in systems, overriding the grouping (see above).")
@click.option("--one-system", is_flag=True, help="Make every run one system (no grouping).")
@click.option("--cite", "cite_text", metavar="OWNER/REPO@COMMIT[:PATH]",
              help="FOLDER is a copy of this repository's folder PATH (default: its root) at COMMIT: cite its logs "
                   "(their figures in cited/) instead of copying them.")
@click.option("--title", help=SOURCE_FLAGS["title"][1])
@click.option("--date", help=SOURCE_FLAGS["date"][1])
@click.option("--url", help=SOURCE_FLAGS["url"][1])
@click.option("--author", help=SOURCE_FLAGS["author"][1])
@click.option("--licence", help=SOURCE_FLAGS["licence"][1])
@click.option("--source-kind", "source_kind", type=click.Choice(["vendor", "independent", "measured-here"]),
              help=SOURCE_FLAGS["source_kind"][1])
def import_(folder: Path, out: Path, no_input: bool, systems_file: Path | None, one_system: bool,
            cite_text: str | None, **answers: str | None) -> None:
    """Write a bundle at OUT from FOLDER's sysbench logs, /proc/mdstat files and database settings.

    One folder is one study of as many systems as its runs differ in: their subfolders (ext4/, xfs/;
    folders named run2, rep1 or 3 hold repetitions), the server's settings files that apply to them (a
    variables dump, a my.cnf or a script starting mysqld, for the runs of its folder), and the varying
    part of their file names that the log does not explain (res_iops5000.txt: iops 5000; not the thread
    count, the test or a repetition's number). Workloads are one a sysbench test (from the log, else a
    script beside it, else the file name, else the query mix the log prints: reads only, oltp_read_only). The
    grouping is printed before the bundle is written, each system with the rule that made it. The answers
    given apply to every system.

    \b
    --systems FILE overrides it: a YAML mapping of a glob of a log's path in the folder, or a word of its
    file name, to a system id, or to {id, label, answers} (answers: the flags' names, e.g. product or
    raid_level, for that system alone); the first entry that matches a log wins:
      "ext4/*": ext4-md10
      iops5000: {id: io2-5000, label: io2 5000 IOPS, answers: {product: Amazon EBS io2}}

    With --cite, the logs are cited, not copied: each run becomes a cited result (the file's path in the
    repository, its SHA-256, and what the parser read from it, in cited/<id>.parquet), and the settings
    files are cited by their repository paths; /proc/mdstat files are not imported.
    """
    from .contribute.bundle_writer import WriteError
    from .contribute.grouping import MappingError, describe, read_mapping
    from .contribute.citing import check_cited_url, read_cite
    from .contribute.importer import QUESTIONS, ImportFailed, import_folder, survey

    given = {k: v for k, v in answers.items() if v}
    try:
        cite = read_cite(cite_text) if cite_text else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--cite") from None
    try:
        if cite and given.get("url"):
            check_cited_url(cite, given["url"])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--url") from None
    try:
        mapping = read_mapping(systems_file) if systems_file else None
        surveyed = survey(folder, mapping=mapping, one_system=one_system, cite=cite)
    except (ImportFailed, MappingError) as exc:
        raise click.ClickException(str(exc)) from None
    for line in describe(surveyed[1], runs=surveyed[0].runs):  # names in it are the folder's: never raw
        click.echo(printable(line))
    if _at_a_terminal() and not no_input:
        for name, question in QUESTIONS.items():
            if name not in given:
                given[name] = click.prompt(f"{question} (Enter: state it later)", default="", show_default=False)
    try:
        found, problems = import_folder(folder, out=out, answers=given, surveyed=surveyed)
    except (ImportFailed, WriteError) as exc:
        raise click.ClickException(str(exc)) from None
    for rel, why in found.skipped:
        click.echo(printable(f"skipped {rel}: {why}"), err=True)
    click.echo(f"wrote {out}: {len(found.runs)} run(s){' cited' if cite else ''}, {len(found.traces)} mdstat file(s), "
               f"{len({n for _, read in found.settings for n in read.settings})} database setting(s) read")
    if problems:
        _report(problems)
        click.echo(f"{len(problems)} value(s) to be stated: edit {out / 'bundle.yaml'}, then run benchdb validate",
                   err=True)


def _json_value(value: object) -> object:
    """What json.dumps cannot write by itself: interval columns, written as one object a sample."""
    if isinstance(value, IntervalColumns):
        return value.to_rows()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _ints(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of whole numbers") from None
    if not values or min(values) < 1:
        raise click.BadParameter(f"{text!r}: give one or more numbers of 1 or more")
    return values


def _switches(text: str) -> list[bool]:
    words = {"on": True, "off": False}
    try:
        return [words[x.strip()] for x in text.split(",")]
    except KeyError:
        raise click.BadParameter(f"{text!r}: use on, off or on,off") from None


@main.command()
@click.option("--out", type=click.Path(path_type=Path), help="The bundle folder to write (data/<id>).")
@click.option("--tests", default="oltp_read_write", show_default=True, help="sysbench tests, comma-separated.")
@click.option("--threads", default="1,2,4", show_default=True, help="Thread counts, comma-separated.")
@click.option("--repetitions", default=3, show_default=True, type=click.IntRange(1, 100))
@click.option("--time", "time_s", default=10, show_default=True, type=click.IntRange(1, 86400), help="Seconds per run.")
@click.option("--tables", default=2, show_default=True, type=click.IntRange(1, 1000))
@click.option("--table-size", default=10000, show_default=True, type=click.IntRange(1, 10**9))
@click.option("--doublewrite", default="on,off", show_default=True, help="Variants: on, off or on,off.")
@click.option("--compression", default="off,on", show_default=True, help="Variants: on, off or off,on.")
@click.option("--socket", help="Use an existing server on this unix socket instead of starting one.")
@click.option("--host", help="Use an existing server on this host instead of starting one.")
@click.option("--port", default=3306, show_default=True, type=int)
@click.option("--user", default="root", show_default=True)
@click.option("--note", help="A note to keep in the bundle, e.g. what machine this is.")
@click.option("--plan", type=click.Choice(["raid-levels", "array-state", "protocol"]),
              help="A comparison over drives: md RAID levels, array state (optimal, degraded, rebuilding) or protocol.")
@click.option("--device", "devices", multiple=True, help="A drive the plan's array is made of (repeat for each).")
@click.option("--destroy-data", "destroy", multiple=True,
              help="A --device whose data the plan may destroy (repeat for each): one that holds anything is refused otherwise.")
@click.option("--mount", "mountpoint", default="/mnt/benchdb", show_default=True, help="Where the plan mounts its storage.")
@click.option("--level", "levels", multiple=True, help="A RAID level (raid-levels: those to compare; array-state: the one).")
@click.option("--filesystem", default="ext4", show_default=True, type=click.Choice(["ext4", "xfs"]))
@click.option("--local", help="protocol: the local device that holds the export.")
@click.option("--nfs", help="protocol: the export, HOST:/PATH.")
@click.option("--iscsi", help="protocol: PORTAL,TARGET-IQN.")
@click.option("--nvme-tcp", "nvme_tcp", help="protocol: ADDRESS,SUBSYSTEM-NQN.")
@click.option("--dry-run", is_flag=True, help="Print the plan's every command and touch nothing.")
def capture(out, tests, threads, repetitions, time_s, tables, table_size, doublewrite, compression, socket, host,
            port, user, note, plan, devices, destroy, mountpoint, levels, filesystem, local, nfs, iscsi, nvme_tcp,
            dry_run) -> None:
    """Run sysbench over thread counts and variants and write a bundle that validates; or, with --plan,
    a comparison over drives (--dry-run prints it)."""
    from .contribute.capture import Capture, CaptureConfig, CaptureError, Connection

    if plan or dry_run:
        from .contribute.capture_run import print_plan
        try:
            lines = print_plan(plan, devices=list(devices), destroy=list(destroy), mount=mountpoint, levels=list(levels),
                               filesystem=filesystem, local=local, nfs=nfs, iscsi=iscsi, nvme_tcp=nvme_tcp,
                               dry_run=dry_run)
        except CaptureError as exc:
            raise click.ClickException(str(exc)) from None
        for line in lines:
            click.echo(line)
        return
    if out is None:
        raise click.UsageError("Missing option '--out'.")

    connection = Connection(socket=socket, host=host, port=port, user=user,
                            password=os.environ.get("BENCHDB_MYSQL_PASSWORD")) if (socket or host) else None
    config = CaptureConfig(out=out, bundle_id=out.name, tests=[t.strip() for t in tests.split(",") if t.strip()],
                           threads=_ints(threads), repetitions=repetitions, time_s=time_s, tables=tables,
                           table_size=table_size, doublewrite=_switches(doublewrite), compression=_switches(compression),
                           connection=connection, note=note)
    try:
        written = Capture(config, log=lambda m: click.echo(m, err=True)).run()
    except CaptureError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        click.echo("interrupted: nothing was written", err=True)
        sys.exit(130)
    click.echo(f"wrote {written}")


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


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--write", is_flag=True, help="Rewrite each bundle file instead of saying what would change.")
def migrate(paths: tuple[Path, ...], write: bool) -> None:
    """Rewrite bundles of an older format to the current one, units written as a source prints them
    (TpmC) to the registry's spelling, and cited logs' figures files of JSON Lines as Parquet, each tied
    to its result and its log's SHA-256 as the bundle gives them (a Parquet file written before the tie
    gets it too) (default: every bundle in data/)."""
    from .bundles.migrate import MigrateError, convert_figures, migrated, replace_text
    from .bundles.validate import display_path, find_bundle_files

    paths = paths or _data_folder()
    files, problems = find_bundle_files(paths)
    _report(problems)
    failed = bool(problems)
    for file in files:
        try:
            result = migrated(file)
            if result is not None:
                convert_figures(file.parent, result[3], write=write)
                if write:
                    replace_text(file, result[0])
        except MigrateError as exc:
            click.echo(printable(f"{display_path(file)}:{exc}"), err=True)
            failed = True
            continue
        except OSError as exc:  # a read-only folder, a full disk: the bundle.yaml as it was (replace_text)
            click.echo(printable(f"{display_path(file)}: cannot write {exc.filename or file.name}: "
                                 f"{exc.strerror or exc}"), err=True)
            failed = True
            continue
        if result is None:
            continue
        text, formats, units, figures = result
        if write:
            for rewrite in figures:
                if rewrite.old != rewrite.new:  # a JSON Lines file written again as Parquet
                    (file.parent / rewrite.old).unlink()
        said = ([f"{display_path(file)}: format {' -> '.join(map(str, formats))}"] if formats else []) + [
            f"{display_path(file)}:{rewrite}" for rewrite in [*units, *figures]]
        for line in said:
            click.echo(line + ("" if write else " (run with --write to rewrite it)"))
    sys.exit(1 if failed else 0)


@main.command()
@click.option("--write", is_flag=True, help="Write the pages into docs/ instead of printing them.")
def docs(write: bool) -> None:
    """Print (or write) the reference pages of docs/ that are generated from the code."""
    from .contribute.reference import pages

    try:
        root = find_root()
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None
    for path, text in pages(root=root, group=main).items():
        if write:
            (root / path).parent.mkdir(exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
            click.echo(f"wrote {path}")
        else:
            click.echo(text, nl=False)


if __name__ == "__main__":  # python -m ingest.cli, as the benchdb command
    main()
