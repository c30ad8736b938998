"""One progress bar for long commands (``gnav simulate``, and the load test).

A single line on a stream, redrawn in place: ``label [####------] done/total (40%, 12 s,
18 s left) extra``. Called as ``bar(done, total)`` it redraws at most ten times a second
(and always at the end), so a caller can report every step.
"""

from __future__ import annotations

import time
from typing import TextIO

REDRAW = 0.1  # seconds between redraws when called as bar(done, total)


class ProgressBar:
    """A one-line bar on ``stream``; ``close`` ends the line if anything was drawn."""

    def __init__(self, stream: TextIO, label: str = "", width: int = 30) -> None:
        self.stream = stream
        self.label = label
        self.width = width
        self.start = time.monotonic()
        self.last = -1.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < REDRAW:
            return
        self.last = now
        self.draw(self.label, done, total)

    def draw(self, label: str, done: int, total: int, extra: str = "",
             width: int | None = None) -> None:
        """Draw the bar now, whatever the time since the last one."""
        width = self.width if width is None else width
        frac = min(1.0, done / total) if total else 1.0
        filled = int(frac * width)
        bar = "#" * filled + "-" * (width - filled)
        elapsed = time.monotonic() - self.start
        eta = f", {elapsed / frac - elapsed:.0f} s left" if 0 < frac < 1 else ""
        tail = f" {extra}" if extra else ""
        self.stream.write(f"\r{label} [{bar}] {done}/{total} "
                          f"({frac:.0%}, {elapsed:.0f} s{eta}){tail}\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
