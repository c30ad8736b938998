"""One connection to Redis that carries the journal's writes, pipelined: every write goes
out at once, behind those still waiting for their replies, and Redis answers them in
order (its protocol, RESP, is ordered on a connection).

Why not redis-py for them: a change's write went through its connection pool (a free
connection taken and given back), its command packer (each argument encoded apart) and
its reply parser, at about 200 us of the server's CPU a write against 34 us here
(measured: the journal's script with a change's 19 arguments, 20 writes at once, from
one process; one at a time, 280 against 110 us). A change is one write, and at people's
pace that was a tenth of a server's CPU. Everything else the server asks of Redis still
goes through redis-py.

The contract is redis-py's for the same command: a reply that is an error is raised as
the exception redis-py raises for it (``ResponseError``, ``NoScriptError``,
``OutOfMemoryError``...), and a connection refused, cut or silent for ``timeout``
seconds is tried again on a new one, as ``redis_store.retrying`` does (0.05 s, 0.1 s,
... up to a second apart, 12 times), then raised as redis-py's ``ConnectionError`` or
``TimeoutError``. Whatever was in flight on a connection that broke is sent again: the
journal's write script refuses to append a write twice (``redis_store.WRITE``).

Writes share Redis's fsyncs (group commit): with ``appendfsync always`` Redis syncs its
append-only file once per turn of its event loop, for every command it read in that
turn, and that sync was almost all of its CPU (measured alone: 200 to 232 us a write
sent one at a time, 62 us with ten in flight). So a write is not sent at once: it waits
up to ``window`` seconds (``WINDOW``, ``gnav serve --redis-window``) for others, or until
``batch`` are waiting, and they go out in one ``write()``, which Redis reads in one turn
and syncs once. The window only delays: a write's caller still has its reply only once
Redis answered, after its sync, so nothing is acknowledged before it is on disk.

For plain connections (``redis://``, ``unix://``); a TLS one (``rediss://``) is left to
redis-py (``Pipe.usable``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections import deque
from collections.abc import Callable
from typing import Any, cast

import redis.exceptions as rerr
from redis._parsers.base import BaseParser
from redis.backoff import EqualJitterBackoff
from redis.connection import SSLConnection, parse_url

from gnav.server.settings import REDIS_WINDOW

# (redis-py's own, typed here: they have no annotations.)
_parse_error = cast(Callable[[str], rerr.RedisError], BaseParser.parse_error)
_parse_url = cast(Callable[[str], dict[str, Any]], parse_url)

TRIES = 12
WINDOW = REDIS_WINDOW  # seconds a write waits for others to share its batch (and fsync)
BATCH = 64  # writes that go out at once without waiting for the rest of the window
_BACKOFF = EqualJitterBackoff(cap=1.0, base=0.05)
_CRLF = b"\r\n"


class Incomplete(Exception):
    """The buffer ends inside a reply: wait for more."""


def pack(args: tuple[str | bytes, ...]) -> bytes:
    """A command as RESP: an array of bulk strings. (ASCII text, as the journal's
    writes are, is put together as text and encoded once: a quarter cheaper than
    each argument encoded apart.)"""
    texts = [arg for arg in args if isinstance(arg, str) and arg.isascii()]
    if len(texts) == len(args):
        return "".join([f"*{len(args)}\r\n",
                        *(f"${len(arg)}\r\n{arg}\r\n" for arg in texts)]).encode()
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg.encode() if isinstance(arg, str) else arg
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def parse(buf: bytearray, at: int) -> tuple[Any, int]:
    """The reply that starts at ``at`` in ``buf`` (strings decoded, an error reply as
    redis-py's exception for it, not raised) and where the next one starts.

    :raises: :exc:`Incomplete` if ``buf`` ends inside it; :exc:`ValueError` for bytes
        that are not RESP (the connection is then closed).
    """
    end = buf.find(_CRLF, at)
    if end < 0:
        raise Incomplete
    kind, line = buf[at], bytes(buf[at + 1:end])
    at = end + 2
    if kind == 0x24:  # $ bulk string
        size = int(line)
        if size < 0:
            return None, at
        if len(buf) < at + size + 2:
            raise Incomplete
        return buf[at:at + size].decode(), at + size + 2
    if kind == 0x3A:  # : integer
        return int(line), at
    if kind == 0x2A:  # * array
        count = int(line)
        if count < 0:
            return None, at
        items = []
        for _ in range(count):
            item, at = parse(buf, at)
            items.append(item)
        return items, at
    if kind == 0x2B:  # + simple string
        return line.decode(), at
    if kind == 0x2D:  # - error
        return _parse_error(line.decode()), at
    raise ValueError(f"not a Redis reply: {bytes(buf[at - len(line) - 3:at])!r}")


class _Protocol(asyncio.Protocol):
    """One connection's replies, matched in order to the futures waiting for them."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.waiting: deque[tuple[asyncio.Future[Any], float]] = deque()
        self.queued: list[bytes] = []  # commands not written yet (their batch's window)
        self.buf = bytearray()
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buf += data
        at = 0
        try:
            while self.waiting and at < len(self.buf):
                reply, at = parse(self.buf, at)
                future = self.waiting.popleft()[0]
                if not future.done():
                    future.set_result(reply)
        except Incomplete:
            pass
        except ValueError as e:
            self.fail(rerr.ConnectionError(str(e)))
            return
        del self.buf[:at]

    def connection_lost(self, exc: Exception | None) -> None:
        self.fail(rerr.ConnectionError("Connection closed by server."
                                       if exc is None else f"Connection lost: {exc}"))

    def fail(self, error: Exception) -> None:
        """The connection is done: every write waiting on it is told ``error``."""
        self.lost = True
        self.queued.clear()  # their callers are told below, and send them again
        if self.transport is not None:
            self.transport.abort()
        while self.waiting:
            future = self.waiting.popleft()[0]
            if not future.done():
                future.set_exception(error)


class Pipe:
    """The journal's writes to the Redis at ``url``, on one connection made on first use
    in the loop that uses it (again after it broke)."""

    def __init__(self, url: str, timeout: float = 5.0, connect_timeout: float = 5.0,
                 window: float | None = None, batch: int = BATCH) -> None:
        self.options = _parse_url(url)
        self.timeout, self.connect_timeout = timeout, connect_timeout
        # (None: the module's WINDOW when the pipe is made, so that tests may set it.)
        self.window = WINDOW if window is None else window
        self.batch = batch
        self.batches = 0  # writes to the socket: how many commands shared each is seen
        self._flusher: asyncio.TimerHandle | None = None
        self._conn: _Protocol | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connecting: asyncio.Lock | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._known: set[str] = set()  # scripts this Redis was seen to hold
        self._digests: dict[str, str] = {}  # each script's SHA-1, by its text

    @staticmethod
    def usable(url: str) -> bool:
        """Whether a pipe can reach ``url`` (not TLS: that is redis-py's)."""
        try:
            return _parse_url(url).get("connection_class") is not SSLConnection
        except ValueError:
            return False

    async def eval(self, script: str, keys: list[str], args: list[str]) -> Any:
        """Run ``script`` (by its digest; its text the first time Redis lacks it)."""
        sha = self._digests.get(script)
        if sha is None:  # (once a script: its digest took as long as packing the write)
            sha = self._digests[script] = hashlib.sha1(script.encode()).hexdigest()
        if sha in self._known:
            try:
                return await self.call("EVALSHA", sha, str(len(keys)), *keys, *args)
            except rerr.NoScriptError:  # a Redis that restarted has forgotten it
                self._known.discard(sha)
        reply = await self.call("EVAL", script, str(len(keys)), *keys, *args)
        self._known.add(sha)
        return reply

    async def call(self, *args: str) -> Any:
        """Send a command, with redis-py's retries; its reply, or its error raised."""
        failures = 0
        while True:
            try:
                return await self._once(pack(args))
            except (rerr.ConnectionError, rerr.TimeoutError, OSError) as e:
                failures += 1
                if failures >= TRIES:
                    if isinstance(e, rerr.RedisError):
                        raise
                    raise rerr.ConnectionError(str(e) or type(e).__name__) from e
                await asyncio.sleep(_BACKOFF.compute(failures))

    async def _once(self, command: bytes) -> Any:
        conn = await self._connection()
        assert conn.transport is not None and self._loop is not None
        future = self._loop.create_future()
        conn.waiting.append((future, self._loop.time() + self.timeout))
        conn.queued.append(command)
        if len(conn.queued) >= self.batch or self.window <= 0:
            self._flush()
        elif self._flusher is None:
            self._flusher = self._loop.call_later(self.window, self._flush)
        if self._timer is None:
            self._timer = self._loop.call_later(self.timeout, self._watch)
        reply = await future
        if isinstance(reply, Exception):
            raise reply
        return reply

    def _flush(self) -> None:
        """The commands waiting go out in one write (in the order they were asked for,
        which is that of the futures waiting for their replies)."""
        if self._flusher is not None:
            self._flusher.cancel()
            self._flusher = None
        conn = self._conn
        if conn is None or conn.lost or not conn.queued or conn.transport is None:
            return
        data = b"".join(conn.queued) if len(conn.queued) > 1 else conn.queued[0]
        conn.queued.clear()
        self.batches += 1
        conn.transport.write(data)

    def _watch(self) -> None:
        """A connection whose oldest write has waited ``timeout`` is given up (its
        writes are tried again on a new one): one timer for all the writes, not one
        each."""
        self._timer = None
        conn = self._conn
        if conn is None or conn.lost or not conn.waiting or self._loop is None:
            return
        now = self._loop.time()
        due = conn.waiting[0][1]
        if due <= now:
            conn.fail(rerr.TimeoutError("Timeout reading from Redis"))
            return
        self._timer = self._loop.call_later(due - now, self._watch)

    async def _connection(self) -> _Protocol:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # (a store used from another loop: start afresh)
            self._loop, self._conn, self._timer, self._flusher = loop, None, None, None
            self._connecting = asyncio.Lock()
        conn = self._conn
        if conn is not None and not conn.lost:
            return conn
        assert self._connecting is not None
        async with self._connecting:
            if self._conn is None or self._conn.lost:
                self._conn = await asyncio.wait_for(self._connect(loop),
                                                    self.connect_timeout)
            return self._conn

    async def _connect(self, loop: asyncio.AbstractEventLoop) -> _Protocol:
        o = self.options
        conn: _Protocol
        try:
            if "path" in o:
                _, conn = await loop.create_unix_connection(_Protocol, o["path"])
            else:
                _, conn = await loop.create_connection(
                    _Protocol, o.get("host", "localhost"), int(o.get("port", 6379)))
        except OSError as e:
            raise rerr.ConnectionError(f"Error connecting to Redis: {e}") from None
        hello: list[tuple[str, ...]] = []
        if o.get("password") is not None:
            hello.append(("AUTH", *([o["username"]] if o.get("username") else []),
                          o["password"]))
        if int(o.get("db", 0) or 0):
            hello.append(("SELECT", str(o["db"])))
        assert conn.transport is not None
        for command in hello:
            future = loop.create_future()
            conn.waiting.append((future, loop.time() + self.timeout))
            conn.transport.write(pack(command))
            reply = await future
            if isinstance(reply, Exception):
                conn.fail(rerr.ConnectionError("refused"))
                raise reply
        return conn

    async def close(self) -> None:
        self._flush()  # (what waits is sent; its callers are told the connection closed)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        conn, self._conn = self._conn, None
        if conn is not None and conn.transport is not None:
            with contextlib.suppress(Exception):
                conn.transport.close()
