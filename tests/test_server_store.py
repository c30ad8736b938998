"""The stores (SQLite and a real Redis, through the same cases), the structured logs and
the wire parser on their own."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest

from gnav.server.logs import JsonFormatter, Log
from gnav.server.redis_store import NotOwner, RedisStore, lease_key
from gnav.server.security import Flood, PerKey, origin_allowed
from gnav.server.settings import Settings
from gnav.server.store import Diverged, SQLiteStore, StoreError, TableExists
from gnav.server.stores import open_store
from gnav.server.wire import Act, Hello, Ping, WireError, parse
from gnav.table import Table, TableConfig
from gnav.table.journal import dump
from gnav.vocab import Action, TablePhase
from redis_kit import RedisServer


def _played(seats: int = 3) -> tuple[Table, list[dict[str, Any]]]:
    config = TableConfig.from_json({"seats": seats, "bot": "random", "options": {"lives": 1}})
    table, host, result = Table.create("tableid1", config, now=1.0, seed=5)
    journal = list(result.journal)
    journal += table.start(host, 2.0).journal
    now = 2.0
    while table.phase != TablePhase.FINISHED:  # bots only: the clock plays the match out, in bursts
        now += 1.0
        journal += table.tick(now).journal
    return table, dump(journal)  # as a store keeps it


def test_the_store_keeps_journals_records_and_the_lobby(store_url: str) -> None:
    async def go() -> None:
        store = open_store(store_url)
        store.check()
        table, journal = _played()
        assert table.phase == TablePhase.FINISHED
        lobby = {"id": "tableid1", "phase": "lobby", "listed": True, "open": 3,
                 "created": 1.0}
        await store.create_table("tableid1", journal[:1], lobby)
        with pytest.raises(TableExists):  # another table, drawn with the same id
            await store.create_table("tableid1", [{**journal[0], "seed": 1}], lobby)
        assert await store.list_listed(10) == [lobby]
        assert list(await store.load_unfinished()) == ["tableid1"]
        playing = {**lobby, "phase": TablePhase.PLAYING}
        await store.append("tableid1", journal[1:3], playing)
        assert await store.load_unfinished() == {"tableid1": journal[:3]}
        await store.append("tableid1", journal[3:], {**lobby, "phase": TablePhase.FINISHED},
                           (1, table.record()))
        assert await store.journal("tableid1") == journal
        assert await store.journal("nosuchtable") is None
        assert await store.record("tableid1", 1) == table.record()
        assert await store.record("tableid1", 2) is None
        assert await store.load_unfinished() == {}
        assert await store.list_listed(10) == []
        again = Table.restore(await store.journal("tableid1") or [])
        assert again.record() == table.record()
        await store.close()

    asyncio.run(go())


def test_the_lobby_lists_listed_open_tables_by_their_last_change(store_url: str) -> None:
    async def go() -> None:
        store = open_store(store_url)
        lines = {t: {"id": t, "phase": "lobby", "listed": t != "tableid2", "created": 1.0}
                 for t in ("tableid1", "tableid2", "tableid3", "tableid4")}
        for t, line in lines.items():
            await store.create_table(t, [{"op": "create", "n": t}], line)
        await store.append("tableid1", [{"op": "x"}], lines["tableid1"])  # the newest now
        await store.append("tableid4", [{"op": "x"}], {**lines["tableid4"],
                                                       "phase": TablePhase.EXPIRED})
        listed = await store.list_listed(10)
        assert [line["id"] for line in listed] == ["tableid1", "tableid3"]
        assert [line["id"] for line in await store.list_listed(1)] == ["tableid1"]
        assert sorted(await store.load_unfinished()) == ["tableid1", "tableid2", "tableid3"]
        await store.close()

    asyncio.run(go())


def test_writes_asked_for_at_once_commit_together_and_fail_alone(store_url: str) -> None:
    """Many changes at once (other tables' moves while one commits): each is stored,
    and a write that fails (a taken table id) fails alone. (One table's changes come
    one at a time, under its lock: their order here is not the point.)"""
    async def go() -> None:
        store = open_store(store_url)
        line = {"id": "tableid1", "phase": "lobby", "listed": True, "created": 1.0}
        await store.create_table("tableid1", [{"op": "create"}], line)
        outcomes = await asyncio.gather(
            *[store.append("tableid1", [{"op": "x", "n": n}], line) for n in range(20)],
            store.create_table("tableid1", [{"op": "create", "again": True}], line),
            store.create_table("tableid2", [{"op": "create"}], {**line, "id": "tableid2"}),
            *[store.append("tableid1", [{"op": "x", "n": n}], line) for n in range(20, 40)],
            return_exceptions=True)
        assert [type(o).__name__ for o in outcomes] == \
            ["NoneType"] * 20 + ["TableExists", "NoneType"] + ["NoneType"] * 20
        journal = await store.journal("tableid1") or []
        assert journal[0] == {"op": "create"}
        assert sorted(journal[1:], key=lambda e: e["n"]) == \
            [{"op": "x", "n": n} for n in range(40)]
        assert await store.journal("tableid2") == [{"op": "create"}]
        await store.close()

    asyncio.run(go())


def test_more_changes_at_once_than_connections_wait_their_turn(store_url: str) -> None:
    """Hundreds of tables changing at once (1,000 tables in play): each change is stored;
    none is refused for want of a connection to the store."""
    async def go() -> None:
        store = open_store(store_url)
        ids = [f"table{n:03d}" for n in range(300)]
        await asyncio.gather(*[store.create_table(t, [{"op": "create"}], {"id": t})
                               for t in ids])
        await asyncio.gather(*[store.append(t, [{"op": "x"}], {"id": t}) for t in ids])
        for t in ids[::50]:
            assert await store.journal(t) == [{"op": "create"}, {"op": "x"}]
        await store.close()

    asyncio.run(go())


def test_both_stores_restore_the_same_table(tmp_path: Path, redis_url: str) -> None:
    """A table stored change by change in SQLite and in Redis comes back the same from
    each, and the same as the table that wrote the journal."""
    table, journal = _played(4)

    async def stored(url: str) -> list[dict[str, Any]]:
        store = open_store(url)
        await store.create_table("tableid1", journal[:1], {"phase": "lobby"})
        for i in range(1, len(journal), 3):  # a few entries a change, as the hub writes
            await store.append("tableid1", journal[i:i + 3], {"phase": "playing"})
        back = await store.journal("tableid1")
        await store.close()
        assert back is not None
        return back

    from_sqlite = asyncio.run(stored(str(tmp_path / "s.db")))
    from_redis = asyncio.run(stored(redis_url))
    assert from_sqlite == from_redis == journal
    a, b = Table.restore(from_sqlite), Table.restore(from_redis)
    assert a.record() == b.record() == table.record()
    assert a.info(9.0) == b.info(9.0) == table.info(9.0)


def test_store_urls_and_their_errors(tmp_path: Path) -> None:
    assert isinstance(open_store(f"sqlite:///{tmp_path / 'a.db'}"), SQLiteStore)
    assert isinstance(open_store(str(tmp_path / "b.db")), SQLiteStore)
    assert isinstance(open_store("redis://127.0.0.1:1/0"), RedisStore)
    for bad in ("postgres://x/y", "sqlite:///"):
        with pytest.raises(StoreError) as info:
            open_store(bad)
        assert "--store" in str(info.value) and "\n" not in str(info.value)
    # Nobody listens on port 1: one line naming where, no password.
    with pytest.raises(StoreError, match=r"cannot reach Redis at 127\.0\.0\.1:1/0"):
        open_store("redis://:secret@127.0.0.1:1/0").check()

    async def go() -> None:
        store = open_store("redis://:secret@127.0.0.1:1/0")
        with pytest.raises(StoreError) as info:
            await store.append("tableid1", [{"op": "x"}], {"phase": "playing"})
        assert "secret" not in str(info.value) and "\n" not in str(info.value)
        await store.close()

    asyncio.run(go())


def test_a_fenced_change_needs_the_lease(redis_url: str, redis_server: RedisServer) -> None:
    """A server that lost a table's lease cannot add to its journal."""
    async def go() -> None:
        store = RedisStore(redis_url)
        await store.create_table("tableid1", [{"op": "create"}], {"phase": "lobby"})
        with redis_server.client() as client:
            client.set(lease_key("tableid1"), "you")
        with pytest.raises(NotOwner):
            await store.append("tableid1", [{"op": "x"}], {"phase": "lobby"}, fence="me")
        with redis_server.client() as client:
            client.set(lease_key("tableid1"), "me")
        await store.append("tableid1", [{"op": "x"}], {"phase": "lobby"}, fence="me")
        with pytest.raises(NotOwner):
            await store.append("tableid1", [{"op": "y"}], {"phase": "lobby"}, fence="you")
        # The lease ran out while nobody took it: the owner takes it back, as nobody has
        # written since; not once another has written.
        with redis_server.client() as client:
            client.delete(lease_key("tableid1"))
        await store.append("tableid1", [{"op": "y"}], {"phase": "lobby"}, fence="me")
        with redis_server.client() as client:
            assert client.get(lease_key("tableid1")) == "me"
            client.delete(lease_key("tableid1"))
        other = RedisStore(redis_url)
        await other.append("tableid1", [{"op": "z"}], {"phase": "lobby"})
        await other.close()
        with pytest.raises(NotOwner):
            await store.append("tableid1", [{"op": "w"}], {"phase": "lobby"}, fence="me")
        assert await store.journal("tableid1") == [{"op": "create"}, {"op": "x"}, {"op": "y"},
                                                  {"op": "z"}]
        with pytest.raises(StoreError, match="not in Redis"):
            await store.append("tableid9", [{"op": "x"}], {"phase": "lobby"})
        await store.close()

    asyncio.run(go())


def test_a_write_sent_again_is_stored_once(redis_url: str, redis_server: RedisServer
                                           ) -> None:
    """A write whose reply was lost (the connection cut as Redis restarts) is sent again
    by the client: it finds itself stored and is done, never appended twice; a change
    over a journal that moved on without this server is refused (``Diverged``)."""
    _table, journal = _played()

    async def go() -> None:
        store = RedisStore(redis_url)
        await store.create_table("tableid1", journal[:1], {"phase": "lobby"})
        await store.create_table("tableid1", journal[:1], {"phase": "lobby"})  # again
        with redis_server.client() as client:
            client.set(lease_key("tableid1"), "me")
        for i in (1, 2):
            before = store.last_ids["tableid1"]
            await store.append("tableid1", journal[i:i + 1], {"phase": "playing"}, fence="me")
            store.last_ids["tableid1"] = before  # as if the reply was lost: sent again
            await store.append("tableid1", journal[i:i + 1], {"phase": "playing"}, fence="me")
        assert await store.journal("tableid1") == journal[:3]
        store.last_ids["tableid1"] = before  # memory one change behind the journal
        with pytest.raises(Diverged, match="does not hold"):
            await store.append("tableid1", journal[3:4], {"phase": "playing"}, fence="me")
        assert await store.journal("tableid1") == journal[:3]
        await store.close()

    asyncio.run(go())


def test_the_redis_store_rides_out_a_restart(tmp_path: Path) -> None:
    """Redis restarts (its own persistence on) under a store whose pool holds connections
    to the old process, and once more while a read and a write wait for it: neither the
    reads nor the write fail ("Connection closed by server" was a 503 to a client)."""
    server = RedisServer(tmp_path / "redis", persist=True)
    table, journal = _played()

    async def go() -> None:
        store = RedisStore(server.url)
        line = {"id": "tableid1", "phase": "lobby", "listed": True}
        await store.create_table("tableid1", journal[:1], line)
        await store.append("tableid1", journal[1:3], {**line, "phase": "playing"})
        server.restart()  # every pooled connection is cut
        assert await store.journal("tableid1") == journal[:3]
        assert await store.list_listed(5) == [{**line, "phase": "playing"}]
        server.stop()
        def start_later() -> None:
            time.sleep(1.0)
            server.start()

        back = asyncio.get_running_loop().run_in_executor(None, start_later)
        waited = time.monotonic()
        await store.append("tableid1", journal[3:], {**line, "phase": TablePhase.FINISHED},
                           (1, table.record()))
        assert await store.record("tableid1", 1) == table.record()
        assert time.monotonic() - waited >= 0.9  # it did wait for Redis to come back
        await back
        assert await store.journal("tableid1") == journal
        await store.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()


def test_the_redis_store_serves_hundreds_of_tables_at_once(redis_url: str) -> None:
    """Hundreds of tables change at once (each under its own lock, so each holds one
    command at a time): the commands wait their turn for a connection, none is refused
    (redis-py's own pool refuses the 101st: "Too many connections")."""
    async def go() -> None:
        store = RedisStore(redis_url)
        ids = [f"table{n:04d}" for n in range(400)]
        await asyncio.gather(*(store.create_table(t, [{"op": "create", "id": t}],
                                                  {"phase": "lobby"}) for t in ids))
        await asyncio.gather(*(store.append(t, [{"op": "x"}], {"phase": "lobby"})
                               for t in ids))
        journals = await asyncio.gather(*(store.journal(t) for t in ids))
        assert journals == [[{"op": "create", "id": t}, {"op": "x"}] for t in ids]
        await store.close()

    asyncio.run(go())


def test_one_database_serves_one_server(tmp_path: Path) -> None:
    async def go() -> None:
        first = SQLiteStore(tmp_path / "s.db")
        mode = first._db.execute("PRAGMA journal_mode").fetchone()[0]
        sync = first._db.execute("PRAGMA synchronous").fetchone()[0]
        assert (mode, sync) == ("wal", 2)  # 2: FULL: a commit survives a power cut
        with pytest.raises(StoreError, match="in use"):
            SQLiteStore(tmp_path / "s.db")
        await first.close()
        await SQLiteStore(tmp_path / "s.db").close()  # free again once closed

    asyncio.run(go())
    (tmp_path / "junk.db").write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="not a gnav database"):
        SQLiteStore(tmp_path / "junk.db")


def test_logs_are_one_json_object_a_line() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("gnav.server.test")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        log = Log("gnav.server.test")
        log.info("table.created", "t1", seats=4, name="Bjørn")
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            log.error("table.failed", "t1", exc=True)
        logging.getLogger("gnav.server.test").warning("plain %s", "text")
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [e["event"] for e in lines] == ["table.created", "table.failed", "gnav"]
    assert lines[0]["fields"] == {"seats": 4, "name": "Bjørn"} and lines[0]["table"] == "t1"
    assert lines[0]["time"].endswith("Z") and lines[0]["level"] == "info"
    assert "boom" in lines[1]["fields"]["error"]
    assert lines[2]["fields"]["message"] == "plain text"


def test_the_wire_parser() -> None:
    assert parse('{"type": "ping"}') == Ping()
    assert parse('{"type": "act", "action": "swap", "version": 7}') == Act(Action.SWAP, 7)
    assert parse('{"type": "hello", "seat": null, "token": "x"}') == Hello(None, None, None)
    assert parse('{"type": "hello", "seat": 2, "token": "t", "since": 3}') == Hello(2, "t", 3)
    bad: list[str | bytes] = [
        '', 'null', '"hello"', '{"type": 1}', '{"type": "act", "action": 1, "version": 1}',
        '{"type": "hello", "seat": -1, "token": "t"}', '{"type": "hello", "seat": 1, "token": ""}',
        '{"type": "hello", "seat": 1, "token": "' + "t" * 200 + '"}',
        '{"type": "hello", "seat": null, "since": 1.5}', b'{"type": "ping"}']
    for text in bad:
        with pytest.raises(WireError) as info:
            parse(text)
        assert info.value.reason and "\n" not in info.value.reason


def test_limits_and_origins() -> None:
    now = [0.0]
    flood = Flood(rate=10, burst=5, clock=lambda: now[0])
    assert [flood.check() for _ in range(12)] == ["ok"] * 5 + ["refuse"] * 5 + ["close"] * 2
    now[0] += 1.0
    assert flood.check() == "ok" and flood.refused == 0
    per_ip = PerKey(rate=1 / 60, burst=2, clock=lambda: now[0])
    assert per_ip.take("a") is None and per_ip.take("a") is None
    wait = per_ip.take("a")
    assert wait is not None and 55 < wait <= 60
    assert per_ip.take("b") is None
    origins = Settings(host="127.0.0.1", port=8123,
                       allow_origins=("https://gnav.example",)).origins
    assert origin_allowed(None, origins)
    assert origin_allowed("http://localhost:8123", origins)
    assert origin_allowed("https://gnav.example", origins)
    assert not origin_allowed("http://localhost:8124", origins)
    assert not origin_allowed("null", origins)
    assert not origin_allowed("http://127.0.0.1:8123.evil.example", origins)
