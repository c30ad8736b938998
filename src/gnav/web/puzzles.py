"""The puzzles as the browser reads them, one at a time: the shipped file
(``gnav.learn.puzzles``, made by tools/ship_puzzles.py), read once, then those the server
has cut from its own finished listed matches where the host asked for them (``gnav serve
--grow-puzzles FILE``: read again when the file changes); and the puzzle of the day (the
same for everyone on a day, UTC)."""

from __future__ import annotations

import datetime as dt
import json
from functools import cache
from pathlib import Path
from typing import Any

from gnav.errors import MalformedError
from gnav.learn.puzzles import load, read_grown

EPOCH = dt.date(2026, 1, 1)  # the first puzzle of the day


@cache
def _shipped() -> tuple[dict[str, Any], ...]:
    return tuple(load()["puzzles"])


def _served(p: dict[str, Any]) -> str:
    """A puzzle as the page gets it: without the match it was cut from (a table's id
    would lead to its record, and so to the pieces the deciding seat could not see)."""
    return json.dumps({k: v for k, v in p.items() if k != "from"}, ensure_ascii=False,
                      separators=(",", ":"))


@cache
def _texts() -> tuple[str, ...]:
    return tuple(_served(p) for p in _shipped())


_grown: dict[str, tuple[tuple[int, int], tuple[str, ...]]] = {}  # path -> (stat, texts)


def _grown_texts(path: str | None) -> tuple[str, ...]:
    """The grown puzzles of ``path`` that the shipped ones do not hold, as JSON text;
    read again only when the file's size or time changes."""
    if not path:
        return ()
    try:
        st = Path(path).stat()
    except OSError:
        return ()
    stamp = (st.st_size, st.st_mtime_ns)
    known = _grown.get(path)
    if known is None or known[0] != stamp:
        shipped = {p["id"] for p in _shipped()}
        texts = tuple(_served(p) for p in read_grown(Path(path)) if p["id"] not in shipped)
        _grown[path] = known = (stamp, texts)
    return known[1]


def day_index(today: dt.date) -> int:
    """The puzzle of ``today``: one after another among the shipped ones, round again
    once all have come (the same day for everyone, whatever a server has grown)."""
    return (today - EPOCH).days % len(_shipped())


def index_json(today: dt.date, grown: str | None = None) -> dict[str, Any]:
    """How many puzzles there are (``grown``: the server's own file, after the shipped
    ones), and which is today's."""
    extra = len(_grown_texts(grown))
    return {"count": len(_shipped()) + extra, "grown": extra, "day": day_index(today),
            "date": today.isoformat()}


def puzzle_text(number: int, grown: str | None = None) -> str:
    """Puzzle ``number`` (from 0: the shipped ones, then ``grown``'s) as JSON text.

    :raises: :exc:`MalformedError` for a number there is no puzzle for.
    """
    texts = _texts() + _grown_texts(grown)
    if not 0 <= number < len(texts):
        raise MalformedError(f"no puzzle {number}: there are {len(texts)} "
                             f"(0 to {len(texts) - 1})")
    return texts[number]
