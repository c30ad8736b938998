"""Several server processes, one set of tables, through one Redis: who owns a table, and
how the others forward requests to it and relay its messages to their sockets.

A table is owned by at most one process at a time: the one holding its lease
(``gnav:t:ID:lease``, a key with an expiry that the owner renews every second, on a
thread of its own: ``gnav.server.leases``).
Only the owner applies changes, and its writes to the journal are fenced by the lease
(``RedisStore.append(fence=...)``): a process that stalled past its lease, while another
took the table over, can never add to the journal again.

A process asked about a table owned elsewhere (``Elsewhere``) forwards the request to
the owner over their link (``gnav.server.peers``: a TCP connection each way, its address
in the owner's liveness key) and waits for its reply.
A socket it holds for such a table is relayed: the owner keeps a ``RemoteConn`` for it in
the table's connections, so the table knows that seat is listening, and the table's
messages go to the holder once a process, not once a socket: each distinct message
(the spectators' view, a seat's own view, news for all) is published once to every
holder with a socket it is for, naming the table and the seats it is for, and the holder
hands that one text to each of its sockets at that table with one of those seats. A
socket's own catch-up (its hello's answer) goes to it alone, and a mark after it
says the socket is on the table's list: from then on it takes the table's messages.
Everything an owner sends a holder this way is numbered, one count per pair of
processes. A link loses nothing while it lasts, and what was in flight when it broke
is lost: a number missed, a link that broke (at either end) and a relayed table that
moved close the holder's sockets relayed from that owner as a slow one is closed
(``CLOSE_SLOW``), and their clients reconnect with the last version they saw and get
what they missed from the table's journal, as after any lost connection.

Every process says it is alive and where its link listens (``gnav:alive:ID``, renewed
with its leases). An owner that
dies stops renewing: its sockets' holders close them (the clients reconnect), and once
its leases run out the next request for one of its tables, or the sweep for unowned
tables in play that every process makes, takes the table over from its journal, timers
included. A holder that dies leaves its relayed seats disconnected at the owner, which
then treats them as any leaver (grace, then a stand-in bot).

Whatever goes over a link (forwarded hellos with seat tokens, joins' replies, relayed
seats' views) is sealed with the servers' key (``gnav.server.sealing``), bound to the
receiver's name (``channel``), with its sender's id inside: a reader of the network sees
its size and nothing else, a message sealed for one process does not open at another,
and none of it crosses Redis. What spectators may see crosses through a deflate stream
of each link (``gnav.server.streams``).

What waits to go to a holder is bounded in bytes (``Settings.link_backlog``), as each
socket's backlog is (``gnav.server.conn``): a holder that reads slower than the owner's
tables play (its CPU gone to writing to hundreds of spectators) once let the owner's
queue to it grow to 7,489 texts (16.8 MB). Past the bound the owner cuts the relay to
that holder, as a slow socket is cut: it lets go of what waited, its relayed sockets
there leave their tables, and it tells the holder (``cut``), which closes them as slow
ones (``CLOSE_SLOW``): their clients reconnect with their version and catch up from the
journal. Requests, their replies and the asks for a new stream go ahead of relayed
messages (``Link.urgent``): a hello's answer never waits behind spectators' updates (an
act refused because its socket was let go follows that socket's close, which says why).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import tempfile
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import redis.asyncio as aioredis
import redis.exceptions as rerr

from gnav.errors import Code, GnavError
from gnav.server.conn import Conn, Elsewhere, Unanswered
from gnav.server.faults import Fault
from gnav.server.jsontext import dumps
from gnav.server.leases import LeaseKeeper, alive_key, local_key
from gnav.server.logs import Log
from gnav.server.peers import (
    BATCH_BYTES,
    FIRST_FRAME,
    PeerGone,
    frame,
    join_address,
    parse_address,
    read_frame,
)
from gnav.server.redis_store import (
    OPEN,
    connect,
    full,
    lease_key,
    retrying,
)
from gnav.server.sealing import Box, Unsealable, load_key
from gnav.server.store import StoreFull
from gnav.server.streams import Packer, Unpacker
from gnav.server.wire import CLOSE_GOING_AWAY, CLOSE_SLOW
from gnav.table import Refused
from gnav.vocab import TablePhase

PREFIX = "gnav:"
# Seconds a peer whose link refused is taken for gone without asking Redis (a process id
# is never used again: this only bounds what a mistaken refusal costs).
DEAD_FOR = 60.0
# Loop turns a link's sender waits, once woken, for more to send in the same frame. A
# forwarded act's reply is posted with its views (``_answer``), so one is enough; three
# (for a reply that came two turns after its views) were three turns of the whole loop
# on every frame (issue 27 §5: docs/server.md).
COALESCE_TURNS = 1
# Seconds between two looks at the requests waiting for a reply (their time limits),
# and the least a request waits before its owner's liveness is asked after.
REPLY_TICK = 0.25
REPLY_LOOK = 1.0

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: the set of open tables. ARGV: the keys' prefix, the phase of a table in play.
# The tables in play that no process holds, looked for inside Redis: one command, not
# two a table (every process sweeps every half lease; at 1,000 tables over two
# processes that was a thousand commands each time, packed and parsed by redis-py).
ORPHANS = """
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', ARGV[1] .. 't:' .. id .. ':lease') == 0
      and redis.call('HGET', ARGV[1] .. 't:' .. id, 'phase') == ARGV[2] then
    table.insert(out, id)
  end
end
return out
"""

# KEYS: relayed tables' leases; ARGV: the owner this process knows for each. The ones
# whose lease that owner no longer holds, looked at inside Redis: ``index, holder`` for
# each (index from 1; holder '': nobody). (An ``MGET`` of every relayed table's lease
# sent back hundreds of holders, each parsed by redis-py, every half lease, nearly all
# of them the owner this process knew.)
MOVED = """
local out = {}
for i = 1, #KEYS do
  local holder = redis.call('GET', KEYS[i])
  if holder ~= ARGV[i] then
    table.insert(out, i)
    table.insert(out, holder or '')
  end
end
return out
"""

# Why the sockets relayed from an owner that cut its relay to their process close.
CUT = "this server fell too far behind the table's: reconnect with your last version"
# What goes ahead of relayed messages on a link (``Link.urgent``). A close stays in
# order behind the messages to its socket.
URGENT = frozenset({"req", "rep", "reset", "cut"})


def channel(process: str) -> str:
    return f"{PREFIX}proc:{process}"


def _seats(to: tuple[int | None, ...]) -> str:
    """The seats a message is for, as the relay's head says them (``-``: spectators)."""
    return ",".join("-" if seat is None else str(seat) for seat in to)


def _parse_seats(text: str) -> frozenset[int | None]:
    return frozenset(None if part == "-" else int(part) for part in text.split(","))


class Host(Protocol):
    """What the cluster asks of this process's tables: the hub (``gnav.server.hub``),
    which hands itself over at ``Cluster.start``. The cluster is told the hub's shape,
    not its module: the hub imports the cluster, never the other way."""

    def lost(self, table_id: str) -> None:
        """The table's lease ran out: close its sockets, forget it."""

    async def adopt(self, table_id: str) -> None:
        """Take over a table in play that no process holds (its owner died)."""

    async def detach(self, conn: Conn) -> None:
        """A socket left (here: one relayed from a process that went away)."""

    async def serve_request(self, holder: str, op: str, a: list[Any],
                            done: Callable[[], None] | None = None) -> Any:
        """Run a request another process (``holder``) forwarded for a table held here.
        ``done``, if given, is called as soon as an act is stored and what it relays is
        posted, from the change's own task: its reply then goes in the same frame."""


class RemoteConn(Conn):
    """At the owner: a socket another process holds. Its own messages (its catch-up)
    are published to that process for it alone; the table's messages for all that
    process's sockets go once (``Cluster.fan``)."""

    def __init__(self, cluster: Cluster, holder: str, cid: str, table_id: str,
                 seat: int | None, token: str | None) -> None:
        super().__init__(table_id, seat, token, 0)
        self.cluster, self.holder, self.cid = cluster, holder, cid

    @property
    def relayed_to(self) -> str | None:
        return self.holder

    def send(self, text: str) -> None:
        if not self.closed:  # ``w``: a spectator's, which anyone may see
            kind = "w" if self.seat is None else "s"
            self.cluster.data(self.holder, kind, f"{self.cid} {text}")

    def joined(self) -> None:
        if not self.closed:
            self.cluster.data(self.holder, "o", self.cid)

    def close(self, code: int, reason: str, *, drop: bool = False) -> None:
        if self.closed:
            return
        self.closed, self.close_code, self.close_reason = True, code, reason
        self.cluster.remote.pop((self.holder, self.cid), None)
        self.cluster.post(self.holder, {"k": "close", "c": self.cid, "code": code,
                                        "reason": reason, "drop": drop})


@dataclass(eq=False)
class Link:
    """This process's way to one peer: what waits to go, the connection it goes by
    (made when first needed, again after it broke), and the deflate stream through it.

    Two queues: ``urgent`` (requests, replies, a new stream asked for, a cut), which
    goes first in every frame, and ``queue`` (relayed messages and the closes that
    follow them, in order), at most ``Cluster.backlog`` bytes of it (``queued``)."""

    queue: deque[str] = field(default_factory=deque)
    queued: int = 0  # the characters waiting in ``queue`` (texts are ASCII JSON)
    urgent: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.StreamWriter | None = None
    task: asyncio.Future[None] | None = None
    packer: Packer = field(default_factory=Packer)

    def waiting(self) -> bool:
        return bool(self.urgent or self.queue)

    def drop(self) -> None:
        """Close the connection (the next batch makes a new one)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None


@dataclass(eq=False)
class Waiting:
    """A request sent to ``owner``, waiting for its reply until ``end`` (loop time)."""

    owner: str
    future: asyncio.Future[Any]
    since: float
    end: float


@dataclass(eq=False)
class Relay:
    """At the holder: a socket of its own for a table another process owns."""

    conn: Conn
    owner: str
    on: bool = False  # on the table's list at the owner: takes the table's messages


class Cluster:
    """This process's part: its leases, its channel, its forwarded requests."""

    def __init__(self, url: str, log: Log, lease: float = 5.0,
                 last_ids: dict[str, str] | None = None, box: Box | None = None,
                 peer: str = "127.0.0.1:0", advertise: str | None = None,
                 backlog: int = 8 << 20) -> None:
        self.me = uuid.uuid4().hex[:12]
        # Bytes of relayed messages waiting for one peer before its relay is cut
        # (``Settings.link_backlog``).
        self.backlog = backlog
        self.url = url
        # Where this process's link listens, and the address it gives the others (that
        # of ``peer`` unless told: ``gnav serve --peer-advertise``; port 0 in either: the
        # port bound).
        self.peer, self.advertise = parse_address(peer), advertise
        self.address = ""
        # A Unix socket beside the TCP one, for peers on this machine (measured: a frame
        # written and read over loopback TCP cost 39 to 68 us of CPU, over a Unix
        # socket 29). Not when an address to advertise is given: whoever gave it chose
        # the way to this process (a proxy, or a tap that reads what crosses).
        self.local: str | None = None
        self._server: asyncio.Server | None = None
        self._local_server: asyncio.Server | None = None
        self._links: dict[str, Link] = {}  # to each peer: its queue and its connection
        self._inbound: dict[str, asyncio.StreamWriter] = {}  # from each peer: the latest
        self.box = Box(load_key()[0]) if box is None else box
        self.log = log
        self.lease = lease
        self.last_ids = {} if last_ids is None else last_ids  # the store's, shared
        self.hub: Host | None = None
        self.redis: aioredis.Redis | None = None
        self.owned: set[str] = set()
        self.remote: dict[tuple[str, str], RemoteConn] = {}
        self.relays: dict[str, Relay] = {}
        # The same relays by owner and table: where a table's message goes at once.
        self.watching: dict[tuple[str, str], dict[str, Relay]] = {}
        self._sent: dict[str, int] = {}  # numbers this process (an owner) gave, by holder
        self._unpackers: dict[str, Unpacker] = {}  # each owner's stream to this holder
        self._asked: dict[str, float] = {}  # when a new stream was last asked of an owner
        self._got: dict[str, int | None] = {}  # the last number taken (a holder), by owner
        self._pending: dict[int, Waiting] = {}  # requests sent, by id
        # One task looks after every request waiting (time limits, dead owners), not a
        # timer and a waiter each (measured: a forwarded act's wait was a third of the
        # holder's asyncio work for it).
        self._overseer: asyncio.Task[None] | None = None
        self._misses: dict[str, int] = {}  # owners' liveness keys missed in a row
        self._looked: dict[str, float] = {}  # when each owner's key was last looked at
        self.frames_sent = self.texts_sent = 0  # over the links (for /health)
        self.cuts = 0  # relays cut for a holder too far behind (for /health)
        self.queued_most = 0  # the most bytes that waited for one peer
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._chores: set[asyncio.Task[Any]] = set()
        self._suspects: set[str] = set()  # peers whose key was missing at the last check
        # Peers whose link refused a connection (or that say no address): gone, whatever
        # their liveness key says for the seconds it has left; by when they were found so.
        self._dead: dict[str, float] = {}
        # Requests answered lately, by sender and number: one sent again (a link that
        # broke after it was written) runs once.
        self._answered: OrderedDict[tuple[str, int], None] = OrderedDict()
        self._adrift: set[str] = set()  # relays whose table nobody held at the last check
        self._release: Any = None
        self._keeper: LeaseKeeper | None = None  # renews the leases, on its own thread

    # -- lifecycle -------------------------------------------------------------------

    async def start(self, hub: Host) -> None:
        self.hub = hub
        self.redis = connect(self.url, decode_responses=True, socket_connect_timeout=5.0,
                             health_check_interval=30, retry=retrying())
        self._release = self.redis.register_script(RELEASE)
        host, port = self.peer
        self._server = await asyncio.start_server(self._serve_link, host, port,
                                                  limit=1 << 16)
        bound = self._server.sockets[0].getsockname()[1]
        a_host, a_port = (host, 0) if self.advertise is None else \
            parse_address(self.advertise)
        self.address = join_address(a_host, a_port or bound)  # port 0: the one bound
        if self.advertise is None:
            await self._listen_locally()
        ms = int(self.lease * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(alive_key(self.me), self.address, px=ms)
            if self.local is not None:
                pipe.set(local_key(self.me), self.local, px=ms)
            await pipe.execute()
        loop = asyncio.get_running_loop()
        self._keeper = LeaseKeeper(self.url, self.me, self.lease, self.owned, self.last_ids,
                                   lambda t: loop.call_soon_threadsafe(self._lost, t),
                                   self.log, address=self.address, local=self.local)
        self._keeper.start()
        self._tasks = [loop.create_task(self._pulse_forever(self._keeper)),
                       loop.create_task(self._watch_forever())]
        await self.sweep()
        self.log.info("cluster.joined", process=self.me, lease=self.lease,
                      link=self.address)

    async def _listen_locally(self) -> None:
        """Listen on a Unix socket too, its path named for this process (never used
        again), readable and writable by this user alone (its frames are sealed
        all the same). A machine where none can be made has the TCP link alone."""
        path = os.path.join(tempfile.gettempdir(), f"gnav-link-{self.me}.sock")
        try:
            self._local_server = await asyncio.start_unix_server(
                self._serve_link, path, limit=1 << 16)
            os.chmod(path, 0o600)
        except (OSError, NotImplementedError) as e:
            self.log.warning("cluster.no_local_link", error=str(e).splitlines()[0]
                             if str(e) else type(e).__name__)
            return
        self.local = path

    def stop_renewing(self) -> None:
        """No lease is renewed from now on (the process is stopping: the leases it lets
        go must stay let go)."""
        if self._keeper is not None:
            self._keeper.signal()

    async def close(self, end: float | None = None) -> None:
        """Hand every table back at once (the hub has retired them), then stop: by the
        loop's time ``end`` whatever Redis is doing (a table whose lease could not be
        let go is taken over when it runs out)."""
        if self.redis is None:
            return
        loop = asyncio.get_running_loop()
        end = loop.time() + 5.0 if end is None else end

        def left(most: float) -> float:
            return max(0.05, min(most, end - loop.time()))

        self.stop_renewing()
        if self._chores:
            await asyncio.wait(set(self._chores), timeout=left(5.0))
        with contextlib.suppress(rerr.RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self.redis.delete(alive_key(self.me),
                                                     local_key(self.me)), left(1.0))
        for _ in range(50):  # what is queued (the last closes) goes out first
            if not any(link.waiting() for link in self._links.values()) \
                    or loop.time() >= end:
                break
            await asyncio.sleep(0.02)
        running = [*self._tasks, *self._chores,
                   *([self._overseer] if self._overseer is not None else []),
                   *(link.task for link in self._links.values() if link.task is not None)]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running, timeout=left(0.5))
        for link in self._links.values():
            link.drop()
        for writer in self._inbound.values():
            writer.close()
        if self._server is not None:
            self._server.close()
        if self._local_server is not None:
            self._local_server.close()
            if self.local is not None:
                with contextlib.suppress(OSError):
                    os.unlink(self.local)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), left(0.5))
        self.redis = None
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.stop, left(1.0))

    def _chore(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    def stats(self) -> dict[str, Any]:
        return {"process": self.me, "owned": len(self.owned), "relayed": len(self.relays),
                "remote": len(self.remote), "frames_sent": self.frames_sent,
                "texts_sent": self.texts_sent, "link_cuts": self.cuts,
                "link_queued": sum(link.queued for link in self._links.values()),
                "link_queued_most": self.queued_most}

    # -- the relay ------------------------------------------------------------------

    def data(self, holder: str, kind: str, rest: str) -> None:
        """Post a relayed message to ``holder``, numbered: its head is the kind (``s``
        one seat's socket's, ``w`` a spectator's, ``o`` a socket on the table's list,
        ``t`` a table's, ``T`` several of a table's), this process and the number, then
        ``rest``. Not a JSON
        envelope: a message's text goes as it is, so neither side encodes or parses it
        again."""
        n = self._sent.get(holder, 0) + 1
        self._sent[holder] = n
        self.post_text(holder, f"{kind}{self.me} {n} {rest}")

    def fan(self, holder: str, table_id: str, to: tuple[int | None, ...], text: str) -> None:
        """The table's message ``text`` for the seats ``to`` (None: spectators), once to
        ``holder`` for all its sockets there."""
        self.data(holder, "t", f"{table_id} {_seats(to)} {text}")

    def fan_all(self, holder: str, table_id: str,
                items: list[tuple[tuple[int | None, ...], str]]) -> None:
        """The table's messages of one change (each for its seats ``to``), to
        ``holder`` in as few relayed messages as can be: one (``T``) for each run of
        them that spectators may see or may not (``streams.public``: a seat's own view
        never crosses compressed beside theirs), its items ``SEATS<US>TEXT`` apart by
        ``<RS>`` (compact JSON writes no control character unescaped). Measured: a
        change at a 6-seat table sent three relayed messages to the other process, each
        a line written, numbered, read and split."""
        start = 0
        for i in range(1, len(items) + 1):
            if i < len(items) and (None in items[i][0]) == (None in items[start][0]):
                continue
            if i - start == 1:
                self.fan(holder, table_id, *items[start])
            else:
                self.data(holder, "T", f"{table_id} " + "\x1e".join(
                    f"{_seats(to)}\x1f{text}" for to, text in items[start:i]))
            start = i

    def _relayed(self, data: str) -> None:
        """A numbered message from an owner (``data``'s head: see ``data``)."""
        head, number, rest = data.split(" ", 2)
        kind, owner, n = head[0], head[1:], int(number)
        # An owner numbers from 1 for each holder (a process id is never used again);
        # None: this holder's channel was down, the count starts again at what comes.
        got = self._got.get(owner, 0)
        if got is not None and n <= got:  # published twice (retried after its reply was lost)
            return
        self._got[owner] = n
        if got is not None and n != got + 1:  # some went missing: catch up by reconnecting
            self._lose(owner)
            return
        if kind == "t":
            table_id, seats, text = rest.split(" ", 2)
            relays = self.watching.get((owner, table_id))
            if relays:
                to = _parse_seats(seats)
                for relay in relays.values():
                    if relay.on and relay.conn.seat in to:
                        relay.conn.send(text)  # one text for all: shared, not copied
            return
        if kind == "T":  # several of the table's messages (``fan_all``)
            table_id, items = rest.split(" ", 1)
            relays = self.watching.get((owner, table_id))
            if relays:
                for item in items.split("\x1e"):
                    seats, _, text = item.partition("\x1f")
                    to = _parse_seats(seats)
                    for relay in relays.values():
                        if relay.on and relay.conn.seat in to:
                            relay.conn.send(text)
            return
        cid, _, text = rest.partition(" ")  # "s", "w" or "o"
        one = self.relays.get(cid)
        if one is None or one.owner != owner:
            return
        if kind == "o":
            one.on = True
        else:
            one.conn.send(text)

    def _lose(self, owner: str, reason: str = "messages were lost between servers: "
              "reconnect with your last version") -> None:
        """Messages from ``owner`` were lost: its relayed sockets here reconnect."""
        for cid, relay in list(self.relays.items()):
            if relay.owner == owner:
                self.drop(cid)
                relay.conn.close(CLOSE_SLOW, reason)
                self._chore(self._forget(relay))

    def _cut(self, holder: str, link: Link) -> None:
        """What waits for ``holder`` passed the bound: let it go, and with it every
        socket relayed to ``holder`` (each leaves its table here, as a slow socket's
        close makes it leave, and the holder is told to close them all at once). What
        was let go was never compressed: the deflate stream goes on whole."""
        self.cuts += 1
        self.log.warning("cluster.link_cut", peer=holder, texts=len(link.queue),
                         bytes=link.queued, most=self.backlog)
        link.queue.clear()
        link.queued = 0
        for key, remote in list(self.remote.items()):
            if key[0] == holder:
                del self.remote[key]
                remote.closed, remote.close_code = True, CLOSE_SLOW
                remote.close_reason = CUT
                if self.hub is not None:
                    self._chore(self.hub.detach(remote))
        # Ahead of whatever is relayed from now on: the holder's count of this
        # process's numbers starts again there.
        self.post(holder, {"k": "cut", "from": self.me})

    # -- leases ----------------------------------------------------------------------

    async def claim(self, table_id: str) -> str | None:
        """Take the table's lease if nobody holds it; None if this process holds it
        now, else the live process that does. Waits out the lease of a dead one.

        :raises: :exc:`StoreFull` for a Redis at its ``maxmemory`` (a lease is a key).
        """
        try:
            return await self._claim(table_id)
        except rerr.ResponseError as e:
            if full(e):
                raise StoreFull(f"Redis is full (maxmemory, noeviction): no table can be "
                                f"taken on ({str(e).splitlines()[0]})") from None
            raise

    async def _claim(self, table_id: str) -> str | None:
        assert self.redis is not None
        key, ms = lease_key(table_id), int(self.lease * 1000)
        loop = asyncio.get_running_loop()
        end = loop.time() + self.lease * 2 + 1
        while True:
            if await self.redis.set(key, self.me, nx=True, px=ms):
                self.owned.add(table_id)
                return None
            got = await self.redis.get(key)
            holder = None if got is None else str(got)
            if holder == self.me:  # ours already (a table let go of and asked for again)
                self.owned.add(table_id)
                return None
            if holder is not None and self._gone_now(holder):
                # Its link refuses: the process is gone, and its lease goes now rather
                # than when it runs out (measured: a kill under load left tables without
                # an owner for 15 s, clients backing off meanwhile). Were it alive after
                # all, the journal's fence refuses its next write, and it lets the table go.
                await self._release(keys=[key], args=[holder])
                continue
            if holder is not None and await self.redis.exists(alive_key(holder)):
                return holder
            if loop.time() > end:  # pragma: no cover - a lease that never runs out
                raise Unanswered(f"the lease of table {table_id} is held by a process "
                                 f"that is gone, and does not run out")
            await asyncio.sleep(0.05 + random.random() * 0.1)

    async def alive(self, process: str) -> bool:
        """Whether ``process`` still says it is alive (it renews that with its leases),
        and its link did not refuse us since."""
        assert self.redis is not None
        if self._gone_now(process):
            return False
        try:
            # Not for as long as the client would retry: a socket waits on the answer.
            return bool(await asyncio.wait_for(self.redis.exists(alive_key(process)), 1.0))
        except (rerr.RedisError, OSError, TimeoutError):
            return True  # cannot tell: as if it were

    def _gone_now(self, process: str) -> bool:
        found = self._dead.get(process)
        return found is not None and time.monotonic() - found < DEAD_FOR

    def _found_gone(self, peer: str) -> None:
        """``peer``'s link refused a connection: the process is gone (a live one listens
        as long as it runs). Requests waiting on it are answered now: the table is taken
        over by asking again."""
        self._dead[peer] = time.monotonic()
        for waiting in self._pending.values():
            if waiting.owner == peer and not waiting.future.done():
                waiting.future.set_exception(Unanswered("the server that held this table "
                                                        "is gone"))

    def release(self, table_id: str) -> None:
        """Let the table go (it left this process's memory): another may take it."""
        if table_id in self.owned:
            self.owned.discard(table_id)
            self._chore(self._drop_lease(table_id))

    async def _drop_lease(self, table_id: str) -> None:
        with contextlib.suppress(rerr.RedisError, OSError):
            await self._release(keys=[lease_key(table_id)], args=[self.me])

    @staticmethod
    async def _pulse_forever(keeper: LeaseKeeper) -> None:
        """Tell the lease keeper the loop is alive, every beat (it stops renewing the
        leases of a loop that has hung)."""
        while True:
            keeper.pulse()
            await asyncio.sleep(keeper.beat)

    def _lost(self, table_id: str) -> None:
        """The lease keeper found the table's lease lost: give the table up."""
        assert self.hub is not None
        if table_id in self.owned:
            self.owned.discard(table_id)
            self.log.warning("cluster.lease_lost", table_id)
            self.hub.lost(table_id)

    async def _watch_forever(self) -> None:
        """Notice owners and holders that died (every beat), relays whose table moved
        and unowned tables in play (every half lease)."""
        beat = min(1.0, self.lease / 3)
        last_sweep = 0.0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(beat)
            try:
                await self._check_peers()
                if loop.time() - last_sweep >= self.lease / 2:
                    last_sweep = loop.time()
                    await self._check_relays()
                    await self.sweep()
            except (rerr.RedisError, OSError) as e:
                self.log.warning("cluster.watch_failed", error=str(e).splitlines()[0]
                                 if str(e) else type(e).__name__)
            except Exception:
                self.log.error("cluster.watch_failed", exc=True)

    async def _check_peers(self) -> None:
        """Sockets relayed from a dead owner are closed (their clients reconnect, and
        the table is taken over); seats relayed to this owner by a dead holder leave."""
        assert self.redis is not None and self.hub is not None
        # (From the relayed tables, not every relayed socket; and the sockets are gone
        # through only when a peer died: measured, these loops over thousands of
        # sockets every beat were 1% of a server's CPU at 1,000 tables.)
        peers = sorted({owner for owner, _ in self.watching} |
                       {holder for holder, _ in self.remote})
        if not peers:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for peer in peers:
                pipe.exists(alive_key(peer))
            alive = await pipe.execute()
        # Dead when missed at two checks in a row: a Redis that stalled (an fsync on a
        # busy disk) lets a live process's key lapse for a moment (measured: 150 sockets
        # of a live process closed at once on the shared machine).
        missing = {peer for peer, up in zip(peers, alive, strict=True) if not up}
        dead, self._suspects = missing & self._suspects, missing
        dead |= {peer for peer in peers if self._gone_now(peer)}
        if not dead:
            return
        for cid, relay in list(self.relays.items()):
            if relay.owner in dead:
                self.drop(cid)
                relay.conn.close(CLOSE_GOING_AWAY, "the server that held this table is "
                                 "gone: reconnect")
        for peer in dead:  # a process id is never used again
            for state in (self._sent, self._got, self._unpackers, self._asked):
                state.pop(peer, None)
            link = self._links.pop(peer, None)
            if link is not None:
                link.drop()
                if link.task is not None:
                    link.task.cancel()
        for key, conn in list(self.remote.items()):
            if key[0] in dead:
                self.remote.pop(key, None)
                conn.closed = True
                self._chore(self.hub.detach(conn))

    async def _check_relays(self) -> None:
        """Sockets relayed to an owner that no longer holds their table are closed (their
        clients reconnect, and find the table where it is now). The owner closes them
        itself when it lets a table go, but that message is lost if the link is down
        then: an owner that lost its leases while Redis was away, and another process
        that took its tables over as Redis came back (measured: relayed sockets left
        open to the old owner, their clients waiting for updates that never came)."""
        assert self.redis is not None
        pairs = list(self.watching)
        moved: list[tuple[str, str, str | None]] = []
        for i in range(0, len(pairs), 500):
            chunk = pairs[i:i + 500]
            # (The script's text each time, as the sweep's.)
            got = await self.redis.eval(MOVED, len(chunk),
                                        *(lease_key(t) for _, t in chunk),
                                        *(owner for owner, _ in chunk))
            moved += [(*chunk[int(got[j]) - 1], str(got[j + 1]) or None)
                      for j in range(0, len(got), 2)]
        adrift: set[str] = set()
        for owner, table_id, holder in moved:  # (its sockets: only if it moved)
            relays = self.watching.get((owner, table_id))
            if not relays:
                continue
            for cid, relay in list(relays.items()):
                if holder is None and cid not in self._adrift:
                    adrift.add(cid)  # nobody holds it: its owner may take it back yet
                    continue
                self.drop(cid)
                relay.conn.close(CLOSE_GOING_AWAY, "this table moved to another server: "
                                 "reconnect")
        self._adrift = adrift

    async def sweep(self) -> None:
        """Take over tables in play that nobody owns (their owner died): their timers
        must run somewhere."""
        assert self.redis is not None and self.hub is not None
        hub = self.hub
        # (The script's text each time, as the lease keeper's: a restarted Redis has
        # forgotten scripts.)
        found = await self.redis.eval(ORPHANS, 1, OPEN, PREFIX, TablePhase.PLAYING.value)
        orphans = [str(t) for t in found if str(t) not in self.owned]
        random.shuffle(orphans)  # processes sweeping at once take different ones first
        for table_id in orphans:
            self._chore(hub.adopt(table_id))

    # -- messages between processes ----------------------------------------------------

    def post(self, process: str, message: dict[str, Any], *, urgent: bool | None = None
             ) -> None:
        """Send to ``process``: a request, a reply (``URGENT``, unless ``urgent`` says
        otherwise) after the others posted to it before, ahead of relayed messages;
        anything else after everything."""
        if urgent is None:
            urgent = message["k"] in URGENT
        self.post_text(process, dumps(message), urgent=urgent)

    def post_text(self, process: str, text: str, *, urgent: bool = False) -> None:
        """Queue ``text`` for ``process``. A relayed text that would take what waits
        for it past ``backlog`` bytes cuts its relay instead (``_cut``), itself
        included: the holder's sockets it was for are closed."""
        link = self._links.get(process)
        if link is None:
            link = self._links[process] = Link()
        if urgent:
            link.urgent.append(text)
        elif link.queued + len(text) > self.backlog and link.queued:
            self._cut(process, link)
        else:
            link.queue.append(text)
            link.queued += len(text)
            self.queued_most = max(self.queued_most, link.queued)
        link.wake.set()
        if link.task is None:
            link.task = asyncio.ensure_future(self._send_forever(process, link))

    async def _send_forever(self, peer: str, link: Link) -> None:
        """Write what is posted to ``peer``: what waits goes in one frame, its texts one
        a line (compact JSON has no line break, and neither has a relayed message's
        head), in the order posted. Each peer has a task of its own: a peer that reads
        slowly holds up nothing sent to the others."""
        place = channel(peer).encode()
        while True:
            await link.wake.wait()
            # What this loop turn and the next post goes in the same frame (the changes
            # that one reply from Redis let go, a forwarded act's views and its reply),
            # not a frame each: a write here and a wake-up, a read and an open there.
            for _ in range(COALESCE_TURNS):
                await asyncio.sleep(0)
            link.wake.clear()
            while link.waiting():
                batch: list[str] = []
                size = 0
                while len(batch) < 1000 and size < BATCH_BYTES:
                    if link.urgent:  # requests and replies first
                        text = link.urgent.popleft()
                    elif link.queue:
                        text = link.queue.popleft()
                        link.queued -= len(text)
                    else:
                        break
                    batch.append(text)
                    size += len(text)
                try:
                    writer = link.writer
                    if writer is None or writer.is_closing():
                        writer = link.writer = await self._connect(peer)
                        link.packer.reset()  # a new connection: a new stream
                    payload = self.me.encode() + b" " + link.packer.pack(batch)
                    writer.write(frame(self.box.seal(payload, place)))
                    self.frames_sent += 1
                    self.texts_sent += len(batch)
                    if writer.transport.get_write_buffer_size():
                        # Only a peer that reads slowly is waited for (wait_for makes a
                        # task: a write the kernel took whole needs none).
                        await asyncio.wait_for(writer.drain(), 10.0)
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # (this task must outlive any one failure)
                    # What was written may be lost: a holder would see the gap in the
                    # numbers only at the next message, which may never come. Every
                    # socket relayed to it is closed now (to catch up by reconnecting),
                    # and every request waiting on it is answered at once.
                    self.log.warning("cluster.send_failed", peer=peer, count=len(batch),
                                     error=str(e).splitlines()[0] if str(e)
                                     else type(e).__name__)
                    link.drop()
                    self._broken(peer)
                    if isinstance(e, (ConnectionRefusedError, PeerGone)):
                        self._found_gone(peer)

    async def _connect(self, peer: str) -> asyncio.StreamWriter:
        """A new connection to ``peer``'s link, at the address its liveness key gives.

        :raises: :exc:`PeerGone`, :exc:`OSError` or :exc:`TimeoutError`.
        """
        assert self.redis is not None
        address, local = await asyncio.wait_for(
            self.redis.mget(alive_key(peer), local_key(peer)), 5.0)
        if address is None:
            raise PeerGone(f"process {peer} says it is alive nowhere")
        try:
            host, port = parse_address(str(address), "a peer's address")
        except GnavError as e:
            raise PeerGone(str(e)) from None
        if local is not None:
            # Its Unix socket, if it is on this machine (elsewhere the path is not
            # there); whatever fails here, its TCP address says whether it is gone.
            with contextlib.suppress(OSError, TimeoutError):
                _, writer = await asyncio.wait_for(
                    asyncio.open_unix_connection(str(local)), 5.0)
                return writer
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 5.0)
        return writer

    def _broken(self, peer: str) -> None:
        """A link to or from ``peer`` broke: what was in flight either way is lost. The
        sockets relayed between the two close (their clients reconnect with their
        version). A request waiting on ``peer`` waits on (``_oversee``): a peer that died
        is given up once its liveness key is gone, and one that lives may still answer
        over a new link (a connection refused while the key stands is no proof of death:
        answered at once, a hello to a table whose owner had just been killed got "busy"
        where it should have waited to take the table over)."""
        for key, remote in list(self.remote.items()):
            if key[0] == peer:
                remote.close(CLOSE_SLOW, "messages were lost between servers: "
                             "reconnect with your last version")
        self._lose(peer)
        self._got[peer] = None  # its count starts again at what comes next

    async def _serve_link(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        """A connection from a peer: its frames, in order, until it ends. A frame that
        does not open with the servers' key for this process ends it (a stranger, or a
        server with another key)."""
        mine = channel(self.me).encode()
        sender: str | None = None
        unpacker = Unpacker()
        try:
            while True:
                wait = FIRST_FRAME if sender is None else None
                sealed = await asyncio.wait_for(read_frame(reader), wait)
                if sealed is None:
                    break
                try:
                    who, _, payload = self.box.open(sealed, mine).partition(b" ")
                except Unsealable:
                    self.log.warning("cluster.unsealable", note="a link whose frames this "
                                     "server's key does not open: every server needs the "
                                     "same key")
                    break
                if sender is None:  # a new link from this peer: a new stream, a new count
                    sender = who.decode()
                    self._dead.pop(sender, None)  # it lives after all
                    old = self._inbound.get(sender)
                    if old is not None:
                        old.close()
                    self._inbound[sender] = writer
                    self._unpackers[sender] = unpacker
                    self._got[sender] = None
                elif who.decode() != sender:
                    break
                self._dispatch(self._unpack(sender, payload))
        except asyncio.CancelledError:
            raise
        except (OSError, ValueError, TimeoutError, asyncio.IncompleteReadError) as e:
            self.log.warning("cluster.link_failed", peer=sender,
                             error=str(e).splitlines()[0] if str(e) else type(e).__name__)
        finally:
            writer.close()
            if sender is not None and self._inbound.get(sender) is writer:
                del self._inbound[sender]
                if self.redis is not None:  # (not while this process stops)
                    self._broken(sender)

    def _dispatch(self, lines: list[str]) -> None:
        for data in lines:  # _send_forever's lines
            try:
                head = data[:1]
                if head in ("s", "w", "o", "t", "T"):  # relayed: ``data``'s head
                    self._relayed(data)
                elif head == "a":  # a forwarded act (``call``)
                    sender, n, version, cid, action = data[1:].split(" ", 4)
                    self._take({"k": "req", "id": int(n), "from": sender, "op": "act",
                                "a": [cid, action, int(version)]})
                elif head == "r":  # a request done, with nothing to say (``_answer``)
                    self._take({"k": "rep", "id": int(data[1:])})
                else:
                    self._take(json.loads(data))
            except Exception:
                self.log.error("cluster.bad_message", exc=True)

    def _unpack(self, owner: str, payload: bytes) -> list[str]:
        """The lines of ``owner``'s payload that can be read. A chunk of its stream
        missed: what it relays here reconnects, and a new stream is asked of it (again
        at most once a second, while its chunks keep coming unreadable)."""
        unpacker = self._unpackers.get(owner)
        if unpacker is None:  # (not setdefault: an inflater made for nothing each time)
            unpacker = self._unpackers[owner] = Unpacker()
        try:
            lines, missed = unpacker.unpack(payload)
        except ValueError as e:
            self.log.error("cluster.bad_message", error=str(e))
            return []
        if missed:
            self._lose(owner)
            now = time.monotonic()
            if now - self._asked.get(owner, -10.0) >= 1.0:
                self._asked[owner] = now
                self.post(owner, {"k": "reset", "from": self.me, "epoch": unpacker.epoch})
        return lines

    def _take(self, m: dict[str, Any]) -> None:
        kind = m["k"]
        if kind == "close":
            relay = self.drop(m["c"])
            if relay is not None:
                relay.conn.close(int(m["code"]), str(m["reason"]), drop=bool(m["drop"]))
        elif kind == "cut":  # this holder fell too far behind the owner: catch up
            owner = str(m["from"])
            self._lose(owner, CUT)
            self._got[owner] = None  # what it relays from now on is numbered on
        elif kind == "reset":  # a holder missed a chunk of the stream to it: a new one
            link = self._links.get(str(m["from"]))
            if link is not None and link.packer.epoch == int(m["epoch"]):
                link.packer.reset()
        elif kind == "rep":
            waiting = self._pending.get(m["id"])
            if waiting is not None and not waiting.future.done():
                waiting.future.set_result(m)
        elif kind == "req":
            key = (str(m["from"]), int(m["id"]))
            if key in self._answered:
                return
            self._answered[key] = None
            while len(self._answered) > 10_000:
                self._answered.popitem(last=False)
            self._chore(self._answer(m))

    async def call(self, owner: str, op: str, args: list[Any], timeout: float = 10.0
                   ) -> Any:
        """Ask ``owner`` to run ``op``; its answer, or its refusal raised here. Given up
        after ``timeout``, or sooner once the owner is found dead (``_oversee``)."""
        n = next(self._ids)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        now = loop.time()
        self._pending[n] = Waiting(owner, future, now, now + timeout)
        if op == "act":
            # The request of every act a relayed seat makes, as a line of its own
            # (``_dispatch``), not JSON written here and parsed there.
            cid, action, version = args
            self.post_text(owner, f"a{self.me} {n} {int(version)} {cid} {action}",
                           urgent=True)
        else:
            self.post(owner, {"k": "req", "id": n, "from": self.me, "op": op, "a": args})
        if self._overseer is None or self._overseer.done():
            self._overseer = loop.create_task(self._oversee())
        try:
            reply = await future
        except TimeoutError:
            raise Unanswered(f"{op}: the server that holds this table did not answer"
                             ) from None
        finally:
            self._pending.pop(n, None)
        error = reply.get("e")
        if error is None:
            return reply.get("r")
        if error == "refused":
            raise Refused(Code(reply["code"]), reply["reason"])
        if error == "elsewhere":
            raise Elsewhere(reply["owner"])
        raise Fault(reply["reason"], Code(reply["code"]))

    async def _oversee(self) -> None:
        """While requests wait for replies: each whose time is up fails, and those to an
        owner that no longer says it is alive fail once its liveness key has been gone
        at two looks in a row (within about 3 s of its death), not after their whole
        time (measured: clients that came back to the survivor of a SIGKILL waited 10 s
        on the dead owner before the table was taken over). An owner is looked at once
        a second at most, whatever the number of requests waiting on it."""
        loop = asyncio.get_running_loop()
        while self._pending and self.redis is not None:
            await asyncio.sleep(REPLY_TICK)
            now = loop.time()
            slow: set[str] = set()
            for waiting in list(self._pending.values()):
                if waiting.future.done():
                    continue
                if now >= waiting.end:
                    waiting.future.set_exception(TimeoutError())
                elif now - waiting.since >= REPLY_LOOK:
                    slow.add(waiting.owner)
            for owner in slow:
                if now - self._looked.get(owner, -REPLY_LOOK) < REPLY_LOOK:
                    continue
                self._looked[owner] = now
                if await self.alive(owner):
                    self._misses.pop(owner, None)
                    continue
                # Not a key that lapsed for a moment (a Redis stall): two looks.
                self._misses[owner] = missed = self._misses.get(owner, 0) + 1
                if missed < 2:
                    continue
                for waiting in list(self._pending.values()):
                    if waiting.owner == owner and not waiting.future.done():
                        waiting.future.set_exception(TimeoutError())
        self._misses.clear()
        self._looked.clear()

    async def _answer(self, m: dict[str, Any]) -> None:
        assert self.hub is not None
        reply: dict[str, Any] = {"k": "rep", "id": m["id"]}
        replied = False

        def done() -> None:
            # An act stored, its views posted: its reply posted in the same loop turn,
            # so that one frame carries both. (Posted below, once the change's task and
            # then this one had ended, it came two turns after its views.)
            nonlocal replied
            if not replied:
                replied = True
                self.post_text(m["from"], f"r{m['id']}", urgent=True)

        try:
            reply["r"] = await self.hub.serve_request(m["from"], m["op"], m["a"], done)
        except Refused as e:
            reply |= {"e": "refused", "code": e.code, "reason": str(e)}
        except Elsewhere as e:
            reply |= {"e": "elsewhere", "owner": e.owner}
        except Fault as e:
            reply |= {"e": "fault", "code": e.code, "reason": str(e)}
        except Unanswered as e:
            reply |= {"e": "fault", "code": Code.BUSY, "reason": str(e)}
        except Exception:
            self.log.error("cluster.request_failed", op=m.get("op"), exc=True)
            reply |= {"e": "fault", "code": Code.INTERNAL,
                      "reason": "the server hit an internal error; nothing was changed"}
        # A socket's act refused because the owner let that socket go follows the close
        # it was sent (which says why: another socket took the seat, the host freed it):
        # ahead of it, the holder would close the socket as if the close had been lost.
        if "e" not in reply and reply["r"] is None:  # done (an act): the short line
            done()
            return
        if replied:  # (a failure after the act was stored and answered: told already)
            return
        self.post(m["from"], reply, urgent=reply.get("code") != Code.CLOSED)

    # -- relayed sockets ---------------------------------------------------------------

    def relay(self, owner: str, conn: Conn) -> str:
        """Make ``conn`` (a socket of this process) a relay of ``owner``'s table."""
        conn.via, conn.cid = owner, uuid.uuid4().hex[:16]
        relay = self.relays[conn.cid] = Relay(conn, owner)
        self.watching.setdefault((owner, conn.table_id), {})[conn.cid] = relay
        return conn.cid

    def drop(self, cid: str) -> Relay | None:
        """Forget the relay ``cid`` here (the owner is not told: ``unrelay``)."""
        relay = self.relays.pop(cid, None)
        if relay is not None:
            key = (relay.owner, relay.conn.table_id)
            relays = self.watching.get(key)
            if relays is not None:
                relays.pop(cid, None)
                if not relays:
                    del self.watching[key]
        return relay

    def unrelay(self, conn: Conn) -> None:
        relay = self.drop(conn.cid)
        if relay is not None:
            self._chore(self._forget(relay))

    async def _forget(self, relay: Relay) -> None:
        with contextlib.suppress(Exception):
            await self.call(relay.owner, "detach", [relay.conn.cid], timeout=5.0)
