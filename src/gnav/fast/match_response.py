"""A lone deviator's best response in match terms: each round's gap re-valued as the
change in the deviator's chance to win the match (issue 29 §2).

``gnav.fast.response`` brackets the best response in lives a round, every round fresh.
A life is not worth the same everywhere in a match: near elimination it is worth most,
so a deviator may gain by playing differently there, where a table that never sees the
lives cannot follow. ``MatchTerms`` is a ``response.Valuation`` that, for each row:

* draws a lives state (every seat's lives, all N dealt in) from the field's own matches
  at that table size (``lifestates.full_table_states``, ``draw_states``: by share, so a
  row's value is an unbiased sample over the states the field meets);
* re-values its two outcomes as ``lifestates.win_change`` does (the brief's formula,
  held to it by the tests), the deviator's column only: ``d`` is its chance to win
  after swapping less after standing (``gnav.match_value``'s model; a seat brought to 0
  is out, all out together share the win);
* adds to the deviator's key the lives of the seats in ``near`` (offsets from its column
  in turn order; by default its own and both neighbours'). Every seat's lives are on
  the table, in the seat's view, so this is still a deviator that uses what it sees.

The round itself is played fresh (``JitRounds``): the field's table never reads lives,
so its play is the same at any state, and only the valuation depends on the state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gnav.fast.abstraction import GnavAbstraction
from gnav.fast.lifestates import State, draw_states, full_table_states, round_starts
from gnav.fast.matches import MatchPolicy
from gnav.fast.policies import TablePolicy
from gnav.fast.response import Played
from gnav.match_value import ONE_LIFE, LifeLaw, win_chances
from gnav.rules import Rules
from gnav.seeds import derive

NEAR = (-1, 0, 1)  # the seat before the deviator, the deviator, the seat after it


def field_states(rules: Rules, seats: int, field: npt.ArrayLike, matches: int, *,
                 seed: int = 0, policy: MatchPolicy | None = None
                 ) -> list[tuple[State, float]]:
    """The lives states (turn order, the dealer last) at which the field, playing
    ``matches`` whole matches of ``seats`` seats with its table, dealt all of them in,
    each with its share of those rounds. Rounds with every seat in are played by the
    table of that size, whatever the field plays at smaller tables. ``policy``: the
    field as a batch policy instead of ``field`` (a match policy's field, whose table
    is one a lives class: ``ExpertPolicy(match=True)``)."""
    if policy is None:
        policy = TablePolicy(GnavAbstraction(rules), field)
    starts = round_starts(rules, seats, matches, [policy],
                          rng=np.random.default_rng(derive(seed, "match-states")))
    return full_table_states(starts)


def lives_key(keys: npt.ArrayLike, before: npt.ArrayLike, column: int,
              near: Sequence[int] = NEAR) -> npt.NDArray[np.int64]:
    """Each row's key refined by the lives (``before``: rows x seats, turn order) of the
    seats ``near`` the deviator's ``column`` (offsets, round the table), numbered
    densely; negative where ``keys`` is (no choice)."""
    k = np.asarray(keys, np.int64)
    lives = np.asarray(before, np.int64)
    seats = lives.shape[1]
    cols = [(column + o) % seats for o in near]
    on = k >= 0
    out = np.full(len(k), -1, np.int64)
    if on.any():
        both = np.column_stack([k[on], lives[on][:, cols]])
        _, ids = np.unique(both, axis=0, return_inverse=True)
        out[on] = ids.reshape(-1)
    return out


def match_gap(before: npt.ArrayLike, stand: npt.ArrayLike, swap: npt.ArrayLike,
              column: int, law: LifeLaw = ONE_LIFE) -> npt.NDArray[np.float64]:
    """Each row's change of the chance to win of the seat at ``column`` after swapping
    less after standing, from the lives ``before`` (rows x seats) moved by ``stand`` and
    by ``swap`` (gains less payments): ``win_change``'s two columns' difference (the
    chance before cancels), valued once per distinct outcome."""
    b = np.asarray(before, np.int64)
    d = np.zeros(len(b))
    moved = (np.asarray(stand) != np.asarray(swap)).any(1)  # else 0, unvalued
    if moved.any():
        at = b[moved]
        d[moved] = (seat_chance(at, np.asarray(swap, np.int64)[moved], column, law)
                    - seat_chance(at, np.asarray(stand, np.int64)[moved], column, law))
    return d


def seat_chance(before: npt.NDArray[np.int64], change: npt.NDArray[np.int64], column: int,
                law: LifeLaw = ONE_LIFE) -> npt.NDArray[np.float64]:
    """Each row's chance to win of the seat at ``column`` once ``change`` has moved the
    lives ``before`` (``gnav.match_value.match_result``'s, that seat's entry). A chance
    depends on the seat's lives and the others' multiset alone, so rows are valued once
    per (own lives, the others' count at each lives value): at 20 seats 100,000 rows
    valued row by row took 140 s of CPU, nearly all of it here."""
    after = np.where(before > 0, np.maximum(before + change, 0), 0)
    own = after[:, column]
    others = np.delete(after, column, axis=1)
    top = int(after.max(initial=0))
    counts = np.stack([(others == v).sum(1) for v in range(1, top + 1)], axis=1) \
        if top else np.zeros((len(after), 0), np.int64)
    # All out together: the seats in before share the win (match_result); this seat's
    # share, by how many shared it, where it was one of them.
    gone = (after == 0).all(1) & (before[:, column] > 0)
    shared = np.where(gone, (before > 0).sum(1), 0)
    key = np.column_stack([own, shared, counts])
    distinct, back = _distinct_rows(key)
    valued = np.empty(len(distinct))
    for i, row in enumerate(distinct.tolist()):
        v, k, cs = row[0], row[1], row[2:]
        if k or v == 0:
            valued[i] = 1.0 / k if k else 0.0
            continue
        lives = [v] + [u for u, c in enumerate(cs, 1) for _ in range(c)]
        # The recursion where its state space is small, the race beyond (10 ms a state:
        # at 20 seats, states with a seat on 6 lives made most of the CPU). Asking the
        # recursion from such states instead took 348 s of CPU at 20 seats and 20,000
        # rows, where this takes 87 s at 100,000: their reachable states explode.
        valued[i] = _first_chance(tuple(lives), law)
    out: npt.NDArray[np.float64] = valued[back.reshape(-1)]
    return out


def _distinct_rows(key: npt.NDArray[np.int64]
                   ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """``np.unique(key, axis=0, return_inverse=True)``, the distinct rows in some order:
    each row read as one number where its digits fit 62 bits (sorting rows as records
    was half of a match training's CPU)."""
    bases = [int(b) + 1 for b in key.max(axis=0, initial=0)]
    if math.prod(bases) >= 1 << 62:
        distinct, back = np.unique(key, axis=0, return_inverse=True)
        return distinct, back.reshape(-1)
    weights = np.cumprod([1, *bases[:-1]]).astype(np.int64)
    _, first, back = np.unique(key @ weights, return_index=True, return_inverse=True)
    return key[first], back.reshape(-1)


# Training in match terms values a few hundred thousand rows a batch over the same few
# thousand states (gnav.train.match_terms): at 5-6 seats the chances took 4 of 14 s of
# CPU over 4 batches before they were remembered.
@lru_cache(maxsize=1 << 17)
def _first_chance(lives: tuple[int, ...], law: LifeLaw) -> float:
    """The first seat's chance to win at ``lives`` (``win_chances``), remembered."""
    return win_chances(lives, law)[0]


class MatchTerms:
    """A ``response.Valuation`` in the deviator's chance to win the match (win
    probability a round): each row at a lives state drawn from ``states`` (seeded by
    ``seed`` and the column), the key refined by the lives of the seats ``near`` it."""

    def __init__(self, states: Sequence[tuple[State, float]], *, seed: int = 0,
                 near: Sequence[int] = NEAR, law: LifeLaw = ONE_LIFE) -> None:
        if not states:
            raise ValueError("no lives state to value the rounds at")
        self.states = list(states)
        self.seed = seed
        self.near = tuple(near)
        self.law = law

    def __call__(self, played: Played
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        rng = np.random.default_rng(derive(self.seed, "match-terms", played.column))
        before = draw_states(self.states, len(played.keys), rng)
        if before.shape[1] != played.stand.shape[1]:
            raise ValueError(f"lives states of {before.shape[1]} seats for a round of "
                             f"{played.stand.shape[1]}")
        on = played.keys >= 0
        d = np.zeros(len(on))
        d[on] = match_gap(before[on], played.stand[on], played.swap[on], played.column,
                          self.law)
        return lives_key(played.keys, before, played.column, self.near), d
