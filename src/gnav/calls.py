"""What is said at the table: a matador's call and the stand / swap words, as a pair.

A game is played in its own language: Slabberjan's Ruiter says "Kap af!", whoever reads
along. So a call is said in the language chosen when this game has words in it (Gnav
has Norwegian, Danish and English), else in the game's own language; and beside it
stands what it means: in English when the call is already in the chosen language, else
in the chosen language (English where there is no word for it).
"""

from __future__ import annotations

from gnav.pieces import Piece
from gnav.rules import Rules

# What the English calls and words mean in Norwegian and Danish: the glosses of games
# whose own words are Dutch, Italian, Swedish or English.
GLOSS: dict[str, dict[str, str]] = {
    "Cut off!": {"nb": "Hugg av!", "da": "Hug af!"},
    "I keep it!": {"nb": "Jeg beholder den!", "da": "Jeg beholder den!"},
    "Change back!": {"nb": "Bytt tilbake!", "da": "Byt tilbage!"},
    "Pass the inn!": {"nb": "Vertshuset forbi!", "da": "Kroen forbi!"},
    "Pass the horse!": {"nb": "Hest forbi!", "da": "Hest forbi!"},
    "Pass the house!": {"nb": "Hus forbi!", "da": "Hus forbi!"},
    "Cuckoo, stop!": {"nb": "Gjøk, stopp!", "da": "Gøg, stop!"},
    "Jump on!": {"nb": "Hopp videre!", "da": "Hop videre!"},
    "Miaow, change back!": {"nb": "Mjau, bytt tilbake!", "da": "Miav, byt tilbage!"},
    "Shoo, change back!": {"nb": "Kiss, bytt tilbake!", "da": "Kis, byt tilbage!"},
    "Shoo, shoo!": {"nb": "Kiss, kiss!", "da": "Kis, kis!"},
    "Stand for the cuckoo!": {"nb": "Stå for gjøken!", "da": "Stå for gøgen!"},
    "King!": {"nb": "Konge!", "da": "Konge!"},
    "I stand": {"nb": "Jeg står", "da": "Jeg står"},
    "I want to trade": {"nb": "Jeg vil bytte", "da": "Jeg vil bytte"},
    "Change": {"nb": "Bytt", "da": "Byt"},
    "I keep it": {"nb": "Jeg beholder den", "da": "Jeg beholder den"},
}


def gloss(english: str, lang: str) -> str:
    """``english`` in ``lang``, if there is a word for it; else ``english``."""
    return GLOSS.get(english, {}).get(lang, english)


def call_pair(rules: Rules, piece: Piece, lang: str) -> tuple[str, str] | None:
    """(the call as said, what it means) for a reader of ``lang``; None without a call."""
    english = piece.call("en")
    if english is None:
        return None
    if lang in piece.calls:
        return piece.calls[lang], english
    said = piece.calls.get(rules.preset.lang) or english
    return said, gloss(english, lang)


def word_pair(rules: Rules, key: str, lang: str) -> tuple[str, str]:
    """(the word as said, what it means) of ``key`` ("stand" or "swap")."""
    words = rules.preset.words
    english = words.get(f"{key}.en") or {"stand": "I stand", "swap": "I swap"}.get(key, key)
    if f"{key}.{lang}" in words:
        return words[f"{key}.{lang}"], english
    said = words.get(f"{key}.{rules.preset.lang}") or english
    return said, gloss(english, lang)


def quoted(pair: tuple[str, str], left: str = '"', right: str = '"') -> str:
    """``"Kap af!" (Hugg av!)``, or one quoted phrase when both say the same."""
    said, meaning = pair
    return f"{left}{said}{right}" if said == meaning else f"{left}{said}{right} ({meaning})"
