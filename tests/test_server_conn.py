"""A socket's backlog is bounded in bytes: a client that does not read is cut off once
what waits for it passes the bound, however few or many messages that is."""

from __future__ import annotations

import asyncio

from gnav.server.conn import Conn
from gnav.server.wire import CLOSE_SLOW


def test_the_backlog_is_counted_in_bytes() -> None:
    async def go() -> None:
        conn = Conn("tableid1", None, None, 1000)
        for _ in range(3):
            conn.send("x" * 300)
        assert not conn.closed and conn.queued == 900
        assert await conn.take() == "x" * 300  # what was sent no longer counts
        assert conn.queued == 600
        conn.send("y" * 400)
        assert not conn.closed and conn.queued == 1000
        conn.send("z")  # one byte over
        assert conn.closed and conn.close_code == CLOSE_SLOW
        assert conn.queued == 0 and await conn.take() is None  # dropped, then the close

        many = Conn("tableid1", None, None, 1000)
        for _ in range(500):  # many small messages fit where three big ones do not
            many.send("ab")
        assert not many.closed and many.queue.qsize() == 500

        big = Conn("tableid1", 0, None, 1000)
        big.send("s" * 5000)  # a message bigger than the bound still goes, alone
        assert not big.closed
        big.send("u")
        assert big.closed

    asyncio.run(go())
