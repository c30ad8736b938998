"""Seat names, wherever a person types one: at a table online, or on the command line.

A name is read once, where it is typed (the server's join route, the command line), by
``parse_name``, into a ``Name``: folded spaces, at most ``NAME_MAX`` characters, nothing
that could garble or disguise what the others read. The table takes only a ``Name``, so
it never checks one again; a name that sits down in one place sits down in the other.
"""

from __future__ import annotations

import unicodedata
from typing import NewType

from gnav.errors import Code, MalformedError, RefusedError

NAME_MAX = 24  # characters, after runs of spaces are folded into one

# A seat's name as ``parse_name`` returns it. Only ``parse_name`` (and a journal the
# table wrote itself) makes one: mypy refuses a plain ``str`` where a ``Name`` is due.
Name = NewType("Name", str)


class BadName(RefusedError, MalformedError):
    """A name that cannot sit down; ``code`` is machine-readable (``bad_name``,
    ``name_blank``, ``name_too_long``: a page says which it was), the text one line."""


def clean_name(name: str) -> str:
    """``name`` with its spaces folded: no leading, trailing or repeated spaces."""
    return " ".join(name.split())


def parse_name(value: object) -> Name:
    """``value`` as a seat's name, its spaces folded.

    :raises: :exc:`BadName` if it is not text, holds a lone surrogate (it cannot even be
        encoded), a control or formatting character (bidi overrides among them), only
        spaces, or more than ``NAME_MAX`` characters once its spaces are folded.
    """
    if not isinstance(value, str):
        raise BadName(Code.BAD_NAME, "a name is needed to sit down" if value is None else
                      f"a name is text, not {type(value).__name__}")
    cleaned = clean_name(value)
    if not cleaned:
        raise BadName(Code.NAME_BLANK, "a name needs a letter or a digit, not only spaces"
                      if value else "a name may not be empty")
    for char in value:
        category = unicodedata.category(char)
        if category == "Cs":
            raise BadName(Code.BAD_NAME, f"a name must be valid Unicode, not hold the lone "
                          f"surrogate U+{ord(char):04X}")
        if category in ("Cc", "Cf"):
            raise BadName(Code.BAD_NAME, f"a name may not hold the control or formatting "
                          f"character U+{ord(char):04X}")
    if len(cleaned) > NAME_MAX:
        raise BadName(Code.NAME_TOO_LONG,
                      f"a name has at most {NAME_MAX} characters, not {len(cleaned)}")
    return Name(cleaned)


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a seat's name, in a few words; None if nothing
    (``parse_name``'s refusal, for callers that collect problems)."""
    try:
        parse_name(name)
    except BadName as e:
        return str(e)
    return None
