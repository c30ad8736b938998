"""What the browser client reads from the engine: the presets and the fixed vocabularies
(options, bot kinds, looks, scores, languages), and the rules of a preset in plain words
(English, Norwegian or Danish).

Everything here is generated from ``gnav.presets``, ``gnav.options``, ``gnav.vocab``, the
table's configuration and the texts of ``gnav.tui``, so the page cannot drift from what
the engine plays and the server accepts: the browser keeps no list of its own. Standard
library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from typing import Any

from gnav.bots.registry import BOT_KINDS
from gnav.errors import MalformedError
from gnav.options import BOOLS, CHOICES, RANGES, Options
from gnav.pieces import Piece
from gnav.presets import PRESETS, Preset
from gnav.rules import Rules
from gnav.table.config import LOOKS, SCORES, TableConfig
from gnav.tui.labels import FOOL_TEXT, PLAIN_TEXT, POWER_TEXT, lives_word, native_name
from gnav.tui.rules_text import (
    DESCRIPTION,
    LANGUAGE,
    OPTION_TEXT,
    SHORT_FOOL,
    SHORT_PLAIN,
    SHORT_POWER,
    changes,
    explanation,
)
from gnav.vocab import TEXT_LANGS

LANGS: tuple[str, ...] = tuple(TEXT_LANGS)
OPTIONS_MAX_BYTES = 2048

# The presets' titles in the page's other languages, where they are more than a name
# (the engine's titles are English; a game's own name is never translated).
TITLES: dict[str, dict[str, str]] = {
    "gnav-rulebook": {"nb": "Gnav (regelboka)", "da": "Gnav (regelbogen)"},
    "gnav-1917": {"nb": "Gnav (København 1917)", "da": "Gnav (København 1917)"},
    "gnav-summary": {"nb": "Gnav (sammendrag)", "da": "Gnav (resumé)"},
    "chase-the-ace": {"nb": "Chase the Ace (engelsk)", "da": "Chase the Ace (engelsk)"},
}


def titles(p: Preset) -> dict[str, str]:
    """The title of ``p`` in each language of the page."""
    own = TITLES.get(p.name, {})
    return {lang: own.get(lang, p.title) for lang in LANGS}


def _texts(table: Mapping[str, str]) -> dict[str, str]:
    return {lang: table[lang] for lang in LANGS}


def piece_json(p: Piece) -> dict[str, Any]:
    power = None if p.power is None else p.power.value
    if power is not None:
        does, short = _texts(POWER_TEXT[power]), _texts(SHORT_POWER[power])
    elif p.fool:
        does, short = _texts(FOOL_TEXT), _texts(SHORT_FOOL)
    else:
        does, short = _texts(PLAIN_TEXT), _texts(SHORT_PLAIN)
    return {"id": p.id, "names": dict(p.names), "calls": dict(p.calls), "power": power,
            "fool": p.fool, "does": does, "short": short}


def preset_json(p: Preset) -> dict[str, Any]:
    description = {"en": p.description}
    description.update(DESCRIPTION.get(p.name, {}))
    return {
        "name": p.name, "title": p.title, "titles": titles(p), "description": description,
        "source": p.source,
        "min_seats": p.min_seats, "max_seats": p.max_seats, "score": p.score, "lang": p.lang,
        "aliases": list(p.aliases), "words": dict(p.words),
        "options": p.options.as_dict(),
        "pieces": [piece_json(x) for x in p.pieces],
    }


# Options that are a whole number of at least this, or none (no limit): the one kind of
# option that is neither a choice, a yes or no, nor a range.
AT_LEAST = {"max_rounds": 1}


def meta() -> dict[str, Any]:
    """``/static/presets.json``: every preset, every option in the contract's order with
    what it may be, and the words a table is created with (bot kinds, looks, scores,
    languages), each taken from the one place the engine or the server defines it."""
    table = TableConfig()
    return {
        "presets": [preset_json(p) for p in PRESETS.values()],
        "options": [f.name for f in fields(Options)],
        "option_choices": {k: list(v) for k, v in CHOICES.items()},
        "option_bools": list(BOOLS),
        "option_ranges": {k: list(v) for k, v in RANGES.items()},
        "option_at_least": dict(AT_LEAST),
        "option_defaults": Options().as_dict(),
        "option_text": {k: _texts(v) for k, v in OPTION_TEXT.items()},
        "bot_kinds": [str(k) for k in BOT_KINDS],
        "bot_default": table.bot,
        "looks": list(LOOKS),
        "look_default": table.look,
        "scores": list(SCORES),
        # The page's own languages, each named in itself, in the order the menu offers.
        "page_languages": {k: LANGUAGE[k][k][:1].upper() + LANGUAGE[k][k][1:] for k in LANGS},
        # Every language a call can be made in, named in each of the page's languages.
        "languages": {k: _texts(v) for k, v in LANGUAGE.items()},
    }


@cache
def presets_text() -> str:
    """``meta()`` as the JSON text the route serves (built once)."""
    data = meta()
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def read_options(text: str | None) -> dict[str, Any]:
    """Options given as a JSON object in a query string; MalformedError if they are not."""
    if text is None or not text.strip():
        return {}
    if len(text) > OPTIONS_MAX_BYTES:
        raise MalformedError(f"options: over {OPTIONS_MAX_BYTES} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise MalformedError("options: not a JSON object of option: value") from None
    if not isinstance(data, dict):
        raise MalformedError("options: must be a JSON object of option: value")
    return data


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)


MARKS = {"tokens": "●", "strokes": "|"}
SCORE_WORDS = {"tokens": {"en": "tokens", "nb": "merker", "da": "mærker"},
               "strokes": {"en": "strokes", "nb": "streker", "da": "streger"}}


def lives_shown(score: str, lives: int, lang: str) -> str:
    """How lives are shown, with as many marks as a player starts with (the letters of
    G-N-A-V count lives lost, so they are always four)."""
    if score in MARKS:
        return f"{SCORE_WORDS[score][lang]} {MARKS[score] * lives}"
    return lives_word(score, lang)


def rules_json(preset: str, options: Mapping[str, Any], lang: str,
               score: str | None = None) -> dict[str, Any]:
    """The rules of ``preset`` with ``options`` in ``lang``, as the rules panel shows them,
    lives shown as ``score`` (a table's choice; None: the preset's). MalformedError
    names what is wrong with the preset, an option or the score."""
    if lang not in LANGS:
        raise MalformedError(f"lang: must be one of {', '.join(LANGS)}, not {lang!r}")
    if score is not None and score not in SCORES:
        raise MalformedError(f"score: must be one of {', '.join(SCORES)}, not {score!r}")
    rules = Rules.from_spec({"preset": preset, **options}, where="options")
    p = rules.preset
    # The engine's text shows the preset's way of scoring with three marks; the page
    # shows the table's, with one mark for each life the table starts with.
    generic, shown = lives_word(p.score, lang), lives_shown(score or p.score,
                                                           rules.options.lives, lang)
    # English rules still name the pieces as the game does, with the English beside.
    own = p.lang if lang == "en" else lang
    pieces = []
    for rank, x in enumerate(p.pieces, 1):
        name = native_name(rules, x, own)
        call = x.calls.get(own) or x.calls.get(p.lang) or x.call() or None
        pieces.append({
            "rank": rank, "id": x.id, "name": name,
            "english": x.name() if x.name() != name else None,
            "matador": x.matador, "fool": x.fool,
            "short": piece_json(x)["short"][lang],
            "does": piece_json(x)["does"][lang],
            "call": call, "call_en": x.call() if call and x.call() != call else None,
        })
    base = p.options.as_dict()
    now = rules.options.as_dict()
    description = p.description if lang == "en" else \
        DESCRIPTION.get(p.name, {}).get(lang, p.description)
    return {
        "preset": p.name, "title": titles(p)[lang], "description": description,
        "source": p.source, "lang": lang,
        "explanation": [para.replace(generic, shown) for para in explanation(rules, lang)],
        "pieces": pieces, "copies": rules.options.copies,
        "min_seats": rules.min_seats, "max_seats": rules.max_seats,
        "score": shown,
        "options": [{"name": k, "value": _value(v), "text": OPTION_TEXT[k][lang],
                     "changed": base[k] != v} for k, v in now.items()],
        "changes": changes(rules, lang) if p.name != "gnav" else [],
    }
