"""gnav.server.loopwatch: the server's own loop lateness and collections, for /health."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

from gnav.server.loopwatch import LoopWatch
from server_kit import serving


def test_a_blocked_loop_shows_as_late_and_a_collection_is_counted() -> None:
    async def scenario() -> dict[str, object]:
        watch = LoopWatch()
        watch.start()
        try:
            # The watch's first wake is asked for, then the loop is held for 80 ms.
            await asyncio.sleep(0)
            time.sleep(0.08)
            gc.collect()
            deadline = time.monotonic() + 30
            while len(watch.late) < 3 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            return watch.stats()
        finally:
            await watch.stop()

    stats = asyncio.run(scenario())
    late = stats["loop_late_ms"]
    assert isinstance(late, dict) and late["max"] >= 60.0  # held 80 ms, asked for 10
    assert late["p50"] <= late["p99"] <= late["max"]
    collected = stats["gc"]
    assert isinstance(collected, dict) and collected["collections"] >= 1
    assert collected["longest_ms"] <= collected["ms"] + 0.01  # each rounded to 0.01 ms
    # gc.collect() is a collection of the oldest generation.
    by = collected["by_generation"]
    assert isinstance(by, list) and by[2]["collections"] >= 1


def test_health_reports_the_loop_and_the_collector(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        health = client.get("/health").json()
    assert set(health["loop_late_ms"]) == {"p50", "p99", "max"}
    assert set(health["gc"]) == {"collections", "freezes", "frozen", "ms", "longest_ms",
                                 "by_generation"}
    assert health["gc"]["freezes"] == 0  # a test's server keeps the collector as it is
    assert len(health["gc"]["by_generation"]) == 3


def test_what_survives_a_young_collection_is_frozen_at_the_next_wake() -> None:
    async def scenario() -> tuple[int, int, int]:
        watch = LoopWatch(freeze_survivors=True)
        watch.start()
        frozen = gc.get_freeze_count()
        kept = [[i] for i in range(100)]  # young survivors
        try:
            gc.collect(0)
            deadline = time.monotonic() + 30
            while watch.freezes == 0 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            return watch.freezes, frozen, gc.get_freeze_count()
        finally:
            await watch.stop()
            gc.unfreeze()  # the test process's collector as it was
            del kept

    freezes, before, after = asyncio.run(scenario())
    assert freezes >= 1
    assert after >= before + 100  # the survivors, at least, went to the frozen generation


def test_without_the_setting_nothing_is_frozen() -> None:
    async def scenario() -> int:
        watch = LoopWatch()
        watch.start()
        try:
            gc.collect(0)
            ticks = len(watch.late)
            deadline = time.monotonic() + 30
            while len(watch.late) < ticks + 3 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            return watch.freezes
        finally:
            await watch.stop()

    assert asyncio.run(scenario()) == 0
