"""The ``gnav`` command."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from random import Random
from typing import NoReturn

from gnav.errors import GnavError
from gnav.options import Options, check, parse_text
from gnav.rules import Rules
from gnav.vocab import TEXT_LANGS

OPTION_NAMES = frozenset(Options().as_dict())


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One clear line, not a usage dump.
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def make_rules(preset: str, options: Sequence[str]) -> Rules:
    """Rules from a ``--preset`` and ``-o NAME=VALUE`` options."""
    return _rules(preset, options)


def _rules(preset: str, options: Sequence[str]) -> Rules:
    changes: dict[str, object] = {}
    for item in options:
        if "=" not in item:
            raise GnavError(f"option {item!r} must be NAME=VALUE, e.g. lives=3")
        name, _, text = item.partition("=")
        name = name.strip().replace("-", "_")
        value = parse_text(name, text)
        if name not in OPTION_NAMES:
            raise GnavError(f"-o {item.strip()}: unknown option {name!r} "
                            f"(options: {', '.join(sorted(OPTION_NAMES))})")
        check(name, value, where=f"-o {item.strip()}")
        changes[name] = value
    return Rules.of(preset, **changes)


def cmd_verify(args: argparse.Namespace) -> int:
    from gnav.verify import verify_file

    worst = 0
    for path in args.files:
        code, lines = verify_file(path, write=args.write)
        stream = sys.stdout if code == 0 else sys.stderr
        for line in lines:
            print(line, file=stream)
        worst = max(worst, code)
    return worst


def cmd_bench(args: argparse.Namespace) -> int:
    from gnav.bench import run_parallel

    rules = _rules(args.preset, args.option)
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


def cmd_demo(args: argparse.Namespace) -> int:
    """A match between bots, narrated as a spectator sees it."""
    from gnav.bots.random_bot import RandomBot
    from gnav.events import Event
    from gnav.match import MatchState
    from gnav.narrate import Narrator
    from gnav.runner import play_match
    from gnav.vocab import Lang, Phase

    rules = _rules(args.preset, args.option)
    names = tuple(["Astrid", "Bjørn", "Cecilie", "Dag", "Eirik", "Frida", "Gunnar", "Hedda",
                   "Ivar", "Jorunn"][: args.seats]
                  + [f"Seat {i + 1}" for i in range(10, args.seats)])
    seed = args.seed if args.seed is not None else Random().randrange(10**9)
    rules.check_seats(len(names))
    bots = [RandomBot(seed + i) for i in range(len(names))]
    narrator = Narrator(rules, names, lang=args.lang, text=args.lang or Lang.EN)
    print(f"{rules.preset.title}: {len(names)} seats, {rules.options.lives} lives each "
          f"(seed {seed}).")

    def listen(match: MatchState, events: tuple[Event, ...]) -> None:
        for e in events:
            _say(narrator.line(e), args.delay)
        if match.phase == Phase.DEAL:  # a round has ended, and the match goes on
            lives = "  ".join(f"{names[s]} {'●' * match.lives[s]}" for s in match.alive())
            _say(f"Lives: {lives}", args.delay)

    play_match(rules, names, bots, seed=seed, listener=listen)
    return 0


def _say(line: str | None, delay: float) -> None:
    if line:
        print(line, flush=True)
        if delay:
            time.sleep(delay)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="gnav", description="Gnav, the Scandinavian swap-and-bluff game.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    v = sub.add_parser("verify", help="replay records and check their results",
                       description="Replay game records (the format of docs/spec/records.md) "
                                   "and check every stated result against the rules of "
                                   "docs/spec/rules.md. Exit 0: all agree; 1: a record "
                                   "disagrees; 2: a file is not a valid record.")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("--write", action="store_true",
                   help="fill in every result from the engine instead of checking it")
    v.set_defaults(func=cmd_verify)

    def rules_args(q: argparse.ArgumentParser) -> None:
        q.add_argument("--preset", default="gnav",
                       help="a preset or alias (default gnav; gnav rules --help lists them)")
        q.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                       help="an option of docs/spec/rules.md §7, e.g. -o lives=3 (repeatable)")

    b = sub.add_parser("bench", help="rounds per second through the full engine")
    rules_args(b)
    b.add_argument("--seats", type=int, default=10)
    b.add_argument("--rounds", type=int, default=20000)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--jobs", type=int, default=0,
                   help="processes to run (default: one per core)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench)

    d = sub.add_parser("demo", help="watch a narrated match between bots")
    rules_args(d)
    d.add_argument("--seats", type=int, default=5)
    d.add_argument("--seed", type=int, default=None)
    d.add_argument("--delay", type=float, default=0.0, help="seconds between lines")
    d.add_argument("--lang", choices=[str(x) for x in TEXT_LANGS], default=None,
                   help="language of the narration and the calls (default: English "
                        "sentences, the preset's calls)")
    d.set_defaults(func=cmd_demo)

    # Commands that live in their own modules register themselves here.
    from gnav import cli_play, cli_serve, cli_simulate, cli_solve

    cli_play.register(sub, rules_args)
    cli_simulate.register(sub, rules_args)
    cli_serve.register(sub, rules_args)
    cli_solve.register(sub, rules_args)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except GnavError as e:
        print(f"gnav {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
