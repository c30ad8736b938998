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
    at_table,
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
    s.add_argument("--lengths", nargs="?", const="all", default=None, metavar="PRESET,...",
                   help="how many rounds a match of expert bots lasts, for every preset "
                        "(or those named) at every size to 41, on the batch engine, and the "
                        "sizes where a table sets a remedy (docs/spec/rules.md §6.1); "
                        "--matches a size (default 200), --seed, --cap, --out")
    s.add_argument("--cap", type=int, default=None,
                   help="with --lengths: rounds after which a match 'does not end' "
                        "(default 1000)")
    s.add_argument("--out", metavar="FILE",
                   help="with --lengths: also write the figures as JSON (the shipped file is "
                        "src/gnav/lengths.json)")
    s.set_defaults(func=cmd_simulate)


def cmd_lengths(args: argparse.Namespace) -> int:
    """``gnav simulate --lengths``: the match lengths of every preset and size."""
    from gnav.fast import lengths
    from gnav.lengths import parse, render
    from gnav.presets import PRESETS_LIST, get_preset

    if args.option or args.bots or args.field or args.challenger or args.rounds:
        raise GnavError("--lengths plays expert bots with each preset's default options: "
                        "it takes --matches, --seed, --cap and --out only")
    presets = PRESETS_LIST if args.lengths == "all" else \
        tuple(get_preset(name) for name in args.lengths.split(","))
    matches = lengths.MATCHES if args.matches is None else args.matches
    cap = lengths.CAP if args.cap is None else args.cap
    seed = lengths.SEED if args.seed is None else args.seed
    if matches < 1 or cap < 1:
        raise GnavError("--matches and --cap must be at least 1")
    measured = lengths.measure(presets, matches=matches, cap=cap, seed=seed,
                               say=lambda line: print(line, file=sys.stderr))
    data = lengths.as_json(measured, matches=matches, cap=cap, seed=seed)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        except OSError as e:
            raise GnavError(f"cannot write {args.out}: {e.strerror or e}") from None
    print(json.dumps(data, ensure_ascii=False) if args.json else render(parse(data)))
    return 0


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
    if args.rounds is None:  # whole matches: played as a table of this size plays them
        rules, set_here = at_table(args, rules, seats)
        if set_here is not None:
            print(f"gnav simulate: {set_here}", file=sys.stderr)
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

    if args.lengths is not None:
        return cmd_lengths(args)
    if args.cap is not None or args.out is not None:
        raise GnavError("--cap and --out go with --lengths")
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
