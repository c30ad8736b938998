"""What a batch of rounds holds, one round per row, as arrays: the deal, the hands, the
lives and the public log's counts. ``Rounds`` (``gnav.sim.fast.engine``) plays turns on
them; ``Decision`` (``gnav.sim.fast.decision``) reads them for a deciding seat. Both
build on this module, so the engine can make decisions without the decision knowing
the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gnav.sim.fast.deck import Deck
from gnav.sim.fast.tables import Tables

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]

STAND, SWAP, UNDECIDED = 0, 1, -1


def _grid(rows: int, width: int, dtype: type, fill: object = 0) -> npt.NDArray[Any]:
    """A rows x width array stored column by column: each turn works on one column of
    every row, which is then one contiguous run of memory."""
    return np.full((width, rows), fill, dtype=dtype).T


class State:
    """The arrays of a batch of rounds (rows x width grids stored column by column, and
    one entry per row): dealt here, changed by ``Rounds``' turns."""

    def __init__(self, tables: Tables, deck: Deck, n: npt.ArrayLike, width: int,
                 lives: npt.ArrayLike | None = None, *, returning: npt.ArrayLike = 0,
                 last: npt.ArrayLike = False) -> None:
        """Deal every row: ``n[r]`` active seats (``deck.deck[r, :n[r]]`` in turn order, the
        dealer last), at most ``width`` columns. ``lives``: each position's lives (rows x
        width; default the rules' starting lives). ``returning``: seats sitting out this
        round (back next round), for the two fools' sit-out check; ``last``: this is the
        last round of a ``max_rounds`` match (nobody sits out after it)."""
        self.t = t = tables
        rows = deck.deck.shape[0]
        self.rows = rows
        self.width = width
        self.deck = deck
        self.n = n_ = np.broadcast_to(np.asarray(n, dtype=np.intp), (rows,)).copy()
        self.offset = width - n_  # first active column
        cols = np.arange(width)
        self.full = bool((n_ == width).all())
        if self.full:
            self.active = _grid(rows, width, np.bool_, True)
            hands = _grid(rows, width, np.int8)
            hands[:] = deck.deck[:, :width]
        else:
            self.active = cols[None, :] >= self.offset[:, None]
            index = np.where(self.active, cols[None, :] - self.offset[:, None], 0)
            hands = _grid(rows, width, np.int8)
            hands[:] = np.where(self.active, np.take_along_axis(deck.deck, index, 1), -1)
        self.hands: I8 = hands
        self.deal: I8 = _grid(rows, width, np.int8)
        self.deal[:] = hands
        self.stock_len: I16 = (deck.size - n_).astype(np.int16)
        self.drawn = np.zeros(rows, dtype=np.int16)
        self.lives: I16 = _grid(rows, width, np.int16, t.lives)
        if lives is not None:
            self.lives[:] = np.asarray(lives, dtype=np.int16).reshape(rows, width)
        self.returning = np.broadcast_to(np.asarray(returning, dtype=np.intp), (rows,))
        self.last = np.broadcast_to(np.asarray(last, dtype=np.bool_), (rows,))
        self.revealed = _grid(rows, width, np.bool_)
        self.over = np.zeros(rows, dtype=np.bool_)
        self.ended_by = np.full(rows, -1, dtype=np.int8)  # -1: the turns ran out
        # What happened, per position (Pay and Gain events, paid or not) and per row.
        self.pays = _grid(rows, width, np.int8)
        self.gains = _grid(rows, width, np.int8)
        self.actions = _grid(rows, width, np.int8, UNDECIDED)
        self.probs = _grid(rows, width, np.float32)  # P(swap) the policy gave
        z = np.zeros
        self.swaps = z(rows, dtype=np.int16)  # public Swap events (plain swaps)
        self.asks = z(rows, dtype=np.int16)  # requests made (the dealer's to the stock too)
        self.stands = z(rows, dtype=np.int16)
        self.answers = z(rows, dtype=np.int16)  # matadors that answered, held or drawn
        self.shown = z(rows, dtype=np.int64)  # bit mask of the pieces that answered
        self.shown_at = _grid(rows, width, np.int8, -1)  # answered at a position
        self.npays = z(rows, dtype=np.int16)  # Pay events so far (the showdown's too)
        self.draws = z(rows, dtype=np.int16)  # plain pieces taken from the stock
        self.undos = z(rows, dtype=np.int16)
        self.empties = z(rows, dtype=np.int16)  # requests that found the stock empty
        self.passes = z(rows, dtype=np.int16)  # pass answers (held or drawn)
        self.gave = _grid(rows, width, np.int8, -1)  # last piece given as a target
        self.asked = _grid(rows, width, np.int8)  # times swapped with as a target
        self.swapped = _grid(rows, width, np.bool_)  # its own request ended in a Swap
        self.knocked = _grid(rows, width, np.bool_)
        if t.knock_public and t.has_fool:
            self.knocked[:] = t.fool_of(self.deal) & self.active
        self.knocks: I16 = self.knocked.sum(1, dtype=np.int16)
        # Positions that the public log says hold a fool now: a knocked fool, followed
        # through the public swaps (a plain swap moves it left) and undos.
        self.fool_known = _grid(rows, width, np.bool_)
        self.fool_known[:] = self.knocked
        self.sit_out = _grid(rows, width, np.bool_)
        self.column = 0  # the column deciding now (``Decision`` reads it)

