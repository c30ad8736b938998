"""The exact atlas against a second method: a plain enumeration through the engine.

The atlas evaluates the shipped strategy on the solver's collapsed tree. Here every deal
by piece type and every stock draw is walked through ``RoundState.apply`` with no
shortcut, each decision taken by the ``expert`` bot's own probabilities from the seat's
view; the chance of paying (standing, swapping, playing the policy) and each seat's value
must come out equal.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from endkit import deals as deals_of
from endkit import outcomes
from gnav.bots.expert import ExpertBot
from gnav.match import MatchState
from gnav.odds.coach import ending_pairs
from gnav.odds.exact import from_tree
from gnav.odds.figures import situation
from gnav.round import RoundState
from gnav.rules import Rules
from gnav.strategies import shipped
from gnav.views import seat_view_during
from gnav.vocab import Action

LIVES = 1000


class Enumeration:
    """P(pay) and values of ``bot`` on every deal of ``rules`` at ``n`` seats; position
    ``focal`` forced to ``mode`` (None: it plays the policy too)."""

    def __init__(self, rules: Rules, n: int) -> None:
        self.rules = rules
        self.n = n
        self.bot = ExpertBot(seed=0)
        self.match = MatchState.new(rules, [f"s{i}" for i in range(n)], dealer=n - 1,
                                    lives=dict.fromkeys(range(n), LIVES))

    def walk(self, state: RoundState, prob: float, focal: int | None, mode: Action | None,
             acc: list[list[float]], choices: dict[tuple[int, str, str], list[float]]
             ) -> None:
        if state.over:
            for i in range(self.n):
                acc[i][0] += prob * (state.lives[i] < LIVES)
                acc[i][1] += prob * (state.lives[i] - LIVES)
            return
        pos = state.turn
        view = seat_view_during(self.match, state, self.match.turn_order()[pos])
        legal = view.legal
        if pos == focal and mode is not None and mode in legal:
            policy = {mode: 1.0}
        else:
            policy = self.bot.probabilities(view)
        if focal is None and len(legal) == 2:
            from gnav.infoset import infoset_key
            key = infoset_key(view)
            row = choices[pos, situation(key), key.split("|")[2]]
            row[0] += prob
            row[1] += prob * policy.get(Action.SWAP, 0.0)
        for action, p in policy.items():
            if p > 0:
                for q, nxt in outcomes(state, action):
                    self.walk(nxt, prob * p * q, focal, mode, acc, choices)

    def run(self, deals: list[tuple[float, tuple[int, ...]]], focal: int | None,
            mode: Action | None) -> tuple[dict[tuple[int, int], list[float]],
                                          dict[tuple[int, str, str], list[float]]]:
        """Per (position, type dealt): [P(dealt), P(pay) mass, lives mass]."""
        out: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        choices: dict[tuple[int, str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
        rules = self.rules
        order = self.match.turn_order()
        for prob, hand in deals:
            stock = list(rules.deck)
            for t in hand:
                stock.remove(t)
            state = RoundState.start(rules, order, hand, tuple(stock),
                                     (LIVES,) * self.n, checked=True)
            acc = [[0.0, 0.0] for _ in range(self.n)]
            self.walk(state, prob, focal, mode, acc, choices)
            for i in range(self.n):
                row = out[i, hand[i]]
                row[0] += prob
                row[1] += acc[i][0]
                row[2] += acc[i][1]
        return out, choices


# chase-the-ace: 13 ranks, every check; hypp: 21 pieces and every gnav power, the
# policy's figures only (the forced walks are six more enumerations: too slow for the
# unit suite).
@pytest.mark.parametrize(("preset", "forced"), [("chase-the-ace", True), ("hypp", False)])
def test_exact_atlas_equals_an_enumeration_at_3_seats(preset: str, forced: bool) -> None:
    rules = Rules.of(preset)
    n = 3
    strategy = shipped(rules, n)
    assert strategy is not None
    got, _ = from_tree(rules, n, strategy)
    enum = Enumeration(rules, n)
    deals = deals_of(rules, n)
    plain, choices = enum.run(deals, None, None)
    ids = rules.ids
    for (pos, t), (dealt, pay, _) in plain.items():
        cell = got.cells[ids[t], pos]
        assert cell.dealt == pytest.approx(dealt, abs=1e-12)
        assert cell.pay.value == pytest.approx(pay / dealt, abs=1e-9)
    for pos in range(n):
        assert got.values[pos].value == pytest.approx(
            sum(v[2] for (p, _), v in plain.items() if p == pos), abs=1e-9)
        assert got.pay[pos].value == pytest.approx(
            sum(v[1] for (p, _), v in plain.items() if p == pos), abs=1e-9)
    # Standing and swapping whatever happens, one position at a time.
    for pos in range(n if forced else 0):
        for mode, attr in ((Action.STAND, "stand"), (Action.SWAP, "swap")):
            walked, _ = enum.run(deals, pos, mode)
            for (p, t), (dealt, pay, _) in walked.items():
                if p == pos:
                    assert getattr(got.cells[ids[t], p], attr).value == pytest.approx(
                        pay / dealt, abs=1e-9), (pos, mode, ids[t])
    # The policy's choices by situation: how often each comes up and P(swap).
    for pos in range(n):
        total = sum(w for (p, _, _), (w, _) in choices.items() if p == pos)
        for (p, sit, held), (w, sw) in choices.items():
            if p == pos and w > 0:
                c = got.choices[p, sit, held]
                assert c.weight == pytest.approx(w / total, abs=1e-9)
                assert c.swap == pytest.approx(sw / w, abs=1e-9)


# The coach's chances of each way a round ends (``ending_chances``, shipped in its tables
# for the match): chase-the-ace at 3 seats (every check) and gnav at 2 (every power).
@pytest.mark.parametrize(("preset", "n"), [("chase-the-ace", 3), ("gnav", 2)])
def test_the_chances_of_each_ending_equal_an_enumeration(preset: str, n: int) -> None:
    from endkit import Endings
    from gnav.odds.exact import coach_table

    rules = Rules.of(preset)
    strategy = shipped(rules, n)
    assert strategy is not None
    data: dict[str, Any] = coach_table(rules, n, strategy)
    changes = [tuple(c) for c in data["changes"]]
    ends: dict[str, list[str]] = data["ends"]
    assert set(ends) == set(data["keys"])
    walked = Endings(rules, n)
    checked = 0
    for key, pairs in ends.items():
        if walked.weight[key] < 1e-9:
            continue  # off the strategy's path: weighted by chance alone there
        assert walked.weight[key] == pytest.approx(data["keys"][key][0], abs=2e-6)
        for a, want in enumerate(walked.chances(key)):
            got = {changes[k]: p for k, p in ending_pairs(pairs[a])}
            for c in set(got) | set(want):
                assert got.get(c, 0.0) == pytest.approx(want.get(c, 0.0), abs=2e-6), \
                    (key, a, c)
        checked += 1
    assert checked >= 150


def test_the_chances_of_each_ending_give_the_lives_and_sum_to_one() -> None:
    """Each row is a distribution, and its changes of lives at the deciding position,
    weighted by it, are the table's lives (the tree's own payoff: a second measure on
    the same edges)."""
    from gnav.odds.exact import coach_table

    rules = Rules.of("gnav")
    strategy = shipped(rules, 3)
    assert strategy is not None
    data: dict[str, Any] = coach_table(rules, 3, strategy)
    changes: list[list[int]] = data["changes"]
    assert len(set(map(tuple, changes))) == len(changes)
    for key, row in data["keys"].items():
        pos = int(key.split("/")[0])
        for a in (0, 1):
            pairs = ending_pairs(data["ends"][key][a])
            assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-4), key
            lives = sum(p * changes[k][pos] for k, p in pairs)
            assert lives == pytest.approx(row[4 + a], abs=1e-4), (key, a)
