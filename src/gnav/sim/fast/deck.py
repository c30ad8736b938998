"""Decks for a batch of rounds: one shuffled deck per row, dealt from the front.

A row's first ``n`` pieces are its deal (in turn order, the dealer last) and the rest its
stock, top first, exactly as ``MatchState.deal`` lays out ``rules.shuffle``'s list. A
shuffled deck is a Fisher-Yates shuffle done lazily: the deal and the top of the stock
are shuffled at once, and a deeper stock piece only when a row draws that far (rare),
which leaves every row a uniformly random order of its deck.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gnav.sim.fast.tables import Tables

# Stock pieces shuffled with the deal: the dealer's draw, and most pass chains' draws,
# find their piece ready.
_READY = 2


class Deck:
    """``deck[r]``: row ``r``'s pieces; positions below ``filled[r]`` are final."""

    def __init__(self, deck: npt.NDArray[np.int8], filled: npt.NDArray[np.int16],
                 rng: np.random.Generator | None) -> None:
        self.deck = deck
        self.filled = filled
        self.size = deck.shape[1]
        self.rng = rng

    @classmethod
    def given(cls, decks: npt.ArrayLike) -> Deck:
        """Decks laid down in full (one row each): nothing left to shuffle."""
        deck = np.asfortranarray(decks, dtype=np.int8)
        return cls(deck, np.full(deck.shape[0], deck.shape[1], dtype=np.int16), None)

    @classmethod
    def shuffled(cls, tables: Tables, rows: int, seats: int,
                 rng: np.random.Generator, *, full: bool = False) -> Deck:
        """``rows`` fresh decks, each shuffled far enough for a deal to ``seats`` seats
        (the rest on demand), or in ``full``: then ``Deck.given(deck.deck)`` replays the
        very same decks, however deep a replay draws."""
        size = len(tables.deck)
        # Stored column by column: each step of the shuffle works on one column, and
        # reads and writes the picked pieces by flat index (take/put: a fraction of the
        # cost of two-dimensional fancy indexing).
        store = np.empty((size, rows), dtype=np.int8)
        store[:] = tables.deck[:, None]
        first = size if full else min(size, seats + _READY)
        # Fisher-Yates, one column at a time over every row: position i takes a uniform
        # pick of positions i..size-1.
        u = rng.random((first, rows))
        ar = np.arange(rows)
        flat = store.reshape(-1)
        for i in range(first):
            picked = (u[i] * (size - i)).astype(np.intp)
            picked += i
            picked *= rows
            picked += ar
            was = store[i].copy()
            store[i] = flat.take(picked)
            flat.put(picked, was)
        return cls(store.T, np.full(rows, first, dtype=np.int16), rng)

    def column(self, index: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """Per row the piece at ``index`` (every row must be filled that far, or the
        answer is a piece not yet shuffled into place)."""
        rows = self.deck.shape[0]
        if self.deck.flags.f_contiguous:
            flat = self.deck.T.reshape(-1)
            out: npt.NDArray[np.int8] = flat.take(index * rows + np.arange(rows))
            return out
        return self.deck[np.arange(rows), index]

    def at(self, rows: npt.NDArray[np.intp], index: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """The pieces at ``index`` of ``rows``' decks, shuffling on where needed."""
        filled = self.filled
        while True:
            need = filled[rows] <= index
            if not need.any():
                return self.deck[rows, index]
            sub = np.unique(rows[need])
            i = filled[sub].astype(np.intp)
            assert self.rng is not None  # given decks are filled in full
            j = i + (self.rng.random(len(sub)) * (self.size - i)).astype(np.intp)
            a = self.deck[sub, i].copy()
            self.deck[sub, i] = self.deck[sub, j]
            self.deck[sub, j] = a
            filled[sub] += 1
