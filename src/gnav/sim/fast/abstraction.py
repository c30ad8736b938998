"""``gnav.abstraction``'s information sets (``gnav-abstraction/1``), vectorised: an
integer per row of a decision, and the key string of each integer.

The fields and their order are those of ``gnav.abstraction.coarsen``: ``b`` and ``a``
(seats before and after the decider, banded), ``piece``, ``gave``, ``right``, ``left``
and ``k``. ``tests/test_sim_fast_abstraction.py`` holds ``key(index(d))`` equal to
``abstract_key(view)`` at every decision of random rounds.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from gnav.abstraction import BANDS  # exact below 5, then the band's lowest member
from gnav.rules import Rules
from gnav.sim.fast.decision import Decision

RIGHT = ("-", "S", "W", "A", "?")  # by Decision.right's code
MAX_COUNT = 200  # seats before/after a decider: far above any table's


def _band_index() -> npt.NDArray[np.intp]:
    out = np.zeros(MAX_COUNT + 1, dtype=np.intp)
    for i, b in enumerate(BANDS):
        out[b:] = i
    return out


class GnavAbstraction:
    """The ``gnav-abstraction/1`` information sets of ``rules``' deck as integers
    ``0 <= index < size``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.ids = rules.ids
        self.pieces = p = len(rules.pieces)
        self.band = _band_index()
        # Mixed radix, most significant first: b, a, piece, gave, right, left, k.
        self.radix = (len(BANDS), len(BANDS), p, p + 1, len(RIGHT), 2, 3)
        self.size = int(np.prod(self.radix))

    def index(self, d: Decision, /) -> npt.NDArray[np.intp]:
        # Arithmetic on whole columns only: a gather or np.where costs ~100 times more.
        p = self.pieces
        band = self.band
        r = d.rounds
        if r.full:  # every row's position is the column: the bands are two numbers
            b: npt.NDArray[np.intp] | int = int(band[d.column])
            a: npt.NDArray[np.intp] | int = int(band[r.width - 1 - d.column])
        else:
            b = band.take(np.clip(d.position, 0, MAX_COUNT))
            a = band.take(np.clip(d.from_dealer, 0, MAX_COUNT))
        # int32 is wide enough (the largest deck's index is below 2**21) and half the
        # memory traffic of intp.
        piece = d.piece.astype(np.int32)
        dealt = d.dealt.astype(np.int32)
        if not r.full:  # the pad (-1) of idle columns
            np.maximum(piece, 0, out=piece)
            np.maximum(dealt, 0, out=dealt)
        gave = p + (dealt - p) * (dealt != piece)
        left = d.left_knocked.astype(np.int32)
        k = np.minimum(d.knocks - d.knocked - left, 2)
        out = (((((b * len(BANDS) + a) * p + piece) * (p + 1) + gave) * len(RIGHT)
                + d.right) * 2 + left) * 3 + k
        index: npt.NDArray[np.intp] = out.astype(np.intp, copy=False)
        return index

    def key(self, index: int) -> str:
        """The key string of ``index``, as ``gnav.abstraction.coarsen`` writes it."""
        parts: list[int] = []
        for r in reversed(self.radix):
            index, digit = divmod(index, r)
            parts.append(digit)
        b, a, piece, gave, right, left, k = reversed(parts)
        return "|".join((str(BANDS[b]), str(BANDS[a]), self.ids[piece],
                         "-" if gave == self.pieces else self.ids[gave], RIGHT[right],
                         "K" if left else "-", str(k)))

    def index_of(self, key: str) -> int:
        """The index of a key string (``key``'s inverse).

        :raises: :exc:`ValueError` for a key that is not one of these rules' information sets.
        """
        fields = key.split("|")
        if len(fields) != 7:
            raise ValueError(f"not a gnav-abstraction/1 key: {key!r}")
        b, a, piece, gave, right, left, k = fields
        try:
            digits = (BANDS.index(int(b)), BANDS.index(int(a)), self.ids.index(piece),
                      self.pieces if gave == "-" else self.ids.index(gave), RIGHT.index(right),
                      ("-", "K").index(left), int(k))
        except ValueError:
            raise ValueError(f"not a gnav-abstraction/1 key of {self.rules.name}: "
                             f"{key!r}") from None
        index = 0
        for digit, r in zip(digits, self.radix, strict=True):
            if not 0 <= digit < r:
                raise ValueError(f"not a gnav-abstraction/1 key: {key!r}")
            index = index * r + digit
        return index

    def table(self, swap: Mapping[str, float], default: float = 0.5
              ) -> npt.NDArray[np.float32]:
        """A ``TablePolicy`` table from P(swap) by key string; ``default`` elsewhere."""
        out = np.full(self.size, default, dtype=np.float32)
        for key, p in swap.items():
            out[self.index_of(key)] = p
        return out
