"""How a number is written in a bundle: the one rule for table cells and YAML numbers alike.

A number is plain ASCII digits with an optional sign and decimal point: no thousands separators
(``12,345``, ``12 345``), no other digits (Arabic-Indic, full-width), and no more digits than a
double holds (a value is stored as a double: a 40-digit value would be rounded without a word).
"""

from __future__ import annotations

import math
import re
import unicodedata
from decimal import Decimal

# A number exactly as printed: digits, optional sign and decimal point, no thousands separators.
NUMBER_TEXT = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
_GROUPED = re.compile(r"^[-+]?[0-9]{1,3}([,'_\s\u00a0\u202f\u2009][0-9]{3})+(\.[0-9]+)?$")


def why_not_plain(text: str) -> str:
    """Which part of the rule ``text`` (not a plain number) breaks, in words."""
    other = next((c for c in text if unicodedata.category(c) == "Nd" and c not in "0123456789"), None)
    if other is not None:
        return f"digits must be ASCII 0-9, not {other!r} ({unicodedata.name(other, 'a non-ASCII digit')})"
    if _GROUPED.match(text):
        return "thousands separators are not allowed: write the digits together (12345, not 12,345)"
    return "not a plain number (ASCII digits, an optional minus sign and decimal point)"


def inexact(text: str) -> str | None:
    """Why a double cannot hold the number ``text`` as printed (None when it can): the value it would be
    stored as differs from the printed one."""
    try:
        stored = float(text)
    except (ValueError, OverflowError):
        return None  # not a number at all: other rules say so
    if not math.isfinite(stored):
        return f"{text} is beyond what a double holds"
    if Decimal(repr(stored)) != Decimal(text.replace("_", "")):
        return f"{text} has more digits than a double holds: it would be stored as {stored!r}"
    return None
