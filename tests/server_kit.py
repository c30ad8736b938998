"""Helpers of the server tests (no tests here): an app over a temporary store, a clock
the tests move, and a WebSocket player that works over Starlette's TestClient and over
the ``websockets`` client alike."""

from __future__ import annotations

import json
import random
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Protocol

import httpx
from starlette.applications import Starlette

from gnav.server.app import create_app
from gnav.server.hub import Hub
from gnav.server.settings import Settings
from gnav.server.stores import open_store

# Starlette would rather drive its TestClient with httpx2; httpx still works.
warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient, WebSocketDenialResponse  # noqa: E402

__all__ = ["TestClient", "WebSocketDenialResponse"]

Json = dict[str, Any]
T0 = 1_000_000.0
# Tests play faster than people: the per-connection rate limit would get in the way.
FAST = {"ws_rate": 1e6, "ws_burst": 10**6}
# The longest pause between two looks at a table that is waiting (bots, a timer, a
# takeover): each look pings every socket, and a server with its own limits (20
# messages a second a socket) drops the pings past them, and a dropped ping is never
# answered (measured: sync() timing out after a restart, looking every 2 ms).
PATIENT = 0.1


class Throttle:
    """One socket's own pace, under a ``gnav serve``'s limit on it (``Settings.ws_rate``
    messages a second, bursts of ``ws_burst``): past that limit the server drops a
    message with an error, and a dropped ping is never answered, so ``sync()`` would
    wait for ever (measured: a match played at 60 decisions a second across two
    processes, a sync timing out). Three quarters of the limit, for the server may
    read a few at once after a pause."""

    def __init__(self) -> None:
        self.rate = 0.75 * Settings.ws_rate
        self.burst = 0.75 * Settings.ws_burst
        self.tokens, self.last = self.burst, time.monotonic()

    def wait(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.last = 1.0, time.monotonic()
        self.tokens -= 1


class Clock:
    """The tables' clock, moved by hand (``Hub.wake`` makes the timers look again)."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_app(tmp_path: Path, clock: Callable[[], float] | None = None,
             store: str | None = None, **settings: Any) -> Starlette:
    """An app over the store at URL ``store`` (default: SQLite in ``tmp_path``)."""
    backend = open_store(store or str(tmp_path / "gnav.sqlite3"))
    if clock is None:
        return create_app(Settings(**settings), backend)
    return create_app(Settings(**settings), backend, clock=clock)


@contextmanager
def serving(tmp_path: Path, clock: Callable[[], float] | None = None,
            address: str = "testclient", **settings: Any) -> Iterator[TestClient]:
    """A server over a store in ``tmp_path``; its requests come from ``address``."""
    app = make_app(tmp_path, clock, **{**FAST, **settings})
    with TestClient(app, client=(address, 50000)) as client:
        yield client


# The least a wait is given, whatever its caller names: what takes milliseconds on an
# idle machine took over 5 s at a load of 6 (issue 27: a red run for a test's timing
# costs a whole submission). A wait for an event ends when the event comes.
PATIENCE = 60.0


def eventually(check: Callable[[], bool], seconds: float = PATIENCE) -> None:
    """Wait for what the server does on its own (a socket's goodbye, a timer): at least
    ``PATIENCE`` seconds, or ``seconds`` if longer."""
    end = time.monotonic() + max(seconds, PATIENCE)
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def hub_of(client: TestClient) -> Hub:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert isinstance(hub, Hub)
    return hub


def move_clock(client: TestClient, clock: Clock, seconds: float, tid: str) -> None:
    """Move the tables' clock and make the table's timer look at it. The wake runs on
    the server's loop (its portal): set from this thread, the timer would sleep on
    until its old deadline on a server with nothing else to do."""
    clock.now += seconds
    client.portal.call(hub_of(client).wake, tid)  # type: ignore[union-attr]


def settled(client: TestClient, tid: str, seconds: float = 60.0) -> None:
    """Wait until the table's timer has looked at the (moved) clock and parked till its
    next deadline: only then does "nothing happened" mean the clock made nothing happen
    (a sleep before such an assertion passed or failed with the machine's load)."""
    hub = hub_of(client)
    eventually(lambda: bool(client.portal.call(  # type: ignore[union-attr]
        _parked, hub, tid)), seconds)


async def _parked(hub: Hub, tid: str) -> bool:
    return hub.parked(tid)


def create(client: httpx.Client, **config: Any) -> Json:
    body = {"seats": 4, "bot": "random", "turn_timer": None, "grace": 600,
            "options": {"lives": 2}, **config}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    created: Json = r.json()
    return created


def host(created: Json) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['host_token']}"}


def join(client: httpx.Client, created: Json, name: str) -> Json:
    r = client.post(f"/api/tables/{created['id']}/join",
                    json={"name": name, "invite": created["invite"]})
    assert r.status_code == 201, r.text
    joined: Json = r.json()
    return joined


class Link(Protocol):
    def send(self, message: Json) -> None: ...
    def recv(self) -> Json: ...


class SessionLink:
    """A TestClient WebSocket session."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def send(self, message: Json) -> None:
        self.session.send_text(json.dumps(message))

    def send_raw(self, text: str) -> None:
        self.session.send_text(text)

    def recv(self) -> Json:
        message: Json = self.session.receive_json()
        return message


class Player:
    """One socket at a table: a seat (``name``) or a spectator (``name`` None). Every
    frame it receives is kept, in order."""

    def __init__(self, link: Link, name: str | None = None, seat: int | None = None) -> None:
        self.link = link
        self.name = name
        self.seat = seat
        self.frames: list[Json] = []
        self.errors: list[Json] = []
        self.version: int | None = None
        self.view: Json | None = None
        self.table: Json | None = None

    def take(self, message: Json) -> Json:
        if message["type"] == "error":
            self.errors.append(message)
            return message
        if message["type"] == "pong":
            return message
        self.frames.append(message)
        self.version = message["version"]
        self.table = message["table"]
        if "view" in message:
            self.view = message["view"]
        return message

    def hello(self, token: str | None, since: int | None = None) -> Player:
        self.link.send({"type": "hello", "seat": self.seat, "token": token, "since": since})
        return self.sync()

    def reconnect(self, link: Link, token: str | None) -> Player:
        """A new socket for the same seat, saying the last version this one saw."""
        self.link = link
        return self.hello(token, since=self.version)

    def sync(self) -> Player:
        """Everything the server queued for this socket so far (a ping's pong comes
        after it)."""
        self.link.send({"type": "ping"})
        while self.take(self.link.recv())["type"] != "pong":
            pass
        return self

    def act(self, action: str, version: int | None = None) -> Player:
        self.link.send({"type": "act", "action": action,
                        "version": self.version if version is None else version})
        return self.sync()

    @property
    def my_turn(self) -> bool:
        return (self.table is not None and self.table["phase"] == "playing"
                and self.view is not None and self.view["to_act"] == self.name
                and bool(self.view["legal"]))

    @property
    def phase(self) -> str | None:
        return None if self.table is None else str(self.table["phase"])


def play_out(players: list[Player], rng: random.Random, *, limit: int = 20000,
             between: Callable[[int], None] | None = None) -> int:
    """People choose at random until the match is over; returns the decisions made.
    ``between(n)`` runs before decision n (to disconnect someone, say)."""
    for made in range(limit):
        if between is not None:
            between(made)
        # Bots play in bursts (gnav.table.Pace): the timer may still be playing theirs.
        end = time.monotonic() + 10
        pause = 0.002
        while True:
            for p in players:
                p.sync()
            if players[0].phase == "finished":
                return made
            movers = [p for p in players if p.my_turn]
            if movers or time.monotonic() > end:
                break
            time.sleep(pause)
            pause = min(PATIENT, pause * 2)
        assert len(movers) == 1, [(p.name, p.view and p.view["to_act"]) for p in players]
        mover = movers[0]
        before = mover.version
        mover.act(rng.choice(mover.view["legal"]) if mover.view else "stand")
        assert not mover.errors, mover.errors
        assert mover.version is not None and before is not None and mover.version > before
    raise AssertionError("the match did not end")


def http_error(r: Any, status: int, code: str) -> str:
    """The one-line reason of an API error with this status and code."""
    assert r.status_code == status, r.text
    body = r.json()["error"]
    assert body["code"] == code, body
    reason: str = body["reason"]
    assert reason and "\n" not in reason
    return reason


class Match:
    """A table in play: two people connected, one spectator, and what it looked like."""

    def __init__(self, client: TestClient, created: Json, players: list[Player],
                 tokens: list[str]) -> None:
        self.client, self.created, self.players, self.tokens = client, created, players, tokens
        self.tid = created["id"]

    def state(self) -> tuple[int, str, list[Any]]:
        info = self.client.get(f"/api/tables/{self.tid}").json()
        return info["version"], info["phase"], info["seats"]

    @property
    def mover(self) -> Player:
        return next(p for p in self.players if p.my_turn)

    @property
    def waiter(self) -> Player:
        return next(p for p in self.players[:2] if not p.my_turn)


@contextmanager
def a_match(tmp_path: Path, clock: Callable[[], float] | None = None,
            table: Json | None = None, **settings: Any) -> Iterator[Match]:
    """Two people connected at a table of three seats, and a spectator, the match
    started (``table``: the table's config, besides the test defaults)."""
    with serving(tmp_path, clock, **settings) as client, ExitStack() as stack:
        created = create(client, **{"seats": 3, **(table or {})})
        tid = created["id"]
        seats = [join(client, created, name) for name in ("Astrid", "Bjørn")]
        links = [SessionLink(stack.enter_context(client.websocket_connect(f"/ws/{tid}")))
                 for _ in range(3)]
        players = [Player(links[0], "Astrid", 0).hello(seats[0]["token"]),
                   Player(links[1], "Bjørn", 1).hello(seats[1]["token"]),
                   Player(links[2]).hello(None)]
        client.post(f"/api/tables/{tid}/start", headers=host(created))
        for p in players:
            p.sync()
        yield Match(client, created, players, [s["token"] for s in seats])


def refused(player: Player, code: str) -> str:
    player.sync()
    assert player.errors, f"expected {code}"
    error = player.errors.pop()
    assert error["code"] == code, error
    assert error["reason"] and "\n" not in error["reason"]
    assert not player.errors
    reason: str = error["reason"]
    return reason
