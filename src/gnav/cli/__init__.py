"""The ``gnav`` command.

Each command (or small group of commands) lives in its own module here and registers
itself; what they share (the parser class, ``--preset`` and ``-o``, the options several
commands take) is in ``gnav.cli.common``. The command modules import only the standard
library and the core at import time; each command's heavier modules load when it runs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from gnav import __version__
from gnav.cli import (
    analyse,
    bench,
    demo,
    exploit,
    learn,
    odds,
    play,
    puzzles,
    serve,
    simulate,
    solve,
    train,
    verify,
)
from gnav.cli.common import Parser, make_rules
from gnav.errors import GnavError

__all__ = ["build_parser", "main", "make_rules"]


def build_parser() -> Parser:
    p = Parser(prog="gnav", description="Gnav, the Scandinavian swap-and-bluff game.")
    p.add_argument("--version", action="version", version=f"gnav {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    # In the order `gnav --help` lists them.
    for module in (verify, bench, demo, play, learn, simulate, serve, solve, train, exploit, odds,
                   analyse, puzzles):
        module.register(sub)
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

