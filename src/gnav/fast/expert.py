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
It is the round's expert (``expert-round``): the match strategies the ``expert`` bot
plays at 2 and 3 seats (``gnav.strategies.match``) are keyed by full information sets
and lives, which the batch engine's rows do not carry.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import numpy.typing as npt

from gnav.abstraction import Layout, coarsen
from gnav.bots.expert import ExpertBot
from gnav.fast.abstraction import GnavAbstraction, abstract_table
from gnav.fast.policies import ThresholdPolicy
from gnav.rules import Rules
from gnav.strategies import Strategy
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


class ExpertPolicy:
    """P(swap) as the expert plays at each number of active seats, for tables of
    ``rules.min_seats`` to ``seats`` seats: ``stack`` holds one table over the
    abstraction per thing the bot plays, ``which[n]`` the one it plays at ``n`` seats
    (``gnav.fast.matches`` plays them on the compiled engine)."""

    def __init__(self, rules: Rules, seats: int) -> None:
        bot = ExpertBot(match=False)  # the batch engine plays rounds: the round's
        self.abstraction = GnavAbstraction(rules)
        self.plays: dict[int, str] = {}
        tables: list[npt.NDArray[np.float32]] = []
        made: dict[int, int] = {}  # id of what the bot plays -> its row in tables
        self.which = np.zeros(seats + 1, dtype=np.intp)
        threshold = ThresholdPolicy(rules).table.astype(np.float32)
        for n in range(min(rules.min_seats, seats), seats + 1):
            found = bot.table(rules, n)
            self.plays[n] = bot.plays(rules, n)
            if id(found) not in made:
                made[id(found)] = len(tables)
                tables.append(self._table(rules, found, threshold))
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
