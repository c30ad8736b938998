"""The leases of the tables a process owns, renewed on a thread of its own.

A table's lease (``gnav:t:ID:lease``) must be renewed within ``lease`` seconds, or
another process may take the table over. Renewed from the event loop, it waited for a
turn of the loop, and a turn took seconds on a process far behind: a change at a
crowded table, a garbage collection, a burst of hellos (measured: a loop turn over about
4 s let every lease of the process lapse, and its tables moved while it still played
them). Here a thread with its own (blocking) Redis client renews them every beat,
whatever the loop is doing; only a lease found lost goes back to the loop
(``lost``), which gives the table up. A loop that has not said it is alive (``pulse``)
for ``stall`` seconds is taken for hung, not slow: its leases are left to run out, so
that other processes take its tables over.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import redis
import redis.exceptions as rerr
from redis.backoff import EqualJitterBackoff
from redis.retry import Retry

from gnav.server.logs import Log
from gnav.server.redis_store import PREFIX, journal_key, lease_key

CHUNK = 500  # leases a script renews at once (a few hundred keys: well under a ms)
# Seconds without a pulse from the event loop after which it is taken for hung: far
# beyond the slowest turn measured on a loaded machine (a few seconds).
STALL = 30.0

# KEYS: the leases to renew, then the tables' journals. ARGV: the owner, the lease in
# ms, then each journal's last id as the owner knows it. A lease that ran out while
# nobody took it (the owner was slow: a busy machine) is taken back if its journal still
# ends there, or ends with an entry the owner wrote (``w``): nobody else has written
# since. (The owner's own last write may be stored while its reply still waits for a
# turn of a slow event loop, with the id not yet known here: measured, a lone survivor
# of a kill under load losing leases to nobody.) Returns the indices (from 1) of the
# tables it no longer holds.
RENEW = """
local lost = {}
local n = #KEYS / 2
for i = 1, n do
  local holder = redis.call('GET', KEYS[i])
  if holder == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
  else
    local last = redis.call('XREVRANGE', KEYS[n + i], '+', '-', 'COUNT', 1)
    local mine = false
    if last[1] then
      mine = ARGV[2 + i] ~= '' and last[1][1] == ARGV[2 + i]
      local fields = last[1][2]
      for f = 1, #fields - 1, 2 do
        if fields[f] == 'w' and fields[f + 1] == ARGV[1] then mine = true end
      end
    end
    if not holder and mine then
      redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
    else
      table.insert(lost, i)
    end
  end
end
return lost
"""


# KEYS: the leases to renew. ARGV: the owner, the lease in ms. Every lease the owner
# holds is renewed; returns the indices (from 1) of the others, which ``RENEW`` then
# looks at with their journals. At people's pace every lease is held, and a round of
# ``RENEW`` itself sent three arguments a table (its lease, its journal, its last id),
# each packed by redis-py on this process's CPU: a round of 500 tables was 1,500
# arguments, every second (issue 27 §5: docs/server.md).
RENEW_HELD = """
local others = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
  else
    table.insert(others, i)
  end
end
return others
"""


def alive_key(process: str) -> str:
    return f"{PREFIX}alive:{process}"


def local_key(process: str) -> str:
    """Where the process's link also listens on its own machine (a Unix socket's path),
    beside its liveness key and as long-lived."""
    return f"{PREFIX}local:{process}"


class LeaseKeeper:
    """Renews ``owned``'s leases for process ``me`` and says it is alive, every beat (a
    third of the lease, at most a second), on a thread. ``owned`` and ``last_ids`` are
    the event loop's own: read here by copies, which the GIL makes whole, and never
    written here; a lease found lost is passed to ``lost`` (which must be safe to call
    from this thread: the cluster hands it to its loop)."""

    def __init__(self, url: str, me: str, lease: float, owned: set[str],
                 last_ids: dict[str, str], lost: Callable[[str], object], log: Log,
                 stall: float = STALL, address: str = "1", local: str | None = None
                 ) -> None:
        self.url, self.me, self.lease = url, me, lease
        self.address = address  # the liveness key's value: where the process's link listens
        self.local = local  # the Unix socket it also listens on (``local_key``), if any
        self.owned, self.last_ids, self.lost, self.log = owned, last_ids, lost, log
        self.beat = min(1.0, lease / 3)
        self.stall = stall
        self._pulsed = time.monotonic()  # the loop's last word (a float: one store)
        self._stalled = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gnav-leases", daemon=True)
        self.renewals = 0  # rounds made (a test waits on it)

    def start(self) -> None:
        self._thread.start()

    def pulse(self) -> None:
        """The event loop is alive (it calls this every beat)."""
        self._pulsed = time.monotonic()

    def signal(self) -> None:
        """Renew no more (a round under way ends first)."""
        self._stop.set()

    def stop(self, wait: float) -> None:
        """Renew no more, and wait up to ``wait`` seconds for the thread to end (it is
        a daemon: one still in a call to an unanswering Redis does not hold the process
        up)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=wait)

    def client(self) -> redis.Redis:
        # Short timeouts and few retries: a round that fails is made again a beat later.
        return redis.Redis.from_url(self.url, decode_responses=True,
                                    socket_connect_timeout=2.0, socket_timeout=2.0,
                                    retry=Retry(EqualJitterBackoff(cap=0.5, base=0.05), 2))

    def _run(self) -> None:
        client = self.client()
        try:
            while not self._stop.wait(self.beat):
                if time.monotonic() - self._pulsed > self.stall:
                    if not self._stalled:  # hung, not slow: let the leases run out
                        self.log.error("cluster.loop_stalled", seconds=self.stall)
                    self._stalled = True
                    continue
                self._stalled = False
                try:
                    self.renew(client)
                except (rerr.RedisError, OSError) as e:
                    # Redis is away: the leases cannot be renewed; the journal's fence
                    # keeps a table that another process takes meanwhile from being
                    # written twice.
                    self.log.warning("cluster.keep_failed", error=str(e).splitlines()[0]
                                     if str(e) else type(e).__name__)
                except Exception:
                    self.log.error("cluster.keep_failed", exc=True)
        finally:
            client.close()

    def renew(self, client: redis.Redis) -> list[str]:
        """One round: every lease renewed (or taken back, ``RENEW``), the process said
        alive; the tables whose lease is lost, each also passed to ``lost``."""
        ids = list(self.owned.copy())  # one C call: whole even as the loop changes it
        ms = int(self.lease * 1000)
        with client.pipeline(transaction=False) as pipe:
            pipe.set(alive_key(self.me), self.address, px=ms)
            if self.local is not None:
                pipe.set(local_key(self.me), self.local, px=ms)
            for i in range(0, len(ids), CHUNK):
                chunk = ids[i:i + CHUNK]
                # The script's text each time: a restarted Redis has forgotten scripts,
                # and a few hundred bytes cost nothing.
                pipe.eval(RENEW_HELD, len(chunk), *(lease_key(t) for t in chunk), self.me,
                          ms)
            answers = pipe.execute()
        scripts = answers[1 if self.local is None else 2:]
        # The leases this process did not hold a moment ago: taken back, or lost.
        others = [ids[n * CHUNK + int(i) - 1] for n, got in enumerate(scripts) for i in got]
        lost: list[str] = []
        if others:
            last = self.last_ids.copy()
            with client.pipeline(transaction=False) as pipe:
                for i in range(0, len(others), CHUNK):
                    chunk = others[i:i + CHUNK]
                    pipe.eval(RENEW, 2 * len(chunk), *(lease_key(t) for t in chunk),
                              *(journal_key(t) for t in chunk), self.me, ms,
                              *(last.get(t, "") for t in chunk))
                answers = pipe.execute()
            lost = [others[n * CHUNK + int(i) - 1] for n, got in enumerate(answers)
                    for i in got]
        for table_id in lost:
            self.lost(table_id)
        self.renewals += 1
        return lost
