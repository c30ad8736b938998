"""One seat's WebSocket: hello, then act from its own view whenever it is its turn; when
the socket is lost, reconnect as the browser does (a growing pause, the next server when
its own is gone, the last version seen) and go on.

Cheap on purpose, so the server gets the CPU: a message is matched on its head (type
and version) and searched for the seat's ``"to_act"``; only a message that may call
for an action, or that may end the match, is parsed as JSON.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from gnav.errors import Code
from gnav.vocab import TablePhase
from loadclient.failures import Closed, code_of
from loadclient.stats import Stats

Policy = Callable[[dict[str, Any]], str]
HEAD = re.compile(r'\{"type":"(\w+)","version":(\d+)')

# A message that may end a match names the phase; the others are not parsed for it.
_FINISHED = f'"{TablePhase.FINISHED}"'
# Closes after which the browser does not reconnect: the seat was taken by another
# socket, freed by the host, or the table is gone (web/static/js/conn.js).
FINAL_CLOSES = frozenset({4001, 4003, 4004})
RECONNECT_FOR = 60.0  # seconds a seat keeps trying before it counts as lost


def make_policy(kind: str, preset: str, lives: int | None, rng: Random) -> Policy:
    """A decision from a view (JSON): ``random`` (a coin between the legal actions) or
    ``threshold`` (swap a low piece, keep a high one; as the engine's ThresholdBot)."""
    if kind == "random":
        def random_policy(view: dict[str, Any]) -> str:
            legal: list[str] = view["legal"]
            return legal[0] if len(legal) == 1 else rng.choice(legal)
        return random_policy

    from gnav.bots.threshold import default_threshold, threshold_action
    from gnav.rules import Rules

    rules = Rules.of(preset) if lives is None else Rules.of(preset, lives=lives)
    ranks = {piece: i for i, piece in enumerate(rules.ids)}
    threshold = default_threshold(rules)

    def threshold_policy(view: dict[str, Any]) -> str:
        legal: list[str] = view["legal"]
        piece = view.get("piece")
        if len(legal) == 1 or piece not in ranks:
            return legal[0]
        action = threshold_action(rules, ranks[piece], threshold)
        return action if action in legal else legal[0]

    return threshold_policy


class Game:
    """What the seats of one table share: the matches they have seen end, and whether
    a seat's socket was lost (the match cannot end then: nobody plays that seat)."""

    __slots__ = ("broken", "finished", "last_message", "live", "on_finish")

    def __init__(self, on_finish: Callable[[int], None]) -> None:
        self.finished = 0  # the table's game count at the last match end seen
        self.broken = False
        self.on_finish = on_finish
        self.last_message = 0.0  # when any of its seats last heard from the server
        self.live = False  # started: a silence from now on is a pause the table saw

    def lost(self) -> None:
        self.broken = True
        self.on_finish(-1)  # -1: no match ended, but whoever waits for one must look

    def saw(self, table: dict[str, Any]) -> None:
        if table.get("phase") == TablePhase.FINISHED:
            games = int(table.get("games", 0))
            if games > self.finished:
                self.finished = games
                self.on_finish(games)


class SeatClient:
    __slots__ = ("acted", "closing", "deflate", "flying", "game", "marker", "name", "pending",
                 "policy", "seat", "seen", "sent", "stats", "think", "token", "url", "urls",
                 "ws")

    def __init__(self, name: str, game: Game, policy: Policy, stats: Stats,
                 think: Callable[[], float] | None = None) -> None:
        self.name = name
        self.think = think  # seconds to wait before each act (None: act at once)
        self.marker = f'"to_act":{json.dumps(name)}'
        self.game = game
        self.policy = policy
        self.stats = stats
        self.ws: ClientConnection | None = None
        self.acted = -1  # the last version this seat answered
        self.pending = -1  # the version an unanswered act answered (-1: none)
        self.sent = 0.0
        self.flying = False  # an act sent and not yet answered (``Stats.in_flight``)
        self.closing = False
        self.seen: int | None = None  # the last version received (a reconnection's since)
        self.urls: Sequence[str] = ()
        self.url = 0
        self.seat, self.token, self.deflate = 0, "", False

    async def open(self, urls: Sequence[str], first: int, seat: int, token: str, *,
                   deflate: bool, timeout: float) -> None:
        """Connect to ``urls[first]`` (a table's socket URL on each server), say hello
        and take the first message (the snapshot)."""
        self.urls, self.url, self.seat, self.token = urls, first, seat, token
        self.deflate = deflate
        await self._connect(timeout)
        self.stats.sockets += 1

    async def _connect(self, timeout: float) -> None:
        self.ws = ws = await connect(self.urls[self.url % len(self.urls)],
                                     compression="deflate" if self.deflate else None,
                                     proxy=None, ping_interval=None, open_timeout=timeout,
                                     close_timeout=5, max_size=2**20)
        if self.seen is None:  # the first hello: a snapshot comes, perhaps our turn
            await ws.send(json.dumps({"type": "hello", "seat": self.seat,
                                      "token": self.token, "since": None}))
            first = await ws.recv(decode=True)
            action = self.take(first) if isinstance(first, str) else None
            if action is not None:
                await self._send(ws, action)
            return
        # Back after a loss: from the last version seen. The server sends what was
        # missed, or (nothing missed) a snapshot of where the table stands, so a seat
        # whose act was lost with a server sees its turn again; then a ping: only once
        # the pong says the catch-up is over does the seat answer, and only the latest
        # state (an older one is stale).
        await ws.send(json.dumps({"type": "hello", "seat": self.seat, "token": self.token,
                                  "since": self.seen}))
        await ws.send('{"type":"ping"}')
        action, latest = None, -1
        async for text in ws:
            if not isinstance(text, str):
                continue
            if text.startswith('{"type":"pong"'):
                break
            answer = self.take(text)
            head = HEAD.match(text)
            if head is not None and int(head.group(2)) > latest:
                action, latest = answer, int(head.group(2))
        self._landed()
        if action is not None:
            await self._send(ws, action)

    async def run(self) -> None:
        """Read and act until the socket closes; reconnect as the browser does, until
        the client is closed or a seat cannot get back within ``RECONNECT_FOR``."""
        take = self.take
        while True:
            ws = self.ws
            if ws is None:
                return
            try:
                async for text in ws:
                    if isinstance(text, str):
                        action = take(text)
                        if action is not None:
                            await self._send(ws, action)
            except ConnectionClosed:
                pass
            if self.closing:
                return
            rcvd = ws.close_code
            if rcvd in FINAL_CLOSES or not await self._reconnect():
                self.stats.error(Closed(rcvd))
                self.game.lost()
                return

    async def _reconnect(self) -> bool:
        """Open the seat's socket again, as the browser does: after 0.5, 1, 2, 4 ...
        seconds (to 5 s, with a little jitter), to the next server when its own is gone,
        saying the last version it saw."""
        lost = time.perf_counter()
        attempt = 0
        while time.perf_counter() - lost < RECONNECT_FOR and not self.closing:
            base = min(5.0, 0.5 * 2 ** attempt)
            await asyncio.sleep(base * (1 + 0.3 * (hash((self.name, attempt)) % 100) / 100))
            attempt += 1
            # An act sent before the loss may never have been stored: whatever the
            # server now says is this seat's turn, from the last version seen on, is
            # answered again (as the browser answers the view it is shown).
            self.acted = min(self.acted, (self.seen or 0) - 1)
            self._landed()  # lost with the socket: no latency to measure
            try:
                await self._connect(10.0)
            except (OSError, TimeoutError, ConnectionClosed) as e:
                if not isinstance(e, ConnectionClosed) or e.rcvd is None \
                        or e.rcvd.code not in FINAL_CLOSES:
                    self.url += 1  # that server is gone, or busy: the next one
                    continue
                return False
            except Exception:  # a refused handshake (the server is shutting down)
                self.url += 1
                continue
            self.stats.reconnects += 1
            return True
        return False

    async def _send(self, ws: ClientConnection, action: str) -> None:
        """Send an act (after thinking, if this seat thinks); its latency runs from
        here."""
        if self.think is not None:
            await asyncio.sleep(self.think())
        stats = self.stats
        if not stats.acting:  # play is over: the run waits for what flies, sends no more
            self.pending = -1
            return
        self.sent = time.perf_counter()
        stats.acts += 1
        if not self.flying:
            self.flying = True
            stats.in_flight += 1
        await ws.send(action)

    def _landed(self) -> None:
        """The act in flight was answered (its update, or a refusal) or given up."""
        self.pending = -1
        if self.flying:
            self.flying = False
            self.stats.in_flight -= 1

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()

    def take(self, text: str) -> str | None:
        """Handle one message; the act to send, if it is this seat's turn."""
        stats = self.stats
        stats.messages += 1
        game, now = self.game, time.perf_counter()
        if game.live and now - game.last_message > stats.longest_pause:
            stats.longest_pause = now - game.last_message
        game.last_message = now
        head = HEAD.match(text)
        if head is None:  # an error, a pong, or a layout this client does not expect
            return self._slow(text)
        version = int(head.group(2))
        self.seen = version
        if self.pending >= 0 and version > self.pending:
            if self.flying:  # not an update that came while this seat still thought
                stats.latencies.append(time.perf_counter() - self.sent)
            self._landed()
        if _FINISHED in text:
            message = json.loads(text)
            table = message.get("table")
            if isinstance(table, dict):
                self.game.saw(table)
            return None
        if version <= self.acted or self.marker not in text:
            return None
        return self._act(json.loads(text), version)

    def _act(self, message: dict[str, Any], version: int) -> str | None:
        view, table = message.get("view"), message.get("table")
        if not isinstance(view, dict) or not isinstance(table, dict):
            return None
        if table.get("phase") != TablePhase.PLAYING or view.get("to_act") != self.name \
                or not view.get("legal"):
            return None
        action = self.policy(view)
        self.acted = self.pending = version
        return f'{{"type":"act","action":"{action}","version":{version}}}'

    def _slow(self, text: str) -> str | None:
        try:
            message = json.loads(text)
        except ValueError:
            self.stats.error(Code.BAD_MESSAGE)  # the server's, unreadable here
            return None
        if not isinstance(message, dict):
            self.stats.error(Code.BAD_MESSAGE)  # the server's, unreadable here
            return None
        kind = message.get("type")
        if kind == "error":
            self.stats.error(code_of(message.get("code")))
            self._landed()  # a refused act gets no update of its own
            return None
        version = message.get("version")
        if kind in ("snapshot", "update", "table") and isinstance(version, int):
            self.seen = version
            # Another key order than the server's usual: take the careful road.
            if self.pending >= 0 and version > self.pending:
                if self.flying:
                    self.stats.latencies.append(time.perf_counter() - self.sent)
                self._landed()
            table = message.get("table")
            if isinstance(table, dict):
                self.game.saw(table)
            if version > self.acted:
                return self._act(message, version)
        return None
