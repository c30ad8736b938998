"""Where tables live between restarts: their journals, lobby lines and finished records.

``Store`` is the contract the hub relies on; ``SQLiteStore`` keeps it in one SQLite
file, ``gnav.server.redis_store.RedisStore`` in a Redis that several servers share
(``gnav.server.stores.open_store`` picks one from a ``--store`` URL: above both, so
that this module, which the Redis store builds on, never imports it). A table is its
journal: every entry the table returns is appended (and committed) before anyone is told
what it did, so a restarted server rebuilds every table exactly. The methods are async: a
network store fits the same shape.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from gnav.errors import GnavError
from gnav.server.jsontext import dumps as _dumps
from gnav.vocab import TablePhase

Entry = dict[str, Any]
Statement = tuple[str, tuple[Any, ...]]  # SQL and its parameters
T = TypeVar("T")

SCHEMA = 1
TABLES = (
    "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, created REAL NOT NULL, "
    "listed INTEGER NOT NULL, phase TEXT NOT NULL, summary TEXT NOT NULL, "
    "updated INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, table_id TEXT NOT NULL, "
    "entry TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS journal_by_table ON journal (table_id, seq)",
    "CREATE TABLE IF NOT EXISTS records (table_id TEXT NOT NULL, game INTEGER NOT NULL, "
    "record TEXT NOT NULL, PRIMARY KEY (table_id, game))",
    "CREATE INDEX IF NOT EXISTS tables_by_phase ON tables (phase, listed, updated)",
)

# The phases of a table not done with: restored at start, listed in the lobby.
_OPEN = (TablePhase.LOBBY.value, TablePhase.PLAYING.value)


class Store(Protocol):
    created: bool  # the storage was not there and was made empty (said at start)
    shared: bool  # other processes may serve the same tables (gnav.server.cluster)

    def check(self) -> None:
        """Make sure the storage answers (at start, before serving).

        :raises: :exc:`StoreError` if it does not.
        """

    async def create_table(self, table_id: str, entries: Sequence[Entry],
                           summary: Entry) -> None:
        """A new table and its first journal entries.

        :raises:
            - :exc:`TableExists` if the id is taken.
            - :exc:`StoreError` if it cannot be stored.
        """

    async def append(self, table_id: str, entries: Sequence[Entry], summary: Entry,
                     finished: tuple[int, Entry] | None = None, *,
                     fence: str | None = None) -> None:
        """Entries to the table's journal, its lobby line, and (when a match has just
        ended) ``(game, record)``: all durable together before this returns, or none of
        them and StoreError. ``fence``: the process that must hold the table's lease for
        the write to be made (a store shared by processes checks it)."""

    async def journal(self, table_id: str) -> list[Entry] | None:
        """The table's whole journal, or None if there is no such table."""

    async def load_unfinished(self) -> dict[str, list[Entry]]:
        """The journal of every table still in its lobby or playing."""

    async def record(self, table_id: str, game: int) -> Entry | None:
        """The record (docs/spec/records.md) of a finished match (games count from 1)."""

    async def list_listed(self, limit: int) -> list[Entry]:
        """Lobby lines of listed tables not finished, newest first."""

    async def close(self) -> None:
        """Finish pending writes and release the storage."""


class StoreError(GnavError):
    """The store cannot do what was asked; the text says why in one line."""


class StoreFull(StoreError):
    """The store refuses to grow (Redis at its ``maxmemory``, a disk that is full):
    nothing was written, and nothing will be until room is made."""


class TableExists(StoreError):
    """``create_table`` with an id that is taken."""


class Diverged(StoreError):
    """A change refused because the stored journal is not the one this process holds
    in memory (another process took the table over, or wrote to it): the table must be
    read again from the store before it changes."""


class SQLiteStore:
    """One SQLite file in WAL mode, synchronous=FULL: a commit survives a crash of the
    process and of the machine. The file is locked for this process alone (two servers
    restoring the same tables would fork their journals)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        # Not silent: a server that finds no database starts an empty one, and says so
        # (a deleted file would otherwise look like a fresh install).
        self.created = not os.path.exists(self.path)
        self.shared = False  # the file is locked for this process alone
        # One thread does every query: SQLite work stays off the event loop and
        # writes are serialised in the order they were asked for.
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gnav-store")
        # Group commit: the writes asked for while one commits wait, and then go in one
        # transaction, one fsync for all of them (each still returns once it is durable).
        self._waiting: list[tuple[list[Statement], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._db = self._open()
        # The file's identity: if it is deleted or replaced while the server runs,
        # SQLite goes on writing to the old, unlinked file, and every change after that
        # would be lost at the next start. Each write checks it first.
        self._identity = self._stat()
        self._lost: str | None = None

    def check(self) -> None:
        """Opening the file was the check (``__init__`` raised if it failed)."""

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def _check_file(self) -> None:
        if self._lost is None:
            now = self._stat()
            if now is None:
                self._lost = (f"the database file {self.path} was deleted while the server "
                              f"ran; changes are refused until it is restored or the "
                              f"server restarted")
            elif now != self._identity:
                self._lost = (f"the database file {self.path} was replaced while the "
                              f"server ran; changes are refused until the server restarts")
        if self._lost is not None:
            raise StoreError(self._lost)

    def _explain(self, e: sqlite3.Error) -> StoreError:
        """One line for a SQLite failure, naming what an operator can fix."""
        text = str(e)
        if "readonly" in text or "read-only" in text or not os.access(self.path, os.W_OK):
            return StoreError(f"the database {self.path} is read-only")
        if "disk is full" in text or "database or disk is full" in text:
            return StoreFull(f"the disk holding {self.path} is full")
        return StoreError(f"the database {self.path} failed: {text}")

    def _open(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=1.0)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the database {self.path}: {e}") from None
        try:
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise StoreError(f"the database {self.path} cannot use WAL mode ({mode})")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN IMMEDIATE")  # takes (and, in exclusive mode, keeps) the lock
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA:
                raise StoreError(f"the database {self.path} is from a newer gnav "
                                 f"(schema {version})")
            for statement in TABLES:
                db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA}")
            db.execute("COMMIT")
        except sqlite3.OperationalError as e:
            db.close()
            if "locked" in str(e):
                raise StoreError(f"the database {self.path} is in use by another "
                                 f"gnav serve") from None
            if "readonly" in str(e) or not os.access(self.path, os.W_OK):
                raise StoreError(f"the database {self.path} is read-only") from None
            raise StoreError(f"cannot use the database {self.path}: {e}") from None
        except sqlite3.DatabaseError as e:
            db.close()
            raise StoreError(f"{self.path} is not a gnav database: {e}") from None
        except StoreError:
            db.close()
            raise
        return db

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._guard,
                                                                fn, *args)

    def _guard(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn`` on the store's thread; any failure is a StoreError of one line."""
        try:
            return fn(*args)
        except Exception as e:
            raise self._failure(e) from None

    def _failure(self, e: Exception) -> Exception:
        """What a failure of the store's work is to its caller: a StoreError of one line,
        or the IntegrityError itself (a table id that is taken)."""
        if isinstance(e, (StoreError, sqlite3.IntegrityError)):
            return e
        if isinstance(e, sqlite3.Error):
            return self._explain(e)
        if isinstance(e, (ValueError, TypeError)):  # e.g. text that cannot be encoded
            return StoreError(f"the database {self.path} cannot hold that: {e}")
        return e

    async def _commit(self, statements: list[Statement]) -> None:
        """``statements`` committed together, in the order the writes were asked for;
        with the writes of others that came while the last commit ran, in one
        transaction (``_write``).

        :raises: :exc:`StoreError` (or IntegrityError) if they were not stored.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._waiting.append((statements, done))
        if self._writer is None:
            self._writer = loop.create_task(self._write_waiting())
        await done

    async def _write_waiting(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                outcomes: list[Exception | None]
                try:
                    outcomes = await self._run(self._write, [s for s, _ in batch])
                except Exception as e:  # nothing of the batch was stored
                    outcomes = [e] * len(batch)
                for (_, done), outcome in zip(batch, outcomes, strict=True):
                    if done.done():  # its caller was cancelled (the write went on)
                        continue
                    if outcome is None:
                        done.set_result(None)
                    else:  # each caller its own exception (one raised in many tasks
                        # would gather all their tracebacks)
                        done.set_exception(type(outcome)(*outcome.args))
        finally:
            self._writer = None

    def _write(self, batch: list[list[Statement]]) -> list[Exception | None]:
        """Each write of ``batch`` in one transaction, one savepoint each: a write that
        fails (a table id that is taken) is rolled back alone and gets its failure; the
        others are committed together. If the transaction itself fails, none is stored
        (the exception)."""
        self._check_file()
        db = self._db
        outcomes: list[Exception | None] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            for statements in batch:
                db.execute("SAVEPOINT write")
                outcome = None
                try:
                    for sql, params in statements:
                        db.execute(sql, params)
                except Exception as e:
                    if not db.in_transaction:  # SQLite rolled everything back (e.g. I/O)
                        raise
                    db.execute("ROLLBACK TO write")
                    outcome = self._failure(e)
                db.execute("RELEASE write")
                outcomes.append(outcome)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return outcomes

    @staticmethod
    def _journal_rows(table_id: str, entries: Sequence[Entry]) -> list[Statement]:
        return [("INSERT INTO journal (table_id, entry) VALUES (?, ?)", (table_id, _dumps(e)))
                for e in entries]

    @staticmethod
    def _summary_row(table_id: str, summary: Entry) -> Statement:
        return ("UPDATE tables SET phase = ?, summary = ?, updated = "
                "(SELECT coalesce(max(seq), 0) FROM journal) WHERE id = ?",
                (summary.get("phase", TablePhase.LOBBY), _dumps(summary), table_id))

    async def create_table(self, table_id: str, entries: Sequence[Entry],
                           summary: Entry) -> None:
        statements = [("INSERT INTO tables (id, created, listed, phase, summary, updated) "
                       "VALUES (?, ?, ?, ?, ?, 0)",
                       (table_id, float(summary.get("created", 0.0)),
                        int(bool(summary.get("listed"))), TablePhase.LOBBY, _dumps(summary))),
                      *self._journal_rows(table_id, entries),
                      self._summary_row(table_id, summary)]
        try:
            await self._commit(statements)
        except sqlite3.IntegrityError:
            raise TableExists(f"table {table_id} exists already") from None

    async def append(self, table_id: str, entries: Sequence[Entry], summary: Entry,
                     finished: tuple[int, Entry] | None = None, *,
                     fence: str | None = None) -> None:
        # One process holds the file (its lock): there is no lease to check.
        statements = [*self._journal_rows(table_id, entries),
                      self._summary_row(table_id, summary)]
        if finished is not None:
            game, record = finished
            statements.append(("INSERT OR REPLACE INTO records (table_id, game, record) "
                               "VALUES (?, ?, ?)", (table_id, game, _dumps(record))))
        await self._commit(statements)

    def _journal(self, table_id: str) -> list[Entry] | None:
        rows = self._db.execute("SELECT entry FROM journal WHERE table_id = ? ORDER BY seq",
                                (table_id,)).fetchall()
        return [json.loads(r[0]) for r in rows] or None

    async def journal(self, table_id: str) -> list[Entry] | None:
        return await self._run(self._journal, table_id)

    def _unfinished(self) -> dict[str, list[Entry]]:
        rows = self._db.execute(
            "SELECT j.table_id, j.entry FROM journal j JOIN tables t ON t.id = j.table_id "
            "WHERE t.phase IN (?, ?) ORDER BY j.seq", _OPEN).fetchall()
        out: dict[str, list[Entry]] = {}
        for table_id, entry in rows:
            out.setdefault(table_id, []).append(json.loads(entry))
        return out

    async def load_unfinished(self) -> dict[str, list[Entry]]:
        return await self._run(self._unfinished)

    def _record(self, table_id: str, game: int) -> Entry | None:
        row = self._db.execute("SELECT record FROM records WHERE table_id = ? AND game = ?",
                               (table_id, game)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    async def record(self, table_id: str, game: int) -> Entry | None:
        return await self._run(self._record, table_id, game)

    def _listed(self, limit: int) -> list[Entry]:
        rows = self._db.execute(
            "SELECT summary FROM tables WHERE listed = 1 AND phase IN (?, ?) "
            "ORDER BY updated DESC LIMIT ?", (*_OPEN, limit)).fetchall()
        return [dict(json.loads(r[0])) for r in rows]

    async def list_listed(self, limit: int) -> list[Entry]:
        return await self._run(self._listed, limit)

    async def close(self) -> None:
        while self._writer is not None:  # the writes asked for are finished first
            await asyncio.shield(self._writer)
        await self._run(self._db.close)  # checkpoints the WAL into the main file
        self._pool.shutdown(wait=True)
