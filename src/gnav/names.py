"""Seat names, wherever a person types one: at a table online, or on the command line.

A name is read once, where it is typed (the server's join route, the command line), by
``parse_name``, into a ``Name``: composed (NFC, so that "Å" typed as one character, as
A and a ring, or as the Angstrom sign is one name), folded spaces, at most ``NAME_MAX``
characters, nothing that could garble, hide or disguise what the others read, and not a
name the bots take. The table takes only a ``Name``, so it never checks one again; a
name that sits down in one place sits down in the other. Two names are the same person
when ``name_key`` says so: compared as people read them, not as code points.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NewType

from gnav.errors import Code, MalformedError, RefusedError
from gnav.vocab import BotKind

NAME_MAX = 24  # characters, after runs of spaces are folded into one
# Combining marks on one letter, at most: Vietnamese puts two on a vowel that has no
# composed form, pointed Hebrew three or four on a consonant; a name with dozens
# ("Zalgo" text) draws over the names above and below it.
MARKS_MAX = 4

# A seat's name as ``parse_name`` returns it. Only ``parse_name`` (and a journal the
# table wrote itself) makes one: mypy refuses a plain ``str`` where a ``Name`` is due.
Name = NewType("Name", str)

# Characters that draw nothing, beside the control and formatting ones (refused by
# category): Unicode's Default_Ignorable_Code_Point letters and marks (Hangul fillers,
# the grapheme joiner, Khmer's inherent vowels) and the blank Braille pattern, which
# fonts draw as a space that ``str.split`` does not fold. A name of them alone sat down
# as a seat nobody could read. Variation selectors are not here: they follow an emoji
# (U+FE0F) and count as its marks.
_INVISIBLE = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0\u034f")
# Cyrillic and Greek letters drawn as a Latin one (UTS #39's confusables, the letters
# of one case that look alike in every common font): "Аstrid" with a Cyrillic А reads
# as "Astrid" and must not sit beside her. Read as that Latin letter by ``name_key``.
_LOOKALIKE = str.maketrans(
    "АВЕКМНОРСТХЅІЈҮаеорсухѕіјһԁԛԝѵӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧοκρν",
    "ABEKMHOPCTXSIJYaeopcyxsijhdqwvlABEZHIKMNOPTYXokpv")
_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))

# The names the table gives its bots ("Expert bot 4", "Bot 4", "Bot 4.2": ``Table``'s
# ``_bot_name``) and the pages show for them ("Bot 4" in English, "Robot 4" in
# Norwegian and Danish: web/static/js/names.js), matched on ``name_key``: a person who
# took one would pass for a bot in some language.
_KINDS = "|".join(re.escape(kind.value) for kind in BotKind)
_BOT_NAME = re.compile(rf"(?:(?:{_KINDS}) )?(?:ro)?bot ?\d+(?:\.\d+)?")


class BadName(RefusedError, MalformedError):
    """A name that cannot sit down; ``code`` is machine-readable (``bad_name``,
    ``name_blank``, ``name_too_long``, ``name_reserved``: a page says which it was),
    the text one line."""


def clean_name(name: str) -> str:
    """``name`` with its spaces folded: no leading, trailing or repeated spaces."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """What two names are compared by: the same key, the same name to a reader. Case
    and compatibility forms fold (NFKC with case folding: "ASTRID", "astrid" and
    "Ａｓｔｒｉｄ" are one name), Cyrillic and Greek letters drawn as Latin ones are
    read as those, and spaces fold."""
    latin = unicodedata.normalize("NFKC", name).translate(_LOOKALIKE)
    return clean_name(unicodedata.normalize("NFKC", latin.casefold()))


def is_bot_name(name: str) -> bool:
    """Whether ``name`` reads as a name the bots take, in any of the pages' languages."""
    return _BOT_NAME.fullmatch(name_key(name)) is not None


def _selector(char: str) -> bool:
    return any(low <= ord(char) <= high for low, high in _SELECTORS)


def _check_marks(name: str) -> None:
    """A mark follows a letter (or another mark), and at most ``MARKS_MAX`` in a row."""
    run = 0
    for i, char in enumerate(name):
        if unicodedata.category(char).startswith("M") or _selector(char):
            if i == 0 or name[i - 1] == " ":
                raise BadName(Code.BAD_NAME, f"a name may not start a word with the "
                              f"combining mark U+{ord(char):04X}")
            run += 1
            if run > MARKS_MAX:
                raise BadName(Code.BAD_NAME, f"a name has at most {MARKS_MAX} combining "
                              f"marks on one letter")
        else:
            run = 0


def parse_name(value: object) -> Name:
    """``value`` as a seat's name: composed (NFC), its spaces folded.

    :raises: :exc:`BadName` if it is not text, holds a lone surrogate (it cannot even be
        encoded), a control or formatting character (bidi overrides among them), a
        character that draws nothing, a combining mark with no letter or more than
        ``MARKS_MAX`` on one, only spaces, more than ``NAME_MAX`` characters once
        composed and folded, or reads as a bot's name.
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
    cleaned = unicodedata.normalize("NFC", cleaned)
    for char in cleaned:
        if char in _INVISIBLE:
            raise BadName(Code.BAD_NAME, f"a name may not hold U+{ord(char):04X}, which "
                          f"shows nothing")
    _check_marks(cleaned)
    if len(cleaned) > NAME_MAX:
        raise BadName(Code.NAME_TOO_LONG,
                      f"a name has at most {NAME_MAX} characters, not {len(cleaned)}")
    if is_bot_name(cleaned):
        raise BadName(Code.NAME_RESERVED, f"{cleaned!r} is how bots are named: pick a name "
                      f"of your own")
    return Name(cleaned)


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a seat's name, in a few words; None if nothing
    (``parse_name``'s refusal, for callers that collect problems)."""
    try:
        parse_name(name)
    except BadName as e:
        return str(e)
    return None
