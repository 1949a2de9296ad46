"""A sysbench log file as one or more runs.

Files often hold several runs one after the other (three thread counts, say). A new run starts
where a line that opens a run (a shell command running sysbench, the version line, 'Running the
test with following options:', 'Number of threads:') follows figures of the current run; where
an interval line follows the current run's final statistics; where interval times start again
from the run's first time; or where a statistics section the run has already filled starts
again. Each run is read on its own and keeps its line range, so no run is ever dropped behind
warnings: a caller that wants exactly one run (a bundle artifact) gets an error naming the line
where the second one starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from .reading import ParseError, artifact_pieces, no_cyclic_gc, split_pieces
from .sysbench import _Parser
from .sysbench_checks import finish
from .sysbench_intervals import TooManySamples, feed_lines, read_piece


class _Runs:
    """Hands lines to the _Parser of the current run; where that parser finds a line that opens
    the next run (it sets new_run_at and leaves the line unread), a new _Parser reads on from it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.runs: list[list] = []  # [parser, first content line, last content line]
        self._start(None)

    def _start(self, line_no: int | None) -> None:
        self.parser = _Parser(self.name)
        self.runs.append([self.parser, line_no, line_no])

    def feed(self, line_no: int, raw: str) -> None:
        self.parser.feed(line_no, raw)
        if self.parser.new_run_at is not None:  # the line opens the next run: read it there
            self.parser.new_run_at = None
            self._start(line_no)
            self.parser.feed(line_no, raw)
        if raw and not raw.isspace():
            run = self.runs[-1]
            run[1] = run[1] or line_no
            run[2] = line_no

    def interval_block(self, first_line: int, block: bytes) -> bool:
        if self.parser.summary_line is not None or self.parser.checkpoint is not None:
            return False  # read line by line: the first line starts a new run, or ends a checkpoint report
        if not self.parser.interval_block(first_line, block):
            return False
        run = self.runs[-1]
        run[1] = run[1] or first_line
        run[2] = first_line + block.count(b"\n") - 1
        return True

    def finish(self) -> list[dict]:
        """The runs read, each checked. A run that failed (sysbench printed FATAL before any figure: a
        prepare step that could not create its table, say) is an error only when no run of the file
        was read; else it is named in a warning of the next run read (or the last one), and the runs
        around it are read as usual."""
        done, failed, error = [], [], None
        for parser, first, last in self.runs:
            try:
                run = finish(parser)
            except ParseError as exc:
                if parser.fatal is None:
                    raise  # not a sysbench log at all
                error = error or exc
                failed.append(f"line {first}: lines {first}-{last} are a sysbench run that failed "
                              f"(line {parser.fatal[0]}: {parser.fatal[1][:80]}); not read as a run")
                continue
            run["lines"] = [first, last]
            run["warnings"][:0], failed = failed, []
            done.append(run)
        if not done:
            raise error
        done[-1]["warnings"].extend(failed)
        return done


def _parse(pieces: Iterable[bytes], *, name: str) -> list[dict]:
    """``pieces``: the log's bytes as pieces of whole lines (each ending in a newline), then one last
    piece without a newline: what follows the last newline (perhaps nothing)."""
    runs = _Runs(name)
    with no_cyclic_gc():
        line_no, tail = 1, b""
        try:
            for piece in pieces:
                if piece.endswith(b"\n"):
                    line_no = read_piece(runs, line_no, piece)
                else:
                    tail = piece
            feed_lines(runs, line_no, tail, whole=False)
        except TooManySamples as exc:
            raise ParseError(f"{name}:{exc.line}: {exc}") from None
        return runs.finish()


def _one(runs: list[dict], *, name: str) -> dict:
    if len(runs) == 1:
        return runs[0]
    ranges = ", ".join(f"{a}-{b}" for a, b in (run["lines"] for run in runs))
    raise ParseError(f"{name}:{runs[1]['lines'][0]}: a second run starts here: the file holds {len(runs)} runs "
                     f"(lines {ranges}); give each run its own artifact file")


def parse_text(text: str, *, name: str = "<log>", piece_bytes: int | None = None) -> dict:
    """The one run a log's text holds (a ParseError when it holds several)."""
    return _one(parse_text_runs(text, name=name, piece_bytes=piece_bytes), name=name)


def parse_text_runs(text: str, *, name: str = "<log>", piece_bytes: int | None = None) -> list[dict]:
    return _parse(split_pieces(text.encode("utf-8", errors="surrogatepass"), size=piece_bytes), name=name)


# What a sysbench log prints early, in every version the parser reads: its banner, its interval lines
# (1.0 "thds:", 0.5 "threads:"), its totals; a large file with none in its first piece is not read on
MARKERS = (b"sysbench", b"thds:", b"threads:", b"transactions:")


def parse_runs(path: Path) -> list[dict]:
    """Every run a log file holds, in order, each with its 'lines' range."""
    return _parse(artifact_pieces(path, kind="a sysbench log", markers=MARKERS), name=str(path))


def parse_file(path: Path) -> dict:
    """The one run a log file holds (a bundle artifact): a ParseError naming the line where a second
    run starts when it holds several."""
    return _one(parse_runs(path), name=str(path))


def parse_log(path: Path) -> dict:
    """What ``benchdb parse sysbench`` prints: the run, or {"runs": [...]} when the file holds several."""
    runs = parse_runs(path)
    return runs[0] if len(runs) == 1 else {"runs": runs}
