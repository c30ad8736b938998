"""Colours and text measuring: ANSI escapes that switch off when they would be noise."""

from __future__ import annotations

import os
import re
import textwrap
import unicodedata
from typing import TextIO

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

CODES = {
    "bold": "1", "dim": "2", "italic": "3", "under": "4", "reverse": "7",
    "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35", "cyan": "36",
    "white": "37", "grey": "90",
}


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never against the user's NO_COLOR or a dumb TERM."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Style:
    """Wraps text in ANSI attributes, or returns it untouched when colour is off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *names: str) -> str:
        if not self.enabled or not names or not text:
            return text
        codes = ";".join(CODES[n] for n in names)
        return f"\x1b[{codes}m{text}\x1b[0m"


def plain(text: str) -> str:
    return _ANSI.sub("", text)


def char_width(ch: str) -> int:
    """Columns one character takes on a terminal: a combining mark none (it sits on the
    letter before it, as a decomposed å does), a wide East Asian character two."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """Columns ``text`` takes: escapes take none."""
    return sum(char_width(ch) for ch in plain(text))


def pad(text: str, cols: int) -> str:
    """``text`` filled with spaces to ``cols`` columns, by the columns it shows."""
    return text + " " * max(0, cols - width(text))


def clip(text: str, cols: int) -> str:
    """At most ``cols`` visible columns, escapes kept, so a frame line never wraps."""
    if width(text) <= cols:
        return text
    out: list[str] = []
    seen = 0
    i = 0
    while i < len(text) and seen < cols:
        m = _ANSI.match(text, i)
        if m:
            out.append(m.group())
            i = m.end()
            continue
        if seen + char_width(text[i]) > cols:
            break  # a wide character that would cross the edge
        out.append(text[i])
        seen += char_width(text[i])
        i += 1
    return "".join(out) + ("\x1b[0m" if "\x1b[" in text else "")


def wrap(text: str, cols: int, indent: str = "  ") -> list[str]:
    """Plain text wrapped to ``cols`` columns, continuation lines indented."""
    if cols < 20:
        return [text]
    return textwrap.wrap(text, cols, subsequent_indent=indent) or [""]
