"""The puzzles as the browser reads them, one at a time: the shipped file
(``gnav.learn.puzzles``, made by tools/ship_puzzles.py), read once, and the puzzle of the
day (the same for everyone on a day, UTC)."""

from __future__ import annotations

import datetime as dt
import json
from functools import cache
from typing import Any

from gnav.errors import MalformedError
from gnav.learn.puzzles import load

EPOCH = dt.date(2026, 1, 1)  # the first puzzle of the day


@cache
def _shipped() -> tuple[dict[str, Any], ...]:
    return tuple(load()["puzzles"])


@cache
def _texts() -> tuple[str, ...]:
    return tuple(json.dumps(p, ensure_ascii=False, separators=(",", ":")) for p in _shipped())


def day_index(today: dt.date) -> int:
    """The puzzle of ``today``: one after another, round again once all have come."""
    return (today - EPOCH).days % len(_shipped())


def index_json(today: dt.date) -> dict[str, Any]:
    """How many puzzles there are, and which is today's."""
    return {"count": len(_shipped()), "day": day_index(today), "date": today.isoformat()}


def puzzle_text(number: int) -> str:
    """Puzzle ``number`` (from 0) as JSON text.

    :raises: :exc:`MalformedError` for a number there is no puzzle for.
    """
    if not 0 <= number < len(_shipped()):
        raise MalformedError(f"no puzzle {number}: there are {len(_shipped())} "
                             f"(0 to {len(_shipped()) - 1})")
    return _texts()[number]
