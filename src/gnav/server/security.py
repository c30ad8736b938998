"""Who may do what, and how often: origins, bearer tokens, invite codes, rate limits.

Seat and host tokens are checked by the table itself (hashed, compared in constant
time); this module holds what only the transport knows about.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Callable, Mapping

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{6,32}")


# Table ids are read aloud and typed from screens: no I, l, 1, O, o or 0 to mistake.
TABLE_ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"
TABLE_ID_LENGTH = 11  # 11 of 56 letters: 63.9 random bits


def new_table_id() -> str:
    # About 64 random bits: an unlisted table is found only through its links.
    return "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))


def valid_table_id(text: str) -> bool:
    return TABLE_ID.fullmatch(text) is not None


def invite_code(host_digest: str) -> str:
    """The code an invite link carries. Derived from the (secret, stored) digest of the
    host token, so it survives restarts without being stored, and only the host (who
    can ask the server for it) and the people it was given to know it."""
    key = host_digest.encode()
    return hmac.new(key, b"gnav invite", hashlib.sha256).hexdigest()[:24]


def check_invite(given: object, host_digest: str) -> bool:
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(given.encode(), invite_code(host_digest).encode())


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def name_problem(name: object) -> str | None:
    """Why a seat name would be unsafe to show other people, if it would: control
    characters and bidi overrides can garble or disguise what others read."""
    if not isinstance(name, str):
        return None  # the table says what a name must be
    for char in name:
        if unicodedata.category(char) == "Cc" and char not in "\t\n\r":
            return f"a name may not hold the control character U+{ord(char):04X}"
        if char in BIDI_CONTROLS:
            return f"a name may not hold the direction override U+{ord(char):04X}"
    return None


def bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, if there is one."""
    value = headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def origin_allowed(origin: str | None, allowed: frozenset[str]) -> bool:
    """Browsers always send Origin on a WebSocket; other clients may leave it out (they
    are not a cross-site page riding on someone's session, so they may connect)."""
    if origin is None:
        return True
    return origin.strip().rstrip("/").lower() in allowed


class TokenBucket:
    """``rate`` per second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token."""
        self._refill()
        return max(0.0, (1 - self.tokens) / self.rate)

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class PerKey:
    """A bucket for each key (a client IP); full buckets are forgotten, so the map only
    holds clients that have been busy lately."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float],
                 keep: int = 10000) -> None:
        self.rate, self.burst, self.clock, self.keep = rate, burst, clock, keep
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float | None:
        """None if ``key`` may go ahead, else the seconds to wait."""
        if len(self.buckets) >= self.keep:
            self.buckets = {k: b for k, b in self.buckets.items() if not b.full}
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return None if bucket.take() else bucket.wait()


class Flood:
    """A connection's message budget: beyond it each message is refused; a client that
    keeps sending through the refusals is cut off."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.bucket = TokenBucket(rate, burst, clock)
        self.limit = burst
        self.refused = 0

    def check(self) -> str:
        """"ok", "refuse" (answer with an error) or "close" (a flood)."""
        if self.bucket.take():
            self.refused = 0
            return "ok"
        self.refused += 1
        return "close" if self.refused > self.limit else "refuse"
