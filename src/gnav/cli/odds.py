"""The ``gnav odds`` command: the odds atlas of one table, or docs/odds.md for all.

Standard library at import time; the computation loads when the command runs (the
exact tables need numpy, the ``[analysis]`` extra; plots need matplotlib).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gnav.cli.common import add_jobs, add_json, add_rules, add_seats, add_seed, make_rules
from gnav.errors import GnavError


def register(sub: Any) -> None:
    """Add ``odds`` to the ``gnav`` parser."""
    s = sub.add_parser(
        "odds", help="the odds atlas: the chance of paying by piece and seat",
        description="The chance of paying by piece dealt and seat (playing the policy, "
                    "standing, swapping), each seat's value in lives a round and the "
                    "swap threshold by seat and situation. Exact at the tables a solved "
                    "strategy ships for; simulated elsewhere, with 95%% intervals.")
    add_rules(s)
    add_seats(s, 3, "table size (default 3)")
    s.add_argument("--policy", default="expert", choices=("expert", "threshold", "counter"),
                   help="the policy every seat plays (default expert)")
    add_json(s, "print the atlas as one JSON object")
    s.add_argument("--out", metavar="DIR",
                   help="also write PRESET-N.json and PRESET-N.png (the heat map) into DIR")
    s.add_argument("--rounds", type=int, default=None,
                   help="simulated rounds where the figures are not exact (default 2000 "
                        "through the reference engine, 200000 on the batch engine where "
                        "the expert plays a trained policy)")
    add_seed(s, 1, "seed of the simulated rounds (default 1)")
    s.add_argument("--all", action="store_true",
                   help="docs/odds.md, its heat maps and the /odds page's data, for every "
                        "preset at 3, 4, 6, 10 and 20 seats")
    s.add_argument("--docs", metavar="DIR", default="docs",
                   help="with --all: the docs folder (default docs)")
    s.add_argument("--fresh", action="store_true",
                   help="with --all: make every table again, not only the missing ones")
    s.add_argument("--scale", type=float, default=1.0,
                   help="with --all: multiply the simulated rounds (below 1: a quick look)")
    add_jobs(s, "with --all: processes (default 0: one per core)")
    s.add_argument("--coach-tables", action="store_true",
                   help="write the coach's exact tables (every shipped strategy) into "
                        "src/gnav/odds/tables/, and its match tables (every shipped match "
                        "strategy: the chance to win standing and swapping) into "
                        "src/gnav/odds/tables/match/")
    s.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="a progress bar on stderr (default: when stderr is a terminal)")
    s.set_defaults(func=cmd_odds)


def cmd_odds(args: argparse.Namespace) -> int:
    import os

    from gnav.odds.render import text
    from gnav.odds.source import atlas, is_exact

    if args.rounds is not None and args.rounds < 1:
        raise GnavError(f"--rounds must be at least 1, not {args.rounds}")
    if args.coach_tables:
        return coach_tables()
    if args.all:
        from gnav.odds.docs import build

        if args.scale <= 0:
            raise GnavError(f"--scale must be above 0, not {args.scale}")
        jobs = args.jobs or os.cpu_count() or 1
        atlases = build(Path(args.docs), jobs=jobs, scale=args.scale, seed=args.seed,
                        fresh=args.fresh)
        print(f"made {len(atlases)} tables; {args.docs}/odds.md holds every one made")
        return 0
    rules = make_rules(args.preset, args.option)
    rules.check_seats(args.seats)
    if is_exact(rules, args.seats, args.policy):
        import importlib.util
        if importlib.util.find_spec("numpy") is None:
            raise GnavError("exact figures need numpy: pip install 'gnav[analysis]'")
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = None
    if show:
        from gnav.tui.progress import ProgressBar
        progress = ProgressBar(sys.stderr, "odds")
    made = atlas(rules, args.seats, args.policy, rounds=args.rounds, seed=args.seed,
                 progress=progress)
    data = made.as_json()
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        stem = f"{rules.name}-{args.seats}"
        (out / f"{stem}.json").write_text(json.dumps(data, indent=1) + "\n")
        from gnav.odds.plot import heatmap
        heatmap(made, rules, out / f"{stem}.png")
    if args.json:
        print(json.dumps(data))
    else:
        print(text(made, rules))
    return 0


def coach_tables() -> int:
    """Every shipped strategy's coach table (gnav.odds.exact.coach_table)."""
    import gzip

    from gnav.cli.solve import shipped_tables
    from gnav.odds.coach import HERE, table_path
    from gnav.odds.exact import coach_table
    from gnav.rules import Rules
    from gnav.strategies import shipped

    HERE.mkdir(parents=True, exist_ok=True)
    for preset, seats in sorted(shipped_tables(), key=lambda t: (t[1], t[0])):
        if table_path(preset, seats).exists():
            continue  # made already: delete the file to make it again
        rules = Rules.of(preset)
        strategy = shipped(rules, seats)
        if strategy is None:
            continue
        data = coach_table(rules, seats, strategy)
        table_path(preset, seats).write_bytes(
            gzip.compress(json.dumps(data, separators=(",", ":")).encode(), mtime=0))
        print(f"{preset}-{seats}: {len(data['keys'])} information sets", flush=True)  # type: ignore[arg-type]
    return match_coach_tables()


def match_coach_tables() -> int:
    """Every shipped match strategy's coach table (gnav.solve.match_coach), made where
    missing or made for another match file."""
    import gzip

    from gnav.odds.match_coach import HERE, table_path, win_table
    from gnav.solve.match_coach import coach_match_table
    from gnav.strategies.match import load_match, shipped_match_files

    HERE.mkdir(parents=True, exist_ok=True)
    for path in shipped_match_files():
        strategy = load_match(str(path))
        if win_table(strategy) is not None:
            continue  # made already: delete the file to make it again
        data = coach_match_table(strategy)
        table_path(strategy.preset, strategy.seats, strategy.lives).write_bytes(
            gzip.compress(json.dumps(data, separators=(",", ":")).encode(), mtime=0))
        print(f"match/{path.name}: {len(data['states'])} states", flush=True)
    return 0
