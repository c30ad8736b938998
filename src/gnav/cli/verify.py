"""The ``gnav verify`` command: replay records and check their stated results."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    """Add ``verify`` to the ``gnav`` parser."""
    v = sub.add_parser("verify", help="replay records and check their results",
                       description="Replay game records (the format of docs/spec/records.md) "
                                   "and check every stated result against the rules of "
                                   "docs/spec/rules.md. Exit 0: all agree; 1: a record "
                                   "disagrees; 2: a file is not a valid record.")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("--write", action="store_true",
                   help="fill in every result from the engine instead of checking it")
    v.set_defaults(func=cmd_verify)


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
