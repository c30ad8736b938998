"""No frame on the wire holds a piece its recipient may not know.

Many short random matches across the presets, bots and a few people on WebSockets
(some reconnecting mid-match, by catch-up or by snapshot) and a spectator. Every frame
each socket receives is kept, then checked against the stored record: a seat may see
its own dealt and current piece, the pieces of swaps and draws it took part in; anyone
may see matadors revealed by Answer events and the hands of a Showdown. Nothing else
anywhere in a frame may name a piece.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from gnav.presets import PRESETS
from gnav.rules import Rules
from gnav.verify import verify_text
from server_kit import (
    Json,
    Link,
    Player,
    SessionLink,
    TestClient,
    create,
    host,
    join,
    play_out,
    serving,
)

MATCHES = 36
# Where an event may hold a piece, by event type; a piece anywhere else is a leak.
PIECE_FIELDS = {"round_start": {"piece"}, "answer": {"piece"},
                "swap": {"seat_got", "target_got"}, "draw": {"piece", "set_aside"},
                "undo": {"piece"}, "showdown": {"pieces"}, "round_end": {"ended_by"},
                "pay": {"reason"}, "gain": {"reason"}}


@dataclass
class Knowledge:
    """What one recipient has been shown of the current round."""

    me: str | None
    ids: frozenset[str]
    deals: list[dict[str, str]]
    round: int = 0
    own: set[str] = field(default_factory=set)  # pieces it has held this round
    answered: set[str] = field(default_factory=set)
    checks: int = 0  # hidden pieces seen legitimately (the test is not vacuous)

    def names_piece(self, value: object) -> bool:
        return isinstance(value, str) and value in self.ids

    def scan(self, node: object, where: str) -> None:
        """Nothing outside the places checked below may name a piece."""
        if isinstance(node, dict):
            for key, value in node.items():
                self.scan(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                self.scan(value, f"{where}[{i}]")
        else:
            assert not self.names_piece(node), f"{self.me}: a piece at {where}: {node!r}"

    def event(self, e: Json, where: str) -> None:
        kind, me = e["type"], self.me
        allowed = PIECE_FIELDS.get(kind, set())
        for key, value in e.items():
            if key not in allowed:
                self.scan(value, f"{where}.{key}")
        if kind == "round_start":
            self.round, self.own, self.answered = e["round"], set(), set()
            if e["piece"] is not None:
                assert me is not None, f"a spectator was shown a dealt piece at {where}"
                assert e["piece"] == self.deals[e["round"] - 1][me], where
                self.own.add(e["piece"])
                self.checks += 1
        elif kind == "swap" and (e["seat_got"] is not None or e["target_got"] is not None):
            assert me in (e["seat"], e["target"]), f"{me}: someone else's swap at {where}"
            self.own.add(e["seat_got"] if me == e["seat"] else e["target_got"])
            self.checks += 1
        elif kind == "draw" and (e["piece"] is not None or e["set_aside"] is not None):
            assert me == e["seat"], f"{me}: someone else's draw at {where}"
            self.own.add(e["piece"])
            self.checks += 1
        elif kind == "undo" and e["piece"] is not None:
            assert me is not None, f"a spectator was shown a piece at {where}"
            assert e["piece"] == self.deals[self.round - 1][me], where  # back to the deal
            self.own.add(e["piece"])
        elif kind == "answer":
            self.answered.add(e["piece"])

    def frame(self, frame: Json, n: int) -> None:
        where = f"{self.me} frame {n} ({frame['type']} v{frame['version']})"
        view = frame.get("view")
        if view is not None and frame["type"] == "snapshot":
            self.round, self.own, self.answered = view["round"], set(), set()
        rest = {k: v for k, v in frame.items() if k not in ("events", "view")}
        self.scan(rest, where)
        for i, e in enumerate(frame.get("events", [])):
            self.event(e, f"{where}.events[{i}]")
        if view is None:
            return
        for i, e in enumerate(view["events"]):
            self.event(e, f"{where}.view.events[{i}]")
        self.scan({k: v for k, v in view.items() if k not in ("events", "piece", "revealed")},
                  f"{where}.view")
        if view["piece"] is not None:
            assert self.me is not None, f"a spectator was shown a piece at {where}"
            assert view["piece"] in self.own, f"{where}: view.piece {view['piece']!r}"
        for seat, piece in view["revealed"].items():
            assert piece in self.answered, f"{where}: {seat}'s {piece!r} was never revealed"


def check_frames(player: Player, record: Json, ids: frozenset[str]) -> int:
    deals = [r["deal"] for r in record["rounds"]]
    knowledge = Knowledge(player.name, ids, deals)
    for n, frame in enumerate(player.frames):
        knowledge.frame(frame, n)
    return knowledge.checks


def one_match(client: httpx.Client, rng: random.Random,
              open_link: Callable[[str, ExitStack], Link] | None = None
              ) -> tuple[list[Player], Json, Rules]:
    """One random match. ``open_link(table_id, stack)``: a new socket to the table
    (default: the TestClient's own)."""
    if open_link is None:
        assert isinstance(client, TestClient)
        session = client

        def open_link(tid: str, stack: ExitStack) -> Link:
            return SessionLink(stack.enter_context(session.websocket_connect(f"/ws/{tid}")))

    preset = rng.choice(sorted(PRESETS))
    rules = Rules.of(preset)
    seats = rng.randint(max(2, rules.min_seats), min(6, rules.max_seats))
    people = rng.randint(1, min(3, seats))
    bot = rng.choice(["random", "random", "threshold", "counter"])
    created = create(client, preset=preset, seats=seats, bot=bot,
                     options={"lives": rng.randint(1, 2)})
    tid = created["id"]
    joined = [join(client, created, f"P{i + 1}") for i in range(people)]
    with ExitStack() as stack:
        sockets: dict[int, ExitStack] = {}

        def connect(p: Player, token: str | None, since: int | None) -> None:
            sockets[id(p)] = inner = ExitStack()
            stack.callback(inner.close)
            p.link = open_link(tid, inner)
            p.hello(token, since)

        players = [Player(SessionLink(None), j["table"]["seats"][j["seat"]]["name"], j["seat"])
                   for j in joined]
        for p, j in zip(players, joined, strict=True):
            connect(p, j["token"], None)
        watcher = Player(SessionLink(None))
        late = rng.random() < 0.3  # a spectator who comes in mid-match gets a snapshot
        if not late:
            connect(watcher, None, None)
        client.post(f"/api/tables/{tid}/start", headers=host(created))

        def between(n: int) -> None:
            if late and n == 2:
                connect(watcher, None, None)
                everyone.append(watcher)
            if rng.random() < 0.08:  # someone drops and comes back
                i = rng.randrange(len(players))
                sockets[id(players[i])].close()
                since = players[i].version if rng.random() < 0.7 else None
                connect(players[i], joined[i]["token"], since)

        everyone = [*players] + ([] if late else [watcher])
        play_out(everyone, rng, between=between)
        if late and watcher not in everyone:
            connect(watcher, None, None)
        r = client.get(f"/api/tables/{tid}/record")
        assert verify_text(r.text, f"{tid}.json")[0] == 0
        return [*players, watcher], r.json(), rules


def test_no_frame_holds_a_piece_its_recipient_may_not_know(tmp_path: Path) -> None:
    rng = random.Random(20240601)
    checks = frames = 0
    presets: set[str] = set()
    with serving(tmp_path, creates_per_minute=10**6) as client:
        for _ in range(MATCHES):
            players, record, rules = one_match(client, rng)
            ids = frozenset(rules.ids)
            presets.add(rules.preset.name)
            for p in players:
                checks += check_frames(p, record, ids)
                frames += len(p.frames)
    assert len(presets) >= 6
    assert frames > 1000 and checks > 200


def test_the_check_catches_a_leak() -> None:
    ids = frozenset(Rules.of("gnav").ids)
    record = {"rounds": [{"deal": {"A": "cuckoo", "B": "5"}}]}
    start = {"type": "round_start", "round": 1, "dealer": "B", "order": ["A", "B"],
             "stock": 10, "piece": None}
    view: Json = {"round": 1, "piece": None, "revealed": {}, "events": [], "to_act": "A"}

    def frames(*events: Json, piece: str | None = None, **extra: Any) -> list[Json]:
        return [{"type": "update", "version": 1, "table": {"id": "t", **extra},
                 "events": list(events), "view": {**view, "piece": piece}}]

    def caught(name: str | None, fs: list[Json]) -> bool:
        player = Player(SessionLink(None), name)
        player.frames = fs
        try:
            check_frames(player, record, ids)
        except AssertionError:
            return True
        return False

    swap = {"type": "swap", "seat": "A", "target": "B", "seat_got": "5",
            "target_got": "cuckoo"}
    assert not caught("A", frames({**start, "piece": "cuckoo"}, swap, piece="5"))
    assert caught(None, frames({**start, "piece": "cuckoo"}))  # a spectator's deal
    assert caught("B", frames({**start, "piece": "cuckoo"}))  # someone else's deal
    assert caught("C", frames(start, swap))  # someone else's swap
    assert caught("A", frames(start, piece="cuckoo"))  # a piece never held
    assert caught(None, frames(start, note="the cuckoo is at A", hand="cuckoo"))
    assert not caught(None, frames(start, {"type": "answer", "seat": "B", "piece": "cuckoo",
                                           "power": "stop", "asker": "A"}))
