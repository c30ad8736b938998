"""The HTTP API and a whole match over WebSockets: create, lobby, join, bots, start,
play, download the record, play again; the OpenAPI document; restore after a restart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocketDisconnect

from gnav.record import loads
from gnav.verify import verify_text
from server_kit import (
    Player,
    SessionLink,
    TestClient,
    create,
    eventually,
    host,
    join,
    make_app,
    play_out,
    serving,
)


def test_health_answers(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        r = client.get("/health")
        assert r.status_code == 200
        assert r.json()["status"] == "ok"


def test_a_table_from_creation_to_two_matches(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        created = create(client, listed=True, seats=4)
        tid = created["id"]
        assert set(created["links"]) == {"host", "invite", "watch"}
        assert created["host_token"] in created["links"]["host"]
        assert created["host_token"] not in created["links"]["invite"]
        lobby = client.get("/api/tables").json()["tables"]
        assert [(t["id"], t["open"], t["phase"]) for t in lobby] == [(tid, 4, "lobby")]

        astrid = join(client, created, "Astrid")
        bjorn = join(client, created, "Bjørn")
        assert (astrid["seat"], bjorn["seat"]) == (0, 1)
        assert astrid["token"] != bjorn["token"]
        r = client.post(f"/api/tables/{tid}/bots", json={"kind": "threshold"},
                        headers=host(created))
        assert r.status_code == 200, r.text
        assert [s["kind"] for s in r.json()["seats"]] == ["human", "human", "bot", "empty"]
        r = client.delete(f"/api/tables/{tid}/seats/2", headers=host(created))
        assert [s["kind"] for s in r.json()["seats"]] == ["human", "human", "empty", "empty"]
        assert client.get("/api/tables").json()["tables"][0]["open"] == 2

        with client.websocket_connect(f"/ws/{tid}") as wa, \
                client.websocket_connect(f"/ws/{tid}") as wb, \
                client.websocket_connect(f"/ws/{tid}") as ws:
            a = Player(SessionLink(wa), "Astrid", 0).hello(astrid["token"])
            b = Player(SessionLink(wb), "Bjørn", 1).hello(bjorn["token"])
            watcher = Player(SessionLink(ws)).hello(None)
            assert a.frames[0]["type"] == "snapshot" and a.frames[0]["you"] == 0
            assert watcher.frames[0]["you"] is None

            r = client.post(f"/api/tables/{tid}/record")
            assert r.status_code == 405
            r = client.get(f"/api/tables/{tid}/record")
            assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
            r = client.post(f"/api/tables/{tid}/start", headers=host(created))
            assert r.status_code == 200 and r.json()["phase"] == "playing"
            assert client.get(f"/api/tables/{tid}/record").status_code == 409
            assert play_out([a, b, watcher], random.Random(1)) > 0
            assert a.phase == b.phase == watcher.phase == "finished"

            first = client.get(f"/api/tables/{tid}/record")
            assert first.status_code == 200
            assert "attachment" in first.headers["content-disposition"]
            code, lines = verify_text(first.text, "game1.json")
            assert code == 0, lines
            record = loads(first.text)
            assert record.seats[:2] == ("Astrid", "Bjørn")

            # Play again: the same table, the same seats, a new match.
            r = client.post(f"/api/tables/{tid}/start", headers=host(created))
            assert r.status_code == 200 and r.json()["games"] == 2
            play_out([a, b, watcher], random.Random(2))
            second = client.get(f"/api/tables/{tid}/record")
            assert verify_text(second.text, "game2.json")[0] == 0
            assert second.json() != first.json()
            again = client.get(f"/api/tables/{tid}/record", params={"game": 1})
            assert again.json() == first.json()
            assert client.get(f"/api/tables/{tid}/record",
                              params={"game": 3}).status_code == 404
        eventually(lambda: client.get("/health").json()["connections"] == 0)


def test_unlisted_tables_need_the_invite_and_only_the_host_sees_the_links(
        tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        created = create(client)
        tid = created["id"]
        assert client.get("/api/tables").json()["tables"] == []
        r = client.post(f"/api/tables/{tid}/join", json={"name": "Eve"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_invite"
        r = client.post(f"/api/tables/{tid}/join", json={"name": "Eve", "invite": "x" * 24})
        assert r.status_code == 403
        join(client, created, "Astrid")
        public = client.get(f"/api/tables/{tid}").json()
        assert "links" not in public and "host_token" not in str(public)
        mine = client.get(f"/api/tables/{tid}", headers=host(created)).json()
        assert mine["links"]["invite"] == created["links"]["invite"]
        assert "host" not in mine["links"]


def test_the_openapi_document_describes_every_route(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    with TestClient(app) as client:
        doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    paths = doc["paths"]
    seen = 0
    for route in app.routes:
        if isinstance(route, Route):
            methods = {m.lower() for m in route.methods or ()} - {"head"}
            assert methods <= set(paths[route.path]), route.path
        elif isinstance(route, WebSocketRoute):
            assert "get" in paths[route.path]
        elif isinstance(route, Mount):
            assert any(p.startswith(route.path + "/") for p in paths), route.path
        seen += 1
    assert seen == len(app.routes) >= 11
    for item in paths.values():  # every reference resolves
        for ref in _refs(item):
            assert ref.removeprefix("#/components/schemas/") in doc["components"]["schemas"]


def _refs(node: object) -> list[str]:
    if isinstance(node, dict):
        here = [node["$ref"]] if "$ref" in node else []
        return here + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_a_restarted_server_brings_back_its_tables(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        # A table's seed is its own: in a few deals in a hundred the match is over after
        # one decision, so take the first table (of ten) still playing after it.
        for _ in range(10):
            created = create(client, seats=3)
            tid = created["id"]
            astrid = join(client, created, "Astrid")
            with client.websocket_connect(f"/ws/{tid}") as wa:
                a = Player(SessionLink(wa), "Astrid", 0).hello(astrid["token"])
                client.post(f"/api/tables/{tid}/start", headers=host(created))
                assert a.sync().my_turn  # bots have played up to her
                a.act("stand")
                assert not a.errors
            before = client.get(f"/api/tables/{tid}").json()
            if before["phase"] == "playing":
                break
        assert before["phase"] == "playing"
    with serving(tmp_path) as client:  # the same database: the table is back
        after = client.get(f"/api/tables/{tid}").json()
        assert (after["version"], after["phase"]) == (before["version"], "playing")
        assert after["seats"][0]["connected"] is False
        with client.websocket_connect(f"/ws/{tid}") as wa:
            seen, had = len(a.frames), a.version
            a.reconnect(SessionLink(wa), astrid["token"])
            caught = a.frames[seen:]
            if had == after["version"]:
                # Up to date, she is told where the table stands all the same (it was
                # silence: issue 27); behind, she gets the updates she missed.
                assert [(f["type"], f["version"]) for f in caught] == [("snapshot", had)]
            else:
                assert caught and all(f["type"] == "update" for f in caught)
            play_out([a], random.Random(3))
        r = client.get(f"/api/tables/{tid}/record")
        assert verify_text(r.text, "restored.json")[0] == 0


def test_a_seat_has_one_socket_and_loses_it_when_the_host_frees_the_seat(
        tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        created = create(client)
        tid = created["id"]
        astrid = join(client, created, "Astrid")
        with client.websocket_connect(f"/ws/{tid}") as first:
            Player(SessionLink(first), "Astrid", 0).hello(astrid["token"])
            with client.websocket_connect(f"/ws/{tid}") as second:
                Player(SessionLink(second), "Astrid", 0).hello(astrid["token"])
                with pytest.raises(WebSocketDisconnect) as replaced:
                    while True:
                        first.receive_json()
                assert replaced.value.code == 4001
                r = client.delete(f"/api/tables/{tid}/seats/0", headers=host(created))
                assert r.json()["seats"][0]["kind"] == "empty"
                with pytest.raises(WebSocketDisconnect) as removed:
                    while True:
                        second.receive_json()
                assert removed.value.code == 4003
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert seats[0] == {"kind": "empty", "name": None, "bot": None, "connected": False}
