"""A cited log's origin (a file of a repository at a commit) is one of its bundle's sources: a study that names
one repository as its source and cites values read from another's validated (issue #61's seventh pass,
L2). ``benchdb import --cite`` writes them so: a source's GitHub address of that repository, at that commit
(in its address, or as its ``commit``)."""

from __future__ import annotations

from schema.models import Origin, Source
from schema.web_address import github_address, github_repository


def unsourced(origin: Origin, sources: list[Source]) -> str | None:
    """Why ``origin`` is no source of the bundle, or None when one of ``sources`` is its repository (in any
    case, as GitHub reads it) at its commit."""
    for source in sources:
        repository, at = github_repository(source.url), github_address(source.url)
        commits = {source.commit, at[1] if at else None}
        if repository and repository.lower() == origin.repository.lower() and origin.commit in commits:
            return None
    return (f"{origin.repository} at {origin.commit[:7]} is none of the bundle's sources: a log's repository and "
            "commit are those of a source's address (benchdb import --cite writes them so)")
