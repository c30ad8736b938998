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

Every figure is given at each position (``Bracket.positions``: the dealer's left first,
the dealer last) and as the mean over positions (seats rotated); the two differ a lot,
since a later seat sees more. ``row_gains`` turns one position's per-row keys, ``D``
and the field's P(swap) into each row's contribution to the three figures: another
valuation of a row's two outcomes than lives (a match's chance to win) plugs in there.

Each figure's 95% half-width treats rows as independent with the choices fixed (for the
in-sample figure the choices were fitted to those rows, so its interval is a guide).
The rounds are single rounds from a fresh deal, every seat at the starting lives.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.abstraction import position_name as position_name  # re-exported
from gnav.bots.expert import ExpertBot
from gnav.bots.registry import bot_from_spec
from gnav.bots.threshold import ThresholdBot, threshold_action
from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.classes import row_classes
from gnav.fast.deviator import from_pieces
from gnav.fast.jit import ABSTRACT, RICH, VIEW, VIEW_BITS, JitRounds
from gnav.fast.lifestates import draw_states
from gnav.lives_class import CLASSES
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
class Position:
    """The bracket at one position (the deviator in one seat, every round there)."""

    column: int  # the seat's column in turn order: 0 the dealer's left, the dealer last
    seats: int
    held_out: Figure
    in_sample: Figure
    oracle: Figure
    keys: int  # distinct keys met at this position
    decisions: float  # the share of rows where the deviator had a choice

    @property
    def from_dealer(self) -> int:
        """Seats clockwise from the dealer: 0 the dealer, 1 the dealer's left (first to
        act), ``seats - 1`` the dealer's right."""
        return (self.column + 1) % self.seats

    @property
    def name(self) -> str:
        return position_name(self.column, self.seats)


@dataclass(frozen=True)
class Bracket:
    """The deviator's gain, lives a round, the positions averaged (seats rotated), and
    each position's own (``positions``, in turn order: the dealer last)."""

    key: str
    rows: int  # rounds per position
    held_out: Figure  # a deviation that exists: below the best response
    in_sample: Figure  # above the best response over ``key``, in expectation
    oracle: Figure  # a deviator that sees every piece: above everything
    keys: int  # distinct keys met, over the positions
    decisions: float  # the share of rows where the deviator had a choice
    per_position: tuple[tuple[float, float], ...]  # (held-out, in-sample) by position
    unfit: float = 0.0  # the share of the deviator's decisions at ``unfit`` indices
    positions: tuple[Position, ...] = ()


@dataclass(frozen=True)
class RowGains:
    """Each row's contribution to one position's figures (0 where the deviator had no
    choice): the mean of a column is that figure, so a consumer can sum, weight or
    compare rows as it likes."""

    held_out: npt.NDArray[np.float64]  # chosen on the other half's rows
    in_sample: npt.NDArray[np.float64]  # chosen on all rows, this one included
    oracle: npt.NDArray[np.float64]  # chosen on this row alone
    keys: int  # distinct keys met
    decisions: float  # the share of rows where the deviator had a choice


def row_gains(keys: npt.ArrayLike, d: npt.ArrayLike, p: npt.ArrayLike) -> RowGains:
    """One position's per-row gains from each row's deviator key (negative: no choice
    that row), ``d`` (the value after swapping less the value after standing, on common
    random numbers) and ``p`` (the field's P(swap) at that row's decision). Rows are
    split into halves by index parity (even, odd): the held-out figure chooses at each
    key by the other half's sum of ``d``. ``d`` may be any valuation of the row's two
    outcomes (lives, a match's chance to win, ...): the bracket's reasoning needs only
    that it be an unbiased sample of the gap at the row's information set.

    :raises: :exc:`ValueError` where the arrays differ in length.
    """
    k = np.asarray(keys, dtype=np.int64)
    dd = np.asarray(d, dtype=np.float64)
    pp = np.asarray(p, dtype=np.float64)
    if not k.shape == dd.shape == pp.shape or k.ndim != 1:
        raise ValueError(f"keys, d and p differ: {k.shape}, {dd.shape}, {pp.shape}")
    on = k >= 0
    found, where = np.unique(k[on], return_inverse=True)
    don, pon = dd[on], pp[on]
    odd = (np.flatnonzero(on) % 2).astype(np.bool_)
    sums = [np.bincount(where[odd == h], weights=don[odd == h],
                        minlength=len(found)).astype(np.float64) for h in (False, True)]
    other = np.where(odd, sums[0][where], sums[1][where])
    both = (sums[0] + sums[1])[where]
    held, inside, oracle = (np.zeros(len(k)) for _ in range(3))
    held[on] = _coef(other, pon) * don
    inside[on] = _coef(both, pon) * don
    oracle[on] = np.maximum((1.0 - pon) * don, -pon * don)
    return RowGains(held, inside, oracle, len(found), float(on.mean()) if len(k) else 0.0)


def figure(x: npt.ArrayLike) -> Figure:
    """The mean of per-row gains and its 95% half-width (rows independent)."""
    a = np.asarray(x, dtype=np.float64)
    mean = float(a.mean())
    var = max(float((a * a).mean()) - mean * mean, 0.0) / len(a)
    return Figure(mean, 1.96 * math.sqrt(var))


def position_bracket(column: int, seats: int, gains: RowGains) -> Position:
    """One position's bracket from its per-row gains."""
    return Position(column, seats, figure(gains.held_out), figure(gains.in_sample),
                    figure(gains.oracle), gains.keys, gains.decisions)


def mean_over(figures: Sequence[Figure]) -> Figure:
    """The mean of the positions' figures (seats rotated); the positions' rows are
    independent, so their variances add."""
    n = len(figures)
    var = sum((f.half_width / 1.96) ** 2 for f in figures)
    return Figure(sum(f.value for f in figures) / n, 1.96 * math.sqrt(var) / n)


def _coef(s: npt.NDArray[np.float64], p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Per key, the deviation's weight on D: swap instead (1 - p) where the sum says swap
    is better, stand instead (-p) where it says stand is, the field's own (0) on a tie."""
    out: npt.NDArray[np.float64] = np.where(s > 0, 1.0 - p, np.where(s < 0, -p, 0.0))
    return out


@dataclass(frozen=True)
class Played:
    """One position's rows, played with the deviator's decision forced each way on the
    same random numbers: what a ``Valuation`` re-values."""

    column: int  # the deviator's column in turn order
    keys: npt.NDArray[np.int64]  # (rows,): the deviator's key, negative where no choice
    stand: npt.NDArray[np.int8]  # (rows, seats): gains less payments, the deviator stood
    swap: npt.NDArray[np.int8]  # (rows, seats): the same, the deviator swapped
    lives: npt.NDArray[np.float64]  # (rows,): the deviator's lives, swap's less stand's


# A row's valuation: each row's deviator key (it may refine ``Played.keys``; negative
# where no choice) and its ``d`` (the value after swapping less after standing).
Valuation = Callable[[Played], tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]]


def lives_terms(played: Played) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The valuation in lives a round, by the key the round gave."""
    return played.keys, played.lives


def bracket(rules: Rules, seats: int, field: npt.ArrayLike, rows: int, *,
            key: str = "view", seed: int = 0, chunk: int = CHUNK,
            unfit: npt.NDArray[np.bool_] | None = None) -> Bracket:
    """The bracket of the deviator's best response against ``field`` (P(swap) over
    ``GnavAbstraction(rules)``), ``rows`` rounds at each position, and each position's
    own, in lives a round. ``unfit``: indices where the field is not really this table
    (``field_table``'s), counted in ``Bracket.unfit``.

    :raises: :exc:`ValueError` for a table of the wrong size or an unknown key.
    """
    return brackets(rules, seats, field, rows, {"lives": lives_terms}, key=key, seed=seed,
                    chunk=chunk, unfit=unfit)["lives"]


def brackets(rules: Rules, seats: int, field: npt.ArrayLike, rows: int,
             terms: Mapping[str, Valuation], *, key: str = "view", seed: int = 0,
             chunk: int = CHUNK, unfit: npt.NDArray[np.bool_] | None = None,
             states: Sequence[tuple[tuple[int, ...], float]] | None = None
             ) -> dict[str, Bracket]:
    """``bracket`` in several terms at once, from the same rounds: each of ``terms``
    re-values every position's rows (``lives_terms``, or a match's chance to win:
    ``gnav.fast.match_response``). The field's P(swap) and ``unfit`` are read at the
    round's own key; ``keys`` counts each valuation's keys.

    A match policy's field (``field``: a table a lives class, ``CLASSES`` x size) needs
    ``states``: each row of a position is played at a lives state drawn from them as
    ``match_response.MatchTerms`` draws its row's (the same seed, so the same state),
    every seat at its class's table.

    :raises: :exc:`ValueError` for a table of the wrong size or an unknown key.
    """
    if key not in KEYS:
        raise ValueError(f"no key {key!r}: one of {', '.join(KEYS)}")
    kind, shift = KEYS[key]
    table = np.asarray(field, dtype=np.float64)
    size = GnavAbstraction(rules).size
    if table.shape[-1:] != (size,) or table.ndim > 2 or (table.ndim == 2) != \
            (states is not None):
        raise ValueError(f"a field table has {size} entries (a table a lives class: with "
                         f"the lives states), not {table.shape}")
    tables = np.atleast_2d(table)
    flat_unfit = None if unfit is None else np.asarray(unfit).reshape(-1)
    decided = odd = 0
    positions: dict[str, list[Position]] = {name: [] for name in terms}
    for column in range(seats):
        classes = None
        if states is not None:  # each row at a lives state, the one its valuation draws
            before = draw_states(states, rows, np.random.default_rng(
                derive(seed, "match-terms", column)))
            classes = row_classes(before)
        played = _play(rules, seats, tables, kind, column, rows, seed, chunk, classes)
        k = played.keys
        on = k >= 0
        decided += int(on.sum())
        at = np.where(on, k, 0) >> shift
        if classes is not None:
            at = at + classes[:, column] * size
        if flat_unfit is not None:
            odd += int(flat_unfit[at[on]].sum())
        p = np.where(on, tables.reshape(-1)[at], 0.0)
        for name, value in terms.items():
            keys, d = value(played)
            positions[name].append(position_bracket(column, seats, row_gains(keys, d, p)))
    return {name: Bracket(key, rows, mean_over([q.held_out for q in qs]),
                          mean_over([q.in_sample for q in qs]),
                          mean_over([q.oracle for q in qs]),
                          sum(q.keys for q in qs), decided / (rows * seats),
                          tuple((q.held_out.value, q.in_sample.value) for q in qs),
                          odd / max(decided, 1), tuple(qs))
            for name, qs in positions.items()}


def _play(rules: Rules, seats: int, tables: npt.NDArray[np.float64], kind: int,
          column: int, rows: int, seed: int, chunk: int,
          classes: npt.NDArray[np.int64] | None = None) -> Played:
    """``rows`` rounds with the deviator at ``column``, its decision forced each way;
    ``classes`` (rows x seats): each seat's table, else the first for all."""
    ks, lv = [], []
    moved: tuple[list[npt.NDArray[np.int8]], list[npt.NDArray[np.int8]]] = ([], [])
    for first in range(0, rows, chunk):
        m = min(chunk, rows - first)
        lives = []
        k: npt.NDArray[np.int64] = np.empty(0, np.int64)
        for action in (0, 1):
            forced = np.full(seats, -1)
            forced[column] = action
            r = JitRounds(rules, seats, m, seed=derive(seed, "response", column),
                          first_row=first)
            r.play(tables, kind, forced=forced,
                   policy_of=None if classes is None else classes[first:first + m])
            lives.append(r.lives[:, column].astype(np.float64))
            moved[action].append((r.gains.astype(np.int8) - r.pays).astype(np.int8))
            k = r.keys[:, column].copy()
        ks.append(k)
        lv.append(lives[1] - lives[0])
    return Played(column, np.concatenate(ks), np.concatenate(moved[0]),
                  np.concatenate(moved[1]), np.concatenate(lv))


def field_table(rules: Rules, seats: int, spec: str
                ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], str]:
    """The field ``spec`` as a table over the abstraction, where it is one: (P(swap) by
    index, the indices where it is not a table, what plays in words). ``threshold``
    reads only its piece; ``expert`` where a trained policy plays is that policy (its
    backed-off lookup at every index); ``expert`` where it plays a trained match policy
    is a table a lives class (``CLASSES`` x size: ``brackets`` then needs lives states).
    At an index the policy never saw, not even backed off, the expert plays
    ``counter``: those indices are marked, and hold 0.5.

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
        by_lives = bot.match_policy(rules, seats)
        if by_lives is not None:  # a table a lives class (brackets' ``states``)
            from gnav.fast.expert import match_tables

            return match_tables(rules, by_lives).astype(np.float64), \
                np.zeros((CLASSES, abstraction.size), np.bool_), bot.plays(rules, seats)
        if isinstance(policy, Policy):
            out = abstraction.lookup(policy)
            none = np.isnan(out)
            out[none] = 0.5
            return out, none, bot.plays(rules, seats)
        raise ValueError(f"expert plays {bot.plays(rules, seats)}: not a table policy")
    raise ValueError(f"{spec} is not a table policy")
