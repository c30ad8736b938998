"""What a deciding seat knows, as arrays over the batch: the policies' only input.

A ``Decision`` is made for one column (one position in turn order) of a batch of rounds
(its ``State``, which ``gnav.sim.fast.engine.Rounds`` plays); every feature is an array
with one entry per row, meaningful where ``deciding`` is True (elsewhere it holds
whatever the row holds, and the engine ignores the answer).
Each feature is computed on first use, so a policy pays only for what it reads.

Every feature is something the deciding seat's view holds (its ``SeatView``: its own
piece, what it dealt and got, the public log): never another seat's hidden piece, nor
the stock's. The arrays are the engine's own (or views of them): read them during the
call, do not keep or change them.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import numpy.typing as npt

from gnav.rules import Rules
from gnav.sim.fast.state import State

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
Ints = npt.NDArray[np.intp]
B8 = npt.NDArray[np.bool_]


class Decision:
    """The deciding seats of one column, and what each of them knows."""

    def __init__(self, rounds: State, column: int, deciding: B8) -> None:
        self.rounds = rounds
        self.column = column
        self.deciding = deciding
        self.rules: Rules = rounds.t.rules
        self.size = rounds.rows

    # -- the seat itself ---------------------------------------------------------------

    @cached_property
    def piece(self) -> I8:
        """The rank of the piece the seat holds now (0 = the highest piece)."""
        return self.rounds.hands[:, self.column]

    @cached_property
    def dealt(self) -> I8:
        """The rank of the piece dealt to the seat this round."""
        return self.rounds.deal[:, self.column]

    @cached_property
    def seats(self) -> Ints:
        """Active seats this round (the table's size as dealt)."""
        return self.rounds.n

    @cached_property
    def position(self) -> Ints:
        """Position in turn order: 0 at the dealer's left, ``seats - 1`` the dealer."""
        return self.column - self.rounds.offset

    @cached_property
    def from_dealer(self) -> Ints:
        """Seats between this one and the dealer, going left: 0 is the dealer."""
        return self.rounds.n - 1 - self.position

    @cached_property
    def is_dealer(self) -> B8:
        return np.full(self.size, self.column == self.rounds.width - 1)

    @cached_property
    def lives(self) -> I16:
        """The seat's lives now (this round's payments included)."""
        return self.rounds.lives[:, self.column]

    @cached_property
    def gave(self) -> I8:
        """The piece the seat gave when it was last swapped with as a target, or -1 (it
        got the piece it holds in that swap). Reset by an undo."""
        return self.rounds.gave[:, self.column]

    @cached_property
    def asked(self) -> I8:
        """Times the seat was swapped with as a target this round (since the last undo)."""
        return self.rounds.asked[:, self.column]

    @cached_property
    def paid(self) -> I8:
        """The seat's own Pay events this round so far."""
        return self.rounds.pays[:, self.column]

    @cached_property
    def right(self) -> I8:
        """The right neighbour's turn: 0 none (the seat is the dealer's left), 1 stood,
        2 swapped (its request ended in a Swap, pass chains included), 3 asked without a
        swap (a matador answered, or the stock), 4 took no turn (skipped)."""
        r = self.rounds
        c = self.column
        if c == 0:
            return np.zeros(self.size, dtype=np.int8)
        acted = r.actions[:, c - 1]
        # By arithmetic (np.where costs ~100 times more): -1 -> 4, 0 -> 1, 1 -> 3 or 2.
        code = 4 * (acted < 0) + (acted == 0) + (acted == 1) * (3 - r.swapped[:, c - 1])
        if r.full:
            full: I8 = code.astype(np.int8)
            return full
        out: I8 = (code * (c != r.offset)).astype(np.int8)
        return out

    # -- the left neighbour --------------------------------------------------------------

    @cached_property
    def left_fool(self) -> B8:
        """The public log says the left neighbour holds a fool (a knocked fool, followed
        through the public swaps): False for the dealer, whose left is the stock."""
        c = self.column
        if c + 1 >= self.rounds.width:
            return np.zeros(self.size, dtype=np.bool_)
        return self.rounds.fool_known[:, c + 1]

    @cached_property
    def left_knocked(self) -> B8:
        """The left neighbour knocked a fool at the deal (False for the dealer)."""
        c = self.column
        if c + 1 >= self.rounds.width:
            return np.zeros(self.size, dtype=np.bool_)
        return self.rounds.knocked[:, c + 1]

    @cached_property
    def left_shown(self) -> I8:
        """The matador the left neighbour answered with this round, or -1 (none, or the
        dealer's left is the stock)."""
        c = self.column
        if c + 1 >= self.rounds.width:
            return np.full(self.size, -1, dtype=np.int8)
        return self.rounds.shown_at[:, c + 1]

    # -- the public log ----------------------------------------------------------------

    @cached_property
    def swaps(self) -> I16:
        """Plain swaps so far this round (public Swap events)."""
        return self.rounds.swaps

    @cached_property
    def asks(self) -> I16:
        """Requests made so far (every ``swap`` decision, the dealer's included)."""
        return self.rounds.asks

    @cached_property
    def stands(self) -> I16:
        return self.rounds.stands

    @cached_property
    def answers(self) -> I16:
        """Matadors that answered so far, held or drawn from the stock."""
        return self.rounds.answers

    @cached_property
    def shown(self) -> npt.NDArray[np.int64]:
        """Bit mask of the pieces that answered so far (bit ``rank``)."""
        return self.rounds.shown

    def was_shown(self, rank: int) -> B8:
        """Whether the piece of ``rank`` answered so far this round."""
        return (self.rounds.shown >> rank & 1).astype(np.bool_)

    @cached_property
    def payments(self) -> I16:
        """Pay events so far this round, everyone's."""
        return self.rounds.npays

    @cached_property
    def passes(self) -> I16:
        """Pass answers so far (Horse, House...), held or drawn."""
        return self.rounds.passes

    @cached_property
    def draws(self) -> I16:
        """Plain pieces taken from the stock so far (public Draw events)."""
        return self.rounds.draws

    @cached_property
    def undos(self) -> I16:
        return self.rounds.undos

    @cached_property
    def empties(self) -> I16:
        """Requests that found the stock empty so far."""
        return self.rounds.empties

    @cached_property
    def stock_left(self) -> I16:
        """Pieces left in the stock (public: the deal's count less every draw)."""
        left: I16 = self.rounds.stock_len - self.rounds.drawn
        return left

    @cached_property
    def knocks(self) -> I16:
        """Fools knocked at the deal (0 under ``knock = silent``)."""
        return self.rounds.knocks

    @cached_property
    def knocked(self) -> B8:
        """The seat itself knocked (was dealt a fool, made public)."""
        return self.rounds.knocked[:, self.column]
