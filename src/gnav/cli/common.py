"""What the ``gnav`` commands share: the parser class, the rules from ``--preset`` and
``-o NAME=VALUE``, and the options several commands take (seats, seed, jobs, lang,
strategy, progress, json).

Every command module imports from here, never from ``gnav.cli`` itself, so the package
``__init__`` (which assembles the commands) sits above them all. An option that several
commands share has one flag, one type and one metavar here; its help and default stay
the command's own, because they say what the option means to that command.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import NoReturn

from gnav.errors import GnavError
from gnav.options import Options, check, parse_text
from gnav.rules import Rules
from gnav.vocab import TEXT_LANGS

OPTION_NAMES = frozenset(Options().as_dict())
LANGS = tuple(str(x) for x in TEXT_LANGS)


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One clear line, not a usage dump.
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def make_rules(preset: str, options: Sequence[str]) -> Rules:
    """Rules from a ``--preset`` and ``-o NAME=VALUE`` options."""
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


def at_table(args: argparse.Namespace, rules: Rules, seats: int) -> tuple[Rules, str | None]:
    """``rules`` as a table of ``seats`` seats plays them (``gnav.lengths.at_table``:
    the options a table sets where the preset's own would not end, docs/spec/rules.md
    §6.1), leaving alone every option named with ``-o``; and a line saying what was set,
    or None."""
    from gnav.lengths import at_table as played_at

    named = {item.partition("=")[0].strip().replace("-", "_") for item in args.option}
    played = played_at(rules, seats, named)
    if played is rules:
        return rules, None
    now, was = played.options.as_dict(), rules.options.as_dict()
    said = ", ".join(f"{k} = {_word(now[k])}" for k in now if now[k] != was[k])
    return played, (f"at {seats} seats a table of {rules.name} plays {said}, or a match "
                    f"would hardly end (docs/rules.md, large tables); -o sets it otherwise")


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def add_option(q: argparse.ArgumentParser, *, help: str) -> None:
    """``-o NAME=VALUE``, repeatable, read by ``make_rules``."""
    q.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help=help)


def add_lives(q: argparse.ArgumentParser) -> None:
    """``--lives N``: the commands that play or explain a game (play, demo, rules)."""
    q.add_argument("--lives", type=int, default=None, metavar="N",
                   help="lives each player starts with (as -o lives=N)")


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules of ``--preset``/``PRESET``, ``-o`` and ``--lives`` (checked first, so a
    bad count is one line naming --lives)."""
    options = list(args.option)
    if getattr(args, "lives", None) is not None:
        check("lives", args.lives, where="--lives")
        options.append(f"lives={args.lives}")
    return make_rules(args.preset, options)


def add_rules(q: argparse.ArgumentParser) -> None:
    """``--preset`` and ``-o``: the rules of every command that plays a game."""
    q.add_argument("--preset", default="gnav",
                   help="a preset or alias (default gnav; gnav rules --help lists them)")
    add_option(q, help="an option of docs/spec/rules.md §7, e.g. -o lives=3 (repeatable)")


def add_seats(q: argparse.ArgumentParser, default: int | None,
              help: str | None = None) -> None:
    q.add_argument("--seats", type=int, default=default, help=help)


def add_seed(q: argparse.ArgumentParser, default: int | None,
             help: str | None = None) -> None:
    q.add_argument("--seed", type=int, default=default, help=help)


def add_jobs(q: argparse.ArgumentParser, help: str) -> None:
    """``--jobs``: processes, 0 for one per core."""
    q.add_argument("--jobs", type=int, default=0, help=help)


def add_lang(q: argparse.ArgumentParser, default: str | None, help: str) -> None:
    """``--lang``: one of the languages the texts are written in."""
    q.add_argument("--lang", choices=LANGS, default=default, help=help)


def add_strategy(q: argparse.ArgumentParser) -> None:
    """``--strategy``: the solved strategy the expert bots play."""
    q.add_argument("--strategy", metavar="FILE", default=None,
                   help="the strategy expert bots play (a file of gnav solve --out)")


def add_progress(q: argparse.ArgumentParser, help: str) -> None:
    """``--progress``: a progress bar on stderr when stderr is not a terminal."""
    q.add_argument("--progress", action="store_true", help=help)


def add_json(q: argparse.ArgumentParser, help: str | None = None) -> None:
    q.add_argument("--json", action="store_true", help=help)
