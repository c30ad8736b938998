"""The rules kernel (``gnav.kernel``) as numpy lookup tables, indexed by piece rank (0 = the
highest piece), for the compiled engine (``gnav.fast.jit``): each piece's power as
bits of one byte (``flags``), and the options it reads beside them (``options``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.powers import Outcome
from gnav.rules import Rules

# Bits of the ``flags`` table.
PLAIN_F, CHARGE_F, STOP_F, UNDO_F, PASS_F, FOOL_F = 1, 2, 4, 8, 16, 32
_OUTCOME_F = {Outcome.CONTINUE: 0, Outcome.STOP: STOP_F, Outcome.UNDO: UNDO_F,
              Outcome.PASS: PASS_F}


@dataclass(frozen=True, eq=False)
class Tables:
    """``rules`` flattened for the batch engine."""

    rules: Rules
    pieces: int  # pieces in the deck's order (ranks), without copies
    deck: npt.NDArray[np.int8]  # the whole deck, every copy, in rank order
    # By piece (256 entries: an int8 piece read as uint8; the pad, -1, is 255 and
    # plain): PLAIN_F, CHARGE_F, STOP_F, UNDO_F, PASS_F, FOOL_F.
    flags: npt.NDArray[np.uint8]
    has_fool: bool
    stand_needs_matador: bool
    skip_revealed: bool
    knock_public: bool
    drag: bool
    two_fools: int  # gnav.kernel's TWO_GAIN, TWO_PAY or TWO_PLAIN (Kernel.two_code)
    two_fools_sit_out: bool
    to_holder: bool  # penalty_to = holder
    dealer_wins_ties: bool
    max_rounds: int  # 0: none
    lives: int

    def options(self, lives: int | None = None) -> npt.NDArray[np.int64]:
        """The rules the compiled engine reads beside ``flags`` (``gnav.fast.jit``),
        as one array: starting lives (``lives``, else the rules'), stand_needs_matador,
        skip_revealed, knock_public (with a fool to knock), drag, two_fools,
        two_fools_sit_out, to_holder, dealer_wins_ties, whether the first round is the
        last (max_rounds = 1), and the number of pieces."""
        return np.array([self.lives if lives is None else lives, self.stand_needs_matador,
                         self.skip_revealed, self.knock_public and self.has_fool, self.drag,
                         self.two_fools, self.two_fools_sit_out, self.to_holder,
                         self.dealer_wins_ties, self.max_rounds == 1, self.pieces],
                        dtype=np.int64)

    @classmethod
    def of(cls, rules: Rules) -> Tables:
        """The arrays of ``rules.kernel``: the one place the batch engine turns the rules
        kernel into arrays."""
        k = rules.kernel
        flags = np.full(256, PLAIN_F, dtype=np.uint8)
        for i, effect in enumerate(k.effects):
            power = 0 if effect is None else \
                CHARGE_F * effect.charge | _OUTCOME_F[effect.outcome]
            flags[i] = (PLAIN_F if effect is None else 0) | power | FOOL_F * k.fools[i]
        return cls(rules, len(k.ids), np.array(k.deck, dtype=np.int8), flags, any(k.fools),
                   k.stand_needs_matador, k.skip_revealed, k.knock_public, k.drag,
                   k.two_code, k.two_fools_sit_out, k.to_holder,
                   k.dealer_wins_ties, k.max_rounds, k.lives)
