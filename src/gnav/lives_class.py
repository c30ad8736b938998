"""The lives a match policy adds to a decision's key (issue 29 §2).

A round policy (``gnav.abstraction``) keys a decision by what the round shows: position,
piece, what the neighbours did. Playing for the match also needs the lives, which are
public: a seat on its last life, or beside a neighbour on theirs, may be right to choose
otherwise than one with lives to spare. ``lives_class`` folds the lives at the round's
start of the deciding seat and of its two neighbours into one small integer, the *class*;
a match policy holds one round policy per class.

- ``own``: the deciding seat's lives, 1, 2 or 3 and more (three values);
- ``left``: its left neighbour's, the seat it would swap with, 1 or 2 and more; the
  dealer's left is the stock, read as 2 and more (nobody to put out there);
- ``right``: its right neighbour's, the seat that may swap with it, 1 or 2 and more
  (round the table: the dealer's left's right is the dealer).

The round's start, not now: charges (Dragoon, Cat) move lives during the round, and a
key that changed with them would split one decision's cases by what happened to others
earlier in the same round. How many seats are still in is the table size the round is
played at, which the policy already knows (one band of sizes a file, positions in the
key).

``view_class`` is the class of a seat's decision from its view: the lives at the round's
start read back from the view's lives now and the round's public payments and gains
(``round_start_lives``), its neighbours from the round's turn order.

Standard library only, like the rest of the core: the bots read it without numpy, and
the batch engine computes the same classes from its arrays (``column_classes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gnav.events import Gain, Pay

if TYPE_CHECKING:
    from gnav.views import SeatView

OWN = 3  # values of ``own``: 1, 2, 3 and more
NEIGHBOUR = 2  # values of ``left`` and ``right``: 1, 2 and more
CLASSES = OWN * NEIGHBOUR * NEIGHBOUR
FEATURES = ("own", "left", "right")


def lives_class(own: int, left: int | None, right: int) -> int:
    """The class of a decision by the seat with ``own`` lives at the round's start, its
    left neighbour with ``left`` (None for the dealer: the stock) and its right with
    ``right``; ``0 <= class < CLASSES``.

    :raises: :exc:`ValueError` for a seat in the round without lives."""
    if own < 1 or right < 1 or (left is not None and left < 1):
        raise ValueError(f"a seat in the round has at least one life: own {own}, "
                         f"left {left}, right {right}")
    o = min(own, OWN) - 1
    left_digit = NEIGHBOUR - 1 if left is None else min(left, NEIGHBOUR) - 1
    r = min(right, NEIGHBOUR) - 1
    return (o * NEIGHBOUR + left_digit) * NEIGHBOUR + r


def column_classes(lives: Sequence[int]) -> list[int]:
    """Each column's class, for a round whose active seats' lives at its start are
    ``lives`` in turn order (the dealer's left first, the dealer last), as the batch
    engine's columns run."""
    n = len(lives)
    return [lives_class(lives[c], lives[c + 1] if c < n - 1 else None, lives[c - 1])
            for c in range(n)]


def describe(cls: int) -> str:
    """A class for people: ``own 1, left 2+, right 1``."""
    if not 0 <= cls < CLASSES:
        raise ValueError(f"no lives class {cls} (0 to {CLASSES - 1})")
    r = cls % NEIGHBOUR
    left_digit = cls // NEIGHBOUR % NEIGHBOUR
    o = cls // (NEIGHBOUR * NEIGHBOUR)

    def say(digit: int, top: int) -> str:
        return f"{digit + 1}+" if digit == top - 1 else str(digit + 1)

    return f"own {say(o, OWN)}, left {say(left_digit, NEIGHBOUR)}, right {say(r, NEIGHBOUR)}"


def round_start_lives(view: SeatView) -> tuple[int, ...]:
    """Each seat's lives when ``view``'s round began: the view shows them now, payments
    of the round so far included (a charge pays at once), and every payment and gain is
    public with the lives after it, so the first one of each seat says what it had."""
    lives = list(view.lives)
    seen: set[int] = set()
    for e in view.public:
        t = type(e)
        if t is Pay:
            assert isinstance(e, Pay)
            if e.seat not in seen:
                seen.add(e.seat)
                lives[e.seat] = e.lives + (1 if e.paid else 0)
        elif t is Gain:
            assert isinstance(e, Gain)
            if e.seat not in seen:
                seen.add(e.seat)
                lives[e.seat] = e.lives - 1
    return tuple(lives)


def view_class(view: SeatView) -> int:
    """The class of the decision of ``view``'s seat: its lives and its neighbours' in
    this round's turn order at the round's start (``column_classes``' entry for its
    column).

    :raises: :exc:`ValueError` for a view of no seat in the round."""
    order = view.order
    if view.seat is None or view.seat not in order:
        raise ValueError("a lives class is a dealt-in seat's")
    i = order.index(view.seat)
    start = round_start_lives(view)
    left = start[order[i + 1]] if i + 1 < len(order) else None
    return lives_class(start[view.seat], left, start[order[i - 1]])
