"""Pieces and lives as the terminal shows them: a name with the English beside, lives
as marks. The words themselves are the catalogue's (``gnav.texts``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gnav.cards import card_text, mapping
from gnav.pieces import Piece
from gnav.rules import Rules
from gnav.texts.catalogue import say
from gnav.texts.rules import native_name
from gnav.tui.style import Style


def piece_of(rules: Rules, pid: str) -> Piece:
    return rules.pieces[rules.index(pid)]


def piece_label(rules: Rules, pid: str | None, lang: str) -> str:
    """``Katt (Cat)``: the name in ``lang`` with the English beside it when it differs."""
    if pid is None:
        return "?"
    p = piece_of(rules, pid)
    native, english = native_name(rules, p, lang), p.name()
    label = native if native == english else f"{native} ({english})"
    if rules.options.pack == "cards52":  # the cards in the players' hands, first
        return f"{card_label(rules, p)} {label}"
    return label


def card_label(rules: Rules, p: Piece) -> str:
    """``K♥/K♦``: the cards of an ordinary pack that stand for ``p``; a whole rank as
    ``K`` (docs/spec/rules.md §7.1)."""
    cards = mapping(rules.pieces, rules.options.copies).cards[p.id]
    if len(cards) > 2 and all(c[:-1] == cards[0][:-1] for c in cards):
        return cards[0][:-1]
    return "/".join(card_text(c) for c in cards)


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


def lives_line(names: Sequence[str], lives: Sequence[int], seats: Iterable[int],
               text: str) -> str:
    """``Lives: Ann 2, Bo 1``: the lives of ``seats`` after a round, in ``text``."""
    return say("tui.lives_line", text,
               lives=", ".join(f"{names[s]} {lives[s]}" for s in seats))
