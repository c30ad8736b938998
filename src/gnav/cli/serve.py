"""The ``gnav serve`` command: the online table server (needs ``pip install 'gnav[server]'``).

The server itself lives in ``gnav.server`` and is imported only when the command runs,
so the rest of the command line works without the extra.
"""

from __future__ import annotations

import argparse
from typing import Any

from gnav.errors import GnavError
from gnav.server.settings import REDIS_WINDOW, Settings


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
    s.add_argument("--redis-window", type=float, default=None, metavar="MS",
                   help=f"with --store redis://...: milliseconds a journal write waits for "
                        f"others, so that Redis syncs its append-only file once for all "
                        f"of them (default {REDIS_WINDOW * 1000:g}; 0: each at once). A change "
                        f"is still acknowledged only once written to disk")
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
                        f"'python tools/loadtest.py', e.g. 100000")
    s.add_argument("--tables-per-client", type=int, default=Settings.tables_per_client,
                   metavar="N",
                   help=f"unfinished tables one client address (IPv6: its /64) may hold "
                        f"(default {Settings.tables_per_client}); raise it for a local "
                        f"'python tools/loadtest.py'")
    s.add_argument("--sockets-per-client", type=int, default=Settings.sockets_per_client,
                   metavar="N",
                   help=f"WebSockets one client address (IPv6: its /64) may hold open at once, "
                        f"and open a minute (default {Settings.sockets_per_client}); raise it "
                        f"for a local "
                        f"'python tools/loadtest.py'")
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
    """Add ``serve`` to the ``gnav`` parser (it takes no rules: tables choose theirs)."""
    add_arguments(sub.add_parser("serve", help="run the online table server"))


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
                  peer=args.peer, peer_advertise=args.peer_advertise,
                  redis_window_ms=args.redis_window)
