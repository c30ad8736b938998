"""Rounds enumerated through the engine, every deal by type and every stock draw; and
the ways a round ends so enumerated: the second method that the exact coach's chances
of each ending (``gnav.odds.exact.ending_chances``) are checked against.

Every deal by piece type and every stock draw is walked through ``RoundState.apply``,
each seat deciding by the shipped strategy at its view's information set key
(``infoset_key``: the public API, not the solver's builder). At each decision with both
actions legal, the chance of every change of lives (by position) under each action is
added up with the decision's weight: chance times the other seats' choices (a seat
decides at most once a round, so its own reach there is 1).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from gnav.infoset import infoset_key
from gnav.match import MatchState
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.strategies import shipped
from gnav.views import seat_view_during
from gnav.vocab import Action

LIVES = 1000  # every seat can pay every payment: changes are the round's own
Change = tuple[int, ...]


def deals(rules: Rules, n: int) -> list[tuple[float, tuple[int, ...]]]:
    counts = Counter(rules.deck)
    total = len(rules.deck)
    out: list[tuple[float, tuple[int, ...]]] = []

    def go(hand: tuple[int, ...], prob: float) -> None:
        if len(hand) == n:
            out.append((prob, hand))
            return
        for t in sorted(counts):
            c = counts[t]
            if c:
                counts[t] -= 1
                go((*hand, t), prob * c / (total - len(hand)))
                counts[t] += 1

    go((), 1.0)
    return out


def outcomes(state: RoundState, action: Action) -> list[tuple[float, RoundState]]:
    """Every result of ``action``: the stock's draws by type with their chance (a piece
    that passes the request on is set aside and chance draws again)."""
    nxt, _ = state.apply(action)
    if nxt.drawn == state.drawn:
        return [(1.0, nxt)]
    return _draws(state, action, ())


def _draws(state: RoundState, action: Action, chosen: tuple[int, ...]
           ) -> list[tuple[float, RoundState]]:
    prefix = state.stock[: state.drawn]
    pool = list(state.stock[state.drawn:])
    for t in chosen:
        pool.remove(t)
    counts = Counter(pool)
    if not counts:
        nxt, _ = state._replace(stock=prefix + chosen).apply(action)
        return [(1.0, nxt)]
    out: list[tuple[float, RoundState]] = []
    for t, c in counts.items():
        rest = list(pool)
        rest.remove(t)
        nxt, _ = state._replace(stock=prefix + chosen + (t,) + tuple(rest)).apply(action)
        if nxt.drawn - len(prefix) > len(chosen) + 1:  # t was set aside: draw again
            out += [(p * c / len(pool), s) for p, s in _draws(state, action, (*chosen, t))]
        else:
            out.append((c / len(pool), nxt))
    return out


class Endings:
    """Per information set key: its weight, and under standing (0) and swapping (1) the
    weighted chance of each change of lives; ``chances(key)`` divides them out."""

    def __init__(self, rules: Rules, n: int) -> None:
        strategy = shipped(rules, n)
        assert strategy is not None
        self.strategy = strategy
        self.rules = rules
        self.n = n
        self.match = MatchState.new(rules, [f"s{i}" for i in range(n)], dealer=n - 1,
                                    lives=dict.fromkeys(range(n), LIVES))
        self.weight: dict[str, float] = defaultdict(float)
        self.mass: dict[tuple[str, int], dict[Change, float]] = defaultdict(
            lambda: defaultdict(float))
        order = self.match.turn_order()
        for prob, hand in deals(rules, n):
            stock = list(rules.deck)
            for t in hand:
                stock.remove(t)
            state = RoundState.start(rules, order, hand, tuple(stock), (LIVES,) * n,
                                     checked=True)
            self._walk(state, prob)

    def chances(self, key: str) -> tuple[dict[Change, float], dict[Change, float]]:
        w = self.weight[key]
        return ({c: x / w for c, x in self.mass[key, 0].items()},
                {c: x / w for c, x in self.mass[key, 1].items()})

    def _walk(self, state: RoundState, reach: float) -> dict[Change, float]:
        """The chance of each change of lives from ``state`` on, everyone playing the
        strategy; each decision's own chances recorded on the way."""
        if state.over:
            return {tuple(v - LIVES for v in state.lives): 1.0}
        pos = state.turn
        view = seat_view_during(self.match, state, self.match.turn_order()[pos])
        legal = [a for a in view.legal if a in (Action.STAND, Action.SWAP)]
        key = infoset_key(view)
        if len(legal) == 2:
            p = self.strategy.swap_probability(key)
            assert p is not None, key
            policy = {Action.STAND: 1.0 - p, Action.SWAP: p}
        else:
            policy = {legal[0]: 1.0}
        each: dict[Action, dict[Change, float]] = {}
        for action in legal:  # both, even one never played: its chances are asked for
            got: dict[Change, float] = defaultdict(float)
            for q, nxt in outcomes(state, action):
                for c, x in self._walk(nxt, reach * policy[action] * q).items():
                    got[c] += q * x
            each[action] = got
        if len(legal) == 2:
            self.weight[key] += reach
            for a, action in enumerate((Action.STAND, Action.SWAP)):
                for c, x in each[action].items():
                    self.mass[key, a][c] += reach * x
        out: dict[Change, float] = defaultdict(float)
        for action, got in each.items():
            for c, x in got.items():
                out[c] += policy[action] * x
        return out
