"""One seat's WebSocket: hello, then act from its own view whenever it is its turn.

Cheap on purpose, so the server gets the CPU: a message is matched on its head (type
and version) and searched for the seat's ``"to_act"``; only a message that may call
for an action, or that may end the match, is parsed as JSON.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from random import Random
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from gnav.loadtest.stats import Stats
from gnav.vocab import TablePhase

Policy = Callable[[dict[str, Any]], str]
HEAD = re.compile(r'\{"type":"(\w+)","version":(\d+)')

# A message that may end a match names the phase; the others are not parsed for it.
_FINISHED = f'"{TablePhase.FINISHED}"'


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

    __slots__ = ("broken", "finished", "on_finish")

    def __init__(self, on_finish: Callable[[int], None]) -> None:
        self.finished = 0  # the table's game count at the last match end seen
        self.broken = False
        self.on_finish = on_finish

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
    __slots__ = ("acted", "closing", "game", "marker", "name", "pending", "policy", "sent",
                 "stats", "think", "ws")

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
        self.closing = False

    async def open(self, url: str, seat: int, token: str, *, deflate: bool,
                   timeout: float) -> None:
        """Connect, say hello and take the first message (the snapshot)."""
        self.ws = ws = await connect(url, compression="deflate" if deflate else None,
                                     proxy=None, ping_interval=None, open_timeout=timeout,
                                     close_timeout=5, max_size=2**20)
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token,
                                  "since": None}))
        first = await ws.recv(decode=True)
        self.stats.sockets += 1
        action = self.take(first) if isinstance(first, str) else None
        if action is not None:
            await self._send(ws, action)

    async def run(self) -> None:
        """Read and act until the socket closes."""
        ws = self.ws
        if ws is None:
            return
        take = self.take
        try:
            async for text in ws:
                if isinstance(text, str):
                    action = take(text)
                    if action is not None:
                        await self._send(ws, action)
        except ConnectionClosed:
            pass
        if not self.closing:
            rcvd = ws.close_code
            self.stats.error(f"closed_{rcvd}" if rcvd is not None else "closed")
            self.game.lost()

    async def _send(self, ws: ClientConnection, action: str) -> None:
        """Send an act (after thinking, if this seat thinks); its latency runs from
        here."""
        if self.think is not None:
            await asyncio.sleep(self.think())
        self.sent = time.perf_counter()
        await ws.send(action)

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()

    def take(self, text: str) -> str | None:
        """Handle one message; the act to send, if it is this seat's turn."""
        stats = self.stats
        stats.messages += 1
        head = HEAD.match(text)
        if head is None:  # an error, a pong, or a layout this client does not expect
            return self._slow(text)
        version = int(head.group(2))
        if self.pending >= 0 and version > self.pending:
            stats.latencies.append(time.perf_counter() - self.sent)
            self.pending = -1
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
        self.stats.acts += 1
        return f'{{"type":"act","action":"{action}","version":{version}}}'

    def _slow(self, text: str) -> str | None:
        try:
            message = json.loads(text)
        except ValueError:
            self.stats.error("bad_message")
            return None
        if not isinstance(message, dict):
            self.stats.error("bad_message")
            return None
        kind = message.get("type")
        if kind == "error":
            self.stats.error(str(message.get("code")))
            self.pending = -1  # a refused act gets no update of its own
            return None
        version = message.get("version")
        if kind in ("snapshot", "update", "table") and isinstance(version, int):
            # Another key order than the server's usual: take the careful road.
            if self.pending >= 0 and version > self.pending:
                self.stats.latencies.append(time.perf_counter() - self.sent)
                self.pending = -1
            table = message.get("table")
            if isinstance(table, dict):
                self.game.saw(table)
            if version > self.acted:
                return self._act(message, version)
        return None
