"""``gnav bench --engine jit``: rounds per second through the batch simulator's compiled
engine (``gnav.fast.jit``).

Each round is a full table of fresh players (every seat at the rules' starting lives),
dealt from a deck the engine shuffles and decided by the ``threshold`` bot's table by
piece; the figure includes shuffling and dealing.
"""

from __future__ import annotations

import time

from gnav.bench.result import BenchResult, split
from gnav.fast.jit import PIECE, JitRounds
from gnav.fast.policies import ThresholdPolicy
from gnav.rules import Rules

# Rows per call: large enough that a call's own cost is spread thin, small enough that
# a batch's arrays stay in the cache's reach.
BATCH = 50_000


def run(rules: Rules, seats: int, rounds: int, *, seed: int = 0, batch: int = BATCH
        ) -> BenchResult:
    """Play ``rounds`` rounds at ``seats`` seats in this process."""
    rules.check_seats(seats)
    table = ThresholdPolicy(rules).table
    JitRounds(rules, seats, 10, seed=seed).play(table, PIECE)  # compiled (or loaded) first
    played = decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while played < rounds:
        size = min(batch, rounds - played)
        rnd = JitRounds(rules, seats, size, seed=seed, first_row=played).play(table, PIECE)
        decisions += int((rnd.actions >= 0).sum())
        played += size
    return BenchResult(rules.name, seats, played, decisions, time.perf_counter() - start,
                       1, time.process_time() - cpu, "jit")


def run_parallel(rules: Rules, seats: int, rounds: int, *, jobs: int | None = None,
                 seed: int = 0) -> BenchResult:
    """``rounds`` split over ``jobs`` processes (default: every core)."""
    return split(run, rules, seats, rounds, jobs=jobs, seed=seed)
