"""Train the policy of every preset at every band of 5 to 41 seats and ship them.

    python -m gnav.train.ship [PRESET ...] [--seed S] [--batches B] [--decisions D]
                              [--tremble E] [--from SEATS] [--jobs J] [--out DIR]
                              [--progress]

Each preset's bands are ``gnav.train.bands``' (5-6, 7-9, 10-14, 15-20, 21-28, 29-41, cut
to the sizes the preset allows, and the full table a band of its own). A batch holds
about ``--decisions`` decisions, so the rounds a batch shrink as the band's tables grow
(a round's cost grows with its seats twice: its length, and one replay per seat).
Presets whose round is the same game (the same pieces and the same round options, e.g.
``gnav-rulebook`` and ``gnav``) are trained once, into one file a band named by the game
(``gnav.strategies.game_name``: ``gnav``), which every preset of the game plays. Prints
one line a band (rounds, keys kept, CPU seconds); slow: a command, not a test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.solve.export import write
from gnav.strategies import game_name
from gnav.strategies.policy import POLICIES, policy_name
from gnav.train.bands import bands
from gnav.train.batch import Config, train
from gnav.train.export import MIN_VISITS, TREMBLE, policy_data

DECISIONS = 200_000  # decisions a batch
BATCHES = 100


def rounds_for(lo: int, hi: int, decisions: int) -> int:
    """A batch's rounds for a band: ``decisions`` over the band's mean table size."""
    return max(100, round(decisions / ((lo + hi) / 2)))


def large_bands(rules: Rules) -> list[tuple[int, int]]:
    return [(lo, hi) for lo, hi in bands(rules) if hi >= 5 and lo <= 41]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gnav.train.ship", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("presets", nargs="*", metavar="PRESET",
                   help="presets to train (default: every preset that seats 5 or more)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batches", type=int, default=BATCHES)
    p.add_argument("--decisions", type=int, default=DECISIONS, help="decisions a batch")
    p.add_argument("--min-visits", type=int, default=MIN_VISITS)
    p.add_argument("--tremble", type=float, default=TREMBLE)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, default=POLICIES, help="the folder to write to")
    p.add_argument("--from", type=int, default=5, dest="start", metavar="SEATS",
                   help="only the bands from this many seats up (default 5)")
    p.add_argument("--progress", action="store_true", help="a progress bar per band")
    args = p.parse_args(argv)
    names = args.presets or [n for n in PRESETS if Rules.of(n).max_seats >= 5]
    unknown = [n for n in names if n not in PRESETS]
    if unknown:
        print(f"ship: no preset {unknown[0]!r}", file=sys.stderr)
        return 2
    done: set[str] = set()  # the games trained
    for name in names:
        game = game_name(Rules.of(name))
        rules = Rules.of(game)
        for lo, hi in large_bands(rules):
            if lo < args.start:
                continue
            if game in done:  # the same game under another name: no file of its own
                print(f"{name} {lo}-{hi}: {game}'s policy", flush=True)
                continue
            data = _train(rules, lo, hi, args)
            write(args.out / policy_name(game, lo, hi), data)
        done.add(game)
    return 0


def _train(rules: Rules, lo: int, hi: int, args: argparse.Namespace) -> dict[str, Any]:
    from gnav.tui.progress import ProgressBar

    rounds = rounds_for(lo, hi, args.decisions)
    config = Config(rules.name, tuple(range(lo, hi + 1)), seed=args.seed,
                    batches=args.batches, rounds=rounds, tremble=args.tremble,
                    options=tuple(sorted(rules.options.as_dict().items())))
    bar = ProgressBar(sys.stderr, f"{rules.name}, {lo}-{hi} seats") if args.progress \
        else None
    cpu = time.process_time()
    state = train(config, jobs=args.jobs, progress=bar)
    if bar is not None:
        bar.close()
    cpu = time.process_time() - cpu
    average = state.by_key()
    keep = state.met(args.min_visits)
    meta = {"method": "mccfr-linear", "average_power": config.power, "engine": "jit",
            "seed": args.seed,
            "batches": args.batches, "rounds_per_batch": rounds, "shards": config.shards,
            "min_visits": args.min_visits, "tremble": args.tremble, "cpu_seconds": round(cpu, 1)}
    data = policy_data(rules, (lo, hi), average, state.rounds, keep,
                       visits=state.visits_by_key(), **meta)
    print(f"{rules.name} {lo}-{hi}: {state.rounds:,} rounds, {len(keep):,} keys kept of "
          f"{len(average):,}, {cpu:.0f} s CPU", flush=True)
    return data


if __name__ == "__main__":
    sys.exit(main())
