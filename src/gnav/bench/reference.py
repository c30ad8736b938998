"""``gnav bench``: random legal rounds through the reference engine, decided from views.

Every decision is taken by a bot from the acting seat's view, as in a real game: the
figure includes dealing, views, events, payments and the match bookkeeping.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from random import Random

from gnav.bench.result import BenchResult
from gnav.bots.random_bot import RandomBot
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.runner import play_round
from gnav.seeds import derive


def run(rules: Rules, seats: int, rounds: int, *, seed: int = 0) -> BenchResult:
    """Play ``rounds`` rounds at ``seats`` active seats in this process.

    The rounds are those of real matches (lives, rotation, sitting out); a match is
    restarted once a seat is out, so every round is played at full size or close to it.
    """
    rules.check_seats(seats)
    names = [f"S{i + 1}" for i in range(seats)]
    rng = Random(seed)
    bots = [RandomBot(derive(seed, "bot", i)) for i in range(seats)]
    played = decisions = 0
    fresh = match = MatchState.new(rules, names, dealer=0)
    start = time.perf_counter()
    cpu = time.process_time()
    while played < rounds:
        if match.out or match.winners is not None:
            # A new match, as MatchState.new would make it, without checking the names
            # and rules again each time.
            match = fresh._replace(dealer=match.dealer)
        match, made = play_round(match.deal(rng=rng), bots)
        decisions += made
        played += 1
    return BenchResult(rules.name, seats, played, decisions, time.perf_counter() - start,
                       1, time.process_time() - cpu)


def _job(args: tuple[Rules, int, int, int]) -> BenchResult:
    rules, seats, rounds, seed = args
    return run(rules, seats, rounds, seed=seed)


def run_parallel(rules: Rules, seats: int, rounds: int, *, jobs: int | None = None,
                 seed: int = 0) -> BenchResult:
    """``rounds`` split over ``jobs`` processes (default: every core)."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    if jobs == 1:
        return run(rules, seats, rounds, seed=seed)
    rules.check_seats(seats)
    shares = [rounds // jobs + (1 if i < rounds % jobs else 0) for i in range(jobs)]
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_job, [(rules, seats, n, derive(seed, "job", i))
                                      for i, n in enumerate(shares)]))
    wall = time.perf_counter() - start
    return BenchResult(rules.name, seats, sum(p.rounds for p in parts),
                       sum(p.decisions for p in parts), wall, jobs,
                       sum(p.cpu_seconds for p in parts))
