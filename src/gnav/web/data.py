"""What the browser client reads from the engine: the presets and the fixed vocabularies
(options, bot kinds, looks, scores, languages), and the rules of a preset in plain words
(English, Norwegian or Danish).

Everything here is generated from ``gnav.presets``, ``gnav.options``, ``gnav.vocab``, the
table's configuration and the catalogue of texts (``gnav.texts``), so the page cannot drift
from what the engine plays, what the server accepts or what the terminal says: the browser
keeps no list of its own. Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from typing import Any

from gnav.bots.registry import BOT_KINDS
from gnav.cards import fit_problem, mapping
from gnav.errors import MalformedError
from gnav.kernel import preset_json as kernel_json
from gnav.lengths import shipped as shipped_lengths
from gnav.options import BOOLS, CHOICES, RANGES, Options
from gnav.pieces import Piece
from gnav.presets import PRESETS, Preset
from gnav.rules import Rules
from gnav.table.config import LOOKS, SCORES, TableConfig
from gnav.texts.catalogue import catalogue_json, say
from gnav.texts.narration import narration_json
from gnav.texts.rules import (
    changes_text,
    description,
    explanation,
    lives_shown,
    native_name,
    option_text,
    paragraphs,
    piece_text,
    short_text,
    value_text,
)
from gnav.texts.rules import title as preset_title
from gnav.vocab import TEXT_LANGS, Lang

LANGS: tuple[str, ...] = tuple(TEXT_LANGS)
OPTIONS_MAX_BYTES = 2048


def titles(p: Preset) -> dict[str, str]:
    """The title of ``p`` in each language of the page."""
    return {lang: preset_title(p, lang) for lang in LANGS}


def _texts(id: str) -> dict[str, str]:
    return {lang: say(id, lang) for lang in LANGS}


def piece_json(p: Piece) -> dict[str, Any]:
    power = None if p.power is None else p.power.value
    does = {lang: piece_text(p, lang) for lang in LANGS}
    short = {lang: short_text(p, lang) for lang in LANGS}
    return {"id": p.id, "names": dict(p.names), "calls": dict(p.calls), "power": power,
            "fool": p.fool, "does": does, "short": short}


def preset_json(p: Preset) -> dict[str, Any]:
    return {
        "name": p.name, "title": p.title, "titles": titles(p),
        "description": {lang: description(p, lang) for lang in LANGS},
        "source": p.source,
        "min_seats": p.min_seats, "max_seats": p.max_seats, "score": p.score, "lang": p.lang,
        "aliases": list(p.aliases), "words": dict(p.words),
        "options": p.options.as_dict(),
        "table_options": table_options_json(p),
        "pieces": [piece_json(x) for x in p.pieces],
        "cards52": cards52_json(p),
        # The rules kernel, for the companion's book to play from (gnav.kernel).
        "kernel": kernel_json(p),
    }


def table_options_json(p: Preset) -> dict[str, Any] | None:
    """The options a table of ``p`` sets from a size up so that a match ends
    (docs/spec/rules.md §6.1; ``max_rounds`` as ``"rounds_per_life"``: seats times
    lives), for the start page to show as the default at those sizes; None: none."""
    found = shipped_lengths().of(p)
    if found is None or found.remedy is None:
        return None
    return {"from": found.remedy.start, "options": dict(found.remedy.options)}


def cards52_json(p: Preset) -> dict[str, Any]:
    """The preset's pieces on an ordinary pack (docs/spec/rules.md §7.1), for every number
    of copies: the cards of each piece and the cards left out, or why it does not fit."""
    out: dict[str, Any] = {}
    for copies in range(RANGES["copies"][0], RANGES["copies"][1] + 1):
        problem = fit_problem(p.pieces, copies)
        if problem is not None:
            out[str(copies)] = {"problem": problem}
            continue
        m = mapping(p.pieces, copies)
        out[str(copies)] = {"cards": {k: list(v) for k, v in m.cards.items()},
                            "left_out": list(m.left_out)}
    return out


# Options that are a whole number of at least this, or none (no limit): the one kind of
# option that is neither a choice, a yes or no, nor a range.
AT_LEAST = {"max_rounds": 1}


def _own_name(lang: str) -> str:
    """A language's name in itself, as a menu shows it ("Norsk")."""
    name = say(f"lang.{lang}", lang)
    return name[:1].upper() + name[1:]


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
        "option_text": {k: _texts(f"option.{k}") for k in Options().as_dict()},
        "bot_kinds": [str(k) for k in BOT_KINDS],
        "bot_default": table.bot,
        "looks": list(LOOKS),
        "look_default": table.look,
        "scores": list(SCORES),
        # The page's own languages, each named in itself, in the order the menu offers.
        "page_languages": {k: _own_name(k) for k in LANGS},
        # Every language a call can be made in, named in each of the page's languages.
        "languages": {k.value: _texts(f"lang.{k}") for k in Lang},
    }


@cache
def presets_text() -> str:
    """``meta()`` as the JSON text the route serves (built once)."""
    data = meta()
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@cache
def texts_text() -> str:
    """``/static/texts.json``: the catalogue's sentences by id and language, and the
    narration's table of which sentences an event is told with (``gnav.texts``)."""
    data = {"sentences": catalogue_json(), "narration": narration_json()}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def read_options(text: str | None) -> dict[str, Any]:
    """Options given as a JSON object in a query string.

    :raises: :exc:`MalformedError` if they are not.
    """
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
    shown = lives_shown(score or p.score, rules.options.lives, lang)
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
            "short": short_text(x, lang), "does": piece_text(x, lang),
            "call": call, "call_en": x.call() if call and x.call() != call else None,
        })
    base = p.options.as_dict()
    now = rules.options.as_dict()
    return {
        "preset": p.name, "title": preset_title(p, lang), "description": description(p, lang),
        "source": p.source, "lang": lang,
        "explanation": paragraphs(explanation(rules, lang, style=shown), lang),
        "pieces": pieces, "copies": rules.options.copies,
        "min_seats": rules.min_seats, "max_seats": rules.max_seats,
        "score": shown,
        "options": [{"name": k, "value": value_text(v), "text": option_text(k, lang),
                     "changed": base[k] != v} for k, v in now.items()],
        "changes": changes_text(rules, lang),
    }
