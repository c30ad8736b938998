"""The ``gnav train`` command: a policy for a band of large tables (Monte Carlo CFR over
the abstraction, on the compiled batch engine; ``gnav.train.batch``).

Imports nothing beyond the standard library until the command runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from gnav.cli.common import add_json, add_rules, make_rules
from gnav.errors import GnavError
from gnav.train.bands import band_of, parse_band
from gnav.train.export import MIN_VISITS, TREMBLE

DEFAULT_BATCHES = 200
DEFAULT_ROUNDS = 40_000


def register(sub: Any) -> None:
    s = sub.add_parser(
        "train", help="train the expert's policy for a band of large tables (5 to 41 seats)",
        description="Monte Carlo CFR over the information-set abstraction on the compiled "
                    "batch engine: seeded and reproducible (the same seed and batches give "
                    "the same policy, whatever --jobs). The band of table sizes that holds "
                    "--seats is trained. Needs the [analysis] extra.")
    add_rules(s)
    s.add_argument("--seats", type=int, required=True,
                   help="a table size of the band to train (5 to 41)")
    s.add_argument("--band", metavar="LO-HI",
                   help="train for these table sizes instead of the band of --seats "
                        "(holding it), e.g. 5-41 for one policy at every size")
    s.add_argument("--seed", type=int, default=0, help="the training's seed (default 0)")
    s.add_argument("--batches", type=int, default=DEFAULT_BATCHES,
                   help=f"CFR batches (default {DEFAULT_BATCHES})")
    s.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                   help=f"rounds a batch, over the band's sizes (default {DEFAULT_ROUNDS:,})")
    s.add_argument("--plus", action="store_true",
                   help="CFR+ (regrets floored at 0) rather than linear CFR")
    s.add_argument("--tremble", type=float, default=TREMBLE,
                   help="each seat plays the other action with this probability in the "
                        "lines played (not in what is learnt), so that what self-play "
                        f"never reaches is trained too (default {TREMBLE})")
    s.add_argument("--min-visits", type=int, default=MIN_VISITS,
                   help="keys met fewer times are left to their backed-off keys "
                        f"(default {MIN_VISITS})")
    s.add_argument("--terms", choices=("lives", "match"), default="lives",
                   help="value a round in lives (a round policy, the default), or in the "
                        "change of each seat's chance to win the match at lives states of "
                        "the field's own matches, a table for each lives class (a match "
                        "policy: gnav.strategies.match_policy)")
    s.add_argument("--matches", type=int, default=1000,
                   help="with --terms match: whole matches of the shipped expert a table "
                        "size, whose lives states the rounds are dealt at (default 1000)")
    s.add_argument("--jobs", type=int, default=None,
                   help="threads (default: every core)")
    s.add_argument("--out", metavar="FILE", help="write the policy here (gzip'd if .gz)")
    s.add_argument("--ship", action="store_true",
                   help="write it to the package's shipped policies")
    s.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="a progress bar on stderr (default: when stderr is a terminal)")
    add_json(s, "print the summary as one JSON object")
    s.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("numpy") is None:
        raise GnavError("needs numpy: pip install 'gnav[analysis]'")
    from gnav.rules import Rules
    from gnav.solve.export import write
    from gnav.strategies import game_name, round_options
    from gnav.strategies.policy import POLICIES, policy_name
    from gnav.train.batch import Config, train
    from gnav.train.export import policy_data
    from gnav.tui.progress import ProgressBar

    rules = make_rules(args.preset, args.option)
    # A policy ships one a band per game, named by the game (gnav-rulebook's is gnav's):
    # rules no preset plays as it comes would overwrite that preset's file.
    game = game_name(rules)
    if args.ship and round_options(Rules.of(game)) != round_options(rules):
        raise GnavError(f"--ship: no preset plays {rules.name} with these options as it "
                        "comes, and a shipped policy is one a preset's game (use --out)")
    lo, hi = band_of(rules, args.seats)
    if args.band is not None:
        lo, hi = parse_band(rules, args.band, args.seats)
    for name, value in (("--batches", args.batches), ("--rounds", args.rounds),
                        ("--matches", args.matches)):
        if value < 1:
            raise GnavError(f"{name} must be at least 1, not {value}")
    if not 0.0 <= args.tremble < 1.0:
        raise GnavError(f"--tremble must be at least 0 and below 1, not {args.tremble}")
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    if jobs < 1:
        raise GnavError(f"--jobs must be at least 1, not {jobs}")
    options = tuple(sorted(rules.options.as_dict().items()))
    config = Config(rules.name, tuple(range(lo, hi + 1)), seed=args.seed,
                    batches=args.batches, rounds=args.rounds, plus=args.plus,
                    tremble=args.tremble, options=options, terms=args.terms,
                    matches=args.matches)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = ProgressBar(sys.stderr, f"{rules.name}, {lo}-{hi} seats: batches") \
        if show else None
    start = time.perf_counter()
    cpu = time.process_time()
    state = train(config, jobs=jobs, progress=bar)
    if bar is not None:
        bar.close()
    seconds = time.perf_counter() - start
    meta = {"method": "mccfr-plus" if args.plus else "mccfr-linear",
            "average_power": config.power, "engine": "jit",
            "seed": args.seed, "batches": args.batches, "rounds_per_batch": args.rounds,
            "shards": config.shards, "tremble": config.tremble,
            "seconds": round(seconds, 1)}
    if args.terms == "match":
        from gnav.lives_class import CLASSES
        from gnav.strategies.match_policy import MATCH_POLICIES
        from gnav.train.match_export import match_policy_data

        meta["matches"] = args.matches
        average = state.blind(CLASSES).by_key()
        data = match_policy_data(rules, (lo, hi), state, min_visits=args.min_visits,
                                 **meta)
        folder = MATCH_POLICIES
    else:
        average = state.by_key()
        data = policy_data(rules, (lo, hi), average, state.rounds,
                           state.met(args.min_visits), visits=state.visits_by_key(),
                           min_visits=args.min_visits, **meta)
        folder = POLICIES
    paths: list[Path] = []
    if args.out:
        paths.append(Path(args.out))
    if args.ship:
        folder.mkdir(exist_ok=True)
        paths.append(folder / policy_name(game, lo, hi))
        data["preset"] = game  # the same round: the file holds the game's policy
    for p in paths:
        write(p, data)
    result: dict[str, Any] = {
        "preset": rules.name, "seats": [lo, hi], "seed": args.seed,
        "batches": args.batches, "rounds": state.rounds, "keys": len(average),
        "terms": args.terms,
        "seconds": round(seconds, 1), "cpu_seconds": round(time.process_time() - cpu, 1),
        "rounds_per_s": round(state.rounds / seconds) if seconds > 0 else None,
        "jobs": jobs, "written": [str(p) for p in paths]}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{rules.name}, {lo}-{hi} seats: {state.rounds:,} rounds in {seconds:.0f} s "
              f"({result['rounds_per_s']:,} rounds/s, {jobs} jobs), "
              f"{len(average):,} abstract keys"
              + (" (lives-blind), a table a lives class" if args.terms == "match" else "")
              + (f"; wrote {', '.join(result['written'])}" if paths else ""))
    return 0
