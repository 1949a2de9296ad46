"""A web address that goes where it reads (a source's ``url``: schema/models.py, Url), so that what a
browser resolves is what the site shows and cites (issue #61)."""

from __future__ import annotations

import re
import unicodedata
import urllib.parse

# A host name of the web: dot-separated labels, the last of letters (a top-level domain, or its punycode);
# a name beyond ASCII is refused with its punycode below. Not an IP address, in any of its spellings.
# Characters that do not show, or show as nothing but space: controls, formats, separators, combining
# marks on nothing, and the Hangul and braille fillers (NBSP, U+3000, U+2800 passed: the eighth pass)
_HIDDEN = ("Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me")
_FILLERS = "\u115f\u1160\u3164\uffa0\u2800"
# A GitHub address of a file or folder at a commit: its repository (owner/name), commit and path.
GITHUB = re.compile(r"https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/(?:blob|tree)/([0-9a-f]{40})(?:/([^?#]*))?$")
_REPOSITORY = re.compile(r"https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?)(?:\.git)?(?:[/?#]|$)")
_HOST = re.compile(r"(?:[^\W_](?:[\w-]{0,61}[^\W_])?\.)+(?:[^\W\d_]{2,63}|xn--[a-z0-9-]{1,59})", re.IGNORECASE)


def web_address(text: str) -> str:
    """A web address that goes where it reads: the site and every page link to it, and its words name
    its host and path (ingest/database/citing.py: a repository at a commit), so what a browser resolves
    must be what is shown (issue #61)."""
    parts = urllib.parse.urlsplit(text)
    if "@" in parts.netloc:
        raise ValueError(f"a web address with a name before '@' goes to the host after it ({parts.hostname!r}), "
                         "not to the one it seems to name: give the address without it")
    host = parts.hostname or ""
    if not host:
        raise ValueError("a web address without a host")
    if "%" in parts.netloc:  # a browser decodes it: %D0%B0pple.com is Cyrillic а, not a
        raise ValueError("a host written with %-escapes, which a browser decodes to another name: write the host as it is")
    try:
        parts.port
    except ValueError:
        raise ValueError(f"a port that is not a number from 0 to 65535 ({parts.netloc!r})") from None
    if not _HOST.fullmatch(host):
        raise ValueError(f"a host that is not a name of the web ({host!r}): an address such as 0x7f000001 or 127.0.0.1 "
                         "goes to a machine no source is published from")
    if not host.isascii():
        try:
            shown = f": write it as a browser reads it, {host.encode('idna').decode('ascii')!r}"
        except UnicodeError:
            shown = ""
        raise ValueError(f"a host of letters beyond ASCII ({host!r}), which can pass for another's{shown}")
    hidden = [c for c in text if unicodedata.category(c) in _HIDDEN or c.isspace() or c in _FILLERS]
    if hidden:  # a zero-width space in a path showed nothing and went to x%E2%80%8B (issue #61's seventh pass)
        raise ValueError(f"a character that does not show (U+{ord(hidden[0]):04X}) in the address: it goes to "
                         "another one than it seems to name")
    if "\\" in urllib.parse.unquote(text) or any(p in (".", "..") for p in urllib.parse.unquote(parts.path).split("/")):
        raise ValueError("a path with a '.' or '..' part (written as such or as %2e) or a backslash: a browser "
                         "goes to another address than the one it shows")
    return text


def github_address(url: str | None) -> tuple[str, str, str | None] | None:
    """The repository (owner/name), commit and path a GitHub address of a file or folder at a commit
    names, or None (a source's url: web_address has refused what a browser would resolve elsewhere)."""
    found = GITHUB.match(url or "")
    return (found.group(1), found.group(2), found.group(3)) if found else None


def github_repository(url: str | None) -> str | None:
    """The repository (owner/name) a GitHub address is of, or None: its root, or anything under it."""
    found = _REPOSITORY.match(url or "")
    return found.group(1) if found else None
