"""A lone deviator's best response against a table of one policy, on the compiled engine:
a lower bound on how much anyone can gain against that policy.

The field plays its table (over ``gnav-abstraction/1``) at every seat but one; the
deviator sits at each position in turn and may choose per information set of the same
abstraction. For a position, ``values`` replays the rounds with the deviator's decision
forced to stand and to swap (same decks, same draws elsewhere); the first half of the
rows chooses, per information set, the action with the better mean, and the second half
measures what that choice gains over playing the field's own policy. Measuring on rows
the choice never saw keeps the figure honest: noise in the choice can only lower it, so
it is a lower bound (up to its sampling error) on the best response's gain, and on the
field's exploitability.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.jit import ABSTRACT, RICH, values
from gnav.rules import Rules
from gnav.seeds import derive


@dataclass(frozen=True)
class Gain:
    """Lives a round the deviator gains over the field's own play, per position and over
    all (seats rotated: the mean of the positions), with the 95% half-width."""

    per_position: tuple[float, ...]
    mean: float
    half_width: float
    rows: int  # rows measured per position
    tables: tuple[npt.NDArray[np.float32], ...]  # the deviator's table at each position


def from_pieces(abstraction: GnavAbstraction, by_piece: npt.ArrayLike
                ) -> npt.NDArray[np.float32]:
    """A table over the abstraction that plays ``by_piece[rank]`` in every information
    set (the threshold bot's table, for one)."""
    radix = abstraction.radix
    below = int(np.prod(radix[3:]))
    piece = (np.arange(abstraction.size) // below) % radix[2]
    out: npt.NDArray[np.float32] = np.asarray(by_piece, dtype=np.float32)[piece]
    return out


def best_response(rules: Rules, seats: int, field: npt.ArrayLike, rows: int, *,
                  seed: int = 0, rich: bool = False) -> Gain:
    """The deviator's held-out gain against ``field`` (P(swap) over
    ``GnavAbstraction(rules)``), ``rows`` rounds per position. With ``rich`` the
    deviator chooses by a finer information set (``jit.RICH``: the abstraction and the
    exact position, seats, swaps, stands, undos, draws and matadors shown), so the bound
    does not hide behind the abstraction; it then has no table (``tables`` is empty)."""
    abstraction = GnavAbstraction(rules)
    table = np.asarray(field, dtype=np.float32)
    if table.shape != (abstraction.size,):
        raise ValueError(f"a field table has {abstraction.size} entries, not {table.shape}")
    half = rows // 2
    gains: list[float] = []
    variance = 0.0
    tables = []
    for column in range(seats):
        who = np.zeros(seats, np.int64)
        who[column] = 1
        stand, swap, on = values(rules, seats, rows, np.stack([table, table]),
                                 RICH if rich else ABSTRACT, column,
                                 seed=derive(seed, "deviator", column), policy_of=who)
        keys = on.keys[:, column]
        diff = swap.astype(np.float64) - stand
        fit = keys[:half] >= 0
        # Information sets as the first half met them, numbered 0..m-1 in sorted order.
        found, where = np.unique(keys[:half][fit], return_inverse=True)
        better = np.bincount(where, weights=diff[:half][fit], minlength=len(found)) > 0
        k = keys[half:]
        at = np.minimum(np.searchsorted(found, k), max(len(found) - 1, 0))
        seen = (k >= 0) & (found[at] == k) if len(found) else np.zeros(len(k), np.bool_)
        chosen = np.where(better[at] if len(found) else seen, swap[half:], stand[half:])
        own = on.lives[half:, column]
        gain = np.where(seen, chosen - own.astype(np.float64), 0.0)
        if not rich:
            deviate = table.copy()
            deviate[found] = better.astype(np.float32)
            tables.append(deviate)
        gains.append(float(gain.mean()))
        variance += float(gain.var(ddof=1)) / len(gain)
    mean = sum(gains) / seats
    return Gain(tuple(gains), mean, 1.96 * math.sqrt(variance) / seats, rows - half,
                tuple(tables))
