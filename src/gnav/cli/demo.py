"""The ``gnav demo`` command: a match between bots, narrated as a spectator sees it."""

from __future__ import annotations

import argparse
import time
from random import Random
from typing import Any

from gnav.cli.common import (
    add_lang,
    add_lives,
    add_rules,
    add_seats,
    add_seed,
    at_table,
    rules_of,
)
from gnav.seeds import derive


def register(sub: Any) -> None:
    """Add ``demo`` to the ``gnav`` parser."""
    d = sub.add_parser("demo", help="watch a narrated match between bots")
    add_rules(d)
    add_lives(d)
    add_seats(d, 5)
    add_seed(d, None)
    d.add_argument("--delay", type=float, default=0.0, help="seconds between lines")
    add_lang(d, None, "language of the narration and the calls (default: English "
                      "sentences, the preset's calls)")
    d.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """A match between bots, narrated as a spectator sees it."""
    from gnav.bots.random_bot import RandomBot
    from gnav.events import Event
    from gnav.match import MatchState
    from gnav.runner import play_match
    from gnav.texts.narrate import Narrator
    from gnav.vocab import Lang, Phase

    rules = rules_of(args)
    names = tuple(["Astrid", "Bjørn", "Cecilie", "Dag", "Eirik", "Frida", "Gunnar", "Hedda",
                   "Ivar", "Jorunn"][: args.seats]
                  + [f"Seat {i + 1}" for i in range(10, args.seats)])
    seed = args.seed if args.seed is not None else Random().randrange(10**9)
    rules.check_seats(len(names))
    rules, set_here = at_table(args, rules, len(names))
    if set_here is not None:
        print(f"gnav demo: {set_here}")
    bots = [RandomBot(derive(seed, "bot", i)) for i in range(len(names))]
    narrator = Narrator(rules, names, lang=args.lang, text=args.lang or Lang.EN)
    lives = rules.options.lives
    print(f"{rules.preset.title}: {len(names)} seats, {lives} {'life' if lives == 1 else 'lives'} "
          f"each (seed {seed}).")

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
