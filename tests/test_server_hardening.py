"""Issue 9, one test (or a few) per numbered item, each starting from the reproduction:
nobody can stall, freeze or empty a table they do not own."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
import uvicorn
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from gnav.errors import Code
from gnav.names import NAME_MAX, BadName, Name, parse_name
from gnav.server.faults import Fault
from gnav.server.redis_store import RedisStore
from gnav.server.run import bind, uvicorn_config
from gnav.server.settings import Settings
from gnav.server.store import SQLiteStore, Store, StoreError
from gnav.server.untrusted import Untrusted, address_block, whole
from gnav.server.wire import CLOSE_GOING_AWAY
from gnav.table import Pace, Refused, Table, TableConfig
from gnav.table.journal import ActEntry, Mover
from gnav.table.table import MAX_CATCH_UP
from gnav.verify import verify_text
from gnav.vocab import BotKind, TablePhase
from gnav.web import steps as viewer
from server_kit import (
    Clock,
    Json,
    Player,
    SessionLink,
    TestClient,
    a_match,
    create,
    eventually,
    host,
    http_error,
    hub_of,
    join,
    make_app,
    move_clock,
    play_out,
    refused,
    serving,
    settled,
)

STATIC_JS = Path(viewer.__file__).resolve().parent / "static" / "js" / "replay.js"


def _journal(client: TestClient, tid: str) -> list[Json]:
    journal = client.portal.call(hub_of(client).store.journal, tid)  # type: ignore[union-attr]
    assert journal is not None
    return journal


def _all_open(players: list[Player]) -> None:
    """Every socket still answers a ping (a closed one raises)."""
    for p in players:
        p.sync()


# -- 1. one bad string ------------------------------------------------------------------

def test_a_lone_surrogate_in_a_hello_is_refused_and_the_table_plays_on(tmp_path: Path) -> None:
    clock = Clock()
    with a_match(tmp_path, clock, {"turn_timer": 30}) as m:
        client, tid, players = m.client, m.tid, m.players
        before = client.get(f"/api/tables/{tid}").json()["version"]
        # The reproduction: "\ud800" in the JSON text of a hello's token.
        with client.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text('{"type": "hello", "seat": 0, "token": "\\ud800", "since": null}')
            message = ws.receive_json()
            assert message["code"] == "bad_field" and "token" in message["reason"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        _all_open(players)
        assert not any(p.errors for p in players)
        assert client.get(f"/api/tables/{tid}").json()["version"] == before
        # The table's timer still runs: the silent mover is played when time is up.
        move_clock(client, clock, 31, tid)
        eventually(lambda: (players[2].sync().version or 0) > before)
        play_out(players, random.Random(1))
        record = client.get(f"/api/tables/{tid}/record")
        assert verify_text(record.text, "t.json")[0] == 0


def test_surrogates_in_a_join_are_refused_in_one_line(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        created = create(client)
        tid = created["id"]
        url = f"/api/tables/{tid}/join"
        # json.dumps writes a lone surrogate as the escape a hostile client would send.
        reason = http_error(client.post(url, content=json.dumps(
            {"name": "A\ud800", "invite": created["invite"]})), 400, "bad_name")
        assert "surrogate" in reason and "join.name" in reason
        http_error(client.post(url, content=json.dumps({"name": "A", "invite": "\udfff"})),
                   403, "bad_invite")
        http_error(client.post(url, json={"name": "\u200bA", "invite": created["invite"]}),
                   400, "bad_name")  # a zero-width space: a formatting character
        # Nothing was seated, the table is still there, and a good join works.
        info = client.get(f"/api/tables/{tid}").json()
        assert info["version"] == 0
        join(client, created, "Astrid")


def test_an_unexpected_error_in_a_change_is_refused_alone_and_undone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with a_match(tmp_path) as m:
        before = m.state()
        mover = m.mover
        real = Table.act

        def broken(self: Table, *args: Any) -> Any:
            self.seats[0].name = parse_name("changed")  # half a change, then a bug
            self.version += 7
            raise RuntimeError("a bug")

        monkeypatch.setattr(Table, "act", broken)
        mover.act("stand")
        assert "nothing was changed" in refused(mover, "internal")
        _all_open(m.players)
        assert m.state() == before
        monkeypatch.setattr(Table, "act", real)
        version = mover.version
        mover.act("stand")
        assert not mover.errors and (mover.version or 0) > (version or 0)


# -- 2. bots at a pace ------------------------------------------------------------------

def test_the_cost_a_creator_may_ask_for_is_bounded(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        # The reproduction: 41 seats of counter bots with 10 lives.
        r = client.post("/api/tables", json={"seats": 41, "bot": "counter",
                                             "options": {"lives": 10}})
        assert "counter" in http_error(r, 400, "bad_config")
        created = create(client, seats=41, bot="threshold", options={"lives": 10})
        r = client.post(f"/api/tables/{created['id']}/bots", json={"kind": "counter"},
                        headers=host(created))
        assert "12 seats" in http_error(r, 400, "bad_bot")
        # Where the expert has nothing solved or trained (options no policy was trained
        # for) it would play as counter: the same bound holds for it, at creation and
        # when a bot is added.
        r = client.post("/api/tables", json={"seats": 41, "bot": "expert",
                                             "options": {"drag": False}})
        assert "expert" in http_error(r, 400, "bad_config")
        untrained = create(client, seats=41, bot="threshold", options={"drag": False})
        r = client.post(f"/api/tables/{untrained['id']}/bots", json={"kind": "expert"},
                        headers=host(untrained))
        assert "12 seats" in http_error(r, 400, "bad_bot")
        small = create(client, seats=4, bot="expert")
        assert small["id"]
        # Where it looks its decisions up (every size of a gnav match ships a strategy or
        # a policy), it sits at any size.
        assert create(client, seats=41, bot="expert")["id"]
        r = client.post(f"/api/tables/{created['id']}/bots", json={"kind": "expert"},
                        headers=host(created))
        assert r.status_code == 200


def test_an_all_bot_table_plays_in_bursts_and_stalls_nobody(tmp_path: Path) -> None:
    with serving(tmp_path, workers=2) as client:
        big = create(client, seats=41, bot="threshold", options={"lives": 10})
        start = time.monotonic()
        r = client.post(f"/api/tables/{big['id']}/start", headers=host(big))
        assert r.status_code == 200 and time.monotonic() - start < 2
        first = r.json()["version"]
        assert r.json()["phase"] == TablePhase.PLAYING
        assert first <= 2 * Pace().burst + 2  # one burst, not the whole match
        # Other tables are served while its bots play on the bots' thread.
        slowest = 0.0
        for n in range(5):
            t0 = time.monotonic()
            other = create(client, seats=3)
            joined = join(client, other, f"P{n}")
            with client.websocket_connect(f"/ws/{other['id']}") as ws:
                Player(SessionLink(ws), f"P{n}", 0).hello(joined["token"])
            slowest = max(slowest, time.monotonic() - t0)
        assert slowest < 1.0, slowest
        eventually(lambda: client.get(f"/api/tables/{big['id']}").json()["version"]
                   > first + 100)
        stop = time.monotonic()
    # The match was still on when the server stopped: the stop waited for one burst
    # at most, and what was played is in the store.
    assert time.monotonic() - stop < 10.0  # the old shutdown_wait, and issue 27's bound
    journal = SQLiteStore(tmp_path / "gnav.sqlite3")
    try:
        restored = Table.restore(_sync_journal(journal, big["id"]))
    finally:
        journal._db.close()
    assert restored.phase == TablePhase.PLAYING and restored.version > first + 100


def _sync_journal(store: SQLiteStore, tid: str) -> list[Json]:
    rows = store._db.execute("SELECT entry FROM journal WHERE table_id = ? ORDER BY seq",
                             (tid,)).fetchall()
    return [json.loads(r[0]) for r in rows]


def test_with_only_spectators_bots_play_at_a_persons_pace(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock) as client:
        created = create(client, seats=4, options={"lives": 3})
        tid = created["id"]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            watcher = Player(SessionLink(ws)).hello(None)
            client.post(f"/api/tables/{tid}/start", headers=host(created))

            def decisions() -> int:
                return sum(1 for e in _journal(client, tid) if e["op"] == "act")

            assert decisions() == 1  # the start plays one decision, not a burst
            settled(client, tid)  # the timer waits for the clock: nothing more
            assert decisions() == 1
            for n in range(2, 6):
                move_clock(client, clock, Pace().watched, tid)
                eventually(lambda n=n: decisions() >= n)  # type: ignore[misc]
                assert decisions() == n
            assert watcher.sync().version == client.get(f"/api/tables/{tid}").json()["version"]


def test_where_a_burst_ends_never_changes_the_match() -> None:
    records = []
    for pace in (Pace(burst=1), Pace(burst=7), Pace(burst=1000, seconds=100)):
        config = TableConfig.from_json({"seats": 5, "bot": "threshold",
                                        "options": {"lives": 2}})
        table, token, _ = Table.create("tableid1", config, now=0.0, seed=11)
        table.pace, table.watched = pace, False
        table.start(token, 0.0)
        now = 0.0
        while table.phase != TablePhase.FINISHED:
            now += 1.0
            assert len(table.tick(now).journal) <= 2 * pace.burst + 1
        records.append(table.record())
    assert records[0] == records[1] == records[2]


def test_sigterm_finishes_soon_with_bot_tables_playing(tmp_path: Path) -> None:
    from test_server_process import running

    db, log = str(tmp_path / "gnav.sqlite3"), tmp_path / "log.jsonl"
    with running(db, log) as server:
        made = []
        for _ in range(3):
            created = server.http.post("/api/tables", json={
                "seats": 41, "bot": "threshold", "options": {"lives": 10}}).json()
            r = server.http.post(f"/api/tables/{created['id']}/start",
                                 headers=host(created))
            assert r.status_code == 200
            made.append(created["id"])
        time.sleep(0.5)
        t0 = time.monotonic()
        server.stop(15)
        assert time.monotonic() - t0 < 8
    with running(db, log) as server:  # each comes back where its journal left it
        health = server.http.get("/health").json()
        assert health["unfinished"] == 3
        for tid in made:
            assert server.http.get(f"/api/tables/{tid}").json()["phase"] == TablePhase.PLAYING


# -- 3. a seat that never connected -----------------------------------------------------

def test_a_seat_that_never_connected_is_played_after_its_grace(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock) as client:
        created = create(client, seats=3, turn_timer=None, grace=10)
        tid = created["id"]
        astrid = join(client, created, "Astrid")
        join(client, created, "Bjørn")  # and never connects
        with client.websocket_connect(f"/ws/{tid}") as ws:
            a = Player(SessionLink(ws), "Astrid", 0).hello(astrid["token"])
            client.post(f"/api/tables/{tid}/start", headers=host(created))
            rng = random.Random(2)
            for _ in range(2000):
                a.sync()
                if a.phase == "finished":
                    break
                if a.my_turn and a.view is not None:
                    a.act(rng.choice(a.view["legal"]))
                elif a.view is not None and a.view["to_act"] == "Bjørn":
                    version = a.version
                    move_clock(client, clock, 11, tid)
                    eventually(lambda v=version: a.sync().version != v)  # type: ignore[misc]
            assert a.phase == "finished"  # the match did not wait for Bjørn
        acts = [e for e in _journal(client, tid) if e["op"] == "act" and e["seat"] == 1]
        assert acts and all(e["by"] == "standin" for e in acts)


def test_a_never_connected_seat_has_a_deadline_at_its_turn() -> None:
    config = TableConfig.from_json({"seats": 2, "bot": "random", "turn_timer": None,
                                    "grace": 10})
    table, token, _ = Table.create("tableid1", config, now=0.0, seed=3)
    for name in ("Astrid", "Bjørn"):
        table.join(parse_name(name), 0.0)
    table.start(token, 0.0)
    assert table.match is not None and table.match.to_act is not None
    assert table.deadline() == 10.0
    assert table.tick(9.0).journal == []
    first = table.tick(10.0).journal[0]
    assert isinstance(first, ActEntry) and first.by == Mover.STANDIN


# -- 4. the table cap --------------------------------------------------------------------

def test_unstarted_tables_expire_and_leave_the_lobby(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock, lobby_ttl=3600) as client:
        created = create(client, listed=True)
        tid = created["id"]
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [tid]
        clock.now += 3601
        client.portal.call(hub_of(client).sweep)  # type: ignore[union-attr]
        assert client.get("/api/tables").json()["tables"] == []
        r = client.post(f"/api/tables/{tid}/join", json={"name": "A"})
        assert "never started" in http_error(r, 410, "expired")
        http_error(client.post(f"/api/tables/{tid}/start", headers=host(created)), 410,
                   "expired")
        assert client.get(f"/api/tables/{tid}").json()["phase"] == "expired"
    with serving(tmp_path, clock, lobby_ttl=3600) as client:  # and stay closed
        assert client.get("/health").json()["tables"] == 0
        assert client.get(f"/api/tables/{tid}").json()["phase"] == "expired"


def test_a_lobby_past_its_time_expires_when_next_asked_for(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock, lobby_ttl=3600) as client:
        created = create(client)
    clock.now += 7200  # the server was down
    with serving(tmp_path, clock, lobby_ttl=3600) as client:
        r = client.post(f"/api/tables/{created['id']}/join",
                        json={"name": "A", "invite": created["invite"]})
        http_error(r, 410, "expired")


def test_the_cap_is_reached_by_one_client_only(tmp_path: Path) -> None:
    with serving(tmp_path, address="203.0.113.9", tables_per_client=3,
                 creates_per_minute=100) as client:
        for _ in range(3):
            create(client)
        r = client.post("/api/tables", json={})
        assert "3 unfinished tables" in http_error(r, 429, "too_many")
        # Another client creates as before.
        hub = hub_of(client)
        table, _token = client.portal.call(  # type: ignore[union-attr]
            hub.create, TableConfig(), "198.51.100.1")
        assert table.phase == "lobby"


def test_idle_tables_leave_memory_and_a_restart_does_not_fill_it(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock, max_tables=3, idle_after=60) as client:
        made = [create(client) for _ in range(5)]  # idle lobbies make room for new ones
        assert client.get("/health").json()["tables"] <= 3
        clock.now += 61
        client.portal.call(hub_of(client).sweep)  # type: ignore[union-attr]
        assert client.get("/health").json()["tables"] == 0
        assert client.get(f"/api/tables/{made[0]['id']}").json()["phase"] == "lobby"
        join(client, made[0], "Astrid")  # loaded from the store on demand
    with serving(tmp_path, clock, max_tables=3) as client:
        assert client.get("/health").json()["tables"] == 0  # lobbies load when asked for
        create(client)


def test_address_blocks() -> None:
    assert address_block("192.0.2.7") == "192.0.2.7"
    assert address_block("::ffff:192.0.2.7") == "192.0.2.7"
    same = {address_block("2001:db8:1:2::1"), address_block("2001:db8:1:2:ffff::9")}
    assert len(same) == 1
    assert address_block("2001:db8:1:3::1") not in same
    assert address_block("testclient") == "testclient"


# -- 5. names that collide with a bot's --------------------------------------------------

def test_people_named_like_bots_never_make_a_start_fail(tmp_path: Path) -> None:
    # People may no longer take a bot's name (issue 27: "a person can take the name
    # 'Bot 12'"); a journal written before that still seats them, and still starts.
    with serving(tmp_path) as client:
        created = create(client, seats=6, bot="threshold")
        tid = created["id"]
        names = ["Threshold bot 6", "Bot 6", "Bot 6.4"]  # the reproduction
        for name in names:
            r = client.post(f"/api/tables/{tid}/join",
                            json={"name": name, "invite": created["invite"]})
            assert r.status_code == 400 and r.json()["error"]["code"] == "name_reserved"
    config = TableConfig.from_json({"seats": 6, "bot": "threshold"})
    table, token, _ = Table.create("tableid1", config, now=0.0, seed=1)
    for name in names:  # as an old journal seats them
        table.join(Name(name), 0.0)
    table.start(token, 0.0)
    seated = [s.name for s in table.seats]
    assert seated[:3] == names and len(set(seated)) == 6


BOTLIKE = st.sampled_from(["Bot", "bot", "Threshold bot", "Random bot", "Counter bot"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(BOTLIKE, st.integers(1, 6), st.none() | st.integers(0, 9)),
                min_size=1, max_size=5))
def test_bot_names_never_collide_with_peoples(parts: list[tuple[str, int, int | None]]) -> None:
    config = TableConfig.from_json({"seats": 6, "bot": "threshold"})
    table, token, _ = Table.create("tableid1", config, now=0.0, seed=1)
    for word, n, k in parts:
        name = f"{word} {n}" if k is None else f"{word} {n}.{k}"
        try:  # as a journal written before bots' names were reserved seats them
            table.join(Name(name), 0.0)
        except Refused as e:
            assert e.code == "name_taken"
    table.add_bot(token, BotKind.RANDOM, 0.0)
    table.start(token, 0.0)
    names = [s.name for s in table.seats]
    assert len(set(names)) == len(names) == 6


# -- 6. numbers parsed by hand -----------------------------------------------------------

def test_numbers_in_paths_queries_and_headers_are_ascii_digits(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        created = create(client)
        table = f"/api/tables/{created['id']}"
        # The reproduction: '²' passes str.isdigit() and fails int().
        assert "seat" in http_error(client.delete(f"{table}/seats/²", headers=host(created)),
                                    400, "bad_seat")
        assert "game" in http_error(client.get(f"{table}/record", params={"game": "²"}),
                                    400, "bad_game")
        for text in ("٣", "1_0", "+1", " 1", "1e3", "99999999999"):
            http_error(client.delete(f"{table}/seats/{text}", headers=host(created)), 400,
                       "bad_seat")
        r = client.post("/api/tables", content=b"{}",
                        headers={"Content-Length": "²".encode("latin-1"),
                                 "Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["reason"]
        assert client.get("/health").status_code == 200


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_whole_accepts_exactly_ascii_digits(text: str) -> None:
    ascii_digits = bool(text) and len(text) <= 9 and all(c in "0123456789" for c in text)
    try:
        value = whole(text, "n", most=10**9)
    except Untrusted as e:
        assert not ascii_digits and e.code == "bad_field" and "\n" not in e.reason
        e.reason.encode("utf-8")  # the refusal itself is valid text
    else:
        assert ascii_digits and value == int(text)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_a_name_refuses_what_cannot_be_shown(text: str) -> None:
    # The one text a client sends that other people read (the join route's name).
    try:
        name = parse_name(text)
    except BadName as e:
        str(e).encode("utf-8")
        assert "\n" not in str(e)
    else:
        text.encode("utf-8")
        assert len(name) <= NAME_MAX


# -- 7. cheap requests that cost a lot --------------------------------------------------

def _finished_table(client: TestClient, **config: Any) -> Json:
    created = create(client, **config)
    client.post(f"/api/tables/{created['id']}/start", headers=host(created))
    eventually(lambda: client.get(f"/api/tables/{created['id']}").json()["phase"]
               == "finished", 20)
    return created


def test_finished_tables_are_read_without_replaying_their_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serving(tmp_path) as client:
        created = _finished_table(client, seats=6, options={"lives": 2})
        tid = created["id"]
        eventually(lambda: client.get("/health").json()["tables"] == 0)  # let go of
        restores: list[str] = []
        real = Table.restore

        def counted(journal: list[Json], **kw: Any) -> Table:
            restores.append(journal[0]["id"])
            return real(journal, **kw)

        monkeypatch.setattr(Table, "restore", counted)
        for _ in range(5):
            assert client.get(f"/api/tables/{tid}").json()["phase"] == "finished"
            assert client.get(f"/api/tables/{tid}/record").status_code == 200
            forged = client.get(f"/api/tables/{tid}", headers={"Authorization": "Bearer x"})
            assert "links" not in forged.json()
            assert "links" in client.get(f"/api/tables/{tid}", headers=host(created)).json()
        assert restores == []


def test_catch_up_is_bounded(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        created = _finished_table(client, seats=10, options={"lives": 5})
        tid = created["id"]
        version = client.get(f"/api/tables/{tid}").json()["version"]
        assert version > MAX_CATCH_UP + 1
        for since in (0, version - MAX_CATCH_UP - 1):
            with client.websocket_connect(f"/ws/{tid}") as ws:
                watcher = Player(SessionLink(ws)).hello(None, since=since)
                assert [f["type"] for f in watcher.frames] == ["snapshot"]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            watcher = Player(SessionLink(ws)).hello(None, since=version - 3)
            assert [f["type"] for f in watcher.frames] == ["update"] * 3


def test_records_and_replays_are_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, costly_per_minute=20) as client:
        created = _finished_table(client, seats=3, options={"lives": 1})
        url = f"/api/tables/{created['id']}/record"
        record = client.get(url).text
        for _ in range(19):
            assert client.get(url).status_code == 200
        r = client.get(url)
        assert "a minute" in http_error(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1
        assert client.post("/api/replay", content=record).status_code == 200
        assert client.post("/api/replay", content=record).status_code == 200
        http_error(client.post("/api/replay", content=record), 429, "rate_limited")
        assert client.get("/health").status_code == 200


# -- 8. idle connections ----------------------------------------------------------------

@contextmanager
def _uvicorn(tmp_path: Path, **limits: Any) -> Iterator[tuple[str, int]]:
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    settings = Settings(port=port, **limits)
    app = make_app(tmp_path, None, **{k: getattr(settings, k) for k in limits})
    server = uvicorn.Server(uvicorn_config(app, settings))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    eventually(lambda: server.started, 10)
    try:
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(10)


def _closed_by_server(conn: socket.socket, within: float) -> bool:
    conn.settimeout(within)
    try:
        while True:
            if conn.recv(4096) == b"":
                return True
    except TimeoutError:
        return False


def test_idle_and_half_sent_connections_are_closed(tmp_path: Path) -> None:
    with _uvicorn(tmp_path, header_timeout=0.5, keep_alive=1.0) as address:
        idle = socket.create_connection(address)
        half = socket.create_connection(address)
        half.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # and never the end
        body = socket.create_connection(address)
        body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        assert _closed_by_server(idle, 3) and _closed_by_server(half, 3)
        assert _closed_by_server(body, 3)
        # A whole request is answered, and the connection kept alive only a while.
        ok = socket.create_connection(address)
        ok.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        ok.settimeout(3)
        assert ok.recv(4096).startswith(b"HTTP/1.1 200")
        assert _closed_by_server(ok, 3)
        for conn in (idle, half, body, ok):
            conn.close()


def test_a_websocket_outlives_the_request_deadline(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    with _uvicorn(tmp_path, header_timeout=0.3) as (host_, port), \
            connect(f"ws://{host_}:{port}/ws/nosuchtable1") as ws:
        time.sleep(0.6)  # past the request deadline: the socket is not touched
        ws.send('{"type": "ping"}')
        reply = json.loads(ws.recv(timeout=60))
        assert reply["code"] == "no_hello"


def test_uvicorn_runs_with_the_documented_limits() -> None:
    config = uvicorn_config(None, Settings())  # type: ignore[arg-type]
    assert config.timeout_keep_alive == Settings.keep_alive
    assert config.limit_concurrency == Settings.max_connections
    assert config.http.request_timeout == Settings.header_timeout  # type: ignore[union-attr]
    doc = (Path(__file__).resolve().parents[1] / "docs" / "server.md").read_text()
    for value in (f"{Settings.keep_alive:g} s", f"{Settings.header_timeout:g} s",
                  f"{Settings.max_connections:,}"):
        assert value in doc, value


# -- 9. storage faults ------------------------------------------------------------------

def test_a_deleted_database_refuses_changes_and_says_so(tmp_path: Path) -> None:
    with a_match(tmp_path) as m:
        before = m.state()
        os.remove(tmp_path / "gnav.sqlite3")
        mover = m.mover
        mover.act("stand")
        assert "deleted" in refused(mover, "store_failed")
        _all_open(m.players)
        assert m.state() == before
        r = m.client.post("/api/tables", json={})
        assert "deleted" in http_error(r, 503, "store_failed")
        r = m.client.post(f"/api/tables/{m.tid}/join", json={"name": "C"})
        assert r.status_code in (403, 409, 503) and r.json()["error"]["reason"]
    # After a restart the new, empty database is announced, not silent.
    assert SQLiteStore(tmp_path / "fresh.db").created
    again = SQLiteStore(tmp_path / "gnav.sqlite3")
    assert again.created


@contextmanager
def small_disk(folder: Path, size: str = "4m") -> Iterator[Path]:
    """A file system of its own for the database (tmpfs: it runs out of room as a disk
    does, with ENOSPC). Needs root, as the tests' machines and CI run."""
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                           str(folder)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"this test mounts a tmpfs (as root): {done.stderr}"
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _fill(store: Store, full: bool) -> None:
    """Make the store run out of room: the disk under SQLite filled by another file, or
    Redis at its ``maxmemory`` with ``noeviction``; ``full=False``: room comes back."""
    if isinstance(store, SQLiteStore):
        filler = Path(store.path).parent / "filler"
        if not full:
            filler.unlink()
            return
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            for size in (65536, 4096, 512, 1):
                with contextlib.suppress(OSError):
                    while True:  # until the disk is full (ENOSPC)
                        os.write(fd, b"\0" * size)
        finally:
            os.close(fd)
        return
    assert isinstance(store, RedisStore)
    with redis.Redis.from_url(store.url) as client:
        used = int(client.info("memory")["used_memory"])
        client.config_set("maxmemory-policy", "noeviction")
        client.config_set("maxmemory", used // 2 if full else 0)


def test_a_full_store_refuses_moves_backs_off_and_play_resumes(
        tmp_path: Path, store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Storage refusing writes mid-match: the mover is told ``store_full`` in one line
    (it was ``store_failed``: issue 27 asks that a full store says it is full),
    nobody is told of a change that was not stored, the turn timer tries again later and
    later (never spins), and once there is room the match goes on to its end."""
    clock = Clock()
    with contextlib.ExitStack() as stack:
        if store_url.startswith("sqlite:"):
            disk = stack.enter_context(small_disk(tmp_path / "disk"))
            store_url = str(disk / "gnav.sqlite3")
        m = stack.enter_context(a_match(tmp_path, clock, table={"turn_timer": 30},
                                        store=store_url, retry_after=0.1))
        store = hub_of(m.client).store
        tries: list[float] = []
        append = store.append

        async def counted(*args: Any, **kwargs: Any) -> None:
            tries.append(time.monotonic())
            await append(*args, **kwargs)

        monkeypatch.setattr(store, "append", counted)
        before = m.state()
        seen = [len(p.sync().frames) for p in m.players]
        _fill(store, True)
        try:
            mover = m.mover
            mover.act("stand")
            assert "full" in refused(mover, "store_full")
            assert [len(p.sync().frames) for p in m.players] == seen  # nothing acknowledged
            assert m.state() == before
            # The mover's time runs out: the timer's stand-in cannot be stored either.
            tries.clear()
            move_clock(m.client, clock, 31, m.tid)
            eventually(lambda: len(tries) >= 3, 20)
            # Waits of 0.2, 0.4, 0.8 s...: each longer than the last, never a spin.
            gaps = [b - a for a, b in itertools.pairwise(tries)]
            assert len(tries) <= 4 and min(gaps) >= 0.15, gaps
            assert gaps == sorted(gaps)
            assert m.state() == before
            assert [len(p.sync().frames) for p in m.players] == seen
        finally:
            _fill(store, False)
        move_clock(m.client, clock, 0, m.tid)  # space is back: the timer tries at once
        eventually(lambda: m.state()[0] > before[0])
        play_out(m.players, random.Random(3))
        assert m.state()[1] == TablePhase.FINISHED
        assert not any(p.errors for p in m.players)


def test_a_table_behind_its_journal_is_read_again(tmp_path: Path, redis_url: str) -> None:
    """The store holds changes the table in memory does not (another process wrote to
    it meanwhile): the next change is refused, not written over them; the table leaves
    memory and its sockets close; the players reconnect to the table as its journal has
    it, and play on to the end."""
    with a_match(tmp_path, store=redis_url) as m, contextlib.ExitStack() as stack:
        store = hub_of(m.client).store
        assert isinstance(store, RedisStore)
        before = m.state()
        store.last_ids[m.tid] = "0-1"  # where this process thinks the journal ends
        mover = m.mover
        mover.link.send({"type": "act", "action": "stand", "version": mover.version})
        eventually(lambda: m.client.get("/health").json()["tables"] == 0)
        for p in m.players:  # the sockets were closed (read with no wait: see above)
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    p.take(p.link.recv())
            assert closed.value.code == CLOSE_GOING_AWAY
        assert m.state()[:2] == before[:2]  # read again: nothing was stored
        for p, token in zip(m.players, [*m.tokens, None], strict=True):
            link = SessionLink(stack.enter_context(m.client.websocket_connect(f"/ws/{m.tid}")))
            p.reconnect(link, token)
        play_out(m.players, random.Random(4))
        assert m.state()[1] == TablePhase.FINISHED
        assert not any(p.errors for p in m.players)


def test_a_read_only_database_says_read_only(tmp_path: Path) -> None:
    import asyncio

    async def go() -> None:
        store = SQLiteStore(tmp_path / "s.db")
        assert not store.created
        store._db.execute("PRAGMA query_only=1")  # as a read-only file would refuse
        with pytest.raises(StoreError, match="read-only"):
            await store.create_table("tableid1", [{"op": "create"}], {"phase": "lobby"})
        with pytest.raises(StoreError, match="read-only"):
            await store.append("tableid1", [{"op": "x"}], {"phase": "lobby"})
        await store.close()

    (tmp_path / "s.db").touch()
    asyncio.run(go())


def test_a_table_is_loaded_once_however_many_ask_for_it(tmp_path: Path) -> None:
    """Requests for a table not in memory wait on one lock while one of them loads it:
    when a load fails, the next waiter loads it, and a request that comes meanwhile
    waits too, rather than loading a second copy beside it (two tables in memory, two
    timers playing one journal)."""
    import asyncio

    with serving(tmp_path) as client:
        hub = hub_of(client)
        tid = create(client)["id"]
        loads: list[int] = []
        real = hub._load

        async def scenario() -> list[Any]:
            hub._retire(hub._tables[tid])
            loop = asyncio.get_running_loop()
            late: list[asyncio.Task[Any]] = []

            async def load(table_id: str) -> Any:
                loads.append(len(loads))
                await asyncio.sleep(0.05)
                if len(loads) == 1:  # the first fails; a newcomer arrives as it does
                    loop.call_soon(lambda: late.append(loop.create_task(
                        hub._get(tid, True))))
                    raise Fault("the store failed this once", Code.STORE_FAILED)
                return await real(table_id)

            hub._load = load  # type: ignore[method-assign]
            first = loop.create_task(hub._get(tid, True))
            second = loop.create_task(hub._get(tid, True))
            got = await asyncio.gather(first, second, return_exceptions=True)
            return [*got, await late[0]]

        failed, second, late = client.portal.call(scenario)  # type: ignore[union-attr]
        assert isinstance(failed, Fault)
        assert loads == [0, 1]  # one failed load, one good one: never two at once
        assert second is late is hub_of(client)._tables[tid]


def test_a_store_that_fails_on_create_is_a_clear_refusal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serving(tmp_path) as client:
        store = hub_of(client).store
        assert isinstance(store, SQLiteStore)

        def full(statements: Any) -> None:
            raise __import__("sqlite3").OperationalError("database or disk is full")

        monkeypatch.setattr(store, "_write", full)
        # "store_full" (it was "store_failed"): a full store says it is full (issue 27).
        assert "full" in http_error(client.post("/api/tables", json={}), 503, "store_full")
        assert client.get("/health").status_code == 200


def test_creating_a_table_in_a_full_redis_says_the_store_is_full(
        tmp_path: Path, redis_url: str) -> None:
    # A table's lease is the first key a create writes (with other processes sharing the
    # store): at maxmemory that write said "cannot reach the store that holds the
    # tables' owners" (issue 27), as if Redis were away.
    with serving(tmp_path, store=redis_url) as client:
        with redis.Redis.from_url(redis_url) as admin:
            admin.config_set("maxmemory-policy", "noeviction")
            admin.config_set("maxmemory", 1)  # below what it holds: every write is refused
            try:
                reason = http_error(client.post("/api/tables", json={}), 503, "store_full")
                assert "full" in reason and "cannot reach" not in reason
            finally:
                admin.config_set("maxmemory", 0)
        assert client.post("/api/tables", json={}).status_code == 201


# -- 10. big records ---------------------------------------------------------------------

def test_the_viewer_takes_the_biggest_records_the_server_writes(tmp_path: Path) -> None:
    config = TableConfig.from_json({"seats": 41, "bot": "threshold",
                                    "options": {"lives": 10}})
    table, token, _ = Table.create("tableid1", config, now=0.0, seed=3)
    table.watched = False
    table.start(token, 0.0)
    now = 0.0
    while table.phase != TablePhase.FINISHED:
        now += 1.0
        table.tick(now)
    text = json.dumps(table.record(), ensure_ascii=False, separators=(",", ":"))
    assert len(text) > 2_000_000  # the reproduction: over the old 1 MB limit
    assert len(text) * 3 < viewer.MAX_BYTES and table.version * 3 < viewer.MAX_STEPS
    with serving(tmp_path) as client:
        r = client.post("/api/replay", content=text.encode())
        assert r.status_code == 200, r.text[:200]
        assert len(r.json()["steps"]) == table.version
    # The browser checks a file against the same limit before sending it.
    match = re.search(r"const MAX_FILE = ([\d_]+);", STATIC_JS.read_text())
    assert match and int(match.group(1).replace("_", "")) == viewer.MAX_BYTES



def test_a_big_record_is_built_in_another_process_and_is_the_same(tmp_path: Path) -> None:
    with serving(tmp_path, record_elsewhere=0) as client:  # every record, for the test
        created = _finished_table(client, seats=4, options={"lives": 2})
        text = client.get(f"/api/tables/{created['id']}/record").text
        assert verify_text(text, "elsewhere.json")[0] == 0
        journal = _journal(client, created["id"])
    assert json.loads(text) == Table.restore(journal).record()
