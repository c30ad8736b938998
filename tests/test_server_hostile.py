"""Hostile and broken input: each is refused with a clear one-line error, the server
stays up, and the table (its version, its record) is unchanged."""

from __future__ import annotations

import json
import logging
import random
from contextlib import ExitStack
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from gnav.verify import verify_text
from server_kit import (
    Player,
    SessionLink,
    TestClient,
    WebSocketDenialResponse,
    a_match,
    create,
    host,
    join,
    play_out,
    serving,
)
from server_kit import http_error as _error
from server_kit import refused as _refused


def test_http_input_is_checked_with_a_clear_error(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        post = client.post
        assert "not JSON" in _error(post("/api/tables", content=b"{nope"), 400, "bad_json")
        assert "object" in _error(post("/api/tables", json=[1, 2]), 400, "bad_body")
        assert _error(post("/api/tables", content=b"\xff\xfe"), 400, "bad_json")
        assert "seats" in _error(post("/api/tables", json={"seats": 1}), 400, "bad_config")
        assert "'colour'" in _error(post("/api/tables", json={"colour": "red"}), 400,
                                    "bad_config")
        assert "preset" in _error(post("/api/tables", json={"preset": "poker"}), 400,
                                  "bad_config")
        assert "turn_timer" in _error(post("/api/tables", json={"turn_timer": 1}), 400,
                                      "bad_config")
        assert "16384" in _error(post("/api/tables", content=b" " * 20000), 413, "too_big")
        deep = b"[" * 1500 + b"]" * 1500
        _error(post("/api/tables", content=deep), 400, "bad_json")

        created = create(client)
        tid = created["id"]
        table = f"/api/tables/{tid}"
        assert "join" in _error(post(f"{table}/join", json={"invite": created["invite"]}),
                                400, "bad_name")
        _error(post(f"{table}/join", json={"name": "A", "seat": 3}), 400, "bad_field")
        _error(post(f"{table}/join", json={"name": "x" * 30, "invite": created["invite"]}),
               400, "name_too_long")
        _error(post(f"{table}/join", json={"name": "   ", "invite": created["invite"]}),
               400, "name_blank")
        for name in ("nul\x00", "\u202eevil", "bell\x07"):
            assert "U+" in _error(post(f"{table}/join", json={
                "name": name, "invite": created["invite"]}), 400, "bad_name")
        assert "Bearer" in _error(post(f"{table}/bots"), 401, "no_host_token")
        _error(post(f"{table}/bots", headers={"Authorization": "Bearer forged"}), 403,
               "not_host")
        _error(post(f"{table}/bots", json={"kind": "genius"}, headers=host(created)), 400,
               "bad_bot")
        _error(client.delete(f"{table}/seats/x", headers=host(created)), 400, "bad_seat")
        _error(client.delete(f"{table}/seats/99", headers=host(created)), 400, "bad_seat")
        _error(post(f"{table}/start", json={"now": True}, headers=host(created)), 400,
               "bad_field")
        _error(client.get(f"{table}/record", params={"game": "one"}), 400, "bad_game")
        _error(client.get(f"{table}/record", params={"gmae": "1"}), 400, "bad_field")
        _error(client.get("/api/tables/nosuchtable"), 404, "no_table")
        _error(client.get("/api/tables/../../etc"), 404, "not_found")
        _error(post("/api/tables/x%00y/join", json={"name": "A"}), 404, "no_table")
        _error(client.get("/nowhere"), 404, "not_found")
        _error(client.put("/api/tables"), 405, "method_not_allowed")
        # Another table's host token is no good here.
        other = create(client)
        _error(post(f"{table}/start", headers=host(other)), 403, "not_host")
        assert client.get(table).json()["version"] == 0
        assert client.get("/health").status_code == 200


def test_table_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with serving(tmp_path, creates_per_minute=3) as client:
        for _ in range(3):
            create(client)
        r = client.post("/api/tables", json={})
        reason = _error(r, 429, "rate_limited")
        assert "3 new tables a minute" in reason
        assert int(r.headers["retry-after"]) >= 1
        assert client.get("/health").status_code == 200


def test_hostile_messages_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with a_match(tmp_path) as m:
        before = m.state()
        mover, waiter, watcher = m.mover, m.waiter, m.players[2]
        assert isinstance(mover.link, SessionLink) and isinstance(waiter.link, SessionLink)
        raw = mover.link.send_raw
        raw("{not json")
        assert "not JSON" in _refused(mover, "bad_json")
        raw("[1, 2, 3]")
        _refused(mover, "bad_message")
        raw('{"type": "cheat", "piece": "cuckoo"}')
        assert "'cheat'" in _refused(mover, "bad_type")
        raw('{"type": "act", "action": "stand"}')
        assert "act.version" in _refused(mover, "bad_field")
        raw('{"type": "act", "action": "stand", "version": true}')
        _refused(mover, "bad_field")
        raw('{"type": "act", "action": "stand", "version": 1, "seat": 0}')
        assert "'seat'" in _refused(mover, "bad_field")
        mover.act("fly")
        assert "act.action" in _refused(mover, "bad_field")
        raw(json.dumps({"type": "ping", "pad": "x" * 5000}))
        assert "4096" in _refused(mover, "too_big")
        mover.link.session.send_bytes(b'{"type": "ping"}')
        _refused(mover, "bad_frame")
        raw("[" * 2000 + "]" * 2000)
        _refused(mover, "bad_json")
        mover.link.send({"type": "hello", "seat": 1, "token": m.tokens[1], "since": None})
        _refused(mover, "bad_type")

        assert mover.version is not None
        mover.act("stand", version=mover.version - 1)
        assert "version" in _refused(mover, "stale")
        mover.act("stand", version=mover.version + 5)
        _refused(mover, "stale")
        waiter.act("stand")
        _refused(waiter, "not_your_turn")
        watcher.act("stand")
        _refused(watcher, "not_seated")

        assert m.state() == before
        assert m.client.get("/health").status_code == 200
        # The match goes on as if nothing had been sent, and its record verifies.
        play_out(m.players, random.Random(5))
        r = m.client.get(f"/api/tables/{m.tid}/record")
        assert verify_text(r.text, "hostile.json")[0] == 0


def _hello_refused(client: TestClient, path: str, hello: object, code: str,
                   close: int = 1008) -> str:
    with client.websocket_connect(path) as ws:
        ws.send_text(hello if isinstance(hello, str) else json.dumps(hello))
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == code, message
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == close
        reason: str = message["reason"]
        return reason


def test_a_hello_with_the_wrong_token_or_table_is_refused(tmp_path: Path) -> None:
    with a_match(tmp_path) as m:
        client, path = m.client, f"/ws/{m.tid}"
        before = m.state()
        # Another seat's token, a forged one, a bot's seat, a seat that does not exist.
        _hello_refused(client, path, {"type": "hello", "seat": 0, "token": m.tokens[1]},
                       "bad_token")
        _hello_refused(client, path, {"type": "hello", "seat": 1, "token": "forged"},
                       "bad_token")
        _hello_refused(client, path, {"type": "hello", "seat": 2, "token": m.tokens[0]},
                       "bad_token")
        _hello_refused(client, path, {"type": "hello", "seat": 9, "token": m.tokens[0]},
                       "bad_seat")
        _hello_refused(client, path, {"type": "hello", "seat": "0", "token": "t"}, "bad_field")
        _hello_refused(client, path, {"type": "hello", "seat": 0}, "bad_field")
        _hello_refused(client, path, {"type": "hello", "seat": None, "since": -1}, "bad_field")
        _hello_refused(client, path, {"type": "act", "action": "stand", "version": 1},
                       "no_hello")
        _hello_refused(client, path, "hello", "bad_json")
        # The wrong table: a token of this table at another one, and a table that is not.
        other = create(client)
        joined = join(client, other, "Eve")
        _hello_refused(client, path, {"type": "hello", "seat": 0, "token": joined["token"]},
                       "bad_token")
        _hello_refused(client, f"/ws/{other['id']}",
                       {"type": "hello", "seat": 0, "token": m.tokens[0]}, "bad_token")
        _hello_refused(client, "/ws/nosuchtable1", {"type": "hello", "seat": None},
                       "no_table", close=4004)
        assert m.state() == before
        assert client.get("/health").status_code == 200


def test_sockets_from_other_origins_are_refused(tmp_path: Path) -> None:
    with serving(tmp_path, allow_origins=("https://gnav.example",)) as client:
        created = create(client)
        path = f"/ws/{created['id']}"
        evil = {"origin": "http://evil.example"}
        with pytest.raises(WebSocketDenialResponse) as info, \
                client.websocket_connect(path, headers=evil):
            pass
        assert info.value.status_code == 403
        assert info.value.json()["error"]["code"] == "bad_origin"
        for origin in ("http://127.0.0.1:8000", "http://localhost:8000",
                       "https://gnav.example", "HTTPS://GNAV.EXAMPLE/"):
            with client.websocket_connect(path, headers={"origin": origin}) as ws:
                Player(SessionLink(ws)).hello(None)
        with client.websocket_connect(path) as ws:  # no Origin: not a browser page
            Player(SessionLink(ws)).hello(None)
        assert client.get("/health").status_code == 200


def test_a_flood_is_refused_then_cut_off(tmp_path: Path) -> None:
    with a_match(tmp_path, ws_rate=20.0, ws_burst=40) as m:
        before = m.state()
        mover = m.mover
        assert isinstance(mover.link, SessionLink)
        for _ in range(200):
            mover.link.send({"type": "act", "action": "stand", "version": 0})
        codes: list[str] = []
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                codes.append(mover.link.recv().get("code", "?"))
        assert info.value.code == 1008
        assert "stale" in codes and "rate_limited" in codes
        assert codes.index("rate_limited") >= 30  # the burst went through first
        assert m.state()[:2] == before[:2]
        assert m.client.get("/health").status_code == 200
        # The other people at the table are still connected and served.
        assert m.players[2].sync().errors == []


def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with serving(tmp_path, hello_timeout=0.2) as client:
        created = create(client)
        with client.websocket_connect(f"/ws/{created['id']}") as ws:
            message = ws.receive_json()
            assert message["code"] == "no_hello" and "0.2 s" in message["reason"]
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
            assert info.value.code == 1008
        assert client.get("/health").status_code == 200


def test_a_table_takes_only_so_many_watchers(tmp_path: Path) -> None:
    with serving(tmp_path, max_sockets=2) as client, ExitStack() as stack:
        created = create(client)
        path = f"/ws/{created['id']}"
        for _ in range(2):
            Player(SessionLink(stack.enter_context(client.websocket_connect(path)))).hello(None)
        reason = _hello_refused(client, path, {"type": "hello", "seat": None}, "crowded")
        assert "watchers" in reason


def _socket_refused(client: TestClient, path: str) -> str:
    """The code a refused WebSocket handshake answers with (429 for these limits)."""
    with pytest.raises(WebSocketDenialResponse) as info, client.websocket_connect(path):
        pass
    assert info.value.status_code == 429
    code = info.value.json()["error"]["code"]
    assert isinstance(code, str)
    return code


def _another_address_watches(client: TestClient, path: str) -> None:
    other = TestClient(client.app, client=("198.51.100.7", 40000))
    with other.websocket_connect(path) as ws:
        Player(SessionLink(ws)).hello(None)


def test_one_address_holds_only_its_share_of_sockets(tmp_path: Path) -> None:
    with serving(tmp_path, address="203.0.113.9", sockets_per_client=3) as client:
        created = create(client)
        path = f"/ws/{created['id']}"
        with ExitStack() as stack:
            held = [stack.enter_context(client.websocket_connect(path)) for _ in range(3)]
            for ws in held:
                Player(SessionLink(ws)).hello(None)
            assert _socket_refused(client, path) == "too_many_sockets"
            # Another address opens its sockets as before, and the held ones still work.
            _another_address_watches(client, path)
            held[0].send_text(json.dumps({"type": "ping"}))
            assert json.loads(held[0].receive_text()) == {"type": "pong"}
        # Closed sockets give their places back: what stops the next one now is the
        # minute's budget of opens (3 taken), not the count.
        assert _socket_refused(client, path) == "rate_limited"


def test_one_address_opens_only_its_share_of_sockets_a_minute(tmp_path: Path) -> None:
    with serving(tmp_path, address="203.0.113.9", sockets_per_client=4) as client:
        created = create(client)
        path = f"/ws/{created['id']}"
        for _ in range(4):  # opened and closed at once: each still counts for a minute
            with client.websocket_connect(path) as ws:
                Player(SessionLink(ws)).hello(None)
        assert _socket_refused(client, path) == "rate_limited"
        _another_address_watches(client, path)


def test_behind_a_trusted_proxy_limits_key_on_the_address_it_reports(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """--forwarded-allow-ips: X-Forwarded-For is believed from the proxy alone; what a
    client writes in front of it in the header changes nothing."""
    one, two = {"X-Forwarded-For": "203.0.113.5"}, {"X-Forwarded-For": "203.0.113.6"}
    spoof = {"X-Forwarded-For": "203.0.113.7, 203.0.113.5"}  # the proxy appended .5
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    caplog.set_level(logging.INFO, logger="gnav.server")
    with serving(tmp_path / "a", address="10.1.2.3", creates_per_minute=1,
                 sockets_per_client=1, forwarded_allow_ips=("10.0.0.0/8",)) as proxy:
        created = proxy.post("/api/tables", json={}, headers=one)
        assert created.status_code == 201
        _error(proxy.post("/api/tables", json={}, headers=spoof), 429, "rate_limited")
        assert proxy.post("/api/tables", json={}, headers=two).status_code == 201
        logged = [r.fields["client"] for r in caplog.records  # type: ignore[attr-defined]
                  if getattr(r, "event", None) == "table.created"]
        assert logged == ["203.0.113.5", "203.0.113.6"]  # the logs see people too
        path = f"/ws/{created.json()['id']}"
        with proxy.websocket_connect(path, headers=one) as ws:
            Player(SessionLink(ws)).hello(None)
            with pytest.raises(WebSocketDenialResponse) as info, \
                    proxy.websocket_connect(path, headers=spoof):
                pass
            assert info.value.json()["error"]["code"] == "too_many_sockets"
            with proxy.websocket_connect(path, headers=two) as other:
                Player(SessionLink(other)).hello(None)
    # Anyone else's header is ignored: both requests come from one address.
    with serving(tmp_path / "b", address="198.51.100.1", creates_per_minute=1,
                 forwarded_allow_ips=("10.0.0.0/8",)) as direct:
        assert direct.post("/api/tables", json={}, headers=one).status_code == 201
        _error(direct.post("/api/tables", json={}, headers=two), 429, "rate_limited")
