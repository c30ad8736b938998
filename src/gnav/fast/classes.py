"""Each column's lives class (``gnav.lives_class``) for rows of rounds on the batch
engine: what a match policy's tables are chosen by, in training
(``gnav.train.match_terms``) and in whole matches (``gnav.fast.matches``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gnav.lives_class import column_classes


def row_classes(lives: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """(rows, columns): each column's class for rounds begun at ``lives`` (rows x
    columns, turn order, the dealer last, right-aligned as ``JitRounds`` lays a round
    of matches: the leading columns at 0 are unused, class 0 there), ``column_classes``
    of each distinct row once."""
    at = np.asarray(lives, np.int64)
    distinct, back = np.unique(at, axis=0, return_inverse=True)
    width = at.shape[1]
    classes = np.zeros((len(distinct), width), np.int64)
    for i, row in enumerate(distinct.tolist()):
        used = width - next((c for c, v in enumerate(row) if v > 0), width)
        if used:
            classes[i, width - used:] = column_classes(row[width - used:])
    out: npt.NDArray[np.int64] = classes[back.reshape(-1)]
    return out
