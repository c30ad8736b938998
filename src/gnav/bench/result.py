"""What one run of ``gnav bench`` measured, whichever engine played it."""

from __future__ import annotations

from dataclasses import dataclass


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
