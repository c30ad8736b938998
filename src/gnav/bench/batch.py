"""``gnav bench --engine batch|jit``: rounds per second through the batch simulator.

Each round is a full table of fresh players (every seat at the rules' starting lives),
dealt from a shuffled deck and decided by a table policy, the ``threshold`` bot's table by
piece unless another policy is given; the figure includes shuffling and dealing.
``batch`` is the numpy engine (any policy), ``jit`` the compiled one (table policies).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from gnav.bench.result import BenchResult
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.sim.fast.deck import Deck
from gnav.sim.fast.engine import Rounds
from gnav.sim.fast.policies import Policy, ThresholdPolicy
from gnav.sim.fast.tables import Tables

# Rows per batch: large enough that numpy's per-call cost is spread thin, small enough
# that a batch's arrays stay in the cache's reach.
BATCH = 50_000


def run(rules: Rules, seats: int, rounds: int, *, seed: int = 0,
        policy: Policy | None = None, batch: int = BATCH, engine: str = "batch"
        ) -> BenchResult:
    """Play ``rounds`` rounds at ``seats`` seats in this process."""
    rules.check_seats(seats)
    if engine == "jit":
        return _run_jit(rules, seats, rounds, seed=seed, batch=batch)
    tables = Tables.of(rules)
    chosen = ThresholdPolicy(rules) if policy is None else policy
    rng = np.random.default_rng(seed)
    played = decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while played < rounds:
        size = min(batch, rounds - played)
        deck = Deck.shuffled(tables, size, seats, rng)
        rnd = Rounds(tables, deck, seats, seats)
        uniforms = rng.random((size, seats), dtype=np.float32) \
            if getattr(chosen, "stochastic", False) else None
        rnd.play([chosen], uniforms=uniforms)
        decisions += int((rnd.actions >= 0).sum())
        played += size
    return BenchResult(rules.name, seats, played, decisions, time.perf_counter() - start,
                       1, time.process_time() - cpu, "batch")


def _run_jit(rules: Rules, seats: int, rounds: int, *, seed: int, batch: int
             ) -> BenchResult:
    from gnav.sim.fast.jit import JitRounds

    table = ThresholdPolicy(rules).table[:len(rules.pieces)].astype(np.float64)
    JitRounds(rules, seats, 10, seed=seed).play(table)  # compiled (or loaded) first
    played = decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while played < rounds:
        size = min(batch, rounds - played)
        rnd = JitRounds(rules, seats, size, seed=seed, first_row=played).play(table)
        decisions += int((rnd.actions >= 0).sum())
        played += size
    return BenchResult(rules.name, seats, played, decisions, time.perf_counter() - start,
                       1, time.process_time() - cpu, "jit")


def _job(args: tuple[Rules, int, int, int, str]) -> BenchResult:
    rules, seats, rounds, seed, engine = args
    return run(rules, seats, rounds, seed=seed, engine=engine)


def run_parallel(rules: Rules, seats: int, rounds: int, *, jobs: int | None = None,
                 seed: int = 0, engine: str = "batch") -> BenchResult:
    """``rounds`` split over ``jobs`` processes (default: every core)."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    if jobs == 1:
        return run(rules, seats, rounds, seed=seed, engine=engine)
    rules.check_seats(seats)
    shares = [rounds // jobs + (1 if i < rounds % jobs else 0) for i in range(jobs)]
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_job, [(rules, seats, n, derive(seed, "job", i), engine)
                                     for i, n in enumerate(shares)]))
    wall = time.perf_counter() - start
    return BenchResult(rules.name, seats, sum(p.rounds for p in parts),
                       sum(p.decisions for p in parts), wall, jobs,
                       sum(p.cpu_seconds for p in parts), engine)
