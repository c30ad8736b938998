"""The method checked where the truth is known: ``gnav train``'s Monte Carlo CFR at 2 to
4 seats, its policy lifted onto the solver's exact tree and measured by the exact best
response (NashConv), as training goes on.

    python -m gnav.train.check [--preset P] [--seats N] [--batches B] [--rounds R]
                               [--seed S] [--jobs J]

Prints one line per checkpoint: rounds trained, abstract keys, exact sets whose key
training never met (played at 1/2 there), the NashConv of the average strategy and of
the current one. Slow (the 4-seat tree is 1.1 GB): a command, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from gnav.rules import Rules
from gnav.solve.cfr import Game
from gnav.solve.tree import build
from gnav.train.exact import lift
from gnav.train.mccfr import Config, State, train


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gnav.train.check", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", default="gnav")
    p.add_argument("--seats", type=int, default=3)
    p.add_argument("--batches", type=int, default=80)
    p.add_argument("--rounds", type=int, default=500, help="rounds per shard (4 shards)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    rules = Rules.of(args.preset)
    game = Game(build(rules, args.seats))
    state = State()
    start = time.process_time()
    stops = [b for b in (5, 10, 20, 40, 80, 160, 320, 640, 1280) if b < args.batches]
    for stop in [*stops, args.batches]:
        config = Config(rules.name, (args.seats,), seed=args.seed, batches=stop, shards=4,
                        rounds=args.rounds)
        state = train(config, state=state, jobs=args.jobs)
        average, missing = lift(game, state.policy())
        current, _ = lift(game, state.strategy())
        print(f"{rules.name}, {args.seats} seats: {state.rounds:,} rounds, "
              f"{len(state.regret):,} keys, {missing:,} exact sets unmet; NashConv "
              f"average {game.nash_conv(average):.5f}, current "
              f"{game.nash_conv(current):.5f} ({time.process_time() - start:.0f} s CPU)",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
