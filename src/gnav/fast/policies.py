"""Batch policies: tables of P(swap) that the compiled engine (``gnav.fast.jit``)
reads at each decision.

Three kinds: by the piece held (``PiecePolicy``, ``ThresholdPolicy``: the engine's kind
``PIECE``); over the information sets of ``gnav-abstraction/1`` (``TablePolicy``: kind
``ABSTRACT``); and a plain Python function of the abstraction's features
(``gnav.abstraction.Key``: what the deciding seat's view holds, coarsened), tabulated
once over every key into such a table (``table_of``, ``FeaturePolicy``). Compiled code
cannot call Python at each decision, and the table holds everything the abstraction can
tell apart, so the tabulated function plays exactly as the function would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

import numpy as np
import numpy.typing as npt

from gnav.abstraction import Key, Layout
from gnav.bots.threshold import resolve_threshold, threshold_action
from gnav.fast.abstraction import GnavAbstraction
from gnav.rules import Rules
from gnav.vocab import Action

# A policy written by hand: P(swap) (or True/False) from the abstraction's features of
# one decision, as ``gnav.abstraction.Key`` holds them.
Features = Callable[[Key], float]


class PiecePolicy:
    """P(swap) by the rank of the piece held: ``table[rank]`` (booleans: a pure policy)."""

    def __init__(self, probs: Sequence[float] | Sequence[bool] | npt.ArrayLike) -> None:
        self.table: npt.NDArray[np.float64] = np.array(probs, dtype=np.float64, ndmin=1)

    def __repr__(self) -> str:
        return f"PiecePolicy({self.table.tolist()})"


class ThresholdPolicy(PiecePolicy):
    """The ``threshold`` bot (gnav.bots.threshold): keep a matador, pass on a fool, swap
    at or below the threshold piece. It reads only the piece held, so it is a table by
    piece, built from the bot's own ``threshold_action``."""

    def __init__(self, rules: Rules, threshold: str | int | None = None) -> None:
        rank = resolve_threshold(rules, threshold)
        super().__init__([threshold_action(rules, p, rank) is Action.SWAP
                          for p in range(len(rules.pieces))])
        self.threshold = rank

    def __repr__(self) -> str:
        return f"ThresholdPolicy(rank {self.threshold})"


class TablePolicy:
    """P(swap) from a table over ``gnav-abstraction/1``: ``table[key]``.

    :raises: :exc:`ValueError` for a table of another size than the abstraction's.
    """

    def __init__(self, abstraction: GnavAbstraction, table: npt.ArrayLike) -> None:
        values = np.asarray(table, dtype=np.float64)
        if values.shape != (abstraction.size,):
            raise ValueError(f"a table of {values.shape} does not fit an abstraction of "
                             f"{abstraction.size} information sets")
        self.abstraction = abstraction
        self.table: npt.NDArray[np.float64] = values


def table_of(rules: Rules, fn: Features) -> npt.NDArray[np.float64]:
    """``fn`` tabulated over every key of ``gnav-abstraction/1`` for ``rules``' deck:
    entry ``layout.index(*key)`` holds ``fn(key)`` (about a second of one core: 1.7
    million keys for a deck of 21 pieces).

    :raises: :exc:`ValueError` where ``fn`` gives no probability (NaN, below 0, above 1).
    """
    layout = Layout.of(rules)
    # product() counts in the layout's order: the first feature the most significant.
    digits = product(*(range(r) for r in layout.radix))
    out = np.fromiter((fn(Key._make(d)) for d in digits), dtype=np.float64,
                      count=layout.size)
    bad = np.flatnonzero(~((out >= 0.0) & (out <= 1.0)))
    if len(bad):
        key = int(bad[0])
        raise ValueError(f"{fn!r} gives {out[key]} at {layout.text(key)}: "
                         f"not a probability of swap")
    return out


class FeaturePolicy(TablePolicy):
    """A function of the abstraction's features (``fn(key) -> P(swap)`` or a bool),
    played by the compiled engine as its table (``table_of``) over ``GnavAbstraction``:
    ``JitRounds.play(policy.table, ABSTRACT)``, or in ``play_matches``."""

    def __init__(self, rules: Rules, fn: Features, name: str | None = None) -> None:
        super().__init__(GnavAbstraction(rules), table_of(rules, fn))
        self.fn = fn
        self.name = getattr(fn, "__name__", "function") if name is None else name

    def __repr__(self) -> str:
        return f"FeaturePolicy({self.name})"
