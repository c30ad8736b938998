"""Batch policies: a ``Decision`` in, per row a choice (booleans) or P(swap) (floats) out.

Two kinds: a function of the decision's features (``ThresholdPolicy``, ``PiecePolicy``,
``FunctionPolicy``), and a table over an information-set abstraction (``TablePolicy``:
``abstraction.index(decision)`` picks each row's entry). A policy may read only the
decision's features, which hold what the deciding seat's view holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import Protocol

import numpy as np
import numpy.typing as npt

from gnav.abstraction import Key, Layout
from gnav.bots.threshold import resolve_threshold, threshold_action
from gnav.rules import Rules
from gnav.sim.fast.abstraction import GnavAbstraction
from gnav.sim.fast.decision import Decision
from gnav.vocab import Action

Choice = npt.NDArray[np.bool_] | npt.NDArray[np.float32] | npt.NDArray[np.float64]


class Policy(Protocol):
    """Decides a column of a batch: True/False per row (a pure choice), or the
    probability of ``swap`` per row as float32 (the engine samples it)."""

    def swap(self, d: Decision, /) -> Choice: ...


class Abstraction(Protocol):
    """Information sets as integers ``0 <= index < size``, computed from a decision's
    features alone."""

    size: int

    def index(self, d: Decision, /) -> npt.NDArray[np.intp]: ...


class PiecePolicy:
    """P(swap) by the rank of the piece held: ``probs[rank]``. Booleans give a pure
    policy (no sampling); floats a mixed one."""

    def __init__(self, probs: Sequence[float] | Sequence[bool] | npt.ArrayLike) -> None:
        table = np.asarray(probs)
        # Looked up by the piece as uint8 (take on a 256-entry table: a fraction of the
        # cost of fancy indexing); the pad piece (-1) reads entry 255, never used.
        self.pure = table.dtype == np.bool_
        self.table: Choice = np.zeros(256, dtype=np.bool_ if self.pure else np.float32)
        self.table[:len(table)] = table

    def swap(self, d: Decision, /) -> Choice:
        out: Choice = self.table.take(d.piece.view(np.uint8))
        return out

    def __repr__(self) -> str:
        return f"PiecePolicy({self.table[:32].tolist()})"


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


class FunctionPolicy:
    """Any function of a decision: ``fn(d)`` gives booleans or float32 P(swap)."""

    def __init__(self, fn: Callable[[Decision], Choice], name: str = "function") -> None:
        self.fn = fn
        self.name = name

    def swap(self, d: Decision, /) -> Choice:
        return self.fn(d)

    def __repr__(self) -> str:
        return f"FunctionPolicy({self.name})"


class TablePolicy:
    """P(swap) from a table over an abstraction: ``table[abstraction.index(d)]``.
    A boolean table is a pure policy."""

    def __init__(self, abstraction: Abstraction, table: npt.ArrayLike) -> None:
        values = np.asarray(table)
        if values.shape != (abstraction.size,):
            raise ValueError(f"a table of {values.shape} does not fit an abstraction of "
                             f"{abstraction.size} information sets")
        self.abstraction = abstraction
        self.table: Choice = values if values.dtype == np.bool_ \
            else values.astype(np.float64)

    def swap(self, d: Decision, /) -> Choice:
        out: Choice = self.table[self.abstraction.index(d)]
        return out


class PieceAbstraction:
    """The smallest useful abstraction: position from the dealer (capped), the table's
    size band and the piece held. An example of the protocol; the trained policies use
    the abstraction of ``gnav.sim.fast.abstraction`` (docs/batch.md)."""

    def __init__(self, rules: Rules, *, max_seats: int = 41, max_from_dealer: int = 41
                 ) -> None:
        self.pieces = len(rules.pieces)
        self.max_from_dealer = max_from_dealer
        self.max_seats = max_seats
        self.size = (max_seats + 1) * (max_from_dealer + 1) * self.pieces

    def index(self, d: Decision, /) -> npt.NDArray[np.intp]:
        fd = np.minimum(d.from_dealer, self.max_from_dealer)
        n = np.minimum(d.seats, self.max_seats)
        piece = np.maximum(d.piece, 0)  # the pad (-1) of columns that do not decide
        out: npt.NDArray[np.intp] = (n * (self.max_from_dealer + 1) + fd) * self.pieces + piece
        return out


# A policy written by hand: P(swap) (or True/False) from the abstraction's features of
# one decision, as ``gnav.abstraction.Key`` holds them.
Features = Callable[[Key], float]


def table_of(rules: Rules, fn: Features) -> npt.NDArray[np.float64]:
    """``fn`` tabulated over every key of ``gnav-abstraction/1`` for ``rules``' deck:
    entry ``layout.index(*key)`` holds ``fn(key)``. The compiled engine cannot call
    Python at each decision; the table holds all the abstraction can tell apart, so
    playing it is playing ``fn`` (about a second of one core: 1.7 million keys).

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
