"""Names of things in three languages: pieces, powers, lives.

The play screen speaks English with the game's own words beside it; ``gnav rules`` can
speak Norwegian or Danish throughout, so the power texts live here, once, for both.
"""

from __future__ import annotations

from gnav.calls import call_pair, quoted, word_pair
from gnav.pieces import Piece
from gnav.rules import Rules
from gnav.tui.style import Style

LANGS = ("en", "nb", "da")

POWER_TEXT: dict[str, dict[str, str]] = {
    "stop": {
        "en": "the round stops at once: showdown",
        "nb": "runden stopper straks, og alle viser brikkene sine",
        "da": "runden stopper straks, og alle viser deres brikker",
    },
    "refuse": {
        "en": "nothing happens: the asker keeps their piece",
        "nb": "ingenting skjer: den som spurte, beholder brikken sin",
        "da": "intet sker: den, der spurgte, beholder sin brik",
    },
    "charge": {
        "en": "the asker pays 1 life and keeps their piece",
        "nb": "den som spurte, betaler ett liv og beholder brikken sin",
        "da": "den, der spurgte, betaler et liv og beholder sin brik",
    },
    "charge_stop": {
        "en": "the asker pays 1 life, and the round stops",
        "nb": "den som spurte, betaler ett liv, og runden stopper",
        "da": "den, der spurgte, betaler et liv, og runden stopper",
    },
    "charge_undo": {
        "en": "the asker pays 1 life, then every swap of the round is undone",
        "nb": "den som spurte, betaler ett liv, og så går alle byttene i runden tilbake",
        "da": "den, der spurgte, betaler et liv, og så gøres alle ombytninger i runden om",
    },
    "undo": {
        "en": "every swap of the round is undone",
        "nb": "alle byttene i runden går tilbake",
        "da": "alle ombytninger i runden gøres om",
    },
    "pass": {
        "en": "the request passes on to the next player to the left",
        "nb": "forespørselen går videre til neste spiller til venstre",
        "da": "anmodningen går videre til næste spiller til venstre",
    },
}

PLAIN_TEXT = {"en": "must swap", "nb": "må bytte", "da": "skal byttes"}
FOOL_TEXT = {"en": "must swap; the fool", "nb": "må bytte; narren", "da": "skal byttes; narren"}


def piece_of(rules: Rules, pid: str) -> Piece:
    return rules.pieces[rules.index(pid)]


def native_name(rules: Rules, p: Piece, lang: str) -> str:
    """The piece's name in ``lang``, else in the game's own language, else English."""
    return p.names.get(lang) or p.names.get(rules.preset.lang) or p.name()


def piece_label(rules: Rules, pid: str | None, lang: str) -> str:
    """``Katt (Cat)``: the name in ``lang`` with the English beside it when it differs."""
    if pid is None:
        return "?"
    p = piece_of(rules, pid)
    native, english = native_name(rules, p, lang), p.name()
    return native if native == english else f"{native} ({english})"


def piece_call(rules: Rules, p: Piece, lang: str) -> str:
    """The matador's call as said at this table for a reader of ``lang``, with what it
    means beside it (``gnav.calls``)."""
    pair = call_pair(rules, p, lang)
    return quoted(pair, "«", "»") if pair else ""


def spoken_word(rules: Rules, key: str, lang: str) -> str:
    """«Ik sta» (Jeg står): the stand or swap word as the game says it, and its meaning."""
    return quoted(word_pair(rules, key, lang), "«", "»")


def piece_text(p: Piece, lang: str) -> str:
    """What the piece does when asked to swap."""
    if p.power is not None:
        return POWER_TEXT[p.power.value][lang]
    return FOOL_TEXT[lang] if p.fool else PLAIN_TEXT[lang]


def lives_text(style: Style, score: str, lives: int, start: int) -> str:
    """Lives in the preset's own style: tokens ●●○, strokes ||·, or G-N-A-V as lost."""
    lost = max(0, start - lives)
    extra = f"+{lives - start}" if lives > start else ""
    if lives > 12 or start > 12:  # a row of symbols that long stops being readable
        return style(str(lives), "bold")
    if score == "strokes":
        marks = style("|" * lives, "bold") + style("·" * lost, "dim")
    elif score == "gnav":
        letters = ("GNAV" * 3)[:lost]
        marks = style(letters, "bold", "red") + style("·" * min(lives, start), "dim")
    else:
        marks = style("●" * lives, "green") + style("○" * lost, "dim")
    return f"{marks}{style(extra, 'green')} {style(str(lives), 'dim')}"


def lives_word(score: str, lang: str) -> str:
    return {
        "tokens": {"en": "tokens ●●●", "nb": "merker ●●●", "da": "mærker ●●●"},
        "strokes": {"en": "strokes |||", "nb": "streker |||", "da": "streger |||"},
        "gnav": {"en": "the letters G-N-A-V, one for each life lost",
                 "nb": "bokstavene G-N-A-V, én for hvert liv som er tapt",
                 "da": "bogstaverne G-N-A-V, ét for hvert tabt liv"},
    }.get(score, {"en": score, "nb": score, "da": score})[lang]
