"""``gnav bench``: random legal rounds through the reference engine, decided from views.

Every decision is taken by a bot from the acting seat's view, as in a real game: the
figure includes dealing, views, events, payments and the match bookkeeping.
"""

from __future__ import annotations

import time
from random import Random

from gnav.bench.result import BenchResult, split
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


def run_parallel(rules: Rules, seats: int, rounds: int, *, jobs: int | None = None,
                 seed: int = 0) -> BenchResult:
    """``rounds`` split over ``jobs`` processes (default: every core)."""
    return split(run, rules, seats, rounds, jobs=jobs, seed=seed)
