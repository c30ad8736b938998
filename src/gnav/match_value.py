"""What a lives state is worth in the match, at any table size: each seat's chance to
be the last with lives, as poker's ICM values a tournament's chips (issue 29).

The match is solved exactly at 2 and 3 seats (``gnav.solve.match``); past that it cannot
be, so a state is valued under a model of how lives move, stated here:

**The model.** Each round one seat still in, each equally likely, has its lives moved by
one step drawn from a ``LifeLaw`` (by default ``ONE_LIFE``: it loses one); a seat at 0
is out; the last seat with lives wins. Nobody's position, piece or play enters, so a
seat's chance depends on the lives of the seats still in alone (their multiset), and
symmetric seats get equal chances.

**Two ways to compute it.** ``win_chances_dp`` is the model's own recursion over the
counts of seats at each lives value (cached; exact in ``Fraction`` at small sizes), for
``ONE_LIFE``; ``win_chances`` uses it where its states are few (``DP_STATES``), and
beyond (and for any other law) the same model as a race, exact for any law: give every
seat still in a clock that rings at rate 1 (independent exponential waits); at each ring
its seat takes a step. The next ring among the seats still in is each one's with equal
chance, whoever went out before, so this *is* the model, and a seat's time to go out no
longer depends on the others: it is the sum of ``N`` exponential waits, ``N`` the number
of steps its lives take to reach 0 (``v`` under ``ONE_LIFE``; a distribution under a law
with gains), and the seat that goes out last wins::

    P(seat i wins) = integral over t of f_i(t) * product over j != i of F_j(t)

with ``F`` the distribution of a seat's time to go out (a mixture of Gamma(N, 1)) and
``f`` its density. Nobody waits on a state space: 41 seats at any lives cost a few
hundred points of one integral (Gauss-Legendre's rule; ``tests/test_match_value.py`` holds it
to the recursion within 1e-9).

**A round in match terms.** ``round_in_match`` turns one round's lives paid and gained
per seat into each seat's change of win chance, elimination and a shared win included
(everyone left going out in one round shares it, docs/spec/rules.md §6).

The model is checked against the solved match (2 and 3 seats) and against whole matches
of the expert on the batch engine (6 and 10 seats) in docs/strategy.md, *The match at
large tables: what a life is worth* (``tools/match_value_check.py``): about half a point
of win chance off, leaning toward the seat with the most lives; a law that gains a life
3 to 6% of the time fits those matches within their noise, but is a parameter fitted to
them, so ``ONE_LIFE`` stays the default.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import mul
from typing import TypeVar

# The integral's grid: Gauss-Legendre's rule of NODES points on each unit of time (a
# seat's clock rings once per unit on average) up to the horizon. Simpson's rule at 24
# points a unit was off by 2e-7 at one life each (the integrand turns sharpest near 0
# there), Boole's at 48 by 7e-11, at some 15 ms a state; Gauss-Legendre's 8 a unit
# agrees with the recursion to 3e-12 at every state of up to 6 seats and 4 lives, at a
# sixth of the points: 1.6 ms a state, 3.5 at 41 seats (tests/test_match_value.py holds
# it to TOLERANCE).
NODES = 8
TOLERANCE = 1e-9
# Where the integral stops: the chance that the seat that lasts longest is still in
# after the horizon is below this.
TAIL = 1e-15
# ``win_chances`` asks the recursion where its states (count vectors: at most
# comb(seats + top lives, top lives)) number no more than this, and the race beyond: 20
# seats at 5 lives (4 and a life gained), 31 at 4, 13 at 6. The recursion fills at most
# that many cache entries times the top lives, once, shared by every later call.
DP_STATES = 60_000
# A law with gains lets lives wander; the count of steps to go out is followed until the
# chance of more is below this.
STEP_TAIL = 1e-13


@dataclass(frozen=True)
class LifeLaw:
    """How a seat's lives move when they move: ``(change, chance)`` pairs, a change of
    -1 a life paid, -2 two, +1 a life gained (two fools gaining). Changes are whole
    numbers, none 0, the chances positive and summing to 1, and the law must lose lives
    on average (else a match need not end)."""

    steps: tuple[tuple[int, float], ...]

    def __post_init__(self) -> None:
        if not self.steps or any(d == 0 or p <= 0 for d, p in self.steps):
            raise ValueError("a life law has steps of non-zero changes with positive chances")
        if abs(math.fsum(p for _, p in self.steps) - 1.0) > 1e-9:
            raise ValueError("a life law's chances sum to 1")
        if math.fsum(d * p for d, p in self.steps) >= 0:
            raise ValueError("a life law must lose lives on average, or matches need not end")

    @classmethod
    def of(cls, counts: dict[int, float]) -> LifeLaw:
        """The law of ``counts`` (change -> how often it was seen), changes of 0 left out."""
        kept = {d: c for d, c in counts.items() if d != 0 and c > 0}
        total = math.fsum(kept.values())
        if not kept or total <= 0:
            raise ValueError("no change of lives to make a law of")
        return cls(tuple((d, c / total) for d, c in sorted(kept.items())))


ONE_LIFE = LifeLaw(((-1, 1.0),))

_N = TypeVar("_N", float, Fraction)  # the recursion in floats, or exactly for tests


# -- the model's recursion (one life a round) ------------------------------------------

def win_chances_dp(lives: Sequence[int], exact: bool = False) -> tuple[float, ...]:
    """Each seat's chance to win under ``ONE_LIFE``, by the model's own recursion over
    the counts of the other seats at each lives value (``exact``: as ``Fraction``\\ s
    turned to floats at the end, for tests at small sizes). Seats at 0 are out (0)."""
    top = max(lives, default=0)
    counts = [0] * top
    for u in lives:
        if u > 0:
            counts[u - 1] += 1
    by_value = {0: 0.0}  # each lives value once: a round's rows value many states
    for v in set(lives):
        if v > 0:
            counts[v - 1] -= 1  # the others
            by_value[v] = float((_dp_exact if exact else _dp)(v, _trim(list(counts))))
            counts[v - 1] += 1
    return tuple(by_value[max(v, 0)] for v in lives)


@lru_cache(maxsize=1 << 20)
def _dp(v: int, others: tuple[int, ...]) -> float:
    """A seat with ``v`` lives, ``others[u - 1]`` seats with ``u``: its chance to win.
    Each round one of the ``1 + sum(others)`` seats in loses a life."""
    return _recur(v, others, 1.0, _dp)


@lru_cache(maxsize=1 << 16)
def _dp_exact(v: int, others: tuple[int, ...]) -> Fraction:
    return _recur(v, others, Fraction(1), _dp_exact)


def _recur(v: int, others: tuple[int, ...], one: _N, again: Callable[[int, tuple[int, ...]], _N]
           ) -> _N:
    """One step of the recursion, in floats or in exact fractions (``one``'s type):
    whoever of the ``1 + n`` seats in loses the round's life, each equally likely."""
    n = sum(others)
    if n == 0:
        return one
    total = again(v - 1, others) if v > 1 else one - one
    for u, c in enumerate(others, 1):
        if c:
            moved = list(others)
            moved[u - 1] -= 1
            if u > 1:
                moved[u - 2] += 1
            total += c * again(v, _trim(moved))
    return total / (n + 1)


def _trim(counts: list[int]) -> tuple[int, ...]:
    # One key per state: no trailing zero counts.
    while counts and counts[-1] == 0:
        counts.pop()
    return tuple(counts)


# -- the model's chances ------------------------------------------------------------

def win_chances(lives: Sequence[int], law: LifeLaw = ONE_LIFE) -> tuple[float, ...]:
    """Each seat's chance to win the match from ``lives`` (one entry a seat, in any order;
    seats at 0 or below are out and get 0) under the model with ``law``. A lone seat in
    has won (1); with nobody in, nobody wins (all 0)."""
    alive = tuple(sorted({v for v in lives if v > 0}))
    counts = tuple(sum(1 for u in lives if u == v) for v in alive)
    if law == ONE_LIFE and alive and math.comb(sum(counts) + alive[-1], alive[-1]) <= DP_STATES:
        # The recursion's states are shared between calls (a round's rows, a match's
        # states): once met, a state is a lookup, where the race costs milliseconds.
        return win_chances_dp(lives)
    return win_chances_race(lives, law)


# -- the race (any law) --------------------------------------------------------------

def win_chances_race(lives: Sequence[int], law: LifeLaw = ONE_LIFE) -> tuple[float, ...]:
    """``win_chances`` by the race alone, whatever the size."""
    alive = tuple(sorted({v for v in lives if v > 0}))
    counts = tuple(sum(1 for u in lives if u == v) for v in alive)
    by_value = _race(alive, counts, law)
    return tuple(by_value[alive.index(v)] if v > 0 else 0.0 for v in lives)


@lru_cache(maxsize=1 << 16)
def _race(alive: tuple[int, ...], counts: tuple[int, ...], law: LifeLaw) -> tuple[float, ...]:
    """The chance to win of one seat at each value of ``alive`` (``counts`` seats at
    each): the integral of its time-out's density times the others' distributions."""
    if sum(counts) == 0:
        return ()
    if sum(counts) == 1:
        return (1.0,)
    tails = [_tail(v, law) for v in alive]  # P(N > j), j = 0, 1, ...
    # P(N = j + 1) = tail[j] - tail[j + 1]: the chance that the seat goes out at step j + 1.
    ends = [[a - b for a, b in zip(t, (*t[1:], 0.0), strict=True)] for t in tails]
    width = max(len(t) for t in tails)
    acc = [0.0] * len(alive)
    for t, weight in _grid(_horizon(width)):
        pois = _poisson(t, width)  # e^-t t^j / j!
        # F: the chance that the seat is out by t, 1 - sum over j of P(Poisson(t) = j)
        # P(N > j) (a tail shorter than pois: past it the seat is out for sure); f: its
        # density, sum over n of P(N = n) times Gamma(n)'s density at t, pois[n - 1].
        dist = [1.0 - sum(map(mul, pois, tail)) for tail in tails]
        dens = [sum(map(mul, pois, end)) for end in ends]
        for i in range(len(alive)):
            if dens[i] == 0.0:
                continue
            prod = 1.0
            for j, c in enumerate(counts):
                m = c - (i == j)
                if m:
                    prod *= dist[j] ** m
            acc[i] += weight * dens[i] * prod
    return tuple(acc)


@lru_cache(maxsize=64)
def _grid(horizon: float) -> tuple[tuple[float, float], ...]:
    """(point, weight) of Gauss-Legendre's rule on each unit of [0, horizon]."""
    nodes = _legendre(NODES)
    return tuple((start + (1 + x) / 2, w / 2) for start in range(math.ceil(horizon))
                 for x, w in nodes)


@lru_cache(maxsize=8)
def _legendre(n: int) -> tuple[tuple[float, float], ...]:
    """Gauss-Legendre's nodes and weights on [-1, 1]: the roots of the Legendre
    polynomial P_n by Newton's method from Tricomi's first guess, w = 2 / ((1 - x^2)
    P_n'(x)^2)."""
    out = []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x  # P_0, P_1, then up the three-term recurrence to P_n
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            slope = n * (x * p1 - p0) / (x * x - 1)
            step = p1 / slope
            x -= step
            if abs(step) < 1e-16:
                break
        p0, p1 = 1.0, x
        for k in range(2, n + 1):
            p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
        slope = n * (x * p1 - p0) / (x * x - 1)
        out.append((x, 2 / ((1 - x * x) * slope * slope)))
    return tuple(sorted(out))


def _poisson(t: float, width: int) -> list[float]:
    out = [math.exp(-t)]
    for j in range(1, width):
        out.append(out[-1] * t / j)
    return out


def _horizon(width: int) -> float:
    """A time past which a seat needing ``width`` steps or fewer is out but for ``TAIL``:
    the Poisson count of rings by then is at least ``width`` with that chance."""
    t = float(width)
    while math.fsum(_poisson(t, width)) > TAIL:
        t += 1.0
    return t


@lru_cache(maxsize=1024)
def _tail(v: int, law: LifeLaw) -> tuple[float, ...]:
    """``P(N > j)`` for j = 0, 1, ... : the chance that a seat at ``v`` lives is still in
    after ``j`` steps of ``law``, followed until it is below ``STEP_TAIL``."""
    if law == ONE_LIFE:
        return (1.0,) * v
    # The chance of each lives value still in after j steps (lives only above 0).
    now = {v: 1.0}
    out: list[float] = []
    while True:
        alive = math.fsum(now.values())
        if alive < STEP_TAIL:
            return tuple(out)
        out.append(alive)
        nxt: dict[int, float] = {}
        for u, p in now.items():
            for d, q in law.steps:
                w = u + d
                if w > 0:
                    nxt[w] = nxt.get(w, 0.0) + p * q
        now = nxt


# -- a round in match terms ----------------------------------------------------------

def lives_after(before: Sequence[int], change: Sequence[int]) -> tuple[int, ...]:
    """Each seat's lives after a round that moved them by ``change`` (gains less
    payments): never below 0 (docs/spec/rules.md §6). Seats out before stay at 0."""
    if len(before) != len(change):
        raise ValueError("one change a seat")
    return tuple(0 if b <= 0 else max(0, b + d) for b, d in zip(before, change, strict=True))


def match_result(before: Sequence[int], change: Sequence[int],
                 law: LifeLaw = ONE_LIFE) -> tuple[float, ...]:
    """Each seat's chance to win once a round from ``before`` has moved lives by
    ``change``: 1 to a lone survivor, 1 / k to each of the k seats that all went out
    together (a shared win), else the model's chances from the lives after."""
    after = lives_after(before, change)
    if any(v > 0 for v in after):
        return win_chances(after, law)
    gone = [b > 0 for b in before]
    k = sum(gone)
    return tuple(1.0 / k if g else 0.0 for g in gone)


def round_in_match(before: Sequence[int], change: Sequence[int],
                   law: LifeLaw = ONE_LIFE) -> tuple[float, ...]:
    """Each seat's change of its chance to win the match over a round that moved lives
    by ``change`` from ``before`` (seats in any order; ``before`` at 0: out, change 0).
    The changes sum to 0: what one seat gains the others lose."""
    start = win_chances(before, law)
    end = match_result(before, change, law)
    return tuple(e - s for s, e in zip(start, end, strict=True))


def life_worth(lives: int, others: Sequence[int], law: LifeLaw = ONE_LIFE) -> float:
    """The chance to win of a seat with ``lives`` among ``others``: the small table of
    what a life is worth (docs/strategy.md)."""
    return win_chances((lives, *others), law)[0]
