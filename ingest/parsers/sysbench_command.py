"""The shell command a sysbench log was made with, where the log shows it, and the lines that
open a run.

A prompt line ('$ ', '# ', zsh's '➜ dir ', RHEL/CentOS's '[root@host dir]# ') runs sysbench: the
first test name after 'sysbench' (or 0.4/0.5's --test=) names the test, and --options are kept
(the thread count is --threads=, or --num-threads= in 0.4/0.5). A command continued over several
lines with a trailing backslash is read whole.
"""

from __future__ import annotations

import re
from pathlib import Path

from .sysbench_shapes import KINDS, OLTP_TESTS, RE_COMMAND, RE_THREADS, RE_VERSION

# A command running sysbench that goes on on the next line ("sysbench oltp_read_write \").
RE_CONTINUED = re.compile(r"(?:^|\s)(?:\S*/)?sysbench(?:\s.*)?\\$")
_OPTION = re.compile(r"^--([a-z][a-z0-9_-]*)=(.*)$")  # sysbench-tpcc: --report_csv=yes
_OPENERS = ("Running the test with following options:",)


def opens_a_run(line: str) -> bool:
    """Lines sysbench prints (or a shell shows) before a run's figures: after figures, a new run."""
    return (line.startswith(_OPENERS) or bool(RE_THREADS.match(line)) or bool(RE_VERSION.match(line))
            or bool(RE_COMMAND.search(line)) or bool(RE_CONTINUED.search(line)))


def is_opener(line: str) -> bool:
    return line.startswith(_OPENERS)


def read_command(line: str) -> tuple[str | None, dict[str, str]]:
    """The test a command line runs and its --options (never a password's value)."""
    words = line.split()
    after = [i for i, w in enumerate(words) if w.endswith("sysbench")]
    options: dict[str, str] = {}
    test = None
    for word in words[after[0] + 1:] if after else []:
        if m := _OPTION.match(word):
            name = m.group(1)
            options[name] = "(not kept)" if "password" in name else m.group(2).strip("'\"")
        elif test is None:
            test = _test_name(word)
    return test or _test_name(options.get("test", "")), options


def threads_given(options: dict[str, str]) -> int | None:
    value = options.get("threads", options.get("num-threads"))
    return int(value) if value is not None and value.isdigit() and int(value) > 0 else None


def _test_name(word: str) -> str | None:
    name = Path(word).name.lower()
    if name.endswith(".lua"):
        return name.removesuffix(".lua").replace("-", "_")
    return name if name in OLTP_TESTS or name in KINDS else None
