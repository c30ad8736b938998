"""The information-set abstraction of large tables: what a seat's decision is keyed by
where the full information set (``gnav.infoset``) is too fine to learn.

``abstract_key(view)`` is a pure function of the deciding seat's ``SeatView``, through
its exact information set: ``coarsen(infoset_key(view))``. So it can hold nothing the
seat may not know, the solver's trees (keyed by ``infoset_key``) map onto it exactly,
and the batch simulator computes the same key from its arrays (a test holds the two
equal). Fields, joined by ``|``:

- ``b`` and ``a``: the seats before the seat (its position from the dealer's left) and
  the seats after it up to the dealer, each exact below 5 and banded above, so that one
  policy can serve a band of table sizes;
- ``piece``: the piece the seat holds now;
- ``gave``: the piece its right neighbour took from it in a swap (which that neighbour
  now holds), ``-`` if none;
- ``right``: what its right neighbour did: ``S`` stood, ``W`` swapped with it, ``A``
  asked and got nothing from it (a matador answered, or the request passed on), ``?``
  took no turn (skipped), ``-`` for the dealer's left (nobody acts before it);
- ``left``: ``K`` if its left neighbour knocked a fool, else ``-``;
- ``k``: fools knocked by the other seats (0, 1, 2 or more).

Lives, seat numbers and the round number are left out, as in ``gnav.infoset``.
"""

from __future__ import annotations

from gnav.infoset import infoset_key
from gnav.views import SeatView

VERSION = "gnav-abstraction/1"
# Seat counts up to this stay exact; above, the band's lowest member stands for it.
BANDS = (0, 1, 2, 3, 4, 5, 7, 10, 14, 20, 28)
FEATURES = ("b", "a", "piece", "gave", "right", "left", "k")


def band(count: int) -> int:
    """The lowest of ``BANDS`` at or below ``count``."""
    out = 0
    for b in BANDS:
        if b > count:
            break
        out = b
    return out


def abstract_key(view: SeatView, drop: frozenset[str] = frozenset()) -> str:
    """The abstract information set of the deciding seat of ``view``."""
    return coarsen(infoset_key(view), drop)


def coarsen(key: str, drop: frozenset[str] = frozenset()) -> str:
    """The abstract key of an exact information set key (``gnav.infoset``); ``drop``
    names features to leave out (to measure what each is worth)."""
    where, dealt, piece, history = key.split("|", 3)
    pos_text, n_text = where.split("/")
    pos, n = int(pos_text), int(n_text)
    codes = history.split(",") if history else []
    right = "-" if pos == 0 else _right(codes, pos - 1)
    left = str(pos + 1)
    knocks = 0
    knocked_left = False
    me = str(pos)
    for c in codes:
        if c[0] == "K":
            who = c[1:]
            if who == left:
                knocked_left = True
            elif who != me:
                knocks += 1
    parts = {
        "b": str(band(pos)),
        "a": str(band(n - 1 - pos)),
        "piece": piece,
        "gave": dealt if dealt != piece else "-",
        "right": right,
        "left": "K" if knocked_left else "-",
        "k": str(min(knocks, 2)),
    }
    return "|".join("*" if f in drop else parts[f] for f in FEATURES)


def _right(codes: list[str], right: int) -> str:
    """What the right neighbour (position ``right``) did, from the history's codes (an
    ask is written ``A`` + asker + target, with no separator: the target is always the
    next position or ``s``, the stock)."""
    stood = f"S{right}"
    swapped = f"W{right}"
    asks = (f"A{right}{right + 1}", f"A{right}s")
    asked = False
    for c in codes:
        if c == stood:
            return "S"
        if c == swapped or c.startswith(swapped + ":"):
            return "W"
        if c in asks:
            asked = True
    return "A" if asked else "?"
