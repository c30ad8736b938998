"""Decks for a batch of rounds: one deck per row, laid down in full, dealt from the front.

A row's first ``n`` pieces are its deal (in turn order, the dealer last) and the rest its
stock, top first, exactly as ``MatchState.deal`` lays out ``rules.shuffle``'s list: what
``play_matches(decks=...)`` deals instead of its own counter-based shuffle (``jit.decks``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


class Deck:
    """``deck[r]``: row ``r``'s pieces (ranks), every one in place."""

    def __init__(self, deck: npt.NDArray[np.int8]) -> None:
        self.deck = deck
        self.size = deck.shape[1]

    @classmethod
    def given(cls, decks: npt.ArrayLike) -> Deck:
        """Decks laid down in full (one row each)."""
        return cls(np.ascontiguousarray(decks, dtype=np.int8))
