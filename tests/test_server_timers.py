"""Timers and leavers over the wire: a silent seat is played by a bot when its time is
up, a seat whose player left is played after the grace period, every match finishes,
and the player can come back and reclaim the seat with its token."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest

from gnav.verify import verify_text
from server_kit import (
    Clock,
    Player,
    SessionLink,
    TestClient,
    create,
    eventually,
    host,
    hub_of,
    join,
    move_clock,
    play_out,
    serving,
    settled,
)


def _journal(client: TestClient, tid: str) -> list[dict[str, Any]]:
    journal = client.portal.call(hub_of(client).store.journal, tid)  # type: ignore[union-attr]
    assert journal is not None
    return journal


def _acts_by(journal: list[dict[str, Any]], by: str) -> list[int]:
    return [e["seat"] for e in journal if e["op"] == "act" and e["by"] == by]


def test_a_silent_seat_is_played_by_a_bot_when_its_time_is_up(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock) as client:
        created = create(client, seats=3, turn_timer=30, grace=10)
        tid = created["id"]
        joined = [join(client, created, n) for n in ("Astrid", "Bjørn")]
        with client.websocket_connect(f"/ws/{tid}") as wa, \
                client.websocket_connect(f"/ws/{tid}") as wb:
            players = [Player(SessionLink(wa), "Astrid", 0).hello(joined[0]["token"]),
                       Player(SessionLink(wb), "Bjørn", 1).hello(joined[1]["token"])]
            client.post(f"/api/tables/{tid}/start", headers=host(created))
            mover = next(p for p in (p.sync() for p in players) if p.my_turn)
            version = mover.version
            assert version is not None
            assert client.get(f"/api/tables/{tid}").json()["timer_left"] == 30
            move_clock(client, clock, 29, tid)
            assert mover.sync().version == version  # not yet
            move_clock(client, clock, 2, tid)
            eventually(lambda: (mover.sync().version or 0) > version)
            assert _acts_by(_journal(client, tid), "timer")[:1] == [mover.seat]
            # The seat is still its player's: the next decision is theirs again.
            mover.act("stand", version=version)
            assert mover.errors.pop()["code"] == "stale"
            play_out(players, random.Random(7))
        assert verify_text(client.get(f"/api/tables/{tid}/record").text, "t.json")[0] == 0


def test_the_turn_time_counts_from_when_the_page_shows_the_turn(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock) as client:
        created = create(client, seats=3, turn_timer=30, grace=10)
        tid = created["id"]
        joined = [join(client, created, n) for n in ("Astrid", "Bjørn")]
        with client.websocket_connect(f"/ws/{tid}") as wa, \
                client.websocket_connect(f"/ws/{tid}") as wb:
            players = [Player(SessionLink(wa), "Astrid", 0).hello(joined[0]["token"]),
                       Player(SessionLink(wb), "Bjørn", 1).hello(joined[1]["token"])]
            client.post(f"/api/tables/{tid}/start", headers=host(created))
            mover = next(p for p in (p.sync() for p in players) if p.my_turn)
            other = next(p for p in players if p is not mover)
            version = mover.version
            assert version is not None
            # The page took 2 s to catch up before its buttons came alive.
            move_clock(client, clock, 2, tid)
            mover.link.send({"type": "shown", "version": version})
            mover.sync()
            other.sync()
            assert not mover.errors
            # Both are told the deadline again: 30 s from now, not 28.
            for p in (mover, other):
                assert p.frames[-1]["type"] == "table" and p.frames[-1]["version"] == version
                assert p.frames[-1]["table"]["timer_left"] == 30
            assert client.get(f"/api/tables/{tid}").json()["timer_left"] == 30
            move_clock(client, clock, 29, tid)
            assert mover.sync().version == version  # 31 s since the turn came: not yet
            move_clock(client, clock, 2, tid)
            eventually(lambda: (mover.sync().version or 0) > version)
            assert _acts_by(_journal(client, tid), "timer")[:1] == [mover.seat]
            # Said out of turn (or again), it is dropped without a word.
            for p in players:
                p.link.send({"type": "shown", "version": version})
                p.sync()
                assert not p.errors
            play_out(players, random.Random(7))


def _moved_on(player: Player, since: int) -> bool:
    return (player.sync().version or 0) > since


def test_a_leaver_is_played_after_the_grace_period_and_can_reclaim_the_seat(
        tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock) as client:
        created = create(client, seats=3, turn_timer=None, grace=10)
        tid = created["id"]
        joined = [join(client, created, n) for n in ("Astrid", "Bjørn")]
        with client.websocket_connect(f"/ws/{tid}") as wa:
            astrid = Player(SessionLink(wa), "Astrid", 0).hello(joined[0]["token"])
            with client.websocket_connect(f"/ws/{tid}") as wb:
                bjorn = Player(SessionLink(wb), "Bjørn", 1).hello(joined[1]["token"])
                client.post(f"/api/tables/{tid}/start", headers=host(created))
                bjorn.sync()
            # Bjørn has gone. Within the grace period nobody plays for him.
            eventually(lambda: not client.get(f"/api/tables/{tid}").json()["seats"][1][
                "connected"])
            move_clock(client, clock, 5, tid)
            settled(client, tid)  # the timer has looked at the clock: no stand-in yet
            assert _acts_by(_journal(client, tid), "standin") == []
            move_clock(client, clock, 6, tid)
            # Past it, a stand-in plays his seat whenever it is due, and the match ends
            # with Astrid playing her own seat.
            eventually(lambda: astrid.sync().my_turn or astrid.phase == "finished")
            play_out([astrid], random.Random(8))
            journal = _journal(client, tid)
            assert set(_acts_by(journal, "standin")) == {1}
            assert set(_acts_by(journal, "person")) == {0}
            assert verify_text(client.get(f"/api/tables/{tid}/record").text, "l.json")[0] == 0

            # He comes back with his token and the last version he saw.
            with client.websocket_connect(f"/ws/{tid}") as wb:
                seen = len(bjorn.frames)
                bjorn.reconnect(SessionLink(wb), joined[1]["token"])
                assert bjorn.frames[seen:], "he is told what he missed"
                assert bjorn.phase == "finished" and bjorn.version == astrid.version
                seats = client.get(f"/api/tables/{tid}").json()["seats"]
                assert seats[1]["connected"] is True
                # Play again: both play their own seats now. A match may end without a
                # decision of his (about 1 in 500 at 3 seats and 2 lives: a Cuckoo stops
                # every round before his turn): play another then, on a fresh seed.
                rng = random.Random(9)
                for _ in range(5):
                    client.post(f"/api/tables/{tid}/start", headers=host(created))
                    eventually(functools.partial(_moved_on, astrid, astrid.version or 0))
                    play_out([astrid, bjorn], rng)
                    later = _journal(client, tid)[len(journal):]
                    if 1 in _acts_by(later, "person"):
                        break
                assert _acts_by(later, "standin") == []
                assert set(_acts_by(later, "person")) == {0, 1}


def test_every_match_finishes_when_everyone_leaves(tmp_path: Path) -> None:
    clock = Clock()
    with serving(tmp_path, clock) as client:
        created = create(client, seats=4, turn_timer=60, grace=15)
        tid = created["id"]
        joined = [join(client, created, n) for n in ("Astrid", "Bjørn")]
        with client.websocket_connect(f"/ws/{tid}") as wa, \
                client.websocket_connect(f"/ws/{tid}") as wb:
            Player(SessionLink(wa), "Astrid", 0).hello(joined[0]["token"])
            Player(SessionLink(wb), "Bjørn", 1).hello(joined[1]["token"])
            client.post(f"/api/tables/{tid}/start", headers=host(created))
        assert client.get(f"/api/tables/{tid}").json()["phase"] == "playing"
        move_clock(client, clock, 16, tid)

        def finished() -> bool:
            # Bots play in bursts at the table's pace: the next burst is due a moment
            # later on the table's clock, so the clock moves on while we wait (a frozen
            # one made this pass only when one burst finished the whole match).
            if client.get(f"/api/tables/{tid}").json()["phase"] == "finished":
                return True
            move_clock(client, clock, 1, tid)
            return False

        eventually(finished)
        assert verify_text(client.get(f"/api/tables/{tid}/record").text, "e.json")[0] == 0


def test_a_timer_is_woken_on_the_servers_loop_only(tmp_path: Path) -> None:
    """Set from another thread, the timer's event would wake nobody until the loop woke
    for something else (an idle server: the timer's old deadline, 30 s on)."""
    with serving(tmp_path, Clock()) as client:
        tid = create(client)["id"]
        with pytest.raises(RuntimeError, match="event loop"):
            hub_of(client).wake(tid)
        move_clock(client, Clock(), 0, tid)  # through the portal: fine
