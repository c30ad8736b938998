"""The lives states matches are played at, read off whole matches on the batch engine
(``gnav.fast.matches.play_matches``), and a round's rows re-valued in match terms
(``gnav.match_value``, issue 29).

``round_starts`` plays matches of a field and keeps every round's start (each seat's
lives, who is dealt in, the dealer) and each match's result; ``full_table_states`` draws
from them the states at which rounds of all the table's seats are played, with their
frequencies: what a round of N seats measured fresh (every seat at many lives, as the
solver and training assume) is re-valued at, row by row, with ``win_change`` (at one
state, or a state drawn for each row: ``draw_states``) or ``expected_win_change``
(averaged over the field's states).
``measured_law`` is how the field's lives move, a seat-round at a time, for the model's
``LifeLaw``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gnav.fast.jit import JitRounds
from gnav.fast.matches import MatchPolicy, play_matches
from gnav.match_value import ONE_LIFE, LifeLaw, round_in_match
from gnav.rules import Rules

Ints = npt.NDArray[np.intp]
State = tuple[int, ...]  # lives of a round's seats in turn order, the dealer last


@dataclass
class RoundStarts:
    """Every round of ``matches`` matches as it began (rows: rounds, in play order),
    and how each match ended."""

    seats: int
    lives: npt.NDArray[np.int16]  # (rounds, seats): each seat's lives, 0 once out
    active: npt.NDArray[np.bool_]  # (rounds, seats): dealt in (neither out nor sitting out)
    order: Ints  # (rounds, seats): the seat at each column, turn order, the dealer last
    match: Ints  # (rounds,): the match a round belongs to
    changes: Counter[int]  # gains less payments, over every seat-round dealt in
    result: npt.NDArray[np.float64]  # (matches, seats): 1 a win, 1/k a win shared by k

    def states(self) -> npt.NDArray[np.int16]:
        """(rounds, seats): each round's lives in turn order (right-aligned, the dealer
        last; 0 in unused columns), as the round's own rows give them."""
        used = self.order >= 0
        got = np.take_along_axis(self.lives, np.where(used, self.order, 0), 1)
        out: npt.NDArray[np.int16] = np.where(used, got, 0).astype(np.int16)
        return out


def round_starts(rules: Rules, seats: int, matches: int, policies: Sequence[MatchPolicy],
                 *, rng: np.random.Generator,
                 seat_policy: npt.ArrayLike | None = None) -> RoundStarts:
    """Play ``matches`` matches of ``seats`` seats (``play_matches``: the dealer of the
    first round seat 0) and keep every round's start."""
    current = np.full((matches, seats), rules.options.lives, np.int16)
    lives: list[npt.NDArray[np.int16]] = []
    order: list[Ints] = []
    which: list[Ints] = []
    changes: Counter[int] = Counter()

    def watch(number: int, rows: Ints, cols: Ints, rnd: JitRounds) -> None:
        used = cols >= 0
        lives.append(current[rows].copy())
        order.append(cols.copy())
        which.append(rows.copy())
        moved = (rnd.gains.astype(np.int64) - rnd.pays)[used]
        changes.update(Counter(moved.tolist()))
        r2 = np.broadcast_to(rows[:, None], cols.shape)[used]
        current[r2, cols[used]] = rnd.lives[used]

    state = play_matches(rules, seats, matches, policies, rng=rng, seat_policy=seat_policy,
                         watch=watch)
    if not state.over.all():
        raise ValueError("a match did not end")
    share = state.winners / state.winners.sum(1, keepdims=True)
    cols = np.concatenate(order)
    active = np.zeros(cols.shape, np.bool_)
    np.put_along_axis(active, np.where(cols >= 0, cols, 0), cols >= 0, 1)
    return RoundStarts(seats, np.concatenate(lives), active, cols, np.concatenate(which),
                       changes, share)


def full_table_states(starts: RoundStarts) -> list[tuple[State, float]]:
    """The lives states (turn order, the dealer last) at which rounds with every seat of
    the table dealt in were played, each with its share of those rounds, the most
    frequent first."""
    full = starts.active.all(1)
    counts = Counter(map(tuple, starts.states()[full].tolist()))
    total = sum(counts.values())
    return [(state, n / total) for state, n in
            sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def draw_states(states: Sequence[tuple[State, float]], rows: int,
                rng: np.random.Generator) -> npt.NDArray[np.int16]:
    """(rows, seats): a lives state for each row, drawn with the states' shares, so that a
    row's ``win_change(drawn, change)`` is an unbiased sample of the round's value in
    win chance over the field's states (``gnav.fast.response.row_gains`` takes it as
    its per-row ``d``: swap's column less stand's)."""
    if not states:
        raise ValueError("no lives state to draw from")
    table = np.array([s for s, _ in states], np.int16)
    shares = np.array([p for _, p in states], np.float64)
    picked = rng.choice(len(table), size=rows, p=shares / shares.sum())
    out: npt.NDArray[np.int16] = table[picked]
    return out


def measured_law(starts: RoundStarts) -> LifeLaw:
    """How the field's lives move when they move: each change (gains less payments) of a
    seat dealt in, by how often it was seen."""
    return LifeLaw.of({d: float(n) for d, n in starts.changes.items()})


def win_change(before: npt.ArrayLike, change: npt.ArrayLike,
               law: LifeLaw = ONE_LIFE) -> npt.NDArray[np.float64]:
    """(rows, seats): each seat's change of its chance to win over each row's round,
    from the lives ``before`` it (rows x seats, or one row for all) moved by ``change``
    (rows x seats: gains less payments, a round's per-row results). Each distinct
    (before, change) is valued once (``round_in_match``)."""
    moved = np.asarray(change, np.int64)
    start = np.broadcast_to(np.asarray(before, np.int64), moved.shape)
    both = np.concatenate([start, moved], axis=1)
    distinct, back = np.unique(both, axis=0, return_inverse=True)
    seats = moved.shape[1]
    valued = np.array([round_in_match(tuple(row[:seats]), tuple(row[seats:]), law)
                       for row in distinct.tolist()], np.float64).reshape(-1, seats)
    out: npt.NDArray[np.float64] = valued[back.reshape(-1)]
    return out


def expected_win_change(states: Sequence[tuple[State, float]], change: npt.ArrayLike,
                        law: LifeLaw = ONE_LIFE, *, mass: float = 1.0
                        ) -> npt.NDArray[np.float64]:
    """(rows, seats): each row's round (``change``: gains less payments, columns in turn
    order, the dealer last, as ``JitRounds`` gives a fresh round's) re-valued in win
    chance, averaged over the lives states ``states`` (``full_table_states``: the round
    played at each with its share). ``mass`` keeps the most frequent states that hold
    that share of the rounds (the rest dropped, the kept ones' shares renormalised): at
    large tables nearly every state is met once."""
    moved = np.asarray(change, np.int64)
    kept: list[tuple[State, float]] = []
    held = 0.0
    for state, share in sorted(states, key=lambda sp: -sp[1]):
        if held >= mass:
            break
        kept.append((state, share))
        held += share
    if not kept:
        raise ValueError("no lives state to value the rounds at")
    # Each distinct row once, each state in plain Python: at 20 seats np.unique a state
    # made valuing two rows over 34,318 states take 28 s of CPU, this 2.
    distinct, back = np.unique(moved, axis=0, return_inverse=True)
    rows = [tuple(r) for r in distinct.tolist()]
    total = np.zeros(distinct.shape)
    for state, share in kept:
        total += share * np.array([round_in_match(state, r, law) for r in rows])
    result: npt.NDArray[np.float64] = (total / held)[back.reshape(-1)]
    return result
