"""Monte Carlo CFR over the abstraction, on the reference engine.

Each seat decides at most once a round, so a seat's own reach is 1 wherever it decides,
and a sampled round gives an unbiased estimate of every visited information set's
counterfactual regrets at once: the round is dealt and played by the current strategy
(chance and the other seats sampled, as external sampling samples them), and at each
decision the other action is played out from there too (``gnav.train.play.sample``).
The difference of the two lines is the sampled regret. This is external sampling with
every seat a traverser in the same round; with common random numbers the two lines
differ only by the decision.

The updates are linear CFR (Pluribus's choice): the regrets and the average strategy
of batch t are weighted by t. A batch is a fixed number of shards, each a fixed number
of rounds from its own seed, summed in shard order: the result depends on the seed and
the configuration only, not on how many processes play the shards.

At large tables only some positions of a round are tried (``tries`` of them, drawn
uniformly each round): every position is tried equally often, so the estimates stay
unbiased, at a cost linear rather than quadratic in the table size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from random import Random
from typing import Any

from gnav.rules import Rules
from gnav.train.play import deal, sample

Sums = dict[str, list[float]]  # key -> [regret stand, regret swap, P(swap) sum, visits]


@dataclass(frozen=True)
class Config:
    preset: str
    seats: tuple[int, ...]  # table sizes drawn uniformly each round (one band)
    seed: int = 0
    batches: int = 200
    shards: int = 8
    rounds: int = 250  # per shard and batch
    tries: int = 8  # positions tried per round (all of them below this many seats)
    options: tuple[tuple[str, Any], ...] = ()

    def rules(self) -> Rules:
        return Rules.of(self.preset, **dict(self.options))


@dataclass
class State:
    regret: dict[str, list[float]] = field(default_factory=dict)
    average: dict[str, list[float]] = field(default_factory=dict)  # [weight, weight * p]
    batch: int = 0
    rounds: int = 0

    def strategy(self) -> dict[str, float]:
        """Regret matching: the current P(swap) at every key seen."""
        out: dict[str, float] = {}
        for k, (r0, r1) in self.regret.items():
            a, b = max(r0, 0.0), max(r1, 0.0)
            out[k] = b / (a + b) if a + b > 0 else 0.5
        return out

    def policy(self) -> dict[str, float]:
        """The average strategy: what ships."""
        return {k: s / w for k, (w, s) in self.average.items() if w > 0}


def shard(config: Config, batch: int, index: int, current: dict[str, float]) -> Sums:
    """One shard of one batch: ``config.rounds`` sampled rounds from its own seed."""
    rules = config.rules()
    rng = Random(f"{config.seed}/{batch}/{index}")
    get = current.get

    def policy(key: str) -> float:
        return get(key, 0.5)

    out: Sums = {}
    for _ in range(config.rounds):
        n = rng.choice(config.seats)
        state, u = deal(rules, n, rng)
        tried = set(range(n)) if n <= config.tries else set(rng.sample(range(n), config.tries))
        _, decisions = sample(state, u, [policy] * n, tried.__contains__)
        for d in decisions:
            v0, v1 = d.values
            mean = (1 - d.swap) * v0 + d.swap * v1
            s = out.get(d.key)
            if s is None:
                s = out[d.key] = [0.0, 0.0, 0.0, 0.0]
            s[0] += v0 - mean
            s[1] += v1 - mean
            s[2] += d.swap
            s[3] += 1.0
    return out


def _shard(args: tuple[Config, int, int, dict[str, float]]) -> Sums:
    return shard(*args)


def train(config: Config, *, jobs: int = 1, state: State | None = None,
          progress: Callable[[int, int], None] | None = None) -> State:
    """Run ``config.batches`` batches (continuing ``state`` if given)."""
    st = state if state is not None else State()
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        while st.batch < config.batches:
            st.batch += 1
            t = st.batch
            current = st.strategy()
            args = [(config, t, i, current) for i in range(config.shards)]
            results = list(pool.map(_shard, args)) if pool is not None \
                else [_shard(a) for a in args]
            for sums in results:  # in shard order: the same sums whatever the jobs
                for k, (r0, r1, ps, visits) in sums.items():
                    reg = st.regret.get(k)
                    if reg is None:
                        reg = st.regret[k] = [0.0, 0.0]
                    reg[0] += t * r0
                    reg[1] += t * r1
                    avg = st.average.get(k)
                    if avg is None:
                        avg = st.average[k] = [0.0, 0.0]
                    avg[0] += t * visits
                    avg[1] += t * ps
            st.rounds += config.shards * config.rounds
            if progress is not None:
                progress(st.batch, config.batches)
    finally:
        if pool is not None:
            pool.shutdown()
    return st


def timed(config: Config, jobs: int = 1) -> tuple[State, float]:
    start = time.perf_counter()
    st = train(config, jobs=jobs)
    return st, time.perf_counter() - start
