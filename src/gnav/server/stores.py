"""Which store a server keeps its tables in, chosen from its ``--store`` URL: SQLite
(``gnav.server.store``) or Redis (``gnav.server.redis_store``). It sits above both, so
the Redis store can build on the contract in ``store`` without ``store`` knowing of it.
"""

from __future__ import annotations

from gnav.server.store import SQLiteStore, Store, StoreError


def open_store(url: str, key_file: str | None = None,
               redis_window: float | None = None) -> Store:
    """The store a ``--store`` URL names: ``sqlite:///PATH`` (a relative path; four
    slashes for an absolute one, as SQLAlchemy writes it), a bare path (SQLite too), or
    ``redis://HOST:PORT/DB`` (``rediss://`` for TLS; needs the ``[redis]`` extra),
    whose secrets are sealed with the servers' key (``gnav.server.sealing.load_key``:
    ``GNAV_KEY``, else ``key_file``). ``redis_window``: seconds a journal write waits
    for others to share Redis's fsync (``gnav.server.resp``; None: its default).

    :raises: :exc:`StoreError` if it is none of them or cannot be opened.
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        return SQLiteStore(url)
    if scheme == "sqlite":
        path = rest[1:] if rest.startswith("/") else rest
        if not path:
            raise StoreError(f"--store {url!r}: no file after sqlite:/// (e.g. "
                             f"sqlite:///gnav.sqlite3)")
        return SQLiteStore(path)
    if scheme in ("redis", "rediss", "unix"):
        try:  # imported only when asked for: redis-py is the [redis] extra
            from gnav.server.redis_store import RedisStore
            from gnav.server.sealing import Box, load_key
        except ImportError:
            raise StoreError(f"--store {url!r} needs redis-py and cryptography: pip "
                             f"install 'gnav[redis]'") from None
        key, key_from = load_key(key_file)
        return RedisStore(url, Box(key), key_from, window=redis_window)
    raise StoreError(f"--store {url!r}: the store is sqlite:///PATH or "
                     f"redis://HOST:PORT/DB")
