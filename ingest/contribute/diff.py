"""``benchdb diff BASE HEAD``: what a change does to the published data, for a reviewer.

Each side is a database: a ``.duckdb`` file as it is, or one built (with the code at hand) from a
folder of bundles or from the ``data/`` folder of a git ref. The two are compared in SQL:
studies, systems, values and claims added, removed and changed, each value with its provenance on
both sides, the claims whose verdict changes, and the facet pages that show a changed study.

A value is known by its place in the bundle as printed (study, result, row label, column label,
and its rank among cells with the same labels), not by its row number: a row added above it does not
make it change, nor does a provenance whose line number moved with the edit.
"""

from __future__ import annotations

import json
import re
import subprocess
import tarfile
import tempfile
from pathlib import Path

import duckdb

from ..bundles.fields import facet_pages
from ..bundles.problems import BuildError
from ..database.stage import build_database_from, stage_bundles

# what makes a value changed (its provenance may move with an edit and is shown, not compared)
VALUE_FIELDS = ("value_text", "value_kind", "unit", "metric", "system", "workload", "state", "threads", "flag")
CLAIM_FIELDS = ("verdict", "stated", "computed", "unit", "text")
SHOWN_PER_STUDY = 50  # rows of a study's table of changed values in Markdown (the JSON has them all)


def _database_of_folder(data: Path, *, work: Path, name: str) -> Path:
    staged, problems, _ = stage_bundles([data], cache=work / "cache")
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise BuildError(f"{name}: {len(errors)} error(s) in its bundles, the first: {errors[0]}")
    return build_database_from(staged, db_path=work / f"{name}.duckdb")


def _commit_of(ref: str, *, repo: Path) -> str:
    """The commit ``ref`` names. It is read after ``--end-of-options``, so a ref that looks like an option
    (``--output=FILE``) is a name git looks up, never an option (issue #49); git is then given the hash."""
    shown = ref if ref.isprintable() else repr(ref)
    done = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", "--end-of-options",
                           f"{ref}^{{commit}}"], capture_output=True, text=True)
    commit = done.stdout.strip()
    if done.returncode != 0 or not re.fullmatch("[0-9a-f]{40,64}", commit):
        raise BuildError(f"{shown}: not a git ref with a data/ folder (no commit has that name)")
    return commit


def _database_of_ref(ref: str, *, repo: Path, work: Path, name: str) -> Path:
    commit = _commit_of(ref, repo=repo)
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit, "data"], capture_output=True)
    if archive.returncode != 0:
        shown = ref if ref.isprintable() else repr(ref)
        raise BuildError(f"{shown}: not a git ref with a data/ folder ({archive.stderr.decode().strip()})")
    folder = work / f"{name}-tree"
    folder.mkdir()
    archive_file = work / f"{name}.tar"
    archive_file.write_bytes(archive.stdout)
    with tarfile.open(archive_file) as tar:
        members = tar.getmembers()
        for member in members:  # plain files and folders of data/ only (Python 3.11.2 has no extraction filter)
            if not (member.isfile() or member.isdir()) or member.name.startswith("/") or ".." in Path(member.name).parts:
                raise BuildError(f"{ref}: {member.name} is not a plain file or folder of data/ (links are not followed)")
        tar.extractall(folder, members=members)
    return _database_of_folder(folder / "data", work=work, name=name)


def database_of(source: str, *, repo: Path, work: Path, name: str) -> Path:
    """The database a side of the diff names: a .duckdb file, a folder of bundles, or a git ref."""
    path = Path(source)
    if path.suffix == ".duckdb" and path.is_file():
        return path
    if path.is_dir():
        return _database_of_folder(path, work=work, name=name)
    return _database_of_ref(source, repo=repo, work=work, name=name)


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    cursor = con.execute(sql)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _changed(fields: tuple[str, ...]) -> str:
    return " OR ".join(f"b.{f} IS DISTINCT FROM h.{f}" for f in fields)


def _values(con) -> list[dict]:
    ranked = ("SELECT *, row_number() OVER (PARTITION BY study, result, row_label, column_label "
              "ORDER BY row_index, col_index) AS nth FROM {}.measurements")
    shown = ", ".join(f"b.{f} AS old_{f}, h.{f} AS new_{f}" for f in (*VALUE_FIELDS, "provenance"))
    return _rows(con, f"""
        WITH b AS ({ranked.format('base')}), h AS ({ranked.format('head')})
        SELECT coalesce(h.study, b.study) AS study, coalesce(h.result, b.result) AS result,
               coalesce(h.row_label, b.row_label) AS row_label, coalesce(h.column_label, b.column_label) AS column_label,
               CASE WHEN b.study IS NULL THEN 'added' WHEN h.study IS NULL THEN 'removed' ELSE 'changed' END AS change,
               {shown}
        FROM b FULL JOIN h USING (study, result, row_label, column_label, nth)
        WHERE b.study IS NULL OR h.study IS NULL OR {_changed(VALUE_FIELDS)}
        ORDER BY study, coalesce(h.result_index, b.result_index), coalesce(h.row_index, b.row_index),
                 coalesce(h.col_index, b.col_index)""")


def _keyed(con, table: str, key: tuple[str, ...], *, exclude: tuple[str, ...] = ()) -> list[dict]:
    """Rows of ``table`` added, removed or changed between the sides, with the fields that changed."""
    columns = [c for (c,) in con.execute("SELECT column_name FROM duckdb_columns() WHERE database_name = 'head' "
                                         "AND table_name = ? ORDER BY column_index", [table]).fetchall()]
    compared = [c for c in columns if c not in key and c not in exclude]
    rows = _rows(con, f"""
        SELECT {', '.join(f'coalesce(h.{k}, b.{k}) AS {k}' for k in key)},
               CASE WHEN b.{key[0]} IS NULL THEN 'added' WHEN h.{key[0]} IS NULL THEN 'removed' ELSE 'changed' END AS change,
               to_json(b) AS old, to_json(h) AS new
        FROM base.{table} AS b FULL JOIN head.{table} AS h USING ({', '.join(key)})
        WHERE b.{key[0]} IS NULL OR h.{key[0]} IS NULL OR {_changed(tuple(compared))}
        ORDER BY {', '.join(key)}""")
    for row in rows:
        old, new = (json.loads(row.pop(side) or "null") or {} for side in ("old", "new"))
        row["fields"] = {c: [old.get(c), new.get(c)] for c in compared if old.get(c) != new.get(c)}
    return rows


def _facet_pages(con, studies: list[str]) -> dict[str, list[str]]:
    """For each facet page, which of ``studies`` it shows on either side: those whose values vary the
    facet (more than one value of it), or for array state, have values outside optimal state."""
    pages = {}
    for field in facet_pages():
        test = ("bool_or(state IS NOT NULL AND state <> 'optimal')" if field.page.baseline == "optimal"
                else f"count(DISTINCT {field.key}) > 1")
        shown = {s for side in ("base", "head") for (s,) in con.execute(
            f"SELECT study FROM {side}.results WHERE list_contains(?, study) GROUP BY study HAVING {test}",
            [studies]).fetchall()}
        if shown:
            pages[f"/{field.page.slug}/"] = sorted(shown)
    return pages


def diff_databases(base: Path, head: Path) -> dict:
    con = duckdb.connect()
    try:
        for name, path in (("base", base), ("head", head)):  # a quote in a path is doubled, as SQL reads it
            con.execute(f"ATTACH '{str(path).replace(chr(39), chr(39) * 2)}' AS {name} (READ_ONLY)")
        studies = _keyed(con, "studies", ("study",), exclude=("bundle_path", "setup"))
        values = _values(con)
        systems = _keyed(con, "systems", ("study", "system"), exclude=("position",))
        claims = _keyed(con, "claims", ("study", "claim"), exclude=("position",))
        touched = sorted({r["study"] for r in (*studies, *values, *systems, *claims)})
        return {"studies": studies, "systems": systems, "values": values, "claims": claims,
                "verdicts": [c for c in claims if c["change"] == "changed" and "verdict" in c["fields"]],
                "facet_pages": _facet_pages(con, touched), "studies_touched": touched}
    finally:
        con.close()


def diff(base: str, head: str, *, repo: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="benchdb-diff-") as tmp:
        work = Path(tmp)
        report = diff_databases(database_of(base, repo=repo, work=work, name="base"),
                                database_of(head, repo=repo, work=work, name="head"))
    return {"base": base, "head": head, **report}
