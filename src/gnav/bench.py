"""``gnav bench``: random legal rounds through the full engine, decided from views."""

from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random

from gnav.bots.random_bot import RandomBot
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.views import seat_view


@dataclass(frozen=True)
class BenchResult:
    preset: str
    seats: int
    rounds: int
    decisions: int
    seconds: float

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict[str, object]:
        return {"preset": self.preset, "seats": self.seats, "rounds": self.rounds,
                "decisions": self.decisions, "seconds": round(self.seconds, 4),
                "rounds_per_s": round(self.rounds_per_s, 1),
                "decisions_per_s": round(self.decisions / self.seconds, 1)
                if self.seconds else 0.0}


def run(rules: Rules, seats: int, rounds: int, *, seed: int = 0) -> BenchResult:
    """Play ``rounds`` rounds at ``seats`` active seats.

    The rounds are those of real matches (lives, rotation, sitting out); a match is
    restarted once a seat is out, so every round is played at full size or close to it.
    """
    rules.check_seats(seats)
    names = [f"S{i + 1}" for i in range(seats)]
    rng = Random(seed)
    bots = [RandomBot(seed + i) for i in range(seats)]
    played = decisions = 0
    match = MatchState.new(rules, names, dealer=0)
    start = time.perf_counter()
    while played < rounds:
        if match.out or match.winners is not None:
            match = MatchState.new(rules, names, dealer=match.dealer)
        match = match.deal(rng=rng)
        seat = match.to_act
        while seat is not None:
            match, _ = match.apply(bots[seat].act(seat_view(match, seat)))
            seat = match.to_act
            decisions += 1
        played += 1
    return BenchResult(rules.name, seats, played, decisions, time.perf_counter() - start)
