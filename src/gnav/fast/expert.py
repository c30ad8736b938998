"""The ``expert`` bot as a batch policy, for whole matches whose tables shrink as seats go
out: at each row's number of active seats, the table the bot itself plays there.

``ExpertBot.table`` says what the expert plays at a size (found by the rules, as the bot
finds it): a trained policy over ``gnav-abstraction/1`` (5 to 41 seats), which the batch
engine plays exactly (``gnav.fast.abstraction.policy_table``, its backed-off keys included);
or an exact strategy (2 to 4 seats), keyed by the full information set, which no batch
feature holds. There the strategy is coarsened onto the abstraction: each abstract key
takes the plain mean of P(swap) over the strategy's information sets that coarsen to it
(the key is exact in the seats before and after the decider below 5, so what it drops is
the order of the history and the pieces seen). That is an approximation of the expert at
the last few seats of a match only; where nothing is solved or trained (the bot's
``counter`` fallback) the threshold bot's table stands in. ``plays`` says which.
By default it is the round's expert (``expert-round``). With ``match=True`` it is the
``expert`` bot where that plays a trained match policy (``gnav.strategies.match_policy``,
5 seats and up): a table a lives class for that size (each class's keys and back-offs,
the lives-blind table's answer where the class holds nothing, as
``MatchPolicy.lookup``), and
``gnav.fast.matches`` gives each column the table of its class at the round's start.
The match strategies the bot plays at 2 and 3 seats (``gnav.strategies.match``) are
keyed by full information sets and whole lives states, which the batch engine's rows do
not carry: there it plays the round's, as ``expert-round``.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import numpy.typing as npt

from gnav.abstraction import Layout, coarsen
from gnav.bots.expert import ExpertBot
from gnav.fast.abstraction import GnavAbstraction, abstract_table
from gnav.fast.policies import ThresholdPolicy
from gnav.lives_class import CLASSES
from gnav.rules import Rules
from gnav.strategies import Strategy
from gnav.strategies.match import NEWEST_STRATEGIES
from gnav.strategies.match_policy import MatchPolicy
from gnav.strategies.policy import Policy

SCALE = 1_000_000


def coarsened(strategy: Strategy) -> Policy:
    """``strategy`` as a policy over ``gnav-abstraction/1``: each abstract key's plain mean
    P(swap) over the information sets that coarsen to it."""
    layout = Layout.of(Rules.of(strategy.preset))
    sums: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for key, q in strategy.swap.items():
        cell = sums[coarsen(key, layout)]
        cell[0] += q / strategy.scale
        cell[1] += 1.0
    swap = {k: round(s / n * SCALE) for k, (s, n) in sums.items()}
    return Policy(strategy.preset, (strategy.seats, strategy.seats), strategy.options, swap,
                  SCALE, {"coarsened_from": f"{strategy.preset}-{strategy.seats}"}, layout)


def match_tables(rules: Rules, policy: MatchPolicy) -> npt.NDArray[np.float32]:
    """(CLASSES, size): ``policy.lookup(cls, key)`` at every class and abstract key: the
    lives-blind table (``abstract_table``: its back-offs, the threshold bot's answer
    where it has none) with each class's own keys over it."""
    blind = abstract_table(rules, policy.blind)[0]
    out = np.tile(blind.astype(np.float32), (CLASSES, 1))
    scale = policy.blind.scale
    for cls, swap in enumerate(policy.classes):
        if swap:
            keys = np.fromiter(swap.keys(), np.int64, len(swap))
            answers = np.fromiter(swap.values(), np.float64, len(swap)) / scale
            inside = keys < out.shape[1]  # a key with back-off bits is never looked up
            out[cls, keys[inside]] = answers[inside]
    return out


class ExpertPolicy:
    """P(swap) as the expert plays at each number of active seats, for tables of
    ``rules.min_seats`` to ``seats`` seats: ``stack`` holds one table over the
    abstraction per thing the bot plays (``CLASSES`` of them, one a lives class, for a
    match policy), ``which[n]`` the (first) one it plays at ``n`` seats and
    ``classed[n]`` whether a column adds its lives class to it (``gnav.fast.matches``
    plays them on the compiled engine). ``match``: the ``expert`` bot's match policies
    where it plays one (of the shipped set ``strategies``), else the round's expert
    throughout."""

    def __init__(self, rules: Rules, seats: int, *, match: bool = False,
                 strategies: int = NEWEST_STRATEGIES) -> None:
        bot = ExpertBot(match=False)  # the batch engine plays rounds: the round's
        for_match = ExpertBot(match=True, strategies=strategies) if match else None
        self.abstraction = GnavAbstraction(rules)
        self.plays: dict[int, str] = {}
        tables: list[npt.NDArray[np.float32]] = []
        made: dict[int, int] = {}  # id of what the bot plays -> its row in tables
        self.which = np.zeros(seats + 1, dtype=np.intp)
        self.classed = np.zeros(seats + 1, dtype=np.bool_)
        threshold = ThresholdPolicy(rules).table.astype(np.float32)
        for n in range(min(rules.min_seats, seats), seats + 1):
            found: Strategy | Policy | MatchPolicy | None = bot.table(rules, n)
            self.plays[n] = bot.plays(rules, n)
            by_lives = for_match.match_policy(rules, n) if for_match is not None else None
            if by_lives is not None and for_match is not None:
                found = by_lives
                self.plays[n] = for_match.plays(rules, n)
                self.classed[n] = True
            if id(found) not in made:
                made[id(found)] = sum(len(t) for t in tables) // self.abstraction.size
                tables.append(match_tables(rules, by_lives).ravel() if by_lives is not None
                              else self._table(rules, bot.table(rules, n), threshold))
            self.which[n] = made[id(found)]
        self.stack: npt.NDArray[np.float32] = np.concatenate(tables)

    def _table(self, rules: Rules, found: Strategy | Policy | None,
               threshold: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        if found is None:  # counter, at the table: the threshold bot's choices stand in
            ab = self.abstraction
            piece = (np.arange(ab.size) // ab.layout.weight[2]) % ab.pieces
            out: npt.NDArray[np.float32] = threshold[piece]
            return out
        policy = coarsened(found) if isinstance(found, Strategy) else found
        return abstract_table(rules, policy)[0].astype(np.float32)
