"""An ordinary pack (52 cards and two jokers) and the one mapping of every preset's
pieces onto it: the option ``pack = cards52`` of docs/spec/rules.md §7.

The pack is ranked the way card players rank it, with one convention added for the
colours: King high, Ace low (it counts one), and within a rank red above black
(hearts, diamonds, spades, clubs); the two jokers are the lowest cards of all, as the
summary source's "Joker-as-Fool" has it. A preset's pieces take places in that order,
highest first, so the cards rank as the pieces do:

- a deck of at most 13 pieces takes whole ranks, as many suits of each as it has copies
  (Chase the Ace and Le Her play their own cards: the king is the kings);
- a bigger deck, in one or two copies, takes each rank's red pair and black pair as two
  places (a red and a black king are two pieces; the two red kings are two copies of
  one); with one copy only the first card of each pair (hearts, spades);
- the matadors take the picture cards from the top; the other pieces start at the
  tens when they fit there, so that a picture card in your hand is always a matador;
- the fool takes the jokers (the lowest place, as it is the lowest piece).

A preset that does not fit (too many cards, or more pieces than places) gets a
sentence saying why, and ``pack = cards52`` is refused for it. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from gnav.pieces import Piece

RANKS = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
SUITS = ("H", "D", "S", "C")  # red, red, black, black: the order within a rank
JOKERS = ("RJ", "BJ")  # the red (or coloured) joker above the black one
PACK: tuple[str, ...] = (*(r + s for r in RANKS for s in SUITS), *JOKERS)
PACK_SIZE = len(PACK)
COURTS = 3  # K, Q, J: the ranks above the tens
SYMBOL = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
RED = frozenset({"H", "D", "RJ"})
# A rank of 4 cards holds at most one piece of 3 or 4 copies; pieces that fit in whole
# ranks take them, so decks of this size or less go by rank.
WHOLE_RANKS = len(RANKS)


def card_text(code: str) -> str:
    """A card as people write it: ``K♥``, ``10♠``, ``Joker`` (the red one: ``Joker ♥``)."""
    if code in JOKERS:
        return "Joker" if code == "BJ" else "Joker ♥"
    return code[:-1] + SYMBOL[code[-1]]


def is_red(code: str) -> bool:
    return code in RED or code[-1] in RED


@dataclass(frozen=True)
class CardMapping:
    """The cards of each piece of a deck, by piece id, the pieces in rank order; and the
    cards of the pack that stay out of the game."""

    cards: Mapping[str, tuple[str, ...]]
    left_out: tuple[str, ...]

    def card_of(self) -> dict[str, str]:
        """Every card in play, by code, to the id of its piece."""
        return {c: pid for pid, cs in self.cards.items() for c in cs}


def _places(copies: int, pieces: int) -> tuple[list[tuple[str, ...]], tuple[str, ...] | None,
                                               int]:
    """The places a deck may take, highest first, the jokers' place (None if a piece in
    ``copies`` copies cannot take it) and the index of the first place among the tens."""
    if pieces <= WHOLE_RANKS:
        places = [tuple(r + s for s in SUITS[:copies]) for r in RANKS]
        tens = COURTS
    else:
        places = [pair[:copies] for r in RANKS
                  for pair in ((r + SUITS[0], r + SUITS[1]), (r + SUITS[2], r + SUITS[3]))]
        tens = 2 * COURTS
    jokers = JOKERS[:copies] if copies <= len(JOKERS) else None
    return places, jokers, tens


def fit_problem(pieces: Sequence[Piece], copies: int) -> str | None:
    """Why a deck of ``pieces`` in ``copies`` copies does not fit an ordinary pack, or
    None if it does."""
    try:
        _layout(pieces, copies)
    except _NoFit as e:
        return str(e)
    return None


class _NoFit(Exception):
    pass


def _layout(pieces: Sequence[Piece], copies: int) -> CardMapping:
    total = len(pieces) * copies
    if total > PACK_SIZE:
        raise _NoFit(f"{len(pieces)} pieces in {copies} copies need {total} cards; an "
                     f"ordinary pack has {PACK_SIZE - len(JOKERS)} and {len(JOKERS)} jokers")
    if copies > 2 and len(pieces) > WHOLE_RANKS:
        raise _NoFit(f"{len(pieces)} pieces in {copies} copies: a rank of 4 cards holds one "
                     f"piece of {copies} copies, and the pack has only {WHOLE_RANKS} ranks")
    places, jokers, tens = _places(copies, len(pieces))
    fool_last = bool(pieces) and pieces[-1].fool and jokers is not None
    body = pieces[:-1] if fool_last else pieces
    out: dict[str, tuple[str, ...]] = {}
    at = 0
    for i, p in enumerate(body):
        if not p.matador and at < tens:
            # The first piece without a power: start at the tens if the rest fit there,
            # leaving the picture cards to the matadors.
            rest = len(body) - i
            if rest <= len(places) - tens:
                at = tens
        if at >= len(places):
            raise _NoFit(f"{len(pieces)} pieces in {copies} copies: the pack has places "
                         f"for {len(places) + (1 if jokers else 0)}")
        out[p.id] = places[at]
        at += 1
    if fool_last and jokers is not None:
        out[pieces[-1].id] = jokers
    used = {c for cs in out.values() for c in cs}
    return CardMapping(MappingProxyType(out), tuple(c for c in PACK if c not in used))


def mapping(pieces: Sequence[Piece], copies: int) -> CardMapping:
    """The cards of each piece of a deck of ``pieces`` in ``copies`` copies.

    :raises: :exc:`ValueError` (the reason ``fit_problem`` gives) for a deck that does
        not fit.
    """
    try:
        return _layout(pieces, copies)
    except _NoFit as e:
        raise ValueError(str(e)) from None


def card_aliases(pieces: Sequence[Piece], copies: int) -> dict[str, int]:
    """The names a card is read by (``KH``, ``K♥``, ``10s``, ``RJ``), each to the rank of
    its piece: so a record of a game played with cards may name the cards."""
    index = {p.id: i for i, p in enumerate(pieces)}
    out: dict[str, int] = {}
    for code, pid in mapping(pieces, copies).card_of().items():
        out[code] = index[pid]
        out[card_text(code)] = index[pid]
    return out
