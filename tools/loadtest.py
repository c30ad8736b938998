"""``python tools/loadtest.py [--url URL]... --tables N --seats M``: many tables of
WebSocket bot clients against gnav servers on this machine (the load client, ``loadclient/``
beside this script; it needs the ``[server]`` extra).

Create N tables of M seats on a gnav server on this machine (or on several, ``--url``
repeated: each table's seats spread over them), seat a WebSocket bot client in each (or
``--humans`` of them), start them and play; report actions/s, matches finished, errors
by code, the latency from each act to the update that carries it, the reconnects made and
the longest pause a table saw. Start the server with ``--creates-per-minute``,
``--tables-per-client`` and ``--sockets-per-client`` raised (e.g. 100000) first.

A developer's measuring tool, not part of the installed package: a player never needs it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from gnav.cli.common import add_json, add_progress, add_seats, add_seed
from gnav.errors import GnavError
from gnav.vocab import BotKind

PROG = "python tools/loadtest.py"


def parser() -> argparse.ArgumentParser:
    s = argparse.ArgumentParser(prog=PROG, description=(__doc__ or "").split("\n\n")[1])
    s.add_argument("--url", action="append", default=None, metavar="URL",
                   help="a server (a loopback address only; default http://127.0.0.1:8000); "
                        "repeat it for processes sharing their tables through Redis: each "
                        "table's seats are spread over them, and a seat whose server is gone "
                        "reconnects to the next, as the browser does")
    s.add_argument("--tables", type=int, default=10, help="tables to create (default 10)")
    add_seats(s, 6, "seats at each table (default 6)")
    s.add_argument("--humans", type=int, default=None, metavar="H",
                   help="seats played by socket clients (default: all); the server's bots "
                        "play the rest")
    s.add_argument("--lives", type=int, default=None, help="lives per player (default: the "
                   "preset's; fewer lives, shorter matches)")
    s.add_argument("--preset", default="gnav", help="the tables' preset (default gnav)")
    # Load clients decide in the client process: the cheap bots only (counter and expert
    # cost milliseconds a decision and would measure the clients, not the server).
    s.add_argument("--bot", choices=(BotKind.RANDOM, BotKind.THRESHOLD), default="random",
                   help="how clients (and the server's bots) decide (default random)")
    s.add_argument("--concurrency", type=int, default=32, metavar="C",
                   help="requests and socket openings in flight while setting up (default 32)")
    size = s.add_mutually_exclusive_group()
    size.add_argument("--duration", type=float, default=None, metavar="S",
                      help="play for S seconds, starting a new match whenever one ends")
    size.add_argument("--matches", type=int, default=1, metavar="K",
                      help="matches per table, one after another (default 1)")
    s.add_argument("--timeout", type=float, default=600.0,
                   help="the most seconds a --matches run plays (default 600)")
    s.add_argument("--think", type=float, default=0.0, metavar="S",
                   help="mean seconds a client waits before each act, as a person would "
                        "(0.5 to 1.5 times S; default 0: at once, which measures the "
                        "server saturated)")
    add_seed(s, None, "seed of the clients' choices")
    s.add_argument("--together", action="store_true",
                   help="with several --url: each table's seats all at the server that "
                        "created it, rather than spread over the servers (none relayed)")
    s.add_argument("--deflate", action="store_true",
                   help="offer permessage-deflate on the sockets, as browsers do")
    add_progress(s, "show progress on stderr even when it is not a terminal")
    add_json(s, "print the report as JSON")
    return s


def load_test(args: argparse.Namespace) -> int:
    try:
        from loadclient import run
        from loadclient.stats import format_report
    except ImportError as e:
        raise GnavError(f"the load test needs the server extra: pip install 'gnav[server]' "
                        f"({e.name} is missing)") from None
    options = run.Options(
        urls=tuple(args.url or ("http://127.0.0.1:8000",)), tables=args.tables,
        seats=args.seats, humans=args.humans,
        lives=args.lives, preset=args.preset, bot=args.bot, concurrency=args.concurrency,
        duration=args.duration, matches=args.matches, timeout=args.timeout, seed=args.seed,
        deflate=args.deflate, think=args.think,
        spread=not args.together)
    report = run.run(options, run.default_progress(args.progress))
    if args.json:
        print(json.dumps(report))
    else:
        for line in format_report(report):
            print(line)
    return 0 if run.ok(report) else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return load_test(args)
    except GnavError as e:  # bad input or a refusal: one line, as gnav's commands say it
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
