"""The live tables: one lock per table, the journal stored before anyone is told, the
messages delivered to each connection, and a timer per table.

Every change to a table runs the same way (``_change``): under the table's lock, the
table method runs (in a worker thread: bots may think for a while), its journal is
committed to the store, and only then are its messages queued to the connections. A
change runs to its end even if whoever asked for it goes away, so the table in memory
never gets ahead of its journal.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gnav.server.conn import Conn
from gnav.server.logs import Log
from gnav.server.security import check_invite, new_table_id, valid_table_id
from gnav.server.settings import Settings
from gnav.server.store import Entry, Store, StoreError
from gnav.server.wire import (
    CLOSE_GOING_AWAY,
    CLOSE_REMOVED,
    CLOSE_REPLACED,
    CLOSE_SERVER_ERROR,
    dumps,
    encode,
)
from gnav.table import Refused, Table, TableConfig
from gnav.table.table import FINISHED, Result, check_token

T = TypeVar("T")
Change = Callable[[Table, float], tuple[T, Result]]


class Fault(Exception):
    """The server, not the request, went wrong (a bug, a failing disk)."""


@dataclass(eq=False)
class Live:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # the deadline may have moved
    conns: list[Conn] = field(default_factory=list)
    timer: asyncio.Task[None] | None = None
    gone: bool = False  # retired: a newer Live (or none) holds this table now


def summary(table: Table) -> Entry:
    """The table's line in the lobby."""
    return {"id": table.id, "phase": table.phase, "listed": table.config.listed,
            "created": table.created, "preset": table.config.preset,
            "seats": len(table.seats),
            "open": sum(1 for s in table.seats if s.kind == "empty"),
            "players": [s.name for s in table.seats if s.kind != "empty"],
            "turn_timer": table.config.turn_timer, "games": table.games}


class Hub:
    def __init__(self, store: Store, settings: Settings, log: Log,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.settings = settings
        self.log = log
        self.clock = clock
        self._tables: dict[str, Live] = {}
        self._loading = asyncio.Lock()
        self._ops: set[asyncio.Task[Any]] = set()
        self._closing = False

    # -- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        """Bring back every table that was in its lobby or playing, timers included."""
        journals = await self.store.load_unfinished()
        for table_id, journal in journals.items():
            try:
                table = await asyncio.to_thread(Table.restore, journal, now=self.clock())
            except Exception:
                self.log.error("table.restore_failed", table_id, exc=True)
                continue
            self._add(table)
            self.log.info("table.restored", table_id, phase=table.phase,
                          version=table.version, entries=len(journal))
        self.log.info("server.started", tables=len(self._tables))

    async def close(self) -> None:
        """Let running changes finish (and be stored), close every socket, close the
        store."""
        self._closing = True
        if self._ops:
            await asyncio.wait(set(self._ops))
        timers = [live.timer for live in self._tables.values() if live.timer is not None]
        for live in list(self._tables.values()):
            self._retire(live, CLOSE_GOING_AWAY, "the server is shutting down")
        await asyncio.gather(*timers, return_exceptions=True)
        await self.store.close()
        self.log.info("server.stopped")

    def stats(self) -> dict[str, int]:
        lives = list(self._tables.values())
        return {"tables": len(lives),
                "unfinished": sum(1 for live in lives if live.table.phase != FINISHED),
                "connections": sum(len(live.conns) for live in lives)}

    def wake(self, table_id: str) -> None:
        """Make the table's timer look at the clock again (tests move the clock)."""
        live = self._tables.get(table_id)
        if live is not None:
            live.wake.set()

    # -- the table's life in memory --------------------------------------------------

    def _add(self, table: Table) -> Live:
        live = Live(table)
        self._tables[table.id] = live
        live.timer = asyncio.get_running_loop().create_task(self._timer(live))
        return live

    def _retire(self, live: Live, code: int = CLOSE_GOING_AWAY, reason: str = "") -> None:
        """Forget the table in memory; its journal brings it back when it is asked for."""
        live.gone = True
        if self._tables.get(live.table.id) is live:
            del self._tables[live.table.id]
        if live.timer is not None and live.timer is not asyncio.current_task():
            live.timer.cancel()
        for conn in live.conns:
            conn.close(code, reason)
        live.conns.clear()

    async def _get(self, table_id: str, load: bool) -> Live | None:
        live = self._tables.get(table_id)
        if live is not None or not load or not valid_table_id(table_id):
            return live
        async with self._loading:
            live = self._tables.get(table_id)
            if live is None:
                journal = await self.store.journal(table_id)
                if journal is None:
                    return None
                live = self._add(await asyncio.to_thread(Table.restore, journal, now=self.clock()))
        return live

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: str, *, load: bool = True) -> AsyncIterator[Live]:
        while True:
            if self._closing:
                raise Refused("closing", "the server is shutting down")
            live = await self._get(table_id, load)
            if live is None:
                raise Refused("no_table", f"no table {table_id!r}")
            await live.lock.acquire()
            if not live.gone:
                break
            live.lock.release()
        try:
            yield live
        finally:
            self._maybe_retire(live)
            live.lock.release()

    def _maybe_retire(self, live: Live) -> None:
        # Nobody is at a finished table: free its memory (it reloads on demand).
        if not live.gone and not live.conns and live.table.phase == FINISHED:
            self._retire(live)

    async def _guarded(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` to its end even if the caller is cancelled (a socket closing
        mid-change must not leave a change half stored)."""
        task = asyncio.ensure_future(coro)
        self._ops.add(task)
        task.add_done_callback(self._done)
        return await asyncio.shield(task)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._ops.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: the caller (if still there) has it too

    async def _change(self, live: Live, change: Change[T]) -> T:
        """Apply ``change`` (the lock is held), store its journal, then deliver."""
        table = live.table
        before = table.phase

        # Spectators' updates are built only if someone is watching.
        table.watched = any(conn.seat is None for conn in live.conns)

        def work() -> tuple[T, Result, list[tuple[int | None, str]], tuple[int, Entry] | None]:
            value, result = change(table, self.clock())
            texts = encode(result.out)
            ended = table.phase == FINISHED and before != FINISHED and bool(result.journal)
            return value, result, texts, (table.games, table.record()) if ended else None

        try:
            value, result, texts, finished = await asyncio.to_thread(work)
        except Refused:
            raise  # a refusal changes nothing
        except Exception as e:
            self.log.error("table.failed", table.id, exc=True)
            self._retire(live, CLOSE_SERVER_ERROR, "the table hit an error: reconnect")
            raise Fault("the table hit an internal error and was reloaded") from e
        if result.journal:
            try:
                await self.store.append(table.id, result.journal, summary(table), finished)
            except Exception as e:
                self.log.error("store.failed", table.id, exc=True)
                self._retire(live, CLOSE_SERVER_ERROR, "the server could not save: reconnect")
                raise Fault("the server could not save that change") from e
        if finished is not None:
            self.log.info("table.finished", table.id, game=finished[0], version=table.version)
        for seat, text in texts:
            for conn in live.conns:
                if conn.seat == seat:
                    conn.send(text)
        live.wake.set()
        return value

    async def _timer(self, live: Live) -> None:
        """Ask the table to tick when its deadline passes (a turn timer, or a seat away
        past its grace)."""
        try:
            while not live.gone:
                async with live.lock:
                    live.wake.clear()
                    deadline = None if live.gone else live.table.deadline()
                if deadline is None:
                    await live.wake.wait()
                    continue
                delay = deadline - self.clock()
                if delay > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(live.wake.wait(), delay)
                    continue
                await self._guarded(self._tick(live))
        except asyncio.CancelledError:
            raise
        except Exception:
            self.log.error("timer.failed", live.table.id, exc=True)

    async def _tick(self, live: Live) -> None:
        async with live.lock:
            if live.gone or self._closing:
                return
            try:
                await self._change(live, lambda t, now: (None, t.tick(now)))
            finally:
                self._maybe_retire(live)

    # -- the lobby -------------------------------------------------------------------

    async def create(self, config: TableConfig) -> tuple[Table, str]:
        if self._closing:
            raise Refused("closing", "the server is shutting down")
        if self.stats()["unfinished"] >= self.settings.max_tables:
            raise Refused("busy", "the server holds as many tables as it may; try later")
        for _ in range(5):
            table_id = new_table_id()
            table, host, result = Table.create(table_id, config, now=self.clock())
            try:
                await self.store.create_table(table_id, result.journal, summary(table))
            except StoreError:
                continue  # the id was taken: draw another
            self._add(table)
            self.log.info("table.created", table_id, preset=config.preset,
                          seats=config.seats, listed=config.listed,
                          turn_timer=config.turn_timer)
            return table, host
        raise Fault("could not find a free table id")

    async def lobby(self, limit: int = 100) -> list[Entry]:
        return await self.store.list_listed(limit)

    async def info(self, table_id: str, host: str | None = None) -> tuple[Entry, bool]:
        """The table as anyone sees it, and whether ``host`` is its host token."""
        async with self._locked(table_id) as live:
            table = live.table
            return table.info(self.clock()), check_token(host, table.host)

    async def host_digest(self, table_id: str) -> str:
        async with self._locked(table_id) as live:
            return live.table.host

    async def join(self, table_id: str, name: object, invite: object) -> tuple[int, str, Entry]:
        async def op() -> tuple[int, str, Entry]:
            async with self._locked(table_id) as live:
                table = live.table
                if not table.config.listed and not check_invite(invite, table.host):
                    raise Refused("bad_invite", "this table is joined through its invite "
                                  "link: the invite code is missing or wrong")

                def sit(t: Table, now: float) -> tuple[tuple[int, str], Result]:
                    seat, token, result = t.join(name, now)
                    return (seat, token), result

                seat, token = await self._change(live, sit)
                self.log.info("table.joined", table_id, seat=seat, version=table.version)
                return seat, token, table.info(self.clock())

        return await self._guarded(op())

    async def add_bot(self, table_id: str, host: str | None, kind: object) -> Entry:
        return await self._host_change(
            table_id, "table.bot", lambda t, now: (None, t.add_bot(host, kind, now)))

    async def start(self, table_id: str, host: str | None) -> Entry:
        return await self._host_change(
            table_id, "table.started", lambda t, now: (None, t.start(host, now)))

    async def remove_seat(self, table_id: str, host: str | None, seat: int) -> Entry:
        return await self._host_change(
            table_id, "table.unseated", lambda t, now: (None, t.remove_seat(host, seat, now)),
            unseat=seat)

    async def _host_change(self, table_id: str, event: str, change: Change[None],
                           unseat: int | None = None) -> Entry:
        async def op() -> Entry:
            async with self._locked(table_id) as live:
                await self._change(live, change)
                if unseat is not None:  # whoever held the freed seat holds nothing now
                    for conn in [c for c in live.conns if c.seat == unseat]:
                        conn.close(CLOSE_REMOVED, "the host freed this seat")
                        live.conns.remove(conn)
                table = live.table
                self.log.info(event, table_id, version=table.version, phase=table.phase,
                              games=table.games)
                return table.info(self.clock())

        return await self._guarded(op())

    async def record(self, table_id: str, game: int | None) -> tuple[int, Entry]:
        """The record (docs/spec/records.md) of game ``game`` (default: the latest), once
        it is over."""
        async with self._locked(table_id) as live:
            table = live.table
            games, over = table.games, table.phase == FINISHED
        if games == 0:
            raise Refused("not_over", "no match has been played at this table yet")
        game = games if game is None else game
        if not 1 <= game <= games:
            raise Refused("no_record", f"no game {game} at this table (games: 1 to {games})")
        if game == games and not over:
            raise Refused("not_over", "the match is not over: its record is served once "
                          "it ends")
        record = await self.store.record(table_id, game)
        if record is None:  # pragma: no cover - stored with the match's last step
            raise Refused("no_record", f"game {game} has no stored record")
        return game, record

    # -- connections -----------------------------------------------------------------

    async def attach(self, table_id: str, seat: int | None, token: str | None,
                     since: int | None) -> Conn:
        """A socket says hello: it gets what it missed (or a snapshot), then every
        message for its seat, in order."""
        async def op() -> Conn:
            async with self._locked(table_id) as live:
                if seat is None and len(live.conns) >= self.settings.max_sockets:
                    raise Refused("crowded", "this table has as many watchers as it may")
                messages = await self._change(
                    live, lambda t, now: t.connect(seat, token, since, now))
                conn = Conn(table_id, seat, token, self.settings.send_backlog)
                for message in messages:
                    conn.send(dumps(message))
                if seat is not None:
                    for old in [c for c in live.conns if c.seat == seat]:
                        old.close(CLOSE_REPLACED, "another connection took this seat")
                        live.conns.remove(old)
                live.conns.append(conn)
                return conn

        return await self._guarded(op())

    async def detach(self, conn: Conn) -> None:
        async def op() -> None:
            async with self._locked(conn.table_id, load=False) as live:
                if conn not in live.conns:
                    return
                live.conns.remove(conn)
                seat = conn.seat
                if seat is not None and all(c.seat != seat for c in live.conns):
                    await self._change(live, lambda t, now: (None, t.disconnect(seat, now)))

        with contextlib.suppress(Refused):  # the table (or the server) is gone already
            await self._guarded(op())

    async def act(self, conn: Conn, action: str, version: int) -> None:
        async def op() -> None:
            async with self._locked(conn.table_id, load=False) as live:
                if conn.closed or conn not in live.conns:
                    raise Refused("closed", "this connection no longer holds its seat")
                seat = conn.seat
                if seat is None:
                    raise Refused("not_seated", "spectators cannot act: join the table for "
                                  "a seat")
                await self._change(
                    live, lambda t, now: (None, t.act(seat, conn.token, version, action, now)))

        await self._guarded(op())

