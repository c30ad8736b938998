"""Monte Carlo CFR's sampled regrets on the reference engine: the second method that
``gnav.train.batch`` (what ``gnav train`` runs) is held equal to.

Each seat decides at most once a round, so a seat's own reach is 1 wherever it decides,
and a sampled round gives an unbiased estimate of every visited information set's
counterfactual regrets at once: the round is dealt and played by the current strategy
(chance and the other seats sampled, as external sampling samples them), and at each
decision the other action is played out from there too (``gnav.train.play.sample``).
The difference of the two lines is the sampled regret. On the same decks and uniform
numbers, ``learn`` gives what ``gnav.train.batch.sums`` gives, key for key.
"""

from __future__ import annotations

from collections.abc import Iterable

from gnav.round import RoundState
from gnav.train.play import Policy, sample

Sums = dict[int, list[float]]  # key -> [regret stand, regret swap, P(swap) sum, visits]


def learn(rounds: Iterable[tuple[RoundState, list[float]]], policy: Policy,
          tremble: float = 0.0) -> Sums:
    """The sampled regrets of ``rounds`` (each a dealt round and its positions' uniform
    numbers), every position tried, played by ``policy`` (abstract key -> P(swap)) or,
    with ``tremble``, by ``policy`` trembling (the other action with that probability),
    the two values still weighed by ``policy`` itself."""
    def played(key: int) -> float:
        return (1.0 - tremble) * policy(key) + tremble / 2

    out: Sums = {}
    for state, u in rounds:
        n = len(state.seats)
        _, decisions = sample(state, u, [played if tremble else policy] * n,
                              lambda pos: True)
        for d in decisions:
            v0, v1 = d.values
            p = policy(d.key)
            mean = (1 - p) * v0 + p * v1
            s = out.get(d.key)
            if s is None:
                s = out[d.key] = [0.0, 0.0, 0.0, 0.0]
            s[0] += v0 - mean
            s[1] += v1 - mean
            s[2] += p
            s[3] += 1.0
    return out
