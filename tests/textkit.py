"""The catalogue's words as tests look for them on a screen (no tests here): the fixed
words of a sentence, without what fills it, and the English frame words a screen in
another language must not show."""

from __future__ import annotations

import re

from gnav.texts.catalogue import CATALOGUE, PLACEHOLDER, template
from gnav.texts.sentences import EVENTS
from gnav.texts.terminal import TERMINAL

# Stripped from the ends of a fixed part: what joins it to the placeholder beside it.
_JOINS = " :;,.()!"


def parts(id: str, lang: str) -> list[str]:
    """The fixed words of sentence ``id`` in ``lang``, between its placeholders."""
    return [p.strip(_JOINS) for p in PLACEHOLDER.split(template(id, lang))[::2]
            if any(ch.isalpha() for ch in p)]


def words(id: str, lang: str) -> str:
    """The longest fixed part of ``id`` in ``lang``: what a screen saying it must show,
    whatever fills its placeholders."""
    return max(parts(id, lang), key=len)


def _shown(part: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text) is not None


def english_frame_words(text: str, lang: str) -> list[tuple[str, str]]:
    """(id, words) of every terminal word and narrated sentence whose English words
    ``text`` shows although ``lang`` says them otherwise. File paths are not read: a
    test's own (``/tmp/pytest-of-root/...``) is nobody's English."""
    text = re.sub(r"(?<!\S)/\S*", " ", text)
    found = []
    for id in [*TERMINAL, *EVENTS]:
        if lang not in CATALOGUE[id]:
            continue  # an English-only variant (``.you``): the language says the plain one
        theirs = template(id, lang)
        found += [(id, p) for p in parts(id, "en") if p not in theirs and _shown(p, text)]
    return found
