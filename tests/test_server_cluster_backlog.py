"""What waits in an owner for a holder that falls behind (``gnav.server.cluster``,
``Settings.link_backlog``): bounded in bytes, the holder's relay cut past the bound as a
slow socket is cut, and replies to forwarded requests ahead of relayed messages.

Two processes' clusters on a real Redis, linked for real; the holder "falls behind" by
not reading its link at all (its transport paused), which fills the kernel's buffers,
then the owner's transport, then the owner's queue.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from typing import Any

import pytest

from gnav.errors import Code
from gnav.names import Name
from gnav.server.cluster import CUT, Cluster, Link, RemoteConn
from gnav.server.conn import Conn
from gnav.server.hub import Hub
from gnav.server.logs import Log
from gnav.server.redis_store import RedisStore
from gnav.server.sealing import Box, new_key
from gnav.server.security import invite_code
from gnav.server.settings import Settings
from gnav.server.wire import CLOSE_REPLACED, CLOSE_SLOW
from gnav.table import Refused, TableConfig
from test_server_cluster import _Tables, soon

BOUND = 64 << 10


class Tables(_Tables):
    """A hub that answers every forwarded request and notes the sockets that left."""

    def __init__(self) -> None:
        self.detached: list[Conn] = []

    async def detach(self, conn: Conn) -> None:
        self.detached.append(conn)

    async def serve_request(self, holder: str, op: str, a: list[Any],
                            done: Callable[[], None] | None = None) -> Any:
        return ["answered", op]


async def started(redis_url: str, names: int, backlog: int) -> list[tuple[Cluster, Tables]]:
    box = Box(new_key())
    out = []
    for _ in range(names):
        cluster, tables = Cluster(redis_url, Log(), box=box, backlog=backlog), Tables()
        await cluster.start(tables)
        out.append((cluster, tables))
    return out


async def relayed(owner: Cluster, holder: Cluster, seat: int | None) -> tuple[Conn, RemoteConn]:
    """A socket at ``holder`` (its own backlog too big to matter here) relayed to
    ``owner``'s table, on its list there."""
    conn = Conn("tableid1", seat, None if seat is None else "token", 1 << 30)
    cid = holder.relay(owner.me, conn)
    remote = RemoteConn(owner, holder.me, cid, "tableid1", seat, conn.token)
    owner.remote[(holder.me, cid)] = remote
    remote.joined()
    assert await soon(lambda: holder.relays[cid].on)
    return conn, remote


def pause(holder: Cluster, owner: Cluster) -> asyncio.Transport:
    """The holder stops reading what ``owner`` sends it (resumed by the caller)."""
    transport = holder._inbound[owner.me].transport
    assert isinstance(transport, asyncio.Transport)
    transport.pause_reading()
    return transport


async def flood(owner: Cluster, holder: Cluster, link: Link, until: Any) -> int:
    """Spectators' updates (random, so the deflate stream cannot shrink them away) for
    ``holder``, one a loop turn, until ``until()``: how many were posted. What
    waits never passes the bound by more than the one text that tripped it."""
    posted = 0
    while not until():
        assert posted < 40_000, "the owner's queue never filled"
        text = os.urandom(2048).hex()
        owner.fan(holder.me, "tableid1", (None, 0), text)
        posted += 1
        assert link.queued <= owner.backlog + len(text) + 100
        assert owner.queued_most <= owner.backlog + len(text) + 100
        await asyncio.sleep(0)  # the sender writes what it can
    return posted


def test_a_holder_that_does_not_read_is_cut_at_the_bound(redis_url: str) -> None:
    """The owner keeps at most ``backlog`` bytes for a holder that does not read; past
    it, it lets them go and cuts the relay to that holder: the sockets relayed there
    leave their tables here, no other holder's; once the holder reads again it closes
    them as slow ones (their clients reconnect with their version); a hello through it
    afterwards is answered, and its new socket takes what the owner sends it (the count
    of the owner's numbers starts again: the texts let go are no gap)."""
    async def go() -> None:
        (owner, tables), (holder, _), (third, _) = await started(redis_url, 3, BOUND)
        spectator, spectator_there = await relayed(owner, holder, None)
        seat, seat_there = await relayed(owner, holder, 0)
        _, elsewhere = await relayed(owner, third, None)
        link = owner._links[holder.me]
        transport = pause(holder, owner)
        frames = owner.frames_sent
        posted = await flood(owner, holder, link, lambda: owner.cuts > 0)
        # (the buffers on the way took the first ones: the queue filled behind them)
        assert owner.frames_sent > frames and posted > BOUND // 4096
        assert owner.cuts == 1 and link.queued == 0 and len(link.urgent) == 1
        assert spectator_there.closed and seat_there.closed
        assert spectator_there.close_code == CLOSE_SLOW
        assert (holder.me, spectator.cid) not in owner.remote
        assert (holder.me, seat.cid) not in owner.remote
        assert await soon(lambda: len(tables.detached) == 2)
        assert {id(c) for c in tables.detached} == {id(spectator_there), id(seat_there)}
        assert not elsewhere.closed  # its holder reads: nothing of it was cut
        assert owner.stats()["link_cuts"] == 1

        transport.resume_reading()
        assert await soon(lambda: spectator.closed and seat.closed)
        for conn in (spectator, seat):
            assert (conn.close_code, conn.close_reason) == (CLOSE_SLOW, CUT)
        assert not holder.relays

        again = Conn("tableid1", None, None, 1 << 20)
        cid = holder.relay(owner.me, again)
        assert await holder.call(owner.me, "attach", ["tableid1", None, None, None, cid],
                                 timeout=60.0) == ["answered", "attach"]
        owner.data(holder.me, "w", f"{cid} its catch-up")
        owner.data(holder.me, "o", cid)
        assert await soon(lambda: holder.relays[cid].on)
        assert not again.closed and again.queue.get_nowait() == "its catch-up"
        for cluster in (owner, holder, third):
            await cluster.close()

    asyncio.run(go())


def test_a_reply_goes_ahead_of_the_spectators_updates_waiting(redis_url: str) -> None:
    """A forwarded request's reply (a hello's answer) does not wait behind what waits
    for its holder: it crosses in the next frame, before the relayed messages queued
    before it."""
    async def go() -> None:
        (owner, _), (holder, _) = await started(redis_url, 2, 8 << 20)
        spectator, _ = await relayed(owner, holder, None)
        link = owner._links[holder.me]
        order: list[str] = []
        relay, take = holder._relayed, holder._take

        def relayed_noted(data: str) -> None:
            order.append("data")
            relay(data)

        def take_noted(m: dict[str, Any]) -> None:
            order.append(m["k"])
            take(m)

        holder._relayed = relayed_noted  # type: ignore[method-assign]
        holder._take = take_noted  # type: ignore[method-assign]
        transport = pause(holder, owner)
        await flood(owner, holder, link, lambda: link.queued > 256 << 10)
        waiting = link.queued
        hello = asyncio.ensure_future(holder.call(owner.me, "attach", [], timeout=60.0))
        assert await soon(lambda: bool(link.urgent))  # the reply, at the owner
        assert link.queued == waiting  # (nothing of it went meanwhile)
        transport.resume_reading()
        assert await asyncio.wait_for(hello, 60.0) == ["answered", "attach"]
        assert "rep" in order
        behind = order[order.index("rep"):].count("data")
        assert behind * 4096 >= waiting - 8192  # all that waited came after the reply
        assert owner.cuts == 0 and not spectator.closed
        for cluster in (owner, holder):
            await cluster.close()

    asyncio.run(go())


async def hub_on(redis_url: str, backlog: int) -> Hub:
    """A process's hub on the shared Redis with the servers' key (as
    ``gnav.server.app`` makes one), open."""
    store = RedisStore(redis_url)
    store.check()
    cluster = Cluster(store.url, Log(), 5.0, store.last_ids, store.box, backlog=backlog)
    hub = Hub(store, Settings(link_backlog=backlog), Log(), cluster=cluster)
    await hub.open()
    return hub


def test_a_tables_player_is_unaffected_by_a_holder_cut(redis_url: str) -> None:
    """Two hubs: a table's person on its owner, spectators on the other process, which
    stops reading its link. The owner cuts that process's relay at the bound: the
    spectators leave the table at the owner (its connections are the person's alone),
    the person's socket stays open and takes the table's messages; once the holder reads
    again its spectators close as slow ones, and a spectator's hello through it is
    answered with the table, and what the table says next reaches it."""
    async def go() -> None:
        owner, holder = [await hub_on(redis_url, BOUND) for _ in range(2)]
        assert owner.cluster is not None and holder.cluster is not None
        table, _ = await owner.create(TableConfig(seats=2))
        seat, token, _ = await owner.join(table.id, Name("Person"), invite_code(table.host))
        person = await owner.attach(table.id, seat, token, None)
        watchers = [await holder.attach(table.id, None, None, None) for _ in range(3)]
        assert all(w.via == owner.cluster.me for w in watchers)
        live = owner._tables[table.id]
        assert await soon(lambda: len(live.conns) == 4)
        link = owner.cluster._links[holder.cluster.me]
        transport = pause(holder.cluster, owner.cluster)

        def spectators_only() -> None:
            owner._deliver(live, [((None,), os.urandom(2048).hex())])

        posted = 0
        while not owner.cluster.cuts:
            assert posted < 40_000, "the owner's queue never filled"
            spectators_only()
            posted += 1
            assert link.queued <= BOUND + 4200
            await asyncio.sleep(0)
        assert await soon(lambda: live.conns == [person])
        assert not person.closed
        owner._deliver(live, [((seat, None), "news for all")])
        texts = [person.queue.get_nowait() for _ in range(person.queue.qsize())]
        assert texts[-1] == "news for all"

        transport.resume_reading()
        assert await soon(lambda: all(w.closed for w in watchers))
        assert {(w.close_code, w.close_reason) for w in watchers} == {(CLOSE_SLOW, CUT)}
        again = await holder.attach(table.id, None, None, None)
        assert await soon(lambda: again.queue.qsize() > 0)
        catch_up = json.loads(again.queue.get_nowait() or "")
        assert catch_up["table"]["id"] == table.id
        assert await soon(lambda: len(live.conns) == 2)
        owner._deliver(live, [((seat, None), "news again")])
        assert await soon(lambda: again.queue.qsize() > 0)
        assert again.queue.get_nowait() == "news again" and not again.closed
        for hub in (holder, owner):
            await hub.close()

    asyncio.run(go())


def test_an_act_refused_for_a_closed_socket_follows_its_close(redis_url: str) -> None:
    """The one reply that does not go ahead: an act refused because the owner let its
    socket go (another socket took the seat) follows that socket's close, which says
    why; ahead of it, the holder would close the socket as if its close had been lost
    (and its client would reconnect and take the seat back)."""
    class Closed(Tables):
        async def serve_request(self, holder: str, op: str, a: list[Any],
                            done: Callable[[], None] | None = None) -> Any:
            raise Refused(Code.CLOSED, "this connection no longer holds its seat")

    async def go() -> None:
        box = Box(new_key())
        owner, holder = Cluster(redis_url, Log(), box=box), Cluster(redis_url, Log(), box=box)
        await owner.start(Closed())
        await holder.start(Tables())
        seat, seat_there = await relayed(owner, holder, 0)
        link = owner._links[holder.me]
        order: list[str] = []
        take = holder._take

        def take_noted(m: dict[str, Any]) -> None:
            order.append(m["k"])
            take(m)

        holder._take = take_noted  # type: ignore[method-assign]
        transport = pause(holder, owner)
        await flood(owner, holder, link, lambda: link.queued > 256 << 10)
        seat_there.close(CLOSE_REPLACED, "another connection took this seat")
        act = asyncio.ensure_future(holder.call(owner.me, "act", [seat.cid, "x", 1],
                                                timeout=60.0))
        assert await soon(lambda: bool(link.queue) and link.queue[-1].startswith(
            '{"k":"rep"'))  # behind the close, not ahead of what waits
        transport.resume_reading()
        with pytest.raises(Refused):
            await asyncio.wait_for(act, 60.0)
        assert order.index("close") < order.index("rep")
        assert (seat.close_code, seat.closed) == (CLOSE_REPLACED, True)
        for cluster in (owner, holder):
            await cluster.close()

    asyncio.run(go())
