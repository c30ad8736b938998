"""What one run of ``gnav bench`` measured, whichever engine played it, and a run split
over processes (``split``), the same for every engine."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from gnav.rules import Rules
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
    engine: str = "reference"  # or "jit": gnav.bench.jit

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


# An engine's one-process run: ``run(rules, seats, rounds, seed=...)``, a module-level
# function (the pool sends it to its workers by name).
Run = Callable[..., BenchResult]


def _job(args: tuple[Run, Rules, int, int, int]) -> BenchResult:
    run, rules, seats, rounds, seed = args
    return run(rules, seats, rounds, seed=seed)


def split(run: Run, rules: Rules, seats: int, rounds: int, *, jobs: int | None = None,
          seed: int = 0) -> BenchResult:
    """``rounds`` of ``run`` split over ``jobs`` processes (default: every core), each
    from its own derived seed; the figures summed, the wall time the whole's."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    if jobs == 1:
        return run(rules, seats, rounds, seed=seed)
    rules.check_seats(seats)
    shares = [rounds // jobs + (1 if i < rounds % jobs else 0) for i in range(jobs)]
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_job, [(run, rules, seats, n, derive(seed, "job", i))
                                     for i, n in enumerate(shares)]))
    wall = time.perf_counter() - start
    return BenchResult(rules.name, seats, sum(p.rounds for p in parts),
                       sum(p.decisions for p in parts), wall, jobs,
                       sum(p.cpu_seconds for p in parts), parts[0].engine)
