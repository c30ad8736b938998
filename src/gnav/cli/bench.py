"""The ``gnav bench`` command: rounds per second through the full engine."""

from __future__ import annotations

import argparse
import importlib.util
import json
from typing import Any

from gnav.cli.common import add_jobs, add_json, add_rules, add_seats, add_seed, make_rules
from gnav.errors import GnavError


def register(sub: Any) -> None:
    """Add ``bench`` to the ``gnav`` parser."""
    b = sub.add_parser("bench", help="rounds per second through the full engine")
    add_rules(b)
    add_seats(b, 10)
    b.add_argument("--rounds", type=int, default=None,
                   help="rounds to play (default 20,000; 2,000,000 with --engine jit)")
    b.add_argument("--engine", choices=("reference", "jit", "batch"), default="reference",
                   help="the reference engine (every decision from a view), or the batch "
                   "simulator's compiled engine (numba, the [analysis] extra) with the "
                   "threshold policy: jit; batch is its older name (the numpy engine it "
                   "named is retired)")
    add_seed(b, 0)
    add_jobs(b, "processes to run (default: one per core)")
    add_json(b)
    b.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    rules = make_rules(args.preset, args.option)
    # The batch simulator has one engine now: "batch" (its numpy engine's name) plays it.
    engine = "jit" if args.engine == "batch" else args.engine
    if engine != "reference":
        for needed in ("numpy", "numba"):
            if importlib.util.find_spec(needed) is None:
                raise GnavError(f"--engine {args.engine} needs {needed}: "
                                "pip install 'gnav[analysis]'")
    if args.rounds is None:
        args.rounds = 20000 if engine == "reference" else 2_000_000
    if args.rounds < 1:
        raise GnavError(f"--rounds must be at least 1, not {args.rounds}")
    rules.check_seats(args.seats)
    if engine == "reference":
        from gnav.bench.reference import run_parallel

        result = run_parallel(rules, args.seats, args.rounds, jobs=args.jobs, seed=args.seed)
    else:
        from gnav.bench import jit

        result = jit.run_parallel(rules, args.seats, args.rounds, jobs=args.jobs,
                                  seed=args.seed)
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        d = result.as_dict()
        name = "" if engine == "reference" else f"{engine} engine, "
        print(f"{d['preset']}, {name}{d['seats']} seats, {d['jobs']} job(s): "
              f"{d['rounds']} rounds "
              f"in {d['seconds']} s: {d['rounds_per_s']:,} rounds/s "
              f"({d['rounds_per_core_s']:,} per core), {d['decisions_per_s']:,} decisions/s")
    return 0
