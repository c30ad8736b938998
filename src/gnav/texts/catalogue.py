"""One catalogue of the game's texts: every sentence keyed by id, in each language it is
written in, and how a sentence is said.

Code never writes a sentence per language: it picks ids (``Say``) once, and ``say``
looks each up in the reader's language, filling in its ``{placeholders}``. The browser
reads the same catalogue (``catalogue_json``, served as ``/static/texts.json``) and
fills placeholders the same way, so a sentence exists once for the terminal, the
narration and the page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from gnav.texts.companion import COMPANION
from gnav.texts.learn import LEARN
from gnav.texts.sentences import EVENTS, EXPLANATION
from gnav.texts.terminal import TERMINAL
from gnav.texts.words import WORDS
from gnav.vocab import TEXT_LANGS, Lang

CATALOGUE: dict[str, dict[str, str]] = {**WORDS, **EXPLANATION, **EVENTS, **TERMINAL,
                                        **COMPANION, **LEARN}

# A placeholder: ``{name}``. A name the parameters lack is left as written, in Python and
# in the browser alike (i18n.js fills with the same pattern).
PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Say(NamedTuple):
    """A sentence to be said: its id and what fills its placeholders (a parameter may
    itself be a ``Say``, said in the same language)."""

    id: str
    params: Mapping[str, object] = {}


def text_lang(lang: str) -> Lang:
    """``lang`` if the texts are written in it, else English (the calls' languages, nl,
    it and sv, have calls and names but no sentences)."""
    return Lang(lang) if lang in TEXT_LANGS else Lang.EN


def has(id: str, lang: str | None = None) -> bool:
    """Whether the catalogue holds ``id`` (in ``lang``, if given)."""
    return id in CATALOGUE and (lang is None or lang in CATALOGUE[id])


def template(id: str, lang: str) -> str:
    """The sentence ``id`` in ``lang``, unfilled; English where ``lang`` lacks it.

    :raises: :exc:`KeyError` for an id the catalogue does not hold.
    """
    entry = CATALOGUE[id]
    return entry.get(lang) or entry["en"]


def fill(text: str, params: Mapping[str, object]) -> str:
    """``text`` with each ``{name}`` replaced by ``params[name]``."""
    return PLACEHOLDER.sub(
        lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


def say(id: str | Say, lang: str, **params: object) -> str:
    """The sentence ``id`` said in ``lang`` (English for a language without texts)."""
    if isinstance(id, Say):
        params = {**id.params, **params}
        id = id.id
    lang = text_lang(lang)
    said = {k: say(v, lang) if isinstance(v, Say) else v for k, v in params.items()}
    return fill(template(id, lang), said)


def catalogue_json() -> dict[str, dict[str, str]]:
    """Every sentence, for the browser: id -> language -> text."""
    return {id: dict(entry) for id, entry in CATALOGUE.items()}
