"""Text shown to a person: on a terminal, or in a problem that names part of a hostile file."""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with each character that is not printable (ESC, CR, a newline, a bidirectional override
    in a file name or a key: issue #61) written as Python escapes it (\\x1b, \\r, \\n, \\u202e), so
    that a name can neither forge a line of output nor move the terminal's cursor."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
