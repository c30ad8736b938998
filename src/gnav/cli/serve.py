"""The ``gnav serve`` command: the online table server (needs ``pip install 'gnav[server]'``).

The server itself lives in ``gnav.server`` and is imported only when the command runs,
so the rest of the command line works without the extra.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from gnav.cli.common import add_json, add_progress, add_seats, add_seed
from gnav.errors import GnavError
from gnav.server.settings import Settings
from gnav.vocab import BotKind


def add_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument("--host", default="127.0.0.1", help="address to listen on "
                   "(default 127.0.0.1; 0.0.0.0 for every interface)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--store", default=None, metavar="URL",
                       help="where tables and records are kept: sqlite:///PATH (the "
                            "default, sqlite:///gnav.sqlite3) or redis://HOST:PORT/DB, "
                            "which several servers may share (pip install 'gnav[redis]')")
    where.add_argument("--db", default=None, metavar="PATH",
                       help="the SQLite file (the same as --store sqlite:///PATH)")
    s.add_argument("--key-file", default=None, metavar="FILE",
                   help="with --store redis://...: the servers' key, which seals what "
                        "Redis must not show (tables' seeds, messages between servers); "
                        "default $GNAV_KEY_FILE, else gnav.key here; made if missing. "
                        "Every server on the same Redis needs the same key ($GNAV_KEY "
                        "may hold it instead)")
    s.add_argument("--forwarded-allow-ips", default="", metavar="IPS",
                   help="behind a reverse proxy: the proxies' addresses or networks "
                        "(comma-separated) whose X-Forwarded-For gives the client's address "
                        "for per-address limits and logs; from anyone else the header is "
                        "ignored (default: none)")
    s.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes on this port (default 1); more than one needs "
                        "--store redis://..., through which they share the tables")
    s.add_argument("--peer", default=None, metavar="HOST:PORT",
                   help="with --store redis://...: where this server listens for the "
                        "others that share its tables (their links carry relayed "
                        "messages, sealed with the servers' key; default: --host, any "
                        "free port)")
    s.add_argument("--peer-advertise", default=None, metavar="HOST:PORT",
                   help="the address the other servers reach --peer at, if not that "
                        "(e.g. this machine's private address when --peer is 0.0.0.0:7001)")
    s.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another origin (http://host:port) whose pages may open "
                        "WebSockets (repeatable)")
    s.add_argument("--public-url", default=None, metavar="URL",
                   help="the URL people reach the server at, for links (default "
                        "http://HOST:PORT)")
    s.add_argument("--creates-per-minute", type=int, default=Settings.creates_per_minute,
                   metavar="N",
                   help=f"new tables one client address may create a minute (default "
                        f"{Settings.creates_per_minute}); raise it for a local "
                        f"'gnav loadtest', e.g. 100000")
    s.add_argument("--tables-per-client", type=int, default=Settings.tables_per_client,
                   metavar="N",
                   help=f"unfinished tables one client address (IPv6: its /64) may hold "
                        f"(default {Settings.tables_per_client}); raise it for a local "
                        f"'gnav loadtest'")
    s.add_argument("--sockets-per-client", type=int, default=Settings.sockets_per_client,
                   metavar="N",
                   help=f"WebSockets one client address (IPv6: its /64) may hold open at once, "
                        f"and open a minute (default {Settings.sockets_per_client}); raise it "
                        f"for a local "
                        f"'gnav loadtest'")
    s.add_argument("--costly-per-minute", type=int, default=Settings.costly_per_minute,
                   metavar="N",
                   help=f"records and replays one client address may ask for a minute "
                        f"(default {Settings.costly_per_minute}; /odds tables made on "
                        f"demand: a tenth of that)")
    s.add_argument("--odds-dir", metavar="DIR", default=None,
                   help="where /odds keeps the tables it makes for sizes that ship none "
                        "(default: ~/.cache/gnav/odds, or under $XDG_CACHE_HOME)")
    s.add_argument("--grow-puzzles", default=None, metavar="FILE",
                   help="cut puzzles from every finished listed match into FILE (JSON "
                        "lines), served at /puzzles after the shipped ones (default: off)")
    s.set_defaults(func=cmd_serve)


def register(sub: Any) -> None:
    """Add ``serve`` and ``loadtest`` to the ``gnav`` parser (they take no rules: tables
    choose theirs)."""
    add_arguments(sub.add_parser("serve", help="run the online table server"))
    add_loadtest_arguments(sub.add_parser(
        "loadtest", help="play many tables of socket bots against a local server",
        description="Create N tables of M seats on a gnav server on this machine (or on "
                    "several, --url repeated: each table's seats spread over them), seat a "
                    "WebSocket bot client in each (or --humans of them), start them and "
                    "play; report actions/s, matches finished, errors by code, the "
                    "latency from each act to the update that carries it, the reconnects "
                    "made and the longest pause a table saw. Start the server "
                    "with --creates-per-minute, --tables-per-client and --sockets-per-client "
                    "raised (e.g. 100000) "
                    "first."))


def add_loadtest_arguments(s: argparse.ArgumentParser) -> None:
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
    s.add_argument("--deflate", action="store_true",
                   help="offer permessage-deflate on the sockets, as browsers do")
    add_progress(s, "show progress on stderr even when it is not a terminal")
    add_json(s, "print the report as JSON")
    s.set_defaults(func=cmd_loadtest)


def cmd_loadtest(args: argparse.Namespace) -> int:
    try:
        from gnav.loadtest import run
        from gnav.loadtest.stats import format_report
    except ImportError as e:
        raise GnavError(f"the load test needs the server extra: pip install 'gnav[server]' "
                        f"({e.name} is missing)") from None
    options = run.Options(
        urls=tuple(args.url or ("http://127.0.0.1:8000",)), tables=args.tables,
        seats=args.seats, humans=args.humans,
        lives=args.lives, preset=args.preset, bot=args.bot, concurrency=args.concurrency,
        duration=args.duration, matches=args.matches, timeout=args.timeout, seed=args.seed,
        deflate=args.deflate, think=args.think)
    report = run.run(options, run.default_progress(args.progress))
    if args.json:
        print(json.dumps(report))
    else:
        for line in format_report(report):
            print(line)
    return 0 if run.ok(report) else 1


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from gnav.server.run import serve
    except ImportError as e:
        raise GnavError(f"the server needs its extra: pip install 'gnav[server]' "
                        f"({e.name} is missing)") from None
    store = args.store or args.db or "./gnav.sqlite3"
    return serve(args.host, args.port, store, args.allow_origin, args.public_url,
                 creates_per_minute=args.creates_per_minute,
                 tables_per_client=args.tables_per_client,
                 sockets_per_client=args.sockets_per_client,
                 costly_per_minute=args.costly_per_minute, workers=args.workers,
                  forwarded_allow_ips=args.forwarded_allow_ips, odds_dir=args.odds_dir,
                  grow_puzzles=args.grow_puzzles, key_file=args.key_file,
                  peer=args.peer, peer_advertise=args.peer_advertise)
