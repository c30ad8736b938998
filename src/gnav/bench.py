"""``gnav bench``: random legal rounds through the full engine, decided from views.

Every decision is taken by a bot from the acting seat's view, as in a real game: the
figure includes dealing, views, events, payments and the match bookkeeping.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from random import Random

from gnav.bots.random_bot import RandomBot
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.runner import play_round
from gnav.seeds import derive


@dataclass(frozen=True)
class BenchResult:
    preset: str
    seats: int
    rounds: int
    decisions: int
    seconds: float  # wall time
    jobs: int = 1
    cpu_seconds: float = 0.0  # summed over jobs: rounds / cpu_seconds is the one-core rate
    engine: str = "reference"  # or "batch": gnav.sim.fast

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def rounds_per_core_s(self) -> float:
        return self.rounds / self.cpu_seconds if self.cpu_seconds else 0.0

    def as_dict(self) -> dict[str, object]:
        return {"engine": self.engine, "preset": self.preset, "seats": self.seats,
                "rounds": self.rounds, "decisions": self.decisions, "jobs": self.jobs,
                "seconds": round(self.seconds, 4),
                "rounds_per_s": round(self.rounds_per_s, 1),
                "rounds_per_core_s": round(self.rounds_per_core_s, 1),
                "decisions_per_s": round(self.decisions / self.seconds, 1)
                if self.seconds else 0.0}


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
