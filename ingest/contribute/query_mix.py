"""A run's test inferred from the query mix its log prints, where nothing names the test (issue #58).

sysbench 0.5's oltp.lua prints no test name, and a folder's files are not always named ``ro``/``rw``;
but the summary block of 0.4, 0.5 and 1.0 counts the queries by kind::

    queries performed:
        read:                            62217666
        write:                           0
        other:                           8888238

Where neither the log, a script beside it, its file name nor a ``--systems`` mapping names the test
(grouping.py's ``run_tests``), the mix tells a read-only run from one that writes. ``MIX_TESTS`` is the
one place saying which test each mix is; grouping.py's words of 0.5's file names (``ro``, ``rw``,
``wo``) read the same names from it. What a mix does not tell apart infers nothing, and says why:

- reads 0 and writes 0: no test;
- reads only or writes only with no other queries: oltp.lua's read-only and write-only transactions
  count their BEGIN and COMMIT as other queries; a mix without them is also what the tests of one
  statement print (point_select, select_random_*, insert, update_index, update_non_index, delete).
"""

from __future__ import annotations

from dataclasses import dataclass

# the test each query mix is, as benchdb import names sysbench 0.5's oltp.lua runs (sysbench.ro.64.res:
# oltp_read_only) and sysbench 1.0 names its own
MIX_TESTS = {"read-only": "oltp_read_only", "write-only": "oltp_write_only", "read-write": "oltp_read_write"}
# the tests of one statement, no BEGIN or COMMIT: what a read-only or write-only mix without other queries may be
ONE_STATEMENT = {"reads": "point_select, select_random_points, select_random_ranges",
                 "writes": "insert, update_index, update_non_index, delete"}
HOW = "query mix"  # how grouping.py's tests say a test was inferred from the mix


@dataclass(frozen=True)
class Mix:
    """The query counts a log's summary prints, with their lines in the file read."""
    reads: int
    read_line: int
    writes: int
    write_line: int
    other: int | None
    other_line: int | None

    @property
    def kind(self) -> str | None:
        """"read-only", "write-only", "read-write", or None when the mix does not tell (see ``why_none``)."""
        if self.why_none():
            return None
        return "read-write" if self.reads and self.writes else "read-only" if self.reads else "write-only"

    @property
    def test(self) -> str | None:
        return MIX_TESTS.get(self.kind) if self.kind else None

    def why_none(self) -> str | None:
        """Why the mix infers no test, or None when it infers one."""
        if not self.reads and not self.writes:
            return "reads 0 and writes 0 show no test"
        if not (self.reads and self.writes) and not self.other:
            return (f"{'reads' if self.reads else 'writes'} alone and no other queries: a test of one statement's "
                    f"mix too ({ONE_STATEMENT['reads' if self.reads else 'writes']})")
        return None

    def shown(self, *, offset: int = 0) -> str:
        """The counts with their lines (``offset``: lines of the file read before the one cited)."""
        counts = [("read", self.reads, self.read_line), ("write", self.writes, self.write_line),
                  ("other", self.other, self.other_line)]
        return ", ".join(f"{name} {value} (line {line - offset})" for name, value, line in counts if line is not None)


def read_mix(run: dict) -> Mix | None:
    """The query mix a parsed OLTP run prints ("queries performed: read: N write: N other: N"), or None."""
    totals, lines = run.get("totals") or {}, run.get("source_lines") or {}
    if run.get("kind") != "oltp" or totals.get("reads") is None or totals.get("writes") is None \
            or "read" not in lines or "write" not in lines:
        return None
    return Mix(reads=totals["reads"], read_line=lines["read"], writes=totals["writes"], write_line=lines["write"],
               other=totals.get("other"), other_line=lines.get("other") if totals.get("other") is not None else None)


def summary_lines(*, runs: list[dict], tests: list[tuple[str, str]]) -> list[str]:
    """What import prints of each run's test inferred from its mix, or of a mix that infers none."""
    out = []
    for r, (test, how) in zip(runs, tests):
        mix = read_mix(r["run"])
        where = r["source"] + (f" lines {r['lines'][0]}-{r['lines'][1]}" if r.get("lines") else "")
        if how == HOW and mix:
            out.append(f"  test {test} of {where}: inferred from its {mix.kind} query mix, {mix.shown()}")
        elif how == "nothing names it" and mix:
            out.append(f"  {where}: its query mix infers no test ({mix.shown()}: {mix.why_none()})")
    return out


def workload_notes(*, runs: list[dict], tests: list[tuple[str, str]], cite=None) -> dict[str, str]:
    """Each workload's note on its runs' tests inferred from their query mixes, or on mixes that infer
    none: each run's file as the bundle names it (``artifacts/<name>``, or with ``cite``, a Citation, its
    path in the repository) and the mix's lines in it (a split file's artifact begins at its run's line)."""
    cited: dict[str, list[tuple[str, str, Mix, int]]] = {}
    for r, (test, how) in zip(runs, tests):
        if how in (HOW, "nothing names it") and (mix := read_mix(r["run"])) is not None:
            file = cite.ref(r["source"]) if cite is not None else f"artifacts/{r['name']}"
            offset = r["lines"][0] - 1 if cite is None and r.get("lines") else 0
            cited.setdefault(r["workload"], []).append((test, file, mix, offset))
    return {workload: _note(runs_) for workload, runs_ in cited.items()}


def _note(cited: list[tuple[str, str, Mix, int]]) -> str:
    inferred = [f"{file}: {mix.kind}, {mix.shown(offset=offset)}" for _, file, mix, offset in cited if mix.test]
    none = [f"{file}: {mix.shown(offset=offset)}: {mix.why_none()}" for _, file, mix, offset in cited if not mix.test]
    notes = []
    if inferred:
        notes.append(f"Test {next(t for t, _, m, _ in cited if m.test)} inferred by benchdb import from the query mix "
                     "its log prints, as nothing names it (" + "; ".join(inferred) + ").")
    if none:
        notes.append("Nothing names the test, and the query mix infers none (" + "; ".join(none) + ").")
    return " ".join(notes)
