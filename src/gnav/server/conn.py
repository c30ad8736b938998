"""One socket's side of the hub: its seat, its token, and the texts queued for it.

The hub queues (never awaits) so that one slow client cannot hold up a table; a client
that falls too far behind is cut off and catches up by reconnecting with its version.
How far is counted in bytes, not messages: a snapshot of a 41-seat table weighs as
much as a hundred small updates, and what a socket that never reads costs is its bytes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from gnav.server.wire import CLOSE_SLOW


@dataclass(eq=False)
class Conn:
    """One WebSocket: its seat (None: a spectator) and the texts waiting to be sent,
    at most ``backlog`` bytes of them (characters: the texts are JSON, ASCII)."""

    table_id: str
    seat: int | None
    token: str | None
    backlog: int
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    queued: int = 0  # the bytes waiting in ``queue``
    closed: bool = False
    close_code: int = 1000
    close_reason: str = ""
    # Relayed: another server owns the table (``gnav.server.cluster``); its id for this
    # socket there. Actions go to that server, its messages come back through this one.
    via: str | None = None
    cid: str = ""

    @property
    def relayed_to(self) -> str | None:
        """The process that holds this socket, if not this one (``RemoteConn``): the
        table's messages for it go there once for all its sockets there."""
        return None

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queued + len(text) > self.backlog and self.queued:
            self.close(CLOSE_SLOW, "too far behind: reconnect with your last version",
                       drop=True)
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    async def take(self) -> str | None:
        """The next text to send (None: close now)."""
        text = await self.queue.get()
        if text is not None:
            self.queued -= len(text)
        return text

    def joined(self) -> None:
        """The table has put this socket among its connections (its catch-up sent)."""

    def close(self, code: int, reason: str, *, drop: bool = False) -> None:
        """Send what is queued (unless ``drop``), then close with ``code``."""
        if self.closed:
            return
        self.closed, self.close_code, self.close_reason = True, code, reason
        while drop and not self.queue.empty():
            self.queue.get_nowait()
        if drop:
            self.queued = 0
        self.queue.put_nowait(None)


class Elsewhere(Exception):
    """The table is owned by another server process (``owner``): ask that one."""

    def __init__(self, owner: str) -> None:
        super().__init__(f"the table is held by {owner}")
        self.owner = owner


class Unanswered(Exception):
    """The owner did not answer in time (it may have died: its lease will tell)."""
