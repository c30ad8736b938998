"""The load client's end of play (``tools/loadclient``): once play is over no seat acts
again, the acts in flight are waited for before any socket closes, and an update that
comes while a seat still thinks is no act's latency."""

from __future__ import annotations

import asyncio
from typing import Any

from loadclient.client import Game, SeatClient
from loadclient.run import LoadTest, Options
from loadclient.stats import Stats


class Socket:
    """What the client writes, kept."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)


def seat(stats: Stats) -> SeatClient:
    return SeatClient("p1", Game(lambda _: None), lambda view: "stand", stats, None)


def update(version: int) -> str:
    return f'{{"type":"update","version":{version},"view":{{}}}}'


def test_an_act_answered_counts_its_latency_once() -> None:
    stats = Stats()
    client, ws = seat(stats), Socket()
    client.pending = 4
    asyncio.run(client._send(ws, "act"))  # type: ignore[arg-type]
    assert ws.sent == ["act"] and stats.in_flight == 1 and stats.acts == 1
    client.take(update(5))
    client.take(update(6))
    assert len(stats.latencies) == 1 and stats.in_flight == 0


def test_an_update_while_the_seat_thinks_is_no_latency() -> None:
    stats = Stats()
    client = seat(stats)
    client.pending = 4  # decided, not yet sent: still thinking
    client.take(update(5))
    assert stats.latencies == [] and stats.in_flight == 0


def test_no_seat_acts_once_play_is_over() -> None:
    stats = Stats()
    client, ws = seat(stats), Socket()
    stats.acting = False
    client.pending = 4
    asyncio.run(client._send(ws, "act"))  # type: ignore[arg-type]
    assert ws.sent == [] and stats.acts == 0 and client.pending == -1


def test_the_end_of_play_waits_for_the_acts_in_flight() -> None:
    options = Options(urls=("http://127.0.0.1:1",), tables=1, seats=2, humans=2, lives=None,
                      preset="gnav", bot="random", concurrency=1, duration=1.0, matches=1,
                      timeout=10.0, seed=1, deflate=False, think=0.0)
    test = LoadTest(options, None)
    client, ws = seat(test.stats), Socket()
    client.pending = 4

    async def play() -> dict[str, Any]:
        await client._send(ws, "act")  # type: ignore[arg-type]
        drained = asyncio.create_task(test._drain())
        await asyncio.sleep(0)
        assert not drained.done()  # still waiting for the act in flight
        client.take(update(5))
        await asyncio.wait_for(drained, 30)
        return {"unanswered": test.stats.unanswered, "latencies": len(test.stats.latencies)}

    assert asyncio.run(play()) == {"unanswered": 0, "latencies": 1}
