"""Requests a client may send again: the key that makes a retry answer as the first did.

A client that sends a create, a join, a start (or seats a bot, or frees a seat) and
hears nothing back (the process it asked died, the network dropped the answer) sends
it again, with the same ``RequestKey``, perhaps to another process. The table keeps the
key's digest in its journal with the change it made, so a retry finds the change stored,
wherever and whenever it comes, and is answered as the first was, changing nothing. A
join or a create must answer with a token again, which the table keeps only hashed: the
token is also kept sealed with the key (``seal``), which only the client holds. A
decision needs no key: it carries the version it answered (``Table.act``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import NewType

# A key as the client chose it: 16 to 64 characters of the URL-safe alphabet. Random
# (the browser draws 128 bits): it unseals the token a retried join or create answers
# with, so it is as secret as that token.
RequestKey = NewType("RequestKey", str)
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}", re.ASCII)
KEY_MIN, KEY_MAX = 16, 64
# Host requests (seat a bot, free a seat, start) whose keys a table keeps, the latest:
# a retry comes within seconds, so a few suffice, and a journal's entries stay small.
KEPT = 32


def parse_key(value: object) -> RequestKey | None:
    """``value`` as a request key, or None if it is not one."""
    if isinstance(value, str) and KEY.fullmatch(value) is not None:
        return RequestKey(value)
    return None


def digest(key: RequestKey) -> str:
    """What the journal keeps to know a retry: the key's digest, never the key."""
    return hashlib.sha256(b"gnav request " + key.encode()).hexdigest()


def same(key: RequestKey, stored: object) -> bool:
    return isinstance(stored, str) and hmac.compare_digest(digest(key), stored)


def _pad(key: RequestKey, size: int) -> bytes:
    return hashlib.shake_256(b"gnav seal " + key.encode()).digest(size)


def seal(token: str, key: RequestKey) -> str:
    """``token`` (ASCII) sealed with ``key``: hex that only the key opens again."""
    raw = token.encode("ascii")
    return bytes(a ^ b for a, b in zip(raw, _pad(key, len(raw)), strict=True)).hex()


def unseal(sealed: str, key: RequestKey) -> str:
    """The token ``seal`` sealed with ``key`` (another key opens it to noise, never to
    an error: the caller has checked the key's digest already)."""
    raw = bytes.fromhex(sealed)
    opened = bytes(a ^ b for a, b in zip(raw, _pad(key, len(raw)), strict=True))
    return opened.decode("latin-1")
