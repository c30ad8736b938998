"""One socket's side of the hub: its seat, its token, and the texts queued for it.

The hub queues (never awaits) so that one slow client cannot hold up a table; a client
that falls too far behind is cut off and catches up by reconnecting with its version.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from gnav.server.wire import CLOSE_SLOW


@dataclass(eq=False)
class Conn:
    """One WebSocket: its seat (None: a spectator) and the texts waiting to be sent."""

    table_id: str
    seat: int | None
    token: str | None
    backlog: int
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    close_code: int = 1000
    close_reason: str = ""
    # Relayed: another server owns the table (``gnav.server.cluster``); its id for this
    # socket there. Actions go to that server, its messages come back through this one.
    via: str | None = None
    cid: str = ""

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.backlog:
            self.close(CLOSE_SLOW, "too far behind: reconnect with your last version",
                       drop=True)
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str, *, drop: bool = False) -> None:
        """Send what is queued (unless ``drop``), then close with ``code``."""
        if self.closed:
            return
        self.closed, self.close_code, self.close_reason = True, code, reason
        while drop and not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


class Elsewhere(Exception):
    """The table is owned by another server process (``owner``): ask that one."""

    def __init__(self, owner: str) -> None:
        super().__init__(f"the table is held by {owner}")
        self.owner = owner


class Unanswered(Exception):
    """The owner did not answer in time (it may have died: its lease will tell)."""
