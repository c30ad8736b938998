"""The ``gnav serve`` command: the online table server (needs ``pip install 'gnav[server]'``).

The server itself lives in ``gnav.server`` and is imported only when the command runs,
so the rest of the command line works without the extra.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from gnav.errors import GnavError


def add_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument("--host", default="127.0.0.1", help="address to listen on "
                   "(default 127.0.0.1; 0.0.0.0 for every interface)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free)")
    s.add_argument("--db", default="./gnav.sqlite3",
                   help="SQLite file of tables and records (default ./gnav.sqlite3)")
    s.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another origin (http://host:port) whose pages may open "
                        "WebSockets (repeatable)")
    s.add_argument("--public-url", default=None, metavar="URL",
                   help="the URL people reach the server at, for links (default "
                        "http://HOST:PORT)")
    s.set_defaults(func=cmd_serve)


def register(sub: Any, rules_args: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``serve`` to the ``gnav`` parser (it takes no rules: tables choose theirs)."""
    add_arguments(sub.add_parser("serve", help="run the online table server"))


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from gnav.server.run import serve
    except ImportError as e:
        raise GnavError(f"the server needs its extra: pip install 'gnav[server]' "
                        f"({e.name} is missing)") from None
    return serve(args.host, args.port, args.db, args.allow_origin, args.public_url)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gnav.cli_serve``: the same command, before it is wired into gnav."""
    parser = argparse.ArgumentParser(prog="gnav serve")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except GnavError as e:
        print(f"gnav serve: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
