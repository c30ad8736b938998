"""One round on the reference engine, played by an abstract policy, with every seat's
decision also tried the other way: the samples ``gnav train`` learns from and ``gnav
exploit`` measures with.

The abstract key of a decision is computed here from the round's public log as it is
played (``Tracker``), the twin of ``gnav.abstraction.abstract_key`` of the seat's view:
it reads the seat's own dealt and held piece and public events only, and a test holds
the two equal at every decision. Seats are positions: the dealer's left is seat 0.

Common random numbers: each position draws one uniform number a deal and swaps when it
is below its policy's P(swap), in the main line and in every line tried the other way,
so that two lines differ only by the decision tried (far less noise in the difference).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import NamedTuple

from gnav.abstraction import RIGHT, Layout, band_index
from gnav.events import Answer, Ask, Event, Knock, Stand, Swap
from gnav.round import STAND, SWAP, RoundState
from gnav.rules import Rules

LIVES = 1000  # every seat can pay every payment of the round (as the solver assumes)

# A policy answers an abstract key with P(swap).
Policy = Callable[[int], float]


class Tracker:
    """What the public log has said so far: each position's turn (``S``, ``W``, ``A``)
    and the positions that knocked."""

    __slots__ = ("answers", "knocked", "status")

    def __init__(self, n: int, events: Sequence[Event]) -> None:
        self.status = ["?"] * n
        self.knocked: list[int] = []
        self.answers = 0  # matadors shown so far
        self.see(events)

    def copy(self) -> Tracker:
        out = Tracker.__new__(Tracker)
        out.status = list(self.status)
        out.knocked = list(self.knocked)
        out.answers = self.answers
        return out

    def see(self, events: Sequence[Event]) -> None:
        status = self.status
        for e in events:
            t = type(e)
            if t is Stand:
                assert isinstance(e, Stand)
                if status[e.seat] == "?":
                    status[e.seat] = "S"
            elif t is Swap:
                assert isinstance(e, Swap)
                if status[e.seat] in "?A":
                    status[e.seat] = "W"
            elif t is Ask:
                assert isinstance(e, Ask)
                if status[e.seat] == "?":
                    status[e.seat] = "A"
            elif t is Knock:
                assert isinstance(e, Knock)
                self.knocked.append(e.seat)
            elif t is Answer:
                self.answers += 1

    def key(self, state: RoundState, pos: int) -> int:
        """The abstract key of position ``pos`` deciding in ``state``."""
        n = len(state.seats)
        layout = Layout.of(state.rules)
        held, dealt = state.hands[pos], state.deal[pos]
        knocks = 0
        left = 0
        for s in self.knocked:
            if s == pos + 1:
                left = 1
            elif s != pos:
                knocks += 1
        if pos == n - 1 and pos and all(s == "S" for s in self.status[:pos]):
            left = 1  # the dealer after a round of stands (gnav.abstraction)
        right = 0 if pos == 0 else RIGHT.index(self.status[pos - 1])
        key: int = layout.index(band_index(pos), band_index(n - 1 - pos), held,
                                dealt if dealt != held else layout.pieces, right, left,
                                min(knocks, 2))
        return key

    def rich_key(self, state: RoundState, pos: int) -> tuple[int, ...]:
        """A finer key than the abstraction's, for a deviator's search that must not
        hide behind it: the exact position and table size, the exact count of knocks and
        where the nearest one sits, and how many earlier seats stood, swapped or showed a
        matador."""
        n = len(state.seats)
        status = self.status[:pos]
        near = min((s - pos for s in self.knocked if s > pos), default=0)
        return (pos, n, self.key(state, pos), len(self.knocked), near, status.count("S"),
                status.count("W"), self.answers)


class Decision(NamedTuple):
    pos: int
    key: int
    swap: float  # the policy's P(swap) there
    took: int  # 0 stood, 1 swapped (in the main line)
    values: tuple[float, float]  # the position's change of lives after stand, after swap


def deal(rules: Rules, n: int, rng: Random) -> tuple[RoundState, list[float]]:
    """A shuffled round of ``n`` seats and each position's uniform number."""
    deck = rules.shuffle(rng)
    state = RoundState.start(rules, tuple(range(n)), deck[:n], deck[n:], (LIVES,) * n,
                             checked=True)
    return state, [rng.random() for _ in range(n)]


def play_out(state: RoundState, tracker: Tracker, u: Sequence[float],
             policies: Sequence[Policy]) -> tuple[int, ...]:
    """The round played to its end from ``state``: every position by its policy."""
    while state.turn < len(state.seats):
        pos = state.turn
        legal = state.legal_actions()
        if len(legal) == 2:
            act = SWAP if u[pos] < policies[pos](tracker.key(state, pos)) else STAND
        else:
            act = legal[0]
        state, events = state.apply(act)
        tracker.see(events)
    return state.lives


def sample(state: RoundState, u: Sequence[float], policies: Sequence[Policy],
           tried: Callable[[int], bool]) -> tuple[tuple[int, ...], list[Decision]]:
    """The round played by ``policies`` (one per position), and at each decision of a
    position where ``tried(pos)`` holds (both actions legal) the value of each action
    to that position, the other one played out from there. Returns the main line's
    final lives and the decisions."""
    n = len(state.seats)
    tracker = Tracker(n, state.public)
    branches: list[tuple[RoundState, Tracker, int, int, float, int]] = []
    while state.turn < n:
        pos = state.turn
        legal = state.legal_actions()
        if len(legal) == 2:
            key = tracker.key(state, pos)
            p = policies[pos](key)
            took = 1 if u[pos] < p else 0
            if tried(pos):
                branches.append((state, tracker.copy(), pos, key, p, took))
            act = SWAP if took else STAND
        else:
            act = legal[0]
        state, events = state.apply(act)
        tracker.see(events)
    final = state.lives
    out: list[Decision] = []
    for st, tr, pos, key, p, took in branches:
        nxt, events = st.apply(STAND if took else SWAP)
        tr.see(events)
        other = play_out(nxt, tr, u, policies)
        mine, alt = final[pos] - LIVES, other[pos] - LIVES
        values = (float(alt), float(mine)) if took else (float(mine), float(alt))
        out.append(Decision(pos, key, p, took, values))
    return final, out
