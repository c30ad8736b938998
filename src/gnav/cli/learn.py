"""The ``gnav learn`` command: the guided first match in the terminal (``gnav.tui.learn``)."""

from __future__ import annotations

import argparse
from typing import Any

from gnav.cli.common import add_lang
from gnav.errors import GnavError
from gnav.learn.script import PRESETS, ROUNDS


def register(sub: Any) -> None:
    """Add ``gnav learn`` to the ``gnav`` parser."""
    p = sub.add_parser("learn", help="learn to play: a short guided match against bots, "
                                     "each rule explained as it happens")
    p.add_argument("--preset", choices=PRESETS, default="gnav",
                   help="the rules taught (default gnav; gnav-1917: the Copenhagen rules)")
    p.add_argument("--round", type=int, default=1, metavar="N",
                   help=f"start at lesson round N (1 to {len(ROUNDS)}): go on where you left off")
    add_lang(p, "en", "language of the lesson (default English)")
    p.set_defaults(func=cmd_learn)


def cmd_learn(args: argparse.Namespace) -> int:
    from gnav.tui.learn import run_lesson

    if not 1 <= args.round <= len(ROUNDS):
        raise GnavError(f"--round must be 1 to {len(ROUNDS)}, not {args.round}")
    return run_lesson(args.preset, args.lang, input, print, start=args.round)
