"""benchdb: result bundles validated, loaded into DuckDB, published, and built into the site.

The package is in rooms, each named by its role, from the bottom up; a module imports from its own room
and the rooms below it, never from one above (tests/test_architecture.py):

- ``plumbing``: caches on disk, the removal of what they no longer need, child processes, memory, digests.
- ``parsers``: the artifacts' formats (sysbench logs, /proc/mdstat snapshots and traces).
- ``bundles``: a bundle read and validated, its problems, the field registry, the figures computed from it.
- ``database``: the bundles loaded into DuckDB (its SQL in ``database/sql``), the runs' grades, staging.
- ``synthesis``: the synthesis of studies' effects: pooling, certainty, the answer's words.
- ``publish``: the database exported as what the site reads (data files, downloads, embeds' specs).
- ``contribute``: the contributor's tools (import, capture, the bundle writer, diff, previews, GitHub).
- ``landing``: where a run of your own lands among the catalogue's (``benchdb compare``).
- ``build``: the site's build (``build/site.py``), its export, embeds, search index, shards and generations.
- ``cli.py``: the ``benchdb`` command, where errors become messages.
"""

ROOMS = ("plumbing", "parsers", "bundles", "database", "synthesis", "publish", "contribute", "landing", "build", "cli")
