"""The method checked where the truth is known: ``gnav train``'s Monte Carlo CFR at 2 to
4 seats, its policy lifted onto the solver's exact tree and measured by the exact best
response (NashConv), as training goes on.

    python tools/train_check.py [--preset P] [--seats N] [--batches B] [--rounds R]
                                [--plus] [--seed S] [--jobs J]
    python tools/train_check.py --floor [--preset P] [--seats N] [--iterations I]

Prints one line per checkpoint: rounds trained, abstract keys, exact sets whose key
training never met (played at 1/2 there), the NashConv of the average strategy and of
the current one, of the average as it would ship (``gnav.train.export``: rounded, keys
met fewer than ``--min-visits`` times answered by their backed-off keys, as
``Policy.lookup`` answers), and the CPU time. Slow (the 4-seat tree is 1.1 GB): a
command, not a test, and a developer's measurement outside the installed package.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import oneline
from gnav.abstraction import coarsen
from gnav.rules import Rules
from gnav.solve.cfr import Game
from gnav.solve.tree import build
from gnav.strategies.policy import parse
from gnav.train.batch import Config, State, train
from gnav.train.exact import KeyOf, abstract_map, abstract_solve, lift, with_moves
from gnav.train.export import MIN_VISITS, TREMBLE, policy_data


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/train_check.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", default="gnav")
    p.add_argument("--seats", type=int, default=3)
    p.add_argument("--batches", type=int, default=200)
    p.add_argument("--rounds", type=int, default=50_000, help="rounds a batch")
    p.add_argument("--plus", action="store_true", help="CFR+ rather than linear CFR")
    p.add_argument("--power", type=int, default=2,
                   help="batch t's strategy weighs t ** power in the average (default 2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--min-visits", type=int, default=MIN_VISITS)
    p.add_argument("--tremble", type=float, default=TREMBLE,
                   help=f"the lines' tremble (default {TREMBLE})")
    p.add_argument("--floor", action="store_true",
                   help="CFR+ on the merged tree instead of training")
    p.add_argument("--iterations", type=int, default=200, help="CFR+ iterations (--floor)")
    args = p.parse_args(argv)
    if not 2 <= args.seats <= 4:
        p.error("--seats must be 2 to 4 (the solver's exact tree)")
    rules = Rules.of(args.preset)
    game = Game(build(rules, args.seats))
    if args.floor:
        keys: tuple[tuple[str, KeyOf], ...] = (
            ("the abstraction", coarsen), ("and every earlier seat's move", with_moves))
        for name, key in keys:
            start = time.process_time()
            _, conv, sets = abstract_solve(game, iterations=args.iterations, key=key)
            print(f"{rules.name}, {args.seats} seats, {name}: {sets:,} sets, NashConv "
                  f"{conv:.5f} ({time.process_time() - start:.0f} s CPU)", flush=True)
        return 0
    _, tree_keys = abstract_map(game)
    state: State | None = None
    start = time.process_time()
    stops = [b for b in (5, 10, 20, 40, 80, 160, 320, 640, 1280) if b < args.batches]
    for stop in [*stops, args.batches]:
        config = Config(rules.name, (args.seats,), seed=args.seed, batches=stop,
                        rounds=args.rounds, plus=args.plus, power=args.power,
                        tremble=args.tremble)
        state = train(config, state=state, jobs=args.jobs)
        average = state.by_key()
        avg, missing = lift(game, {k: s / w for k, (w, s) in average.items()})
        strategy = state.strategy()
        cur, _ = lift(game, {k: float(strategy[k]) for k in average})
        data = policy_data(rules, (args.seats, args.seats), average, state.rounds,
                           state.met(args.min_visits), visits=state.visits_by_key(),
                           min_visits=args.min_visits)
        shipped = parse(data, "trained")
        answers = {k: shipped.lookup(k) for k in tree_keys if isinstance(k, int)}  # all are
        ship, unanswered = lift(game, {k: q for k, q in answers.items() if q is not None})
        print(f"{rules.name}, {args.seats} seats: {state.rounds:,} rounds, "
              f"{len(average):,} keys, {missing:,} exact sets unmet; NashConv "
              f"average {game.nash_conv(avg):.5f}, current {game.nash_conv(cur):.5f}, "
              f"as shipped {game.nash_conv(ship):.5f} ({unanswered:,} sets unanswered) "
              f"({time.process_time() - start:.0f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(oneline.run(main, "python tools/train_check.py"))
