"""The rules kernel (``gnav.kernel``) as numpy lookup tables, indexed by piece rank (0 = the
highest piece).

Every table has one entry more than the deck has pieces: the last one is the *pad*, the
piece an unused column holds (index -1 reaches it too), which has no power, is no fool
and ranks above every piece (-1 in the rank comparisons of the showdown).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.powers import Outcome
from gnav.rules import Rules
from gnav.vocab import TwoFools

# Outcome codes of the ``outcome`` table.
CONTINUE, STOP, UNDO, PASS = 0, 1, 2, 3
_CODES = {Outcome.CONTINUE: CONTINUE, Outcome.STOP: STOP, Outcome.UNDO: UNDO,
          Outcome.PASS: PASS}
GAIN, PAY, PLAIN = 0, 1, 2
TWO_FOOLS = {TwoFools.GAIN: GAIN, TwoFools.PAY: PAY, TwoFools.PLAIN: PLAIN}

# Bits of the ``flags`` table.
PLAIN_F, CHARGE_F, STOP_F, UNDO_F, PASS_F, FOOL_F = 1, 2, 4, 8, 16, 32

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
Small = npt.NDArray[np.int8]


@dataclass(frozen=True, eq=False)
class Tables:
    """``rules`` flattened for the batch engine."""

    rules: Rules
    pieces: int  # pieces in the deck's order (ranks), without copies
    deck: Small  # the whole deck, every copy, in rank order
    matador: Bools  # by piece: has a power
    plain: Bools  # by piece: no power (the pad included)
    charge: Bools
    outcome: Small  # CONTINUE, STOP, UNDO or PASS (CONTINUE for a plain piece)
    stop: Bools  # by piece: outcome STOP (and the same for the next two)
    undo: Bools
    passes: Bools
    bit: Ints  # 1 << rank (0 for the pad): a piece in a bit mask
    fool: Bools
    has_fool: bool
    stand_needs_matador: bool
    skip_revealed: bool
    knock_public: bool
    drag: bool
    two_fools: int  # GAIN, PAY or PLAIN
    two_fools_sit_out: bool
    to_holder: bool  # penalty_to = holder
    dealer_wins_ties: bool
    max_rounds: int  # 0: none
    lives: int
    # Lookups by gather cost ~10 ns a row; a comparison ~0.1 ns. So the common questions
    # are comparisons where the deck allows: matadors are the highest ranks (every preset
    # of the package) and one piece is the fool.
    flags: npt.NDArray[np.uint8]  # by piece as uint8 (the pad, -1, is 255): PLAIN_F...
    first_plain: int  # the highest plain rank if every matador ranks above it, else -1
    fool_rank: int  # the one fool piece, -1 if none, -2 if several

    def plain_of(self, piece: Small) -> Bools:
        """Per entry: ``piece`` has no power (the pad's answer is not asked for)."""
        if self.first_plain >= 0:
            out: Bools = piece >= self.first_plain
            return out
        return (self.flags_of(piece) & PLAIN_F).astype(np.bool_)

    def fool_of(self, piece: Small) -> Bools:
        """Per entry: ``piece`` is a fool (never the pad)."""
        if self.fool_rank >= 0:
            out: Bools = piece == self.fool_rank
            return out
        if self.fool_rank == -1:
            return np.zeros(piece.shape, dtype=np.bool_)
        return (self.flags_of(piece) & FOOL_F).astype(np.bool_)

    def flags_of(self, piece: Small) -> npt.NDArray[np.uint8]:
        out: npt.NDArray[np.uint8] = self.flags.take(piece.view(np.uint8))
        return out

    def options(self, lives: int | None = None) -> npt.NDArray[np.int64]:
        """The rules the compiled engine reads beside ``flags`` (``gnav.sim.fast.jit``),
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
        """The arrays of ``rules.kernel``: the one place the batch engines (numpy and
        compiled) turn the rules kernel into arrays."""
        k = rules.kernel
        p = len(k.ids)
        effects = [*k.effects, None]
        matador = np.array([e is not None for e in effects])
        charge = np.array([e is not None and e.charge for e in effects])
        outcome = np.array([CONTINUE if e is None else _CODES[e.outcome] for e in effects],
                           dtype=np.int8)
        fool = np.array([*k.fools, False])
        bit = np.array([1 << i for i in range(p)] + [0], dtype=np.int64)
        flags = np.full(256, PLAIN_F, dtype=np.uint8)
        for i in range(p):
            flags[i] = (PLAIN_F * (not matador[i]) | CHARGE_F * charge[i]
                        | STOP_F * (outcome[i] == STOP) | UNDO_F * (outcome[i] == UNDO)
                        | PASS_F * (outcome[i] == PASS) | FOOL_F * fool[i])
        plain = [i for i in range(p) if not matador[i]]
        first = plain[0] if plain and all(not matador[i] for i in range(plain[0], p)) else -1
        fools = [i for i in range(p) if fool[i]]
        fool_rank = fools[0] if len(fools) == 1 else -1 if not fools else -2
        return cls(rules, p, np.array(k.deck, dtype=np.int8), matador, ~matador, charge,
                   outcome, outcome == STOP, outcome == UNDO, outcome == PASS, bit, fool,
                   bool(fool.any()), k.stand_needs_matador, k.skip_revealed,
                   k.knock_public, k.drag, TWO_FOOLS[k.two_fools], k.two_fools_sit_out,
                   k.to_holder, k.dealer_wins_ties, k.max_rounds, k.lives, flags, first,
                   fool_rank)
