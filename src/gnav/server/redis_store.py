"""The store in Redis (``gnav serve --store redis://HOST:PORT/DB``), for several servers
sharing their tables: the same contract as ``SQLiteStore`` (``gnav.server.store.Store``).

Each table is a Redis Stream of its journal entries (``gnav:t:ID:journal``), a hash of
its metadata and lobby line (``gnav:t:ID``) and a hash of its finished matches' records
(``gnav:t:ID:records``); two sorted sets list the unfinished tables and the listed ones,
ordered by a counter of changes (as SQLite orders by its journal's sequence).

A change is one Lua script: Redis runs it whole or not at all, so the entries, the lobby
line and the record are stored together, and the reply is Redis's acknowledgement;
only then does the hub tell anyone. The script declares itself a writer (``#!lua``), so
a Redis at its ``maxmemory`` with ``noeviction`` refuses it before it starts, never
half-way. How durable an acknowledged write is depends on Redis's own persistence
(``appendonly yes`` and ``appendfsync always`` for a machine crash; docs/deploy.md).

A change may name an owner (``fence``): then it is stored only if the table's lease
(``gnav:t:ID:lease``) still holds that owner, so a server that has lost a table (it
stalled past its lease, and another took the table over) can never add to its journal.

What a reader of Redis must not learn is sealed with the servers' key first
(``gnav.server.sealing``): the seed and host digest in a table's first entry.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
import redis.exceptions as rerr
from redis.asyncio.retry import Retry
from redis.backoff import EqualJitterBackoff

from gnav.server.jsontext import dumps as _dumps
from gnav.server.resp import Pipe
from gnav.server.sealing import Box, Unsealable, load_key
from gnav.server.store import Diverged, Entry, StoreError, StoreFull, TableExists
from gnav.vocab import TablePhase

PREFIX = "gnav:"
OPEN = f"{PREFIX}open"  # unfinished tables (lobby or playing), by last change
LISTED = f"{PREFIX}listed"  # the listed ones among them, by last change
CHANGES = f"{PREFIX}changes"  # the counter that orders both
KEY_CHECK = f"{PREFIX}key"  # the check of the key the tables here were sealed with

# KEYS: table, journal, records, open, listed, changes, lease.
# ARGV: mode ('create'|'append'), id, summary, phase, listed, created, game, record,
#       fence, the journal's last id as the fence knows it, lease ms, entries...
# A fenced write whose lease ran out while nobody took it (the owner was slow to renew)
# takes the lease back if the journal still ends where the owner knows it ends: nobody
# else has written since, so the owner's table is the table. A fenced write by the
# holder is refused (GNAV_MOVED) if the journal does not end there: that is the same
# write sent again after its reply was lost (a connection cut as Redis restarts; the
# client retries), or a table this process no longer has as the journal has it; it is
# never appended twice. Each entry names its writer (``w``: the fence), so that a lease
# renewal can tell the owner's own last write from another's (``cluster.RENEW``).
# Returns the change counter and the journal's new last id.
WRITE = """#!lua
if ARGV[1] == 'create' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('GNAV_EXISTS') end
elseif redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('GNAV_NO_TABLE')
end
if ARGV[9] ~= '' then
  local holder = redis.call('GET', KEYS[7])
  local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
  local known = ARGV[10] ~= '' and last[1] and last[1][1] == ARGV[10]
  if holder ~= ARGV[9] then
    if holder or not known then return redis.error_reply('GNAV_NOT_OWNER') end
    redis.call('SET', KEYS[7], ARGV[9], 'PX', ARGV[11])
  elseif ARGV[10] ~= '' and not known then
    return redis.error_reply('GNAV_MOVED')
  end
end
local at = ''
for i = 12, #ARGV do at = redis.call('XADD', KEYS[2], '*', 'e', ARGV[i], 'w', ARGV[9]) end
local n = redis.call('INCR', KEYS[6])
redis.call('HSET', KEYS[1], 'summary', ARGV[3], 'phase', ARGV[4], 'listed', ARGV[5],
           'created', ARGV[6], 'updated', n)
if ARGV[4] == 'lobby' or ARGV[4] == 'playing' then
  redis.call('ZADD', KEYS[4], n, ARGV[2])
  if ARGV[5] == '1' then redis.call('ZADD', KEYS[5], n, ARGV[2]) end
else
  redis.call('ZREM', KEYS[4], ARGV[2])
  redis.call('ZREM', KEYS[5], ARGV[2])
end
if ARGV[7] ~= '' then redis.call('HSET', KEYS[3], ARGV[7], ARGV[8]) end
return {n, at}
"""


def table_key(table_id: str) -> str:
    return f"{PREFIX}t:{table_id}"


def journal_key(table_id: str) -> str:
    return f"{PREFIX}t:{table_id}:journal"


def lease_key(table_id: str) -> str:
    return f"{PREFIX}t:{table_id}:lease"


# Connections one client opens to Redis at most. A change waits for a free one: redis-py's
# own pool has 100 and then fails the command ("Too many connections"), which at 1,000
# tables in play refused one change in ten (measured: 697 store_failed in 40 s).
POOL = 64
# Seconds a command waits for a free connection before it fails: a server far behind
# (1,000 tables acting at once on a machine that gives it a fifth of a core) had commands
# wait over 10 s, and refusing them only made the clients act again.
POOL_WAIT = 60.0


def connect(url: str, **options: Any) -> aioredis.Redis:
    """A client of the Redis at ``url`` (``options`` as ``Redis.from_url`` takes them)
    whose commands wait for one of its ``POOL`` connections rather than fail."""
    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL,
                                                    timeout=POOL_WAIT, **options)
    client = aioredis.Redis(connection_pool=pool)
    client.auto_close_connection_pool = True  # as from_url's: closed with the client
    return client


def retrying() -> Retry:
    """How a command rides out a Redis that restarts or fails over: a connection that
    is refused, cut ("Connection closed by server": every pooled connection of a Redis
    that restarted is), times out or finds Redis still loading its data is tried again,
    at 0.05 s, 0.1 s, ... up to a second apart (with jitter, so that the servers do not
    all come back at once), for 5 to 10 s in all; then the caller is refused. Passed
    explicitly: ``Redis.from_url`` gives its connections no retries of their own.
    Safe for the store's writes too: the write script refuses to append twice."""
    return Retry(EqualJitterBackoff(cap=1.0, base=0.05), 12)


def full(e: Exception) -> bool:
    """Whether ``e`` is Redis refusing a write at its ``maxmemory``."""
    return isinstance(e, rerr.OutOfMemoryError) or (
        isinstance(e, rerr.ResponseError) and "maxmemory" in str(e))


class NotOwner(Diverged):
    """A fenced change by a server whose lease on the table has run out."""


class RedisStore:
    """Tables in the Redis at ``url`` (``redis://HOST:PORT/DB``). The client connects
    on first use, in the event loop that uses it."""

    def __init__(self, url: str, box: Box | None = None, key_from: str = "",
                 window: float | None = None) -> None:
        self.url = url
        self.where = url.split("@")[-1]  # never a password in a message
        if box is None:
            key, key_from = load_key()
            box = Box(key)
        self.box, self.key_from = box, key_from  # the servers' key (and where it is kept)
        self.created = False  # whether Redis was empty is not this store's to say
        self.shared = True  # several processes may use it (gnav.server.cluster)
        self.lease_ms = 5000  # a fenced write that takes its lease back holds it this long
        # The last journal id this process wrote or read, by table: what a fenced write
        # and a lease renewal check that nobody else has written since.
        self.last_ids: dict[str, str] = {}
        self._client: aioredis.Redis | None = None
        self._write: Any = None
        # The journal's writes go on a pipelined connection of their own (``resp``:
        # measured, a sixth of redis-py's CPU a write), unless TLS is asked for; a write
        # waits up to ``window`` seconds for others to share Redis's fsync (resp.WINDOW).
        self._pipe = Pipe(url, window=window) if Pipe.usable(url) else None

    def check(self) -> None:
        """Reach Redis now (at start, before serving): StoreError in one line if not."""
        import redis

        try:
            with redis.Redis.from_url(self.url, socket_timeout=5.0,
                                      socket_connect_timeout=5.0) as client:
                client.ping()
                client.set(KEY_CHECK, self.box.check, nx=True)
                held = client.get(KEY_CHECK)
        except (rerr.RedisError, OSError) as e:
            raise self._explain(e) from None
        if held is not None and held.decode() != self.box.check:
            raise StoreError(f"the tables in Redis at {self.where} were sealed with "
                             f"another key than this server's ({self.key_from or 'given'}): "
                             f"give every server the same key (docs/deploy.md)")

    @property
    def client(self) -> aioredis.Redis:
        if self._client is None:
            self._client = connect(
                self.url, decode_responses=True, socket_timeout=5.0,
                socket_connect_timeout=5.0, health_check_interval=30, retry=retrying())
            self._write = self._client.register_script(WRITE)
        return self._client

    def _explain(self, e: Exception) -> StoreError:
        """One line for a Redis failure, naming what an operator can fix."""
        text = str(e).splitlines()[0] if str(e) else type(e).__name__
        if isinstance(e, rerr.ResponseError):
            if "GNAV_NOT_OWNER" in text:
                return NotOwner("this server no longer holds the table's lease")
            if full(e):
                return StoreFull(f"Redis at {self.where} is full (maxmemory, noeviction)")
            if isinstance(e, rerr.ReadOnlyError) or text.startswith("READONLY"):
                return StoreError(f"Redis at {self.where} is a read-only replica")
            if text.startswith("MISCONF"):
                return StoreError(f"Redis at {self.where} cannot persist its data (disk?)")
        if isinstance(e, rerr.ConnectionError | rerr.TimeoutError | OSError):
            return StoreError(f"cannot reach Redis at {self.where}: {text}")
        return StoreError(f"Redis at {self.where} failed: {text}")

    async def _script(self, mode: str, table_id: str, entries: Sequence[Entry],
                      summary: Entry, finished: tuple[int, Entry] | None,
                      fence: str | None) -> None:
        game, record = ("", "") if finished is None else (str(finished[0]),
                                                        _dumps(finished[1]))
        phase = str(summary.get("phase", TablePhase.LOBBY))
        keys = [table_key(table_id), journal_key(table_id), f"{table_key(table_id)}:records",
                OPEN, LISTED, CHANGES, lease_key(table_id)]
        args = [mode, table_id, _dumps(summary), phase,
                "1" if summary.get("listed") else "0", repr(float(summary.get("created", 0.0))),
                game, record, fence or "", self.last_ids.get(table_id, ""),
                str(self.lease_ms),
                *(_dumps(self.box.seal_entry(table_id, e)) for e in entries)]
        before = self.last_ids.get(table_id) if mode == "append" else None
        try:
            if self._pipe is not None:
                _, at = await self._pipe.eval(WRITE, keys, args)
            else:
                self.client  # noqa: B018 - connects, and registers the script
                _, at = await self._write(keys=keys, args=args)
            if at:
                self.last_ids[table_id] = str(at)
        except rerr.ResponseError as e:
            # A write sent again (its reply was lost) finds itself stored: it is done.
            again = "GNAV_EXISTS" in str(e) or "GNAV_MOVED" in str(e)
            if again and await self._landed(table_id, before, entries):
                return
            if "GNAV_EXISTS" in str(e):
                raise TableExists(f"table {table_id} exists already") from None
            if "GNAV_MOVED" in str(e):
                raise Diverged(f"table {table_id}'s journal in Redis at {self.where} has "
                               f"changes this server does not hold") from None
            if "GNAV_NO_TABLE" in str(e):
                raise StoreError(f"table {table_id} is not in Redis at {self.where}") from None
            raise self._explain(e) from None
        except (rerr.RedisError, OSError) as e:
            raise self._explain(e) from None

    async def _landed(self, table_id: str, before: str | None,
                      entries: Sequence[Entry]) -> bool:
        """Whether the journal holds exactly ``entries`` after id ``before`` (None: from
        its start): a write that Redis made, whose reply was lost. Compared opened: a
        seal differs each time it is made."""
        try:
            rows = await self.client.xrange(journal_key(table_id),
                                            "-" if before is None else f"({before}")
        except (rerr.RedisError, OSError) as e:
            raise self._explain(e) from None
        if not rows or any(not fields or "e" not in fields for _, fields in rows):
            return False
        if self._entries(table_id, rows) != [json.loads(_dumps(e)) for e in entries]:
            return False
        self.last_ids[table_id] = str(rows[-1][0])
        return True

    async def create_table(self, table_id: str, entries: Sequence[Entry],
                           summary: Entry) -> None:
        await self._script("create", table_id, entries, summary, None, None)

    async def append(self, table_id: str, entries: Sequence[Entry], summary: Entry,
                     finished: tuple[int, Entry] | None = None, *,
                     fence: str | None = None) -> None:
        await self._script("append", table_id, entries, summary, finished, fence)

    async def journal(self, table_id: str) -> list[Entry] | None:
        try:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.exists(table_key(table_id))
                pipe.xrange(journal_key(table_id))
                exists, rows = await pipe.execute()
        except (rerr.RedisError, OSError) as e:
            raise self._explain(e) from None
        if not exists:
            return None
        if rows:
            self.last_ids[table_id] = str(rows[-1][0])
        return self._entries(table_id, rows)

    def _entries(self, table_id: str, rows: list[Any]) -> list[Entry]:
        """A journal's entries as the table reads them (their secrets opened)."""
        try:
            return [self.box.open_entry(table_id, json.loads(fields["e"]))
                    for _, fields in rows]
        except Unsealable:
            raise StoreError(f"table {table_id} in Redis at {self.where} was sealed with "
                             f"another key than this server's") from None

    async def load_unfinished(self) -> dict[str, list[Entry]]:
        try:
            ids = [str(t) for t in await self.client.zrange(OPEN, 0, -1)]
            async with self.client.pipeline(transaction=False) as pipe:
                for table_id in ids:
                    pipe.xrange(journal_key(table_id))
                journals = await pipe.execute()
        except (rerr.RedisError, OSError) as e:
            raise self._explain(e) from None
        return {table_id: self._entries(table_id, rows)
                for table_id, rows in zip(ids, journals, strict=True)}

    async def record(self, table_id: str, game: int) -> Entry | None:
        try:
            text = await self.client.hget(f"{table_key(table_id)}:records", str(game))
        except (rerr.RedisError, OSError) as e:
            raise self._explain(e) from None
        return None if text is None else dict(json.loads(text))

    async def list_listed(self, limit: int) -> list[Entry]:
        try:
            ids = [str(t) for t in await self.client.zrevrange(LISTED, 0, limit - 1)]
            async with self.client.pipeline(transaction=False) as pipe:
                for table_id in ids:
                    pipe.hget(table_key(table_id), "summary")
                lines = await pipe.execute()
        except (rerr.RedisError, OSError) as e:
            raise self._explain(e) from None
        return [dict(json.loads(line)) for line in lines if line is not None]

    async def close(self) -> None:
        if self._pipe is not None:
            await self._pipe.close()
        if self._client is not None:
            await self._client.aclose()
            self._client = None
