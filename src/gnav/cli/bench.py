"""The ``gnav bench`` command: rounds per second through the full engine."""

from __future__ import annotations

import argparse
import json
from typing import Any

from gnav.cli.common import add_jobs, add_json, add_rules, add_seats, add_seed, make_rules
from gnav.errors import GnavError


def register(sub: Any) -> None:
    """Add ``bench`` to the ``gnav`` parser."""
    b = sub.add_parser("bench", help="rounds per second through the full engine")
    add_rules(b)
    add_seats(b, 10)
    b.add_argument("--rounds", type=int, default=20000)
    add_seed(b, 0)
    add_jobs(b, "processes to run (default: one per core)")
    add_json(b)
    b.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    from gnav.bench import run_parallel

    rules = make_rules(args.preset, args.option)
    if args.rounds < 1:
        raise GnavError(f"--rounds must be at least 1, not {args.rounds}")
    rules.check_seats(args.seats)
    result = run_parallel(rules, args.seats, args.rounds, jobs=args.jobs, seed=args.seed)
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        d = result.as_dict()
        print(f"{d['preset']}, {d['seats']} seats, {d['jobs']} job(s): {d['rounds']} rounds "
              f"in {d['seconds']} s: {d['rounds_per_s']:,} rounds/s "
              f"({d['rounds_per_core_s']:,} per core), {d['decisions_per_s']:,} decisions/s")
    return 0
