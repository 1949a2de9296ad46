"""``benchdb import FOLDER --cite OWNER/REPO@COMMIT[:PATH]``: the logs of a repository that gives no
licence to republish them, cited instead of copied (issue #51).

FOLDER is a local copy of the repository at COMMIT (of its folder PATH, when given). Import groups and
parses its runs as it does any folder's; here each run becomes a ``type: cited`` result: the file's
path in the repository, the SHA-256 of its bytes and the figures the parser read from it, written to
``cited/<id>.parquet`` (schema/figures.py). A run of a file of several runs cites the whole file, its
figures naming the run's lines in it. Settings files and mdadm or lsblk output are read as usual and
cited by their repository path in the system's notes, never copied; /proc/mdstat files are not
imported (a trace is carried as a file, which this repository's licence does not allow).

The source the study is taken from is the repository at the commit; what import cannot read from the
folder (title, date, author, licence, who stands behind the figures) comes from flags (``SOURCE_FLAGS``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from pydantic import TypeAdapter, ValidationError

from schema.models import CommitHash, Repository, RepositoryPath, Source
from schema.web_address import github_address

from ..bundles.cited import figures_path

# The flags of import that describe the source (schema/models.py Source): the answer's name, the
# field it fills, and the flag's help.
SOURCE_FLAGS = {
    "title": ("title", "The source's title (default: what the logs are)."),
    "date": ("date", "When the source was published: YYYY, YYYY-MM or YYYY-MM-DD."),
    "url": ("url", "Where the source is (with --cite, default: the repository's folder at the commit)."),
    "author": ("author", "The source's author or authors."),
    "licence": ("licence", "The licence the logs are published under (an SPDX identifier, e.g. CC-BY-4.0); with "
                           "--cite and none given: none, cited only."),
    "source_kind": ("kind", "Who stands behind the figures: vendor, independent or measured-here."),
}


@dataclass(frozen=True)
class Citation:
    repository: str
    commit: str
    under: str  # where FOLDER is in the repository ("" for its root)

    def path(self, rel: str) -> str:
        """A file of FOLDER (``rel``: its path in FOLDER) by its path in the repository."""
        return f"{self.under}/{rel}" if self.under else rel

    def ref(self, rel: str) -> str:
        """How notes name a file of the repository: owner/name@commit:path (the commit's first 12 digits)."""
        return f"{self.repository}@{self.commit[:12]}:{self.path(rel)}"


def read_cite(text: str) -> Citation:
    """``OWNER/REPO@COMMIT`` or ``OWNER/REPO@COMMIT:PATH``; a ValueError saying what is wrong."""
    repository, at, rest = text.partition("@")
    commit, _, under = rest.partition(":")
    under = under.strip("/")
    if not at:
        raise ValueError(f"{text!r}: give OWNER/REPO@COMMIT, optionally :PATH (where FOLDER is in the repository)")
    for what, kind, value in (("repository", Repository, repository), ("commit", CommitHash, commit),
                              ("path", RepositoryPath, under)):
        if what == "path" and not value:
            continue
        try:
            TypeAdapter(kind).validate_python(value, strict=True)
        except ValidationError as exc:
            why = exc.errors()[0]["msg"].removeprefix("Value error, ")
            raise ValueError(f"{text!r}: the {what} {value!r}: {why}") from None
    return Citation(repository=repository, commit=commit, under=under)


def sha256_of(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def cite_runs(results: list[dict], runs: dict[str, dict], *, folder: Path, cite: Citation,
              licence: str | None) -> dict[str, tuple[dict, dict]]:
    """Turn the run results of an imported bundle (``runs``: each run of import's scan by its artifact
    path) into cited results, in place; returns each figures file to write (its path in the bundle) with
    its run and what it is the figures of (cited.write_figures' origin: the result and its log's SHA-256)."""
    figures: dict[str, tuple[dict, dict]] = {}
    digests: dict[str, str] = {}
    for i, result in enumerate(results):
        run = runs.get(result.get("path", "")) if result["type"] == "artifact" else None
        if run is None:
            continue
        source = run["source"]
        digests.setdefault(source, sha256_of(folder / source))
        origin = {"repository": cite.repository, "commit": cite.commit, "path": cite.path(source),
                  "sha256": digests[source], **({"licence": licence} if licence else {})}
        cited = {"type": "cited", "id": result["id"], "format": "sysbench", "origin": origin,
                 "figures": figures_path(result["id"]),
                 **{k: v for k, v in result.items() if k not in ("type", "id", "format", "path")}}
        results[i] = cited
        figures[cited["figures"]] = (run["run"], {"result": result["id"], "sha256": digests[source]})
    return figures


def check_cited_url(cite: Citation, url: str) -> None:
    """``--url`` given with ``--cite``: an address of the cited repository at the cited commit, the source
    the study names (a --url of another repository had the study name one and link the other: issue #61's
    fourth pass). ValueError says why not."""
    found = github_address(url)
    if found is None or found[0].lower() != cite.repository.lower() or found[1] != cite.commit:
        raise ValueError(f"{url!r} is not an address of {cite.repository} at {cite.commit}: with --cite the study's "
                         f"source is the repository its logs are cited from (leave --url out, or give "
                         f"https://github.com/{cite.repository}/tree/{cite.commit}/...)")


def source_entry(answers: dict[str, str], *, cite: Citation | None, to_be_stated: str) -> dict:
    """The study's source: the repository at the commit (with --cite), or the bundle's own logs; what the
    flags give (SOURCE_FLAGS) in its fields."""
    if cite is None:
        where = {"title": "Measured runs (this bundle's logs)", "identifier": "artifacts/ in this bundle"}
    else:
        # the folder's path quoted as load.py quotes a file's: a '%2e%2e' part stays text, not '..'
        tree = f"https://github.com/{cite.repository}/tree/{cite.commit}" + (f"/{quote(cite.under, safe='/')}"
                                                                               if cite.under else "")
        where = {"title": f"Benchmark logs of {cite.repository}", "url": tree, "commit": cite.commit,
                 "licence": "cited only"}
    given = {field: answers[name] for name, (field, _) in SOURCE_FLAGS.items() if answers.get(name)}
    out = {"id": "logs", "publisher": answers.get("publisher") or to_be_stated, "language": "en", **where, **given}
    return {name: out[name] for name in Source.model_fields if name in out}  # in the format's order


def cited_note(cite: Citation, folder_name: str, *, licence: str | None) -> str:
    where = f"its folder {cite.under}" if cite.under else "its root"
    why = f"under the licence {licence}" if licence else "the repository gives no licence to republish them"
    return (f"Imported by benchdb import --cite from {cite.repository} at commit {cite.commit} ({where}, read from "
            f"a local copy named {folder_name}): the logs are cited, not copied ({why}); what the parser read "
            "from each is in cited/, and each value links to its line in the repository.")
