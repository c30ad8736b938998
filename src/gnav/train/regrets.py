"""The sampled regrets of a unit's decisions summed by key, compiled: what the round's
(``gnav.train.batch``) and the match's (``gnav.train.match_terms``) training share."""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from gnav.fast.abstraction import GnavAbstraction
from gnav.rules import Rules


@nb.njit(cache=True, nogil=True)
def accumulate(keys: Any, took: Any, main: Any, flipped: Any, current: Any, both: Any,
                slot: Any) -> tuple[Any, Any]:
    """Each decision's sampled regrets summed by key: (the keys met, in the order first
    met, and rows of (v_stand - mean, v_swap - mean, P(swap), 1) summed), where the
    decision's own action gave ``main`` and the other ``flipped``. ``slot`` (-1 at every
    index, and so again on return) maps a key to its row, so the cost is the decisions',
    not the abstraction's size."""
    m = keys.shape[0]
    order = np.empty(m, np.int64)
    out = np.zeros((m, 4))
    count = 0
    for r in range(m):
        k = keys[r]
        if k < 0 or not both[k]:
            continue
        j = slot[k]
        if j < 0:
            j = count
            slot[k] = j
            order[count] = k
            count += 1
        if took[r] == 1:
            v1 = float(main[r])
            v0 = float(flipped[r])
        else:
            v0 = float(main[r])
            v1 = float(flipped[r])
        p = current[k]
        mean = (1.0 - p) * v0 + p * v1
        out[j, 0] += v0 - mean
        out[j, 1] += v1 - mean
        out[j, 2] += p
        out[j, 3] += 1.0
    for i in range(count):
        slot[order[i]] = -1
    return order[:count].copy(), out[:count].copy()


def both_legal(rules: Rules, ab: GnavAbstraction) -> npt.NDArray[np.bool_]:
    """Per abstract index: both actions are legal there (the piece held decides)."""
    legal = np.array([len(rules.legal_holding[i]) == 2 for i in range(ab.pieces)])
    piece = (np.arange(ab.size) // int(np.prod(ab.radix[3:]))) % ab.pieces
    out: npt.NDArray[np.bool_] = legal[piece]
    return out
