"""Compact JSON text for everything the server writes often: its messages, journal
entries, lobby lines, and the messages between its processes.

orjson (the ``[server]`` extra installs it) writes exactly what the standard library's
compact, UTF-8 encoder writes for what the server holds (str keys, strings, ints,
floats, None, bools, lists, dicts; a test holds them equal over a whole match), at
about a tenth of the cost. What it refuses (a lone surrogate from a client's text, an
int over 64 bits) the standard library writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_STDLIB = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

_orjson: Callable[[Any], bytes] | None
try:
    from orjson import dumps as _orjson
except ImportError:  # pragma: no cover - a venv from before the extra had it
    _orjson = None


def dumps(value: Any) -> str:
    """``value`` as compact JSON text, non-ASCII left as it is."""
    if _orjson is not None:
        try:
            return _orjson(value).decode()
        except TypeError:
            pass
    return _STDLIB(value)
