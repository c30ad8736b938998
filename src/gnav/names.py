"""Seat names, wherever a person types one: at a table online, or on the command line.

The table server and the terminal game cap names at the same length and refuse the
same characters, so a name that sits down in one place sits down in the other.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 24  # characters, after runs of spaces are folded into one


def clean_name(name: str) -> str:
    """``name`` with its spaces folded: no leading, trailing or repeated spaces."""
    return " ".join(name.split())


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a seat's name, in a few words; None if nothing.
    Control and formatting characters (bidi overrides among them) could garble or
    disguise what the others read."""
    cleaned = clean_name(name)
    if not cleaned:
        return "a name needs a letter or a digit, not only spaces" if name else \
            "a name may not be empty"
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf"):
            return f"a name may not hold the control or formatting character U+{ord(char):04X}"
    if len(cleaned) > NAME_MAX:
        return f"a name has at most {NAME_MAX} characters, not {len(cleaned)}"
    return None
