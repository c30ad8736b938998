"""The live tables: one lock per table, the journal stored before anyone is told, the
messages delivered to each connection, and a timer per table.

Every change to a table runs the same way (``_change``): under the table's lock, the
table method runs (on the event loop, or at a crowded table in a worker thread: bots
may think for a while) and its notices are
rendered for the connections there are (``gnav.table.render``) and encoded, its journal
is committed to the store, and only then are its messages queued to the connections. A
change runs to its end even if whoever asked for it goes away, so the table in memory
never gets ahead of its journal. A change that fails (a bug, a store that cannot
write) is undone and refused to whoever asked: the table, its sockets and its timer go
on as before.

Bots play in bursts bounded in number and time (``gnav.table.Pace``) that the table's
timer spaces out, so a table of bots never holds up the changes people make at other
tables.

With a Redis store, several processes share the tables (``gnav.server.cluster``): a table
lives in the memory of the one process that holds its lease, and every public method
here runs where the table is: here, or forwarded to its owner when another process
holds it (``Elsewhere``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gnav.errors import Code
from gnav.names import Name
from gnav.server.conn import Conn, Elsewhere, Unanswered
from gnav.server.faults import Fault
from gnav.server.logs import Log
from gnav.server.security import check_invite, new_table_id, table_id_for, valid_table_id
from gnav.server.settings import Settings
from gnav.server.store import Diverged, Entry, Store, StoreError, StoreFull, TableExists
from gnav.server.wire import (
    CLOSE_GOING_AWAY,
    CLOSE_REMOVED,
    CLOSE_REPLACED,
    dumps,
    encode,
)
from gnav.table import Refused, Table, TableConfig
from gnav.table.journal import Entry as JournalEntry
from gnav.table.journal import Op, dump
from gnav.table.render import messages, render
from gnav.table.retries import RequestKey, parse_key
from gnav.table.table import Result, check_token
from gnav.vocab import Action, BotKind, SeatKind, TablePhase

if TYPE_CHECKING:
    from gnav.server.cluster import Cluster

T = TypeVar("T")
# Seconds of ``shutdown_wait`` kept for handing the tables back and closing the store,
# after running changes have had the rest.
HAND_BACK = 2.0
Change = Callable[[Table, float], tuple[T, Result]]


@dataclass(eq=False)
class Live:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # the deadline may have moved
    conns: list[Conn] = field(default_factory=list)
    timer: asyncio.Task[None] | None = None
    gone: bool = False  # retired: a newer Live (or none) holds this table now
    # The timer is parked until its deadline or a wake, with nothing under way: what a
    # test waits for before it asserts that the clock made nothing happen (``parked``).
    parked: bool = False
    touched: float = 0.0  # the clock at its last change or connection (for eviction)
    # The coach's last answer to each seat, with the version it answered: asking again
    # for the same decision costs a lookup, so a decision costs one computation at most.
    advice: dict[int, tuple[int, Entry]] = field(default_factory=dict)
    # The table's version before its current match began, if that happened here (None:
    # the table was read from the store mid-match): how big the match is, when it ends.
    match_from: int | None = None


@dataclass(eq=False)
class Loading:
    """A table being loaded: its lock, and how many wait on it or hold it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


def record_of(journal: list[Entry | JournalEntry]) -> Entry:
    """The record of the match a journal ends with (run in another process)."""
    return Table.restore(journal).record()


def summary(table: Table) -> Entry:
    """The table's line in the lobby."""
    return {"id": table.id, "phase": table.phase, "listed": table.config.listed,
            "created": table.created, "preset": table.config.preset,
            "seats": len(table.seats),
            "open": sum(1 for s in table.seats if s.kind == SeatKind.EMPTY),
            "players": [s.name for s in table.seats if s.kind != SeatKind.EMPTY],
            "turn_timer": table.config.turn_timer, "games": table.games,
            "coaching": table.config.coaching}


class Hub:
    def __init__(self, store: Store, settings: Settings, log: Log,
                 clock: Callable[[], float] = time.time, cluster: Cluster | None = None
                 ) -> None:
        self.store = store
        self.cluster = cluster  # other processes share the tables (a Redis store)
        self.settings = settings
        self.log = log
        self.clock = clock
        self._tables: dict[str, Live] = {}
        self._loading: dict[str, Loading] = {}  # one per table being loaded
        self._ops: set[asyncio.Task[Any]] = set()
        self._closing = False
        # People's changes at crowded tables run on threads of their own (a change may
        # build many messages); the others, and bots' bursts, on the loop (``_change``).
        self._work = ThreadPoolExecutor(settings.workers, thread_name_prefix="gnav-table")
        self._records: ProcessPoolExecutor | None = None  # started when first needed
        # Finished tables nobody is at: their info and lobby line, so reading them does
        # not replay their journal (most recently read last).
        self._finished: OrderedDict[str, Entry] = OrderedDict()
        self._growing: set[asyncio.Task[None]] = set()  # puzzles being cut (held: not lost)
        # Unfinished tables by the address block that created them (the cap is per
        # client, so one client reaching it locks out nobody else).
        self._owner: dict[str, tuple[str, float]] = {}  # table id: (client, created)
        self._sweeper: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the one it serves on (open)

    # -- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        """Bring back every table that was in its lobby or playing, timers included
        (with other processes: those in play that nobody holds, by the cluster's sweep)."""
        self._loop = asyncio.get_running_loop()
        if self.cluster is not None:
            await self.cluster.start(self)
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
            self.log.info("server.started", tables=len(self._tables))
            return
        journals = await self.store.load_unfinished()
        for table_id, journal in journals.items():
            if not any(e.get("op") == Op.START for e in journal):
                continue  # a lobby has no timer to run: it is loaded when asked for
            try:
                table = await self._run(self._work, Table.restore, journal, now=self.clock())
            except Exception:
                self.log.error("table.restore_failed", table_id, exc=True)
                continue
            self._add(table)
            self.log.info("table.restored", table_id, phase=table.phase,
                          version=table.version, entries=len(journal))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        self.log.info("server.started", tables=len(self._tables))

    async def close(self) -> None:
        """Stop within ``shutdown_wait`` seconds, whatever the store is doing (issue 27:
        with Redis gone, a SIGTERM took 25 to 60 s, each step waiting out its client's
        retries in turn). Running changes may finish (and be stored) while time is left
        beyond ``HAND_BACK``; then every socket closes, the tables are handed back to
        the store (their leases let go, for another process to take them at once), and
        the store is closed. Every change is bounded (bots play in bursts), so the wait
        is short when the store answers; one still running after it was never stored
        and nobody was told of it, so nothing is lost that anyone saw."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.settings.shutdown_wait
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._ops:
            wait = max(0.0, end - HAND_BACK - loop.time())
            _, late = await asyncio.wait(set(self._ops), timeout=wait)
            if late:
                self.log.warning("server.changes_abandoned", count=len(late))
        if self.cluster is not None:
            self.cluster.stop_renewing()  # no lease let go below is renewed again
        timers = [live.timer for live in self._tables.values() if live.timer is not None]
        for live in list(self._tables.values()):
            self._retire(live, CLOSE_GOING_AWAY, "the server is shutting down")
        if timers:  # cancelled: a timer waiting on a store call ends at the call's end
            await asyncio.wait(timers, timeout=min(0.5, max(0.0, end - loop.time())))
        if self.cluster is not None:
            await self.cluster.close(end)
        self._work.shutdown(wait=False, cancel_futures=True)
        if self._records is not None:
            self._records.shutdown(wait=False, cancel_futures=True)
        try:
            await asyncio.wait_for(self.store.close(), max(0.1, end - loop.time()))
        except TimeoutError:
            self.log.warning("store.close_abandoned")
        self.log.info("server.stopped")

    @staticmethod
    async def _run(pool: ThreadPoolExecutor, fn: Callable[..., T], *args: Any,
                   **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, functools.partial(fn, *args, **kwargs))

    def stats(self) -> dict[str, Any]:
        lives = list(self._tables.values())
        out: dict[str, Any] = {
            "tables": len(lives),
            "unfinished": sum(1 for live in lives if live.table.phase != TablePhase.FINISHED),
            "connections": sum(len(live.conns) for live in lives)}
        if self.cluster is not None:
            out |= self.cluster.stats()
        return out

    def parked(self, table_id: str) -> bool:
        """Whether the table's timer has looked at the clock since its last wake and
        waits for its deadline, nothing under way (on the server's loop, as ``wake``)."""
        live = self._tables.get(table_id)
        return live is not None and live.parked and not live.wake.is_set()

    def wake(self, table_id: str) -> None:
        """Make the table's timer look at the clock again (tests move the clock).

        :raises: :exc:`RuntimeError` off the server's event loop: an ``asyncio.Event``
            set from another thread wakes its waiter only when the loop next wakes for
            something else, which on an idle server is the timer's old deadline (a
            test's thread calls it through its portal).
        """
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or loop is not self._loop:
            raise RuntimeError("Hub.wake is called on the server's event loop")
        live = self._tables.get(table_id)
        if live is not None:
            live.wake.set()

    # -- the table's life in memory --------------------------------------------------

    def _add(self, table: Table) -> Live:
        table.pace = self.settings.pace
        live = Live(table, touched=self.clock())
        self._tables[table.id] = live
        self._finished.pop(table.id, None)
        live.timer = asyncio.get_running_loop().create_task(self._timer(live))
        return live

    def _retire(self, live: Live, code: int = CLOSE_GOING_AWAY, reason: str = "", *,
                lost: bool = False) -> None:
        """Forget the table in memory; its journal brings it back when it is asked for
        (here or, with other processes, wherever it is asked for next). ``lost``: its
        lease ran out, another process may hold it already."""
        live.gone = True
        if self._tables.get(live.table.id) is live:
            del self._tables[live.table.id]
            if self.cluster is not None and not lost:
                self.cluster.release(live.table.id)
        table = live.table
        if table.phase in (TablePhase.FINISHED, TablePhase.EXPIRED):
            self._finished[table.id] = {"info": table.info(self.clock()), "host": table.host,
                                        "games": table.games, "phase": table.phase}
            while len(self._finished) > self.settings.finished_cached:
                self._finished.popitem(last=False)
        if live.timer is not None and live.timer is not asyncio.current_task():
            live.timer.cancel()
        for conn in live.conns:
            conn.close(code, reason)
        live.conns.clear()

    def lost(self, table_id: str) -> None:
        """The table's lease ran out (this process stalled, or Redis was away): another
        process may own it now. Its sockets close, and their clients reconnect to it."""
        live = self._tables.get(table_id)
        if live is not None:
            self._retire(live, CLOSE_GOING_AWAY, "this table moved to another server: "
                         "reconnect", lost=True)

    async def adopt(self, table_id: str) -> None:
        """Take over a table in play that no process holds (its owner died)."""
        with contextlib.suppress(Elsewhere, Refused, Fault):
            await self._get(table_id, True)  # logged there; another may have been quicker

    async def _claim(self, table_id: str) -> None:
        """Hold the table's lease before loading it (Elsewhere if another process does)."""
        if self.cluster is None:
            return
        try:
            holder = await self.cluster.claim(table_id)
        except Unanswered as e:
            raise Fault(str(e), Code.BUSY) from None
        except StoreFull as e:
            self.log.error("store.full", table_id, error=str(e))
            raise Fault(f"the store is full: {e}", Code.STORE_FULL) from None
        except Exception as e:
            self.log.error("store.failed", table_id, error=repr(e))
            raise Fault("the server cannot reach the store that holds the tables' "
                        "owners", Code.STORE_FAILED) from None
        if holder is not None:
            raise Elsewhere(holder)

    async def _get(self, table_id: str, load: bool) -> Live | None:
        live = self._tables.get(table_id)
        if live is not None or not load or not valid_table_id(table_id):
            return live
        # One lock per table being loaded: loading a big table holds up nobody else.
        # It stays until its last waiter is done: dropped as soon as it was released
        # (its waiters not yet woken), a newcomer made a second lock and loaded the
        # table beside them (measured: a table taken over twice in one process, two
        # timers playing it, in a kill under load).
        loading = self._loading.setdefault(table_id, Loading())
        loading.users += 1
        try:
            async with loading.lock:
                live = self._tables.get(table_id)
                if live is None:
                    await self._claim(table_id)
                    table = await self._load(table_id)
                    if table is None:
                        return None
                    if self.cluster is not None and table.phase == TablePhase.PLAYING:
                        self.log.info("table.restored", table_id, version=table.version,
                                      taken_over=True)
                    live = self._add(table)
        finally:
            loading.users -= 1
            if not loading.users:
                self._loading.pop(table_id, None)
        return live

    async def _load(self, table_id: str) -> Table | None:
        """The table from its journal (None: no such table); a table this process
        claimed and could not load is let go at once."""
        loaded = False
        try:
            journal = await self._store(self.store.journal(table_id))
            if journal is None:
                return None
            self._make_room()
            try:
                table = await self._run(self._work, Table.restore, journal, now=self.clock())
            except Exception as e:
                self.log.error("table.restore_failed", table_id, exc=True)
                raise Fault("this table's journal could not be read") from e
            loaded = True
            return table
        finally:
            if not loaded and self.cluster is not None:
                self.cluster.release(table_id)

    async def _store(self, coro: Coroutine[Any, Any, T]) -> T:
        """A store call; its failure is a clear refusal (``Fault``), never a bare 500."""
        try:
            return await coro
        except StoreFull as e:
            self.log.error("store.full", error=str(e))
            raise Fault(f"the store is full: {e}", Code.STORE_FULL) from None
        except StoreError as e:
            self.log.error("store.failed", error=str(e))
            raise Fault(f"the server cannot read or write its database: {e}",
                        Code.STORE_FAILED, reload=isinstance(e, Diverged)) from None
        except Exception as e:
            self.log.error("store.failed", exc=True)
            raise Fault(f"the server cannot read or write its database "
                        f"({type(e).__name__})", Code.STORE_FAILED) from None

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: str, *, load: bool = True) -> AsyncIterator[Live]:
        while True:
            if self._closing:
                raise Refused(Code.CLOSING, "the server is shutting down")
            live = await self._get(table_id, load)
            if live is None:
                raise Refused(Code.NO_TABLE, f"no table {table_id!r}")
            await live.lock.acquire()
            if not live.gone:
                break
            live.lock.release()
        try:
            if live.table.phase == TablePhase.LOBBY and self._expired(live.table):
                await self._change(live, lambda t, now: (None, t.expire(now)))
            yield live
        finally:
            self._maybe_retire(live)
            live.lock.release()

    def _maybe_retire(self, live: Live) -> None:
        # Nobody is at a finished table: free its memory (it reloads on demand).
        if not live.gone and not live.conns and live.table.phase == TablePhase.FINISHED:
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

    async def _change(self, live: Live, change: Change[T], *, bots: bool = False) -> T:
        """Apply ``change`` (the lock is held), store its journal, then deliver. If
        anything fails on the way, the table is put back as it was and only this
        change is refused. ``bots``: a burst of bots' decisions, bounded in time by
        ``Pace``: it runs on the event loop itself (a thread that computes would hold
        the loop back, through the GIL, for as long as the OS keeps it scheduled). So
        does a person's change at a table of few sockets (``inline_sockets``): the hop
        to a thread and back cost more than the change; at a crowded one, where a
        change may build many messages, it runs on a thread."""
        table = live.table
        before = table.phase
        saved = table.save()
        live.touched = self.clock()

        # Messages are built only for those listening (the conns do not change while
        # the lock is held); with only spectators, bots play at their pace.
        listening = {conn.seat for conn in live.conns}
        table.watched = None in listening

        def work() -> tuple[T, Result, list[tuple[tuple[int | None, ...], str]]]:
            value, result = change(table, self.clock())
            return value, result, encode(render(result.notices, listening))

        try:
            inline = bots or len(live.conns) <= self.settings.inline_sockets
            value, result, texts = work() if inline else await self._run(self._work, work)
            finished: tuple[int, Entry] | None = None
            done = TablePhase.FINISHED
            began = saved.version if table.games != saved.games else live.match_from
            if table.phase == done and before != done and result.journal:
                size = table.version - (0 if began is None else began)
                finished = table.games, await self._record(table, result.journal, size)
        except Refused:
            table.undo(saved)  # a refusal changes nothing
            raise
        except Exception as e:
            table.undo(saved)
            self.log.error("table.failed", table.id, exc=True)
            raise Fault("the server hit an internal error; nothing was changed") from e
        if result.journal:
            try:
                await self._store(self.store.append(
                    table.id, dump(result.journal), summary(table), finished,
                    fence=None if self.cluster is None else self.cluster.me))
            except Fault as e:
                table.undo(saved)  # memory never gets ahead of the journal
                if e.reload:  # nor behind it: read again, wherever it is asked for next
                    self._retire(live, CLOSE_GOING_AWAY, "this table is read again from "
                                 "the store: reconnect")
                raise
        live.match_from = began
        if finished is not None:
            self.log.info("table.finished", table.id, game=finished[0], version=table.version)
            self._owner.pop(table.id, None)
            if self.settings.grow_puzzles and table.config.listed:
                self._grow_puzzles(table.id, finished[0], finished[1])
        elif table.phase == TablePhase.EXPIRED:
            self._owner.pop(table.id, None)
        self._deliver(live, texts)
        live.wake.set()
        return value

    def _grow_puzzles(self, table_id: str, game: int, record: Entry) -> None:
        """Cut the finished listed match's puzzles into the host's file, in a thread
        (a bounded cost: ``gnav.learn.puzzles.grow`` leaves out a match with many sampled
        decisions), after everyone has been told; a failure is logged, nothing more."""
        from gnav.learn.puzzles import grow
        from gnav.record import parse

        path = Path(str(self.settings.grow_puzzles))

        def work() -> int:
            return grow(path, f"{table_id}-{game}", parse(record))

        async def run() -> None:
            try:
                added = await asyncio.to_thread(work)
            except Exception:
                self.log.error("puzzles.failed", table_id, exc=True)
                return
            self.log.info("puzzles.grown", table_id, game=game, added=added)

        task = asyncio.get_running_loop().create_task(run())
        self._growing.add(task)
        task.add_done_callback(self._growing.discard)

    def _deliver(self, live: Live, texts: list[tuple[tuple[int | None, ...], str]]) -> None:
        """Each text to the sockets of the seats it is for; to a socket another process
        holds, once to that process for all its sockets (measured: a copy a socket, 200
        spectators through another process cost it 700 MB and Redis 125 MB each way in
        30 s)."""
        relayed: dict[str, list[tuple[tuple[int | None, ...], str]]] = {}
        for to, text in texts:
            for conn in live.conns:
                if conn.seat in to:
                    holder = conn.relayed_to
                    if holder is None:
                        conn.send(text)
                    elif not conn.closed:  # (closed: its holder was told, it is going)
                        out = relayed.setdefault(holder, [])
                        if not out or out[-1][1] is not text:
                            out.append((to, text))
        if relayed:  # all of them in one message a holder (``Cluster.fan_all``)
            assert self.cluster is not None
            for holder, items in relayed.items():
                self.cluster.fan_all(holder, live.table.id, items)

    async def _record(self, table: Table, entries: list[JournalEntry], size: int) -> Entry:
        """The record of the match that has just ended, ``size`` versions long. A big
        one (``gnav.record`` replays the match to write it: 0.9 s for 12,000 decisions)
        is built in another process from the journal, so that no thread holds the GIL,
        and with it every other table, for that long.

        Big by the match's own versions, not the table's: the table's count runs on
        from match to match, and by it every match after the first few at a table was
        built elsewhere, from its whole journal read back from the store, every earlier
        match's entries included, and replayed there (measured with
        ``tools/relay_load.py``, 5 tables of 12 seats as fast as they played: 3.7 to
        14 MB out of Redis in 30 s where there had been 0.03 to 0.1)."""
        if size < self.settings.record_elsewhere:
            return await self._run(self._work, table.record)
        stored = await self._store(self.store.journal(table.id)) or []
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._record_pool(), record_of,
                                          [*stored, *entries])

    async def _timer(self, live: Live) -> None:
        """Ask the table to tick when its deadline passes (a turn timer, or a seat away
        past its grace)."""
        failures = 0
        try:
            while not live.gone:
                async with live.lock:
                    live.wake.clear()
                    deadline = None if live.gone else live.table.deadline()
                delay = None if deadline is None else deadline - self.clock()
                if delay is None or delay > 0:
                    live.parked = True
                    try:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(live.wake.wait(), delay)
                    finally:
                        live.parked = False
                    continue
                try:
                    await self._guarded(self._tick(live))
                    failures = 0
                except Fault:
                    # Logged where it failed; the table is as it was. Try again later,
                    # and later each time (a store that cannot write will not heal in
                    # a millisecond, and the log should not fill with it).
                    failures += 1
                    wait = min(60.0, self.settings.retry_after * 2 ** min(failures, 10))
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(live.wake.wait(), wait)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.log.error("timer.failed", live.table.id, exc=True)

    async def _tick(self, live: Live) -> None:
        async with live.lock:
            if live.gone or self._closing:
                return
            try:
                await self._change(live, lambda t, now: (None, t.tick(now)), bots=True)
            finally:
                self._maybe_retire(live)

    # -- expiry and eviction ---------------------------------------------------------

    def _expired(self, table: Table) -> bool:
        return table.phase == TablePhase.LOBBY and \
            self.clock() >= table.created + self.settings.lobby_ttl

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:
                self.log.error("sweep.failed", exc=True)

    async def sweep(self) -> None:
        """Close lobbies past their time, and free the memory of tables nobody has
        been at for ``idle_after`` seconds (they reload from the store when asked
        for; a table being played stays, for its timers)."""
        now = self.clock()
        for live in list(self._tables.values()):
            table = live.table
            if self._expired(table):
                with contextlib.suppress(Refused, Fault):
                    async with self._locked(table.id, load=False):
                        pass  # _locked expires it
                    self.log.info("table.expired", table.id)
            elif not live.conns and table.phase != TablePhase.PLAYING \
                    and now >= live.touched + self.settings.idle_after:
                async with live.lock:
                    if not live.conns and not live.gone:
                        self._retire(live)

    def _make_room(self) -> None:
        """Below ``max_tables`` in memory, if tables nobody is at can be let go (the
        longest untouched first): they come back from the store when asked for."""
        over = len(self._tables) - self.settings.max_tables + 1
        if over <= 0:
            return
        idle = sorted((live for live in self._tables.values()
                       if not live.conns and not live.lock.locked()
                       and live.table.phase != TablePhase.PLAYING), key=lambda live: live.touched)
        for live in idle[:over]:
            self._retire(live)

    # -- the lobby -------------------------------------------------------------------

    async def create(self, config: TableConfig, client: str = "",
                     req: RequestKey | None = None) -> tuple[Table, str]:
        """A new table for ``client`` (an address block: see ``untrusted.address_block``).
        ``req``: the client's key for this create; its table's id is drawn from it, so
        that a retry, here or at another process, finds the table the first stored and
        is answered with it and its host token (``_created``)."""
        if self._closing:
            raise Refused(Code.CLOSING, "the server is shutting down")
        if req is not None:
            found = await self._created(table_id_for(req), req)
            if found is not None:
                return found
        # A lobby left to expire counts until its time is up, even out of memory.
        oldest = self.clock() - self.settings.lobby_ttl
        self._owner = {t: o for t, o in self._owner.items() if o[1] > oldest}
        mine = sum(1 for owner, _ in self._owner.values() if owner == client)
        if mine >= self.settings.tables_per_client:
            raise Refused(Code.TOO_MANY, f"this address holds {mine} unfinished tables, as "
                          f"many as one client may: finish some, or wait for unstarted "
                          f"ones to close (after {self.settings.lobby_ttl / 3600:g} h)")
        self._make_room()
        if len(self._tables) >= self.settings.max_tables:
            raise Refused(Code.BUSY, "the server holds as many tables as it may; try later")
        for _ in range(5):
            table_id = new_table_id() if req is None else table_id_for(req)
            table, host, result = Table.create(table_id, config, now=self.clock(), req=req)
            try:
                await self._claim(table_id)
            except Elsewhere:
                if req is not None:  # stored by a create with this key meanwhile
                    return await self._created_again(table_id, req)
                continue  # the id was taken: draw another
            try:
                await self._store(self.store.create_table(table_id, dump(result.journal),
                                                          summary(table)))
            except TableExists:
                if self.cluster is not None and table_id not in self._tables:
                    self.cluster.release(table_id)  # not one made here meanwhile
                if req is not None:
                    return await self._created_again(table_id, req)
                continue  # the id was taken: draw another
            except Fault:
                if self.cluster is not None:
                    self.cluster.release(table_id)
                raise
            self._add(table)
            self._owner[table_id] = (client, table.created)
            self.log.info("table.created", table_id, client=client, preset=config.preset,
                          seats=config.seats, listed=config.listed,
                          turn_timer=config.turn_timer)
            return table, host
        raise Fault("could not find a free table id")

    async def _created(self, table_id: str, req: RequestKey) -> tuple[Table, str] | None:
        """The table a create with key ``req`` stored, and its host token; None if
        there is none yet."""
        live = self._tables.get(table_id)
        if live is not None:
            table = live.table
        else:
            journal = await self._store(self.store.journal(table_id))
            if journal is None:
                return None
            table = await self._run(self._work, Table.restore, journal)
        host = table.host_token_for(req)
        if host is None:  # the id drawn from another key: 64 bits, never in practice
            raise Refused(Code.BAD_FIELD, "this request key made another table: send a "
                          "new one")
        self.log.info("table.create_again", table_id)
        return table, host

    async def _created_again(self, table_id: str, req: RequestKey) -> tuple[Table, str]:
        found = await self._created(table_id, req)
        if found is None:  # pragma: no cover - it existed a moment ago
            raise Fault("this table is being created; try again", Code.BUSY)
        return found

    async def lobby(self, limit: int = 100) -> list[Entry]:
        oldest = self.clock() - self.settings.lobby_ttl
        lines = await self._store(self.store.list_listed(limit))
        return [line for line in lines
                if line.get("phase") != TablePhase.LOBBY or float(line.get("created", 0)) > oldest]

    # -- where the table is -------------------------------------------------------------

    async def _where(self, here: Callable[[], Coroutine[Any, Any, T]], op: str,
                     args: list[Any]) -> Any:
        """``here()`` if the table is (or can be) in this process; else ``op`` with
        ``args`` at the process that owns it (its answer comes back as JSON)."""
        for _ in range(3):
            try:
                return await here()
            except Elsewhere as e:
                assert self.cluster is not None
                try:
                    return await self.cluster.call(e.owner, op, args)
                except Elsewhere:
                    continue  # it moved on the way: ask again
                except Unanswered as u:
                    await self._gone(e.owner, u)
        raise Fault("this table is moving between servers; try again", Code.BUSY)

    async def _gone(self, owner: str, silence: Exception) -> None:
        """The owner did not answer: if it is dead, its table is taken over by asking
        again (the claim waits its lease out); if it lives, it is only slow: Fault."""
        assert self.cluster is not None
        if await self.cluster.alive(owner):
            raise Fault(str(silence), Code.BUSY) from None
        self.log.warning("cluster.owner_gone", process=owner)

    async def serve_request(self, holder: str, op: str, a: list[Any],
                            done: Callable[[], None] | None = None) -> Any:
        """Another process (``holder``) forwards a request for a table held here
        (``done``: called once an act is stored and its messages posted).

        :raises: :exc:`Elsewhere` back to it for a table not here, never forwarded again.
        """
        from gnav.server.cluster import RemoteConn

        assert self.cluster is not None
        if op == "act":
            conn = self.cluster.remote.get((holder, a[0]))
            if conn is None:
                raise Refused(Code.CLOSED, "this connection no longer holds its seat")
            await self._act_here(conn, Action(a[1]), int(a[2]), done)
            return None
        if op == "shown":
            conn = self.cluster.remote.get((holder, a[0]))
            if conn is not None:
                await self._shown_here(conn, int(a[1]))
            return None
        if op == "detach":
            conn = self.cluster.remote.pop((holder, a[0]), None)
            if conn is not None:
                await self.detach(conn)
            return None
        if op == "attach":
            table_id, seat, token, since, cid = a
            remote = RemoteConn(self.cluster, holder, cid, table_id, seat, token)
            await self._attach_here(table_id, seat, token, since, remote)
            if not remote.closed:
                self.cluster.remote[(holder, cid)] = remote
            return None
        if op == "join":
            return list(await self._join_here(a[0], Name(a[1]), a[2], parse_key(a[3])))
        if op == "host_change":
            table_id, host, what, arg, req = a
            return await self._host_change_here(table_id, host, what, arg, parse_key(req))
        if op == "info":
            return list(await self._info_here(a[0], a[1]))
        if op == "host_digest":
            return await self._host_digest_here(a[0])
        if op == "record":
            return list(await self._record_here(a[0], a[1]))
        if op == "coach":
            return await self._coach_here(a[0], int(a[1]), a[2])
        raise Fault(f"unknown request {op!r} between servers")

    # -- the table's own requests ------------------------------------------------------

    async def info(self, table_id: str, host: str | None = None) -> tuple[Entry, bool]:
        """The table as anyone sees it, and whether ``host`` is its host token."""
        info, is_host = await self._where(lambda: self._info_here(table_id, host), "info",
                                          [table_id, host])
        return dict(info), bool(is_host)

    async def _info_here(self, table_id: str, host: str | None) -> tuple[Entry, bool]:
        cached = self._finished.get(table_id)
        if cached is not None and table_id not in self._tables:
            self._finished.move_to_end(table_id)
            return dict(cached["info"]), check_token(host, cached["host"])
        async with self._locked(table_id) as live:
            table = live.table
            return table.info(self.clock()), check_token(host, table.host)

    async def host_digest(self, table_id: str) -> str:
        return str(await self._where(lambda: self._host_digest_here(table_id), "host_digest",
                                     [table_id]))

    async def _host_digest_here(self, table_id: str) -> str:
        cached = self._finished.get(table_id)
        if cached is not None and table_id not in self._tables:
            return str(cached["host"])
        async with self._locked(table_id) as live:
            return live.table.host

    async def join(self, table_id: str, name: Name, invite: str | None,
                   req: RequestKey | None = None) -> tuple[int, str, Entry]:
        seat, token, info = await self._where(
            lambda: self._join_here(table_id, name, invite, req), "join",
            [table_id, name, invite, req])
        return int(seat), str(token), dict(info)

    async def _join_here(self, table_id: str, name: Name, invite: str | None,
                         req: RequestKey | None = None) -> tuple[int, str, Entry]:
        async def op() -> tuple[int, str, Entry]:
            async with self._locked(table_id) as live:
                table = live.table
                if not table.config.listed and not check_invite(invite, table.host):
                    raise Refused(Code.BAD_INVITE, "this table is joined through its invite "
                                  "link: the invite code is missing or wrong")

                def sit(t: Table, now: float) -> tuple[tuple[int, str], Result]:
                    seat, token, result = t.join(name, now, req)
                    return (seat, token), result

                seat, token = await self._change(live, sit)
                self.log.info("table.joined", table_id, seat=seat, version=table.version)
                return seat, token, table.info(self.clock())

        return await self._guarded(op())

    async def add_bot(self, table_id: str, host: str, kind: BotKind | None,
                      req: RequestKey | None = None) -> Entry:
        return await self._host_change(table_id, host, "bot", kind, req)

    async def start(self, table_id: str, host: str, req: RequestKey | None = None) -> Entry:
        return await self._host_change(table_id, host, "start", None, req)

    async def remove_seat(self, table_id: str, host: str, seat: int,
                          req: RequestKey | None = None) -> Entry:
        return await self._host_change(table_id, host, "unseat", seat, req)

    async def _host_change(self, table_id: str, host: str, what: str,
                           arg: BotKind | int | None, req: RequestKey | None) -> Entry:
        info = await self._where(
            lambda: self._host_change_here(table_id, host, what, arg, req), "host_change",
            [table_id, host, what, arg, req])
        return dict(info)

    async def _host_change_here(self, table_id: str, host: str, what: str,
                                arg: BotKind | int | str | None,
                                req: RequestKey | None = None) -> Entry:
        """The host adds a bot (``arg``: its kind), starts, or frees seat ``arg``;
        ``req``: the request's key (a retry of one stored changes nothing)."""
        unseat: int | None = None
        change: Change[None]
        if what == "bot":
            kind = None if arg is None else BotKind(str(arg))
            event, change = "table.bot", lambda t, now: (None, t.add_bot(host, kind, now, req))
        elif what == "start":
            event, change = "table.started", lambda t, now: (None, t.start(host, now, req))
        else:
            unseat = int(arg) if arg is not None else -1
            event = "table.unseated"
            change = lambda t, now: (  # noqa: E731
                None, t.remove_seat(host, unseat, now, req))

        async def op() -> Entry:
            async with self._locked(table_id) as live:
                await self._change(live, change)
                seats = live.table.seats
                if unseat is not None and 0 <= unseat < len(seats) \
                        and seats[unseat].kind == SeatKind.EMPTY:
                    # Whoever held the freed seat holds nothing now.
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
        number, record = await self._where(lambda: self._record_here(table_id, game),
                                           "record", [table_id, game])
        return int(number), dict(record)

    async def _record_here(self, table_id: str, game: int | None) -> tuple[int, Entry]:
        cached = self._finished.get(table_id)
        if cached is not None and table_id not in self._tables:
            games, over = int(cached["games"]), True
        else:
            async with self._locked(table_id) as live:
                table = live.table
                games, over = table.games, table.phase == TablePhase.FINISHED
        if games == 0:
            raise Refused(Code.NOT_OVER, "no match has been played at this table yet")
        game = games if game is None else game
        if not 1 <= game <= games:
            raise Refused(Code.NO_RECORD, f"no game {game} at this table (games: 1 to {games})")
        if game == games and not over:
            raise Refused(Code.NOT_OVER, "the match is not over: its record is served once "
                          "it ends")
        record = await self._store(self.store.record(table_id, game))
        if record is None:  # pragma: no cover - stored with the match's last step
            raise Refused(Code.NO_RECORD, f"game {game} has no stored record")
        return game, record

    # -- the coach ---------------------------------------------------------------------

    async def coach(self, table_id: str, seat: int, token: str) -> Entry:
        """The coach's figures for ``seat``'s decision now, from that seat's view alone
        (``gnav.odds.coach``); the decision it leads to is marked coached."""
        return dict(await self._where(lambda: self._coach_here(table_id, seat, token),
                                      "coach", [table_id, seat, token]))

    async def _coach_here(self, table_id: str, seat: int, token: str) -> Entry:
        async with self._locked(table_id) as live:
            view = live.table.coach_view(seat, token)
            version = live.table.version
            cached = live.advice.get(seat)
        if cached is not None and cached[0] == version:
            return cached[1]
        from gnav.odds.coach import answer, looks_up

        if looks_up(view):  # a lookup: cheap anywhere
            got = answer(view)
        else:
            # Sampled (a bounded number of deals, tens of milliseconds): in the records'
            # process, so that no thread of this one holds the GIL meanwhile.
            loop = asyncio.get_running_loop()
            got = await loop.run_in_executor(self._record_pool(), answer, view)
        got = {**got, "version": version, "seat": seat}
        live.advice[seat] = (version, got)
        return got

    def _record_pool(self) -> ProcessPoolExecutor:
        if self._records is None:
            self._records = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"))
        return self._records

    # -- connections -----------------------------------------------------------------

    async def attach(self, table_id: str, seat: int | None, token: str | None,
                     since: int | None) -> Conn:
        """A socket says hello: it gets what it missed (or a snapshot), then every
        message for its seat, in order. For a table another process owns, the socket
        is relayed: that process keeps it among the table's connections."""
        for _ in range(3):
            # A new one each time: one relayed to an owner that died meanwhile is closed.
            conn = Conn(table_id, seat, token, self.settings.send_backlog)
            try:
                await self._attach_here(table_id, seat, token, since, conn)
                return conn
            except Elsewhere as e:
                assert self.cluster is not None
                cid = self.cluster.relay(e.owner, conn)
                try:
                    await self.cluster.call(e.owner, "attach",
                                            [table_id, seat, token, since, cid])
                    return conn
                except Elsewhere:  # it moved on the way: ask again
                    self.cluster.drop(cid)
                except Unanswered as u:
                    self.cluster.drop(cid)
                    await self._gone(e.owner, u)
                except BaseException:
                    self.cluster.drop(cid)
                    raise
        raise Fault("this table is moving between servers; try again", Code.BUSY)

    async def _attach_here(self, table_id: str, seat: int | None, token: str | None,
                           since: int | None, conn: Conn) -> None:
        async def op() -> None:
            async with self._locked(table_id) as live:
                if seat is None and len(live.conns) >= self.settings.max_sockets:
                    raise Refused(Code.CROWDED, "this table has as many watchers as it may")
                def hello(t: Table, now: float) -> tuple[list[str], Result]:
                    missed, result = t.connect(seat, token, since, now)
                    return [dumps(m) for m in messages(missed, seat)], result

                texts = await self._change(live, hello)
                live.touched = self.clock()
                for text in texts:
                    conn.send(text)
                if seat is not None:
                    for old in [c for c in live.conns if c.seat == seat]:
                        old.close(CLOSE_REPLACED, "another connection took this seat")
                        live.conns.remove(old)
                live.conns.append(conn)
                conn.joined()

        await self._guarded(op())

    async def detach(self, conn: Conn) -> None:
        if conn.via is not None:
            assert self.cluster is not None
            self.cluster.unrelay(conn)  # the owner is told; its seat leaves there
            return

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

    async def act(self, conn: Conn, action: Action, version: int) -> None:
        if conn.via is None:
            await self._act_here(conn, action, version)
            return
        assert self.cluster is not None
        try:
            await self.cluster.call(conn.via, "act", [conn.cid, action, version])
        except Elsewhere:  # the owner lost the table: this socket reconnects to it
            self.cluster.unrelay(conn)
            conn.close(CLOSE_GOING_AWAY, "this table moved to another server: reconnect")
            raise Refused(Code.CLOSED, "this table moved to another server: reconnect "
                          "and act again") from None
        except Refused as e:
            if e.code == Code.CLOSED:  # the owner let this socket go (its close was lost)
                self.cluster.unrelay(conn)
                conn.close(CLOSE_GOING_AWAY, "this connection no longer holds its seat: "
                           "reconnect")
            raise
        except Unanswered as e:
            if not await self.cluster.alive(conn.via):
                # Its owner died: the socket reconnects, to the table taken over, and
                # its client acts again from what it is shown there (an error first
                # would tell a browser its move failed; measured: 70 "busy" in a kill
                # under load, once requests to a dead owner were given up early).
                self.cluster.drop(conn.cid)
                conn.close(CLOSE_GOING_AWAY, "the server that held this table is gone: "
                           "reconnect")
            raise Fault(str(e), Code.BUSY) from None

    async def _act_here(self, conn: Conn, action: Action, version: int,
                        done: Callable[[], None] | None = None) -> None:
        """The act, stored and told; then ``done`` (if given), from the change's own
        task, before the lock is let go and the guarded task ends."""
        async def op() -> None:
            async with self._locked(conn.table_id, load=False) as live:
                if conn.closed or conn not in live.conns:
                    raise Refused(Code.CLOSED, "this connection no longer holds its seat")
                seat, token = conn.seat, conn.token
                if seat is None or token is None:
                    raise Refused(Code.NOT_SEATED, "spectators cannot act: join the table for "
                                  "a seat")
                try:
                    await self._change(
                        live, lambda t, now: (None, t.act(seat, token, version, action, now)))
                except Refused as e:
                    if e.code not in (Code.STALE, Code.NOT_YOUR_TURN, Code.NOT_PLAYING):
                        raise
                    # Sent again (its answer was lost with a process or a socket): if it
                    # was stored, it is answered as the first was, with the updates from
                    # its version on, and refused only if it was not.
                    again = live.table.again(seat, token, version, action, self.clock())
                    if again is None:
                        raise
                    for message in messages(again, seat):
                        conn.send(dumps(message))
                if done is not None:
                    done()

        await self._guarded(op())

    async def shown(self, conn: Conn, version: int) -> None:
        """The page on ``conn`` shows its player's turn at ``version`` (``Table.shown``):
        a hint to the clock, so nothing goes wrong loudly. One that cannot apply (not
        this seat's turn, a spectator, a table that moved) is dropped."""
        if conn.via is None:
            await self._shown_here(conn, version)
            return
        assert self.cluster is not None
        with contextlib.suppress(Elsewhere, Unanswered, Refused):
            await self.cluster.call(conn.via, "shown", [conn.cid, version])

    async def _shown_here(self, conn: Conn, version: int) -> None:
        async def op() -> None:
            async with self._locked(conn.table_id, load=False) as live:
                seat, token = conn.seat, conn.token
                if conn.closed or conn not in live.conns or seat is None or token is None:
                    return
                await self._change(
                    live, lambda t, now: (None, t.shown(seat, token, version, now)))

        with contextlib.suppress(Refused):
            await self._guarded(op())
