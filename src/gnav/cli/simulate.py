"""The ``gnav simulate`` command: many bot games, with confidence intervals."""

from __future__ import annotations

import argparse
import json
import os
import sys
from random import Random
from typing import TYPE_CHECKING, Any

from gnav.cli.common import (
    add_jobs,
    add_json,
    add_progress,
    add_rules,
    add_seats,
    add_seed,
    add_strategy,
    make_rules,
)
from gnav.errors import GnavError
from gnav.tui.progress import ProgressBar
from gnav.vocab import BotKind

if TYPE_CHECKING:  # the simulation modules load only when the command runs
    from gnav.sim.batch import Plan

DEFAULT_MATCHES = 1000
DEFAULT_SEATS = 4
DEFAULT_BOT = BotKind.THRESHOLD


def register(sub: Any) -> None:
    """Add this module's subcommands to the ``gnav`` parser."""
    s = sub.add_parser(
        "simulate", help="play many bot games and report seats, positions and pieces",
        description="Play bots against each other and report lives lost per round, win "
                    "rates, and loss rates by position and by piece, with 95% confidence "
                    "intervals. With --field and --challenger, measure a bot's strength "
                    "on paired deals.")
    add_rules(s)
    add_seats(s, None, f"seats at the table (default: one per --bots entry, or {DEFAULT_SEATS})")
    s.add_argument("--bots", default=None, metavar="BOT[,BOT...]",
                   help=f"one bot per seat, or one for every seat: {', '.join(BotKind)}, "
                        "or kind:arg as threshold:7 or counter:96 "
                        f"(default {DEFAULT_BOT})")
    size = s.add_mutually_exclusive_group()
    size.add_argument("--matches", type=int, default=None,
                      help=f"full matches to play (default {DEFAULT_MATCHES})")
    size.add_argument("--rounds", type=int, default=None,
                      help="single rounds instead: each dealt fresh, the dealer rotating")
    s.add_argument("--field", metavar="KIND", help="challenger mode: the bot at every seat")
    s.add_argument("--challenger", metavar="KIND",
                   help="challenger mode: the bot put at each seat in turn")
    add_strategy(s)
    add_seed(s, None, "master seed: the same seed gives the same figures (default: random)")
    add_jobs(s, "processes (default: one per core); the figures do not depend on it")
    add_progress(s, "show a progress bar on stderr even when it is not a terminal")
    add_json(s, "print the summary as JSON")
    s.add_argument("--csv", metavar="FILE", help="also write every estimate to a CSV file")
    s.add_argument("--plot", metavar="FILE.png",
                   help="also draw loss rates by position and by piece (needs matplotlib)")
    s.set_defaults(func=cmd_simulate)


def _plan(args: argparse.Namespace) -> Plan:
    from gnav.bots.registry import with_strategy
    from gnav.sim.batch import MATCHES, ROUNDS, Plan, check_bot

    rules = make_rules(args.preset, args.option)
    if args.field is not None or args.challenger is not None:
        if args.field is None or args.challenger is None:
            raise GnavError("challenger mode needs both --field and --challenger")
        if args.bots is not None:
            raise GnavError("--bots does not go with --field and --challenger")
        kinds = [args.field]
    else:
        kinds = (args.bots or DEFAULT_BOT).split(",")
    kinds = [with_strategy(k, args.strategy) for k in kinds]
    if any(not k.strip() for k in kinds):
        raise GnavError(f"an empty bot name in {','.join(kinds)!r}")
    default_seats = len(kinds) if len(kinds) > 1 else DEFAULT_SEATS
    seats = default_seats if args.seats is None else args.seats
    if len(kinds) not in (1, seats):
        raise GnavError(f"--bots names {len(kinds)} bots for {seats} seats "
                        f"(give one per seat, or one for all)")
    rules.check_seats(seats)
    kinds = [check_bot(k, rules, seats) for k in kinds]
    challenger = None if args.challenger is None else \
        check_bot(with_strategy(args.challenger, args.strategy), rules, seats)
    bots = tuple(kinds) * seats if len(kinds) == 1 else tuple(kinds)
    if args.rounds is not None:
        mode, count = ROUNDS, args.rounds
        if count < 1:
            raise GnavError(f"--rounds must be at least 1, not {count}")
    else:
        mode, count = MATCHES, DEFAULT_MATCHES if args.matches is None else args.matches
        if count < 1:
            raise GnavError(f"--matches must be at least 1, not {count}")
    if args.jobs < 0:
        raise GnavError(f"--jobs must be at least 1 (or 0 for one per core), not {args.jobs}")
    seed = args.seed if args.seed is not None else Random().randrange(2**31)
    return Plan(rules, bots, mode, count, seed, challenger=challenger)


def cmd_simulate(args: argparse.Namespace) -> int:
    from gnav.sim import batch, report

    plan = _plan(args)
    if args.plot:
        from gnav.sim.plot import require_matplotlib

        require_matplotlib()
    bar: ProgressBar | None = None
    if args.progress or sys.stderr.isatty():
        bar = ProgressBar(sys.stderr, f"simulate {plan.mode}")
    try:
        result = batch.run(plan, jobs=args.jobs or os.cpu_count(), progress=bar)
    finally:
        if bar is not None:
            bar.close()
    summary = report.summarise(result)
    if args.csv:
        try:
            with open(args.csv, "w", encoding="utf-8", newline="") as f:
                f.write(report.render_csv(summary))
        except OSError as e:
            raise GnavError(f"cannot write {args.csv}: {e.strerror or e}") from None
    if args.plot:
        from gnav.sim.plot import write_plot

        write_plot(summary, args.plot)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(report.render_table(summary))
    return 0
