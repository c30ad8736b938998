"""gnav.bench.result: a run split over processes is the sum of its parts, whichever
engine plays it."""

from __future__ import annotations

from gnav.bench import reference
from gnav.bench.result import split
from gnav.rules import Rules
from gnav.seeds import derive


def test_a_split_run_sums_its_jobs_each_from_its_own_seed() -> None:
    rules = Rules.of("gnav")
    whole = split(reference.run, rules, 4, 41, jobs=2, seed=7)
    assert (whole.rounds, whole.jobs, whole.engine) == (41, 2, "reference")
    # The two jobs are the engine's own runs of 21 and 20 rounds from derived seeds.
    parts = [reference.run(rules, 4, n, seed=derive(7, "job", i))
             for i, n in enumerate((21, 20))]
    assert whole.decisions == sum(p.decisions for p in parts)
    assert whole.cpu_seconds > 0 and whole.seconds > 0


def test_one_job_is_the_engine_s_own_run() -> None:
    rules = Rules.of("hypp")
    one = split(reference.run, rules, 3, 30, jobs=1, seed=2)
    assert (one.rounds, one.jobs) == (30, 1)
    assert one.decisions == reference.run(rules, 3, 30, seed=2).decisions
