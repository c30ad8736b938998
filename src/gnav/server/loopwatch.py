"""How late the server's event loop runs, and what the garbage collector costs it:
measured in the server itself, for ``/health``, so that a load test's latencies can be
told apart from the load client's own delays (issue 27 §5); and, for ``gnav serve``,
the collector kept to short pauses.

A task asks to wake every ``TICK`` seconds and keeps how late it woke (the last
``KEEP`` samples, about a minute); ``gc.callbacks`` time every collection. Both are
cheap: a hundred wakes a second, and two clock reads a collection.

With ``freeze_survivors``, what survives a collection of the youngest generation is
frozen (``gc.freeze``) at the watch's next wake, so the older generations stay empty
and no collection walks the tables' long-lived state again. Measured at 1,000 tables x
6 seats at people's pace on one process: 27 collections took 1.7 to 2.0 s of pauses in
a run, the longest a walk of the middle generation (0.66 to 0.92 s), and together they
freed 712 objects. The cost is that a cycle made of objects already frozen is never
freed: the young cycles (most of what the collector found) are still collected.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections import deque
from typing import Any

TICK = 0.01
KEEP = 6000


class LoopWatch:
    def __init__(self, *, freeze_survivors: bool = False) -> None:
        self.freeze_survivors = freeze_survivors
        self._young_done = False  # a young collection ended: freeze at the next wake
        self.freezes = 0
        self.late: deque[float] = deque(maxlen=KEEP)
        self.late_max = 0.0
        self.gc_count = 0
        self.gc_seconds = 0.0
        self.gc_max = 0.0
        # By generation: collections, total and longest seconds, objects freed.
        self.gc_by: list[list[float]] = [[0, 0.0, 0.0, 0] for _ in range(3)]
        self._gc_start = 0.0
        self._task: asyncio.Task[None] | None = None

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            return
        took = time.perf_counter() - self._gc_start
        self.gc_count += 1
        self.gc_seconds += took
        self.gc_max = max(self.gc_max, took)
        by = self.gc_by[min(2, int(info.get("generation", 2)))]
        by[0] += 1
        by[1] += took
        by[2] = max(by[2], took)
        by[3] += int(info.get("collected", 0))
        if info.get("generation") == 0:
            # Not gc.freeze() here: the collector is still running its callbacks.
            self._young_done = True

    async def _watch(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(TICK)
            late = max(0.0, time.perf_counter() - asked - TICK)
            self.late.append(late)
            self.late_max = max(self.late_max, late)
            if self._young_done and self.freeze_survivors:
                self._young_done = False
                gc.freeze()  # O(1): the generations' lists joined to the frozen one
                self.freezes += 1

    def start(self) -> None:
        gc.callbacks.append(self._gc)
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def stats(self) -> dict[str, Any]:
        """The loop's lateness over the last minute or so (p50, p99) and since start
        (max), and the collector's collections, their total and longest, in ms."""
        ordered = sorted(self.late)

        def at(p: float) -> float:
            return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2) \
                if ordered else 0.0

        return {"loop_late_ms": {"p50": at(0.50), "p99": at(0.99),
                                 "max": round(1000 * self.late_max, 2)},
                "gc": {"collections": self.gc_count, "freezes": self.freezes,
                       "frozen": gc.get_freeze_count(),
                       "ms": round(1000 * self.gc_seconds, 2),
                       "longest_ms": round(1000 * self.gc_max, 2),
                       "by_generation": [
                           {"collections": int(n), "ms": round(1000 * t, 2),
                            "longest_ms": round(1000 * m, 2), "freed": int(f)}
                           for n, t, m, f in self.gc_by]}}
