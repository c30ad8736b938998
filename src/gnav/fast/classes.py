"""Each column's lives class (``gnav.lives_class``) for rows of rounds on the batch
engine: what a match policy's tables are chosen by, in training
(``gnav.train.match_terms``) and in whole matches (``gnav.fast.matches``)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gnav.lives_class import NEIGHBOUR, OWN, lives_class

STOCK = 0  # a left neighbour's entry in ``_table``: the dealer's left is the stock


@lru_cache(maxsize=1)
def _table() -> npt.NDArray[np.int64]:
    """``lives_class`` of every (own, left, right) up to the caps, left 0 the stock:
    the one definition, read by array."""
    out = np.zeros((OWN + 1, NEIGHBOUR + 1, NEIGHBOUR + 1), np.int64)
    for own in range(1, OWN + 1):
        for left in range(NEIGHBOUR + 1):
            for right in range(1, NEIGHBOUR + 1):
                out[own, left, right] = lives_class(own, None if left == STOCK else left,
                                                    right)
    return out


def row_classes(lives: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """(rows, columns): each column's class for rounds begun at ``lives`` (rows x
    columns, turn order, the dealer last, right-aligned as ``JitRounds`` lays a round
    of matches: the leading columns at 0 are unused, class 0 there), as
    ``column_classes`` gives each row's seats in."""
    at = np.asarray(lives, np.int64)
    width = at.shape[1]
    used = at > 0
    # A row's first seat in: its right neighbour is the row's dealer, the last column.
    first = np.where(used.any(1), np.argmax(used, axis=1), width)
    right = np.empty_like(at)
    right[:, 1:] = at[:, :-1]
    cols = np.arange(width)[None, :]
    right = np.where(cols == first[:, None], at[:, -1:], right)
    left = np.empty_like(at)
    left[:, :-1] = at[:, 1:]
    left[:, -1] = STOCK
    out: npt.NDArray[np.int64] = np.where(
        used, _table()[np.minimum(at, OWN), np.minimum(left, NEIGHBOUR),
                       np.clip(right, 1, NEIGHBOUR)], 0)
    return out
