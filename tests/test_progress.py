"""The progress bar (gnav.tui.progress): what it draws, and how often."""

from __future__ import annotations

import io
import time

import pytest

from gnav.tui.progress import ProgressBar


def test_draws_the_bar_the_count_and_the_share() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, "simulate rounds", width=10)
    bar.draw(bar.label, 4, 10, "2 errors")
    text = out.getvalue()
    assert text.startswith("\rsimulate rounds [####------] 4/10 (40%, ")
    assert "s left" in text and text.endswith(" 2 errors\x1b[K")
    bar.close()
    assert out.getvalue().endswith("\n")


def test_calls_are_throttled_but_the_end_is_always_drawn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    out = io.StringIO()
    bar = ProgressBar(out, "x", width=4)
    bar(1, 4)
    bar(2, 4)  # at once: skipped
    assert out.getvalue().count("\r") == 1
    clock[0] += 0.2
    bar(3, 4)
    bar(4, 4)  # the end, however soon
    assert out.getvalue().count("\r") == 3
    assert "[####] 4/4 (100%" in out.getvalue()


def test_close_without_drawing_writes_nothing_and_a_zero_total_is_full() -> None:
    out = io.StringIO()
    ProgressBar(out).close()
    assert out.getvalue() == ""
    bar = ProgressBar(out, "y", width=2)
    bar.draw("y", 0, 0)
    assert "[##] 0/0 (100%" in out.getvalue()
