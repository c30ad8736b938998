"""The ``gnav play``, ``gnav replay`` and ``gnav rules`` commands.

This module only reads the command line and checks it; the terminal game itself lives
in ``gnav.tui``. Every mistake on the command line becomes a GnavError, which ``gnav``
prints as one line with exit code 2, before anything is drawn.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

from gnav.cli.common import (
    add_lang,
    add_lives,
    add_option,
    add_rules,
    add_seats,
    add_seed,
    add_strategy,
    at_table,
    make_rules,
    rules_of,
)
from gnav.errors import GnavError
from gnav.names import NAME_MAX, name_key, name_problem, parse_name
from gnav.rules import Rules
from gnav.seeds import derive
from gnav.vocab import Lang


def register(sub: Any) -> None:
    """Add this module's subcommands to the ``gnav`` parser."""
    p = sub.add_parser("play", help="play Gnav in the terminal: you against bots, or hot-seat")
    add_rules(p)
    add_seats(p, None, "seats at the table (default 6: you and 5 bots)")
    p.add_argument("--bots", default=None, metavar="KIND[,KIND...]",
                   help="bot kinds, cycled over the bot seats (default: threshold)")
    add_strategy(p)
    p.add_argument("--humans", type=int, default=None, metavar="N",
                   help="people at this screen, taking turns (hot-seat); default 1")
    p.add_argument("--names", default=None, metavar="A,B,C",
                   help=f"the people's names, in seat order (sets --humans); at most "
                        f"{NAME_MAX} characters each, as at a table online")
    add_lives(p)
    add_seed(p, None, "seed of the deals and the bots")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="where to save the match (default ./gnav-<timestamp>.json)")
    add_lang(p, None, "language of the screen, the narration and the calls (default: "
                      "English words, the preset's own calls)")
    p.add_argument("--delay", type=float, default=0.3,
                   help="seconds to pause after each bot decision (default 0.3)")
    p.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="step through a saved record, everything face up")
    r.add_argument("file", metavar="FILE")
    r.add_argument("--all", action="store_true", help="print every step and exit")
    add_lang(r, None, "language of the screen, the narration and the calls (default: "
                      "English words, the calls of the record's preset)")
    r.set_defaults(func=cmd_replay)

    q = sub.add_parser("rules", help="the rules of a preset, in English, Norwegian or Danish",
                       description="The rules of a preset, with its options in force, in "
                                   "English, Norwegian or Danish.",
                       epilog=presets_epilog(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("preset", nargs="?", default="gnav", metavar="PRESET",
                   help="a preset or one of its aliases (default gnav): see the list below")
    add_option(q, help="an option on top of the preset, e.g. -o lives=3 (repeatable)")
    add_lives(q)
    add_lang(q, "en", "the language of the rules (default en)")
    q.add_argument("--pack", choices=("cards52",), default=None,
                   help="cards52: which card of an ordinary pack stands for which piece, "
                        "a card to print (docs/spec/rules.md §7.1)")
    q.add_argument("--html", metavar="FILE", default=None,
                   help="with --pack cards52: write the card as one A4 page of HTML to print")
    q.set_defaults(func=cmd_rules)


def presets_epilog() -> str:
    """Every preset, its title, seats and aliases: the list under ``gnav rules --help``."""
    from gnav.presets import PRESETS_LIST

    width = max(len(p.name) for p in PRESETS_LIST) + 2
    lines = ["presets:"]
    for p in PRESETS_LIST:
        seats = Rules(p, p.options).seats_text()
        aka = f"; also {', '.join(p.aliases)}" if p.aliases else ""
        lines.append(f"  {p.name.ljust(width)}{p.title}: {seats}{aka}")
    return "\n".join(lines)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _people(args: argparse.Namespace) -> list[str]:
    if args.names is not None:
        names = []
        for i, raw in enumerate(args.names.split(","), 1):
            problem = name_problem(raw)
            if problem is not None:
                shown = f" {raw.strip()[:NAME_MAX]!r}…" if len(raw.strip()) > NAME_MAX else \
                    f" {raw.strip()!r}" if raw.strip() else ""
                raise GnavError(f"--names: name {i}{shown}: {problem}")
            names.append(str(parse_name(raw)))
        if len({name_key(n) for n in names}) != len(names):
            raise GnavError(f"--names: two people may not have the same name: {args.names!r}")
        if args.humans is not None and args.humans != len(names):
            raise GnavError(f"--humans {args.humans} does not match the "
                            f"{_count(len(names), 'name', 'names')} in --names")
        return names
    humans = 1 if args.humans is None else args.humans
    if humans < 0:
        raise GnavError(f"--humans must be 0 or more, not {humans}")
    from gnav.tui.game import people_names

    return people_names(humans, Lang(args.lang or Lang.EN))


def _seats(args: argparse.Namespace, rules: Rules, people: int) -> int:
    """The table's size: --seats, checked against the game's real limits, or 6 (you and
    five bots) brought within them."""
    lo, hi = rules.min_seats, rules.max_seats
    if args.seats is None:
        seats = min(max(6, people, lo), hi)
    else:
        seats = args.seats
        if not lo <= seats <= hi:
            raise GnavError(f"--seats {seats}: {rules.name} takes {rules.seats_text()}")
    if people > seats:
        need = _count(people, "person needs", "people need")
        raise GnavError(f"{need} {_count(people, 'seat', 'seats')}, but "
                        + (f"--seats is {seats}" if args.seats is not None else
                           f"{rules.name} takes {rules.seats_text()}"))
    return seats


def bot_specs(text: str, strategy: str | None) -> list[str]:
    """``--bots`` as bot specs in their one spelling. Only the kind is case-folded: what
    follows ``:`` may be a file name (``expert:Tables/Mine.json.gz``)."""
    from gnav.bots.registry import canonical_spec, with_strategy

    kinds = [with_strategy(k.strip(), strategy) for k in text.split(",")]
    if not all(kinds):
        raise GnavError(f"--bots: empty kind in {text!r}")
    return [canonical_spec(k) for k in kinds]


def cmd_play(args: argparse.Namespace) -> int:
    from gnav.bots.expert import ExpertBot, notice
    from gnav.bots.registry import bot_from_spec
    from gnav.tui.game import BOT_NAMES, DEFAULT_BOT, PlayConfig, play
    from gnav.tui.keys import Keys
    from gnav.tui.screen import Screen

    rules = rules_of(args)
    people = _people(args)
    seats = _seats(args, rules, len(people))
    rules, set_here = at_table(args, rules, seats)
    if set_here is not None:
        print(f"gnav play: {set_here}", file=sys.stderr)
    if args.delay < 0:
        raise GnavError(f"--delay must be 0 or more, not {args.delay}")
    seed = args.seed if args.seed is not None else Random().randrange(10**9)
    kinds = bot_specs(args.bots if args.bots is not None else DEFAULT_BOT, args.strategy)
    taken = {name_key(n) for n in people}
    bot_names = [n for n in BOT_NAMES if name_key(n) not in taken]
    names = list(people)
    bots = {}
    seat_kinds = {}
    for i, seat in enumerate(range(len(people), seats)):
        kind = kinds[i % len(kinds)]
        bots[seat] = bot_from_spec(kind, derive(seed, "bot", seat), rules)
        seat_kinds[seat] = kind
        names.append(bot_names[i] if i < len(bot_names) else f"Bot {i + 1}")
    for kind in kinds:  # a kind given but never seated is still a typo worth reporting
        bot_from_spec(kind, seed, rules)
    experts = [b for b in bots.values() if isinstance(b, ExpertBot)]
    said = notice(experts[0], rules, range(2, seats + 1)) if experts else None
    if said is not None:  # once, before the game takes the screen
        print(f"gnav play: {said}", file=sys.stderr)
    record = Path(args.record) if args.record else \
        Path(f"gnav-{time.strftime('%Y%m%d-%H%M%S')}.json")
    if not record.parent.is_dir():
        raise GnavError(f"--record: no folder {str(record.parent)!r} to save {record.name} in")
    if record.is_dir():
        raise GnavError(f"--record: {str(record)!r} is a folder, not a file")
    lang = Lang(args.lang or rules.preset.lang)
    cfg = PlayConfig(rules=rules, names=tuple(names), humans=tuple(range(len(people))),
                     bots=bots, kinds=seat_kinds, seed=seed, delay=args.delay, lang=lang,
                     rules_lang=Lang(args.lang or Lang.EN), record=record)
    return play(cfg, Screen(sys.stdout), Keys(sys.stdin))


def cmd_replay(args: argparse.Namespace) -> int:
    from gnav.tui.keys import Keys
    from gnav.tui.screen import Screen
    from gnav.tui.viewer import run_replay

    return run_replay(args.file, Screen(sys.stdout), Keys(sys.stdin), everything=args.all,
                      lang=args.lang)


def cmd_rules(args: argparse.Namespace) -> int:
    from gnav.tui.rules_page import rules_lines
    from gnav.tui.screen import Screen

    if args.pack is not None:
        return _cmd_card(args)
    if args.html is not None:
        raise GnavError("--html goes with --pack cards52")
    rules = rules_of(args)
    screen = Screen(sys.stdout)
    cols = min(100, screen.size()[0]) - 2 if screen.fancy else 88
    screen.print(*rules_lines(rules, args.lang, screen.style, cols))
    return 0


def _cmd_card(args: argparse.Namespace) -> int:
    """``gnav rules PRESET --pack cards52 [--html FILE]``: the card of the mapping."""
    from gnav.web.card import card_html, card_text_lines

    rules = make_rules(args.preset, [*args.option, f"pack={args.pack}"])
    if args.html is None:
        print("\n".join(card_text_lines(rules, args.lang)))
        return 0
    try:
        Path(args.html).write_text(card_html(rules, args.lang, inline_css=True), encoding="utf-8")
    except OSError as e:
        raise GnavError(f"--html {args.html}: {e.strerror}") from None
    print(f"{args.html}: the card of {rules.name} with an ordinary pack, one A4 page "
          "(open it in a browser and print)")
    return 0
