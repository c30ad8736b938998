"""One seat's best response against a table policy, bracketed from both sides.

Every seat but one plays the field's table (P(swap) over ``gnav-abstraction/1``); the
deviator sits at each position in turn. In a round each seat decides at most once, so
the deviator's best response is a choice per information set with nothing after it to
plan: at a set ``I`` it gains ``g(d_I)`` over the field's own play, where ``d_I`` is the
mean of (lives after swapping - lives after standing) over the rounds that reach ``I``
and, with ``p`` the field's P(swap) there, ``g(x) = max((1 - p) x, -p x)`` (swap
instead, or stand instead, whichever is better). The best response's gain is
``sum_I P(I) g(d_I)``.

``gnav.fast.jit`` gives each row's two values on common random numbers (the same
deal, stock and draws either way), so ``D = swap - stand`` is an unbiased sample of
``d_I``. Summed by key:

* **in-sample** (choose and measure on the same rows): since ``g`` is convex, its
  expectation is at least the best response's gain over the key (Jensen; the optimistic
  bias of sample-average optimisation, Mak, Morton & Wood 1999). An upper bound in
  expectation.
* **held-out** (choose on half the rows, measure on the other half, and the other way
  round): the gain of a deviation that exists, so at most the best response's. A lower
  bound in expectation.

Keys: ``abstraction`` (the field's own), ``rich`` (``jit.RICH``) and ``view``
(``jit.VIEW``: at least as fine as the seat's whole view, so its in-sample figure bounds
the best response of a deviator that uses everything it sees, and more). A finer key
raises both figures' expectations; the upper one also gains noise, since each key meets
fewer rows. ``oracle`` is the in-sample figure with a key per row: what a seat that saw
every hidden piece and every later draw would gain.

Each figure's 95% half-width treats rows as independent with the choices fixed (for the
in-sample figure the choices were fitted to those rows, so its interval is a guide).
The rounds are single rounds from a fresh deal, every seat at the starting lives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.bots.expert import ExpertBot
from gnav.bots.registry import bot_from_spec
from gnav.bots.threshold import ThresholdBot, threshold_action
from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.deviator import from_pieces
from gnav.fast.jit import ABSTRACT, RICH, VIEW, VIEW_BITS, JitRounds
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.strategies.policy import Policy
from gnav.vocab import Action

KEYS = {"abstraction": (ABSTRACT, 0), "rich": (RICH, 33), "view": (VIEW, VIEW_BITS)}
CHUNK = 1 << 18  # rows played at once (memory: a few arrays of rows x seats)


@dataclass(frozen=True)
class Figure:
    """Lives a round and the 95% half-width."""

    value: float
    half_width: float

    @property
    def low(self) -> float:
        return self.value - self.half_width

    @property
    def high(self) -> float:
        return self.value + self.half_width


@dataclass(frozen=True)
class Bracket:
    """The deviator's gain, lives a round, the positions averaged (seats rotated)."""

    key: str
    rows: int  # rounds per position
    held_out: Figure  # a deviation that exists: below the best response
    in_sample: Figure  # above the best response over ``key``, in expectation
    oracle: Figure  # a deviator that sees every piece: above everything
    keys: int  # distinct keys met, over the positions
    decisions: float  # the share of rows where the deviator had a choice
    per_position: tuple[tuple[float, float], ...]  # (held-out, in-sample) by position
    unfit: float = 0.0  # the share of the deviator's decisions at ``unfit`` indices


class _Sums:
    """Per key: the sum of D and of D squared, merged chunk by chunk."""

    def __init__(self) -> None:
        self.keys = np.empty(0, np.int64)
        self.s = np.empty(0, np.float64)
        self.q = np.empty(0, np.float64)

    def add(self, keys: npt.NDArray[np.int64], s: npt.NDArray[np.float64],
            q: npt.NDArray[np.float64]) -> None:
        """Fold in rows (or other sums): keys, D (or sums of D), D squared (or sums)."""
        k = np.concatenate([self.keys, keys])
        self.keys, where = np.unique(k, return_inverse=True)
        self.s = np.bincount(where, weights=np.concatenate([self.s, s]),
                             minlength=len(self.keys)).astype(np.float64)
        self.q = np.bincount(where, weights=np.concatenate([self.q, q]),
                             minlength=len(self.keys)).astype(np.float64)

    def at(self, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The sums of D at ``keys`` (0 where a key was never met)."""
        if not len(self.keys):
            return np.zeros(len(keys))
        i = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        out: npt.NDArray[np.float64] = np.where(self.keys[i] == keys, self.s[i], 0.0)
        return out


def _coef(s: npt.NDArray[np.float64], p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Per key, the deviation's weight on D: swap instead (1 - p) where the sum says swap
    is better, stand instead (-p) where it says stand is, the field's own (0) on a tie."""
    out: npt.NDArray[np.float64] = np.where(s > 0, 1.0 - p, np.where(s < 0, -p, 0.0))
    return out


def _figure(total: float, square: float, rows: int) -> tuple[float, float]:
    """Mean and variance of the mean of ``rows`` contributions with these sums."""
    mean = total / rows
    return mean, max(square / rows - mean * mean, 0.0) / rows


def bracket(rules: Rules, seats: int, field: npt.ArrayLike, rows: int, *,
            key: str = "view", seed: int = 0, chunk: int = CHUNK,
            unfit: npt.NDArray[np.bool_] | None = None) -> Bracket:
    """The bracket of the deviator's best response against ``field`` (P(swap) over
    ``GnavAbstraction(rules)``), ``rows`` rounds at each position. ``unfit``: indices
    where the field is not really this table (``field_table``'s), counted in
    ``Bracket.unfit``.

    :raises: :exc:`ValueError` for a table of the wrong size or an unknown key.
    """
    if key not in KEYS:
        raise ValueError(f"no key {key!r}: one of {', '.join(KEYS)}")
    kind, shift = KEYS[key]
    table = np.asarray(field, dtype=np.float64)
    size = GnavAbstraction(rules).size
    if table.shape != (size,):
        raise ValueError(f"a field table has {size} entries, not {table.shape}")
    tables = table[None, :]
    held = inside = oracle = 0.0
    held_var = inside_var = oracle_var = 0.0
    keys = 0
    decided = odd = 0
    per: list[tuple[float, float]] = []
    for column in range(seats):
        halves = (_Sums(), _Sums())
        o_sum = o_sq = 0.0
        for first in range(0, rows, chunk):
            m = min(chunk, rows - first)
            lives = []
            k: npt.NDArray[np.int64] = np.empty(0, np.int64)
            for action in (0, 1):
                forced = np.full(seats, -1)
                forced[column] = action
                r = JitRounds(rules, seats, m, seed=derive(seed, "response", column),
                              first_row=first)
                r.play(tables, kind, forced=forced)
                lives.append(r.lives[:, column].astype(np.float64))
                k = r.keys[:, column].copy()
            d = lives[1] - lives[0]
            on = k >= 0
            decided += int(on.sum())
            p = table[k[on] >> shift]
            if unfit is not None:
                odd += int(unfit[k[on] >> shift].sum())
            g = np.maximum((1.0 - p) * d[on], -p * d[on])
            o_sum += float(g.sum())
            o_sq += float((g * g).sum())
            parity = (np.arange(first, first + m) % 2)[on]
            for h in (0, 1):
                pick = parity == h
                dd = d[on][pick]
                halves[h].add(k[on][pick], dd, dd * dd)
        # Held out: each half measured by the choices of the other.
        h_sum = h_sq = 0.0
        for h in (0, 1):
            mine = halves[h]
            c = _coef(halves[1 - h].at(mine.keys), table[mine.keys >> shift])
            h_sum += float((c * mine.s).sum())
            h_sq += float((c * c * mine.q).sum())
        # In sample: both halves, chosen and measured together.
        both = _Sums()
        for h in (0, 1):
            both.add(halves[h].keys, halves[h].s, halves[h].q)
        c = _coef(both.s, table[both.keys >> shift])
        i_sum, i_sq = float((c * both.s).sum()), float((c * c * both.q).sum())
        keys += len(both.keys)
        hm, hv = _figure(h_sum, h_sq, rows)
        im, iv = _figure(i_sum, i_sq, rows)
        om, ov = _figure(o_sum, o_sq, rows)
        held, inside, oracle = held + hm, inside + im, oracle + om
        held_var, inside_var, oracle_var = held_var + hv, inside_var + iv, oracle_var + ov
        per.append((hm, im))

    def fig(total: float, var: float) -> Figure:
        return Figure(total / seats, 1.96 * math.sqrt(var) / seats)

    return Bracket(key, rows, fig(held, held_var), fig(inside, inside_var),
                   fig(oracle, oracle_var), keys, decided / (rows * seats), tuple(per),
                   odd / max(decided, 1))


def field_table(rules: Rules, seats: int, spec: str
                ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], str]:
    """The field ``spec`` as a table over the abstraction, where it is one: (P(swap) by
    index, the indices where it is not a table, what plays in words). ``threshold``
    reads only its piece; ``expert`` where a trained policy plays is that policy (its
    backed-off lookup at every index). At an index the policy never saw, not even backed
    off, the expert plays ``counter``: those indices are marked, and hold 0.5.

    :raises: :exc:`ValueError` where the field is not a table: any other kind, or an
        expert that plays an exact strategy or counter at this size.
    """
    abstraction = GnavAbstraction(rules)
    bot = bot_from_spec(spec, 0, rules)
    none = np.zeros(abstraction.size, np.bool_)
    if isinstance(bot, ThresholdBot):
        rank = bot.rank(rules)
        by_piece = [threshold_action(rules, p, rank) is Action.SWAP
                    for p in range(len(rules.pieces))]
        return from_pieces(abstraction, by_piece).astype(np.float64), none, spec
    if isinstance(bot, ExpertBot):
        policy = bot.table(rules, seats)
        if isinstance(policy, Policy):
            out = abstraction.lookup(policy)
            none = np.isnan(out)
            out[none] = 0.5
            return out, none, bot.plays(rules, seats)
        raise ValueError(f"expert plays {bot.plays(rules, seats)}: not a table policy")
    raise ValueError(f"{spec} is not a table policy")
